"""Every [n] means one paper, everywhere: checked on every answer over a slice of a real corpus.

The store holds 400 ICLR 2017 papers from ../shared/corpus/ml-abstracts.jsonl (plus the
bundled list for the grounding checks); the questions are generated from their TL;DR lines
(assistant/evaluation/generate.py), one-paper and list questions alike. For the offline
answerer the invariant is exact: every claim cited [n] is made of words of paper n's abstract
(its sentences are quoted from it), and the judge finds no claim that another retrieved paper
supports better.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from assistant.answer.factory import build_answerer
from assistant.answer.pipeline import answer
from assistant.citations import Citation
from assistant.evaluation.generate import read_slice, tldr_question
from assistant.evaluation.splits import corpus_part
from assistant.index.store import PaperStore
from assistant.judge.grounding import claims, ground, stems
from assistant.paper import Paper
from assistant.search.retrieval import Retriever
from assistant.settings import load_settings
from assistant.sources.corpus import paper_from_record
from assistant.textutil import split_sentences

SHARED = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "ml-abstracts.jsonl"
pytestmark = pytest.mark.shared
N_PAPERS = 400


@pytest.fixture(scope="module")
def slice_store(tmp_path_factory: pytest.TempPathFactory, embedder):
    rows = [r for r in read_slice(SHARED, [("iclr", 2017)])
            if corpus_part(r) == "dev"][:N_PAPERS]  # CI reads fit-venue dev papers only
    path = tmp_path_factory.mktemp("slice") / "store"
    store = PaperStore(collection="iclr-slice", embedder=embedder, path=path, create=True)
    store.ingest([paper_from_record(r) for r in rows], source="slice")
    return store, rows


def _words_of(paper: Paper) -> set[str]:
    return stems(f"{paper.display_title} {paper.venue} {paper.year} {paper.abstract}")


def _questions(rows: list[dict], n: int, seed: int) -> list[str]:
    qs = [q for r in rows if r.get("tldr") and (q := tldr_question(r["tldr"]))]
    random.Random(seed).shuffle(qs)
    return qs[:n]


def test_every_extractive_claim_is_quoted_from_the_paper_it_cites(slice_store):
    store, rows = slice_store
    retriever = Retriever(store=store)
    answerer = build_answerer(load_settings(), embedder=store.embedder)
    questions = _questions(rows, 40, seed=7)
    # list questions too: their numbering was the other half of the old defect
    questions += [re.sub(r"^Which paper (\w+)", r"Which papers \1", q) for q in questions[:12]]
    answered = 0
    for q in questions:
        result = answer(q, retriever=retriever, answerer=answerer, k=6)
        if result.refused:
            continue
        answered += 1
        by_n = {c.n: c.paper for c in result.citations}
        assert result.grounding is not None
        for said, numbers in (c for s in result.grounding.sentences
                              for c in claims(s.text)):
            for n in numbers:
                extra = stems(said) - _words_of(by_n[n])
                assert not extra, (q, n, by_n[n].title, said, extra)
        summary = result.grounding.summary()
        assert summary["misattributed"] == 0, (q, result.text)
        assert summary["claims"] >= 1
        # the reference list is exactly what the text cites, numbered by first use
        cited = [int(m) for g in re.findall(r"\[(\d+(?:, \d+)*)\]", result.text)
                 for m in g.split(", ")]
        assert sorted(set(cited)) == sorted(by_n) == list(range(1, len(by_n) + 1))
    assert answered >= len(questions) * 0.8


def test_a_claim_cited_to_the_wrong_paper_is_caught(slice_store):
    """Swap the references of real answers: the judge must flag what the swap misattributes."""
    store, rows = slice_store
    retriever = Retriever(store=store)
    answerer = build_answerer(load_settings(), embedder=store.embedder)
    flagged = checked = 0
    for q in _questions(rows, 12, seed=11):
        result = answer(q, retriever=retriever, answerer=answerer, k=6)
        if result.refused or len(result.papers) < 2:
            continue
        cited = result.citations[0].paper
        other = next(rp.paper for rp in result.papers if rp.paper.paper_id != cited.paper_id)
        swapped = [Citation(1, other)] + [c for c in result.citations if c.n != 1]
        g = ground(result.text, swapped, result.papers, embedder=store.embedder)
        on_one = [c for c in g.claims if c.cites == [1]]
        checked += 1
        flagged += any(c.misattributed or c.verdict != "supported" for c in on_one)
        assert all(c.paper_id == other.paper_id for c in on_one)
    assert checked >= 8 and flagged == checked


def test_numbers_a_paper_does_not_state_are_unsupported(bundled_store):
    paper = next(p for p in bundled_store.papers() if "CPMöbius" in p.abstract)
    c = [Citation(1, paper)]
    from assistant.search.retrieval import RetrievedPaper

    retrieved = [RetrievedPaper(paper, 1.0, 1)]
    good = ground("CPMöbius improves overall average accuracy by +4.9 [1].", c, retrieved,
                  embedder=bundled_store.embedder)
    bad = ground("CPMöbius improves overall average accuracy by +7.3 [1].", c, retrieved,
                 embedder=bundled_store.embedder)
    assert good.claims[0].verdict == "supported"
    assert bad.claims[0].verdict == "unsupported" and bad.claims[0].missing_numbers == ["7.3"]


def test_each_side_of_a_comparison_is_found_and_cited(slice_store):
    """'How does A differ from B?' (and the other ways a comparison is asked, the two papers
    side by side among them) over random pairs of real papers: [1] is A, [2] is B, and each
    cited claim is quoted from the paper it cites."""
    store, rows = slice_store
    retriever = Retriever(store=store)
    answerer = build_answerer(load_settings(), embedder=store.embedder)
    rng = random.Random(3)
    forms = ["How does {a} differ from {b}?", "What distinguishes {a} from {b}?",
             "How does {a} relate to {b}?", "Compare {a} with {b}.",
             "I'm comparing {a}, and {b}. What does each claim?",
             "What do these two share: {a}, and {b}?"]
    pairs = [rng.sample(rows, 2) for _ in range(18)]
    confident: list[bool] = []
    for i, (a, b) in enumerate(pairs):
        q = forms[i % len(forms)].format(a=a["title"], b=b["title"])
        result = answer(q, retriever=retriever, answerer=answerer, k=6)
        assert [c.paper.paper_id for c in result.citations[:2]] == [a["uid"], b["uid"]], q
        assert result.grounding is not None and result.grounding.summary()["misattributed"] == 0
        confident.append(result.confident)
    # each side named by its title is sure of its paper: said as the answer, not the closest
    assert sum(confident) >= len(pairs) - 1, confident


def test_a_comparison_is_said_sure_only_when_each_side_is(slice_store):
    """Over comparisons of a paper named by its title with one described by a few words from
    its abstract: an answer unsure of a side's paper says it shows the closest match to each
    side (and ``confident`` is false), and a side cited to another paper is unsure more often
    than a side cited to its own."""
    from assistant.answer.framing import ENGLISH

    store, rows = slice_store
    retriever = Retriever(store=store)
    answerer = build_answerer(load_settings(), embedder=store.embedder)
    rng = random.Random(5)
    unsure = {True: [], False: []}  # by whether both sides' papers are cited right
    for _ in range(24):
        a, b = rng.sample(rows, 2)
        sents = split_sentences(b["abstract"])
        described = " ".join(sents[len(sents) // 2].split()[:10])
        q = f"How does {a['title']} differ from the work where {described}?"
        result = answer(q, retriever=retriever, answerer=answerer, k=6)
        if result.outcome != "answered":
            continue
        heading = result.text.splitlines()[0]
        assert heading == (ENGLISH.side_by_side if result.confident
                           else ENGLISH.side_by_side_closest), q
        right = [c.paper.paper_id for c in result.citations[:2]] == [a["uid"], b["uid"]]
        unsure[right].append(not result.confident)
    assert unsure[False], "no side was cited to another paper: the comparison below is empty"
    assert sum(unsure[False]) / len(unsure[False]) > sum(unsure[True]) / max(1, len(unsure[True]))


def test_comparison_sides():
    from assistant.query.compare import sides

    assert sides("How do the Gumbel-Softmax and the Concrete distribution papers differ?") == [
        "Gumbel-Softmax", "Concrete distribution"]
    assert sides("DyPE vs UniR?") == ["DyPE", "UniR"]
    assert sides("How does IPMark compare with KGW watermarking?") == ["IPMark",
                                                                       "KGW watermarking"]
    assert sides("Which paper proposes DyPE?") is None


def test_three_outcomes_each_keep_their_promise(slice_store):
    """Over in-store TL;DRs, TL;DRs of ICLR 2018 papers the store does not hold, and questions
    from other fields: every outcome occurs, and each says what it is. A near miss names the
    closest papers, cites each for its own sentence, and is not an answer."""
    store, rows = slice_store
    retriever = Retriever(store=store)
    answerer = build_answerer(load_settings(), embedder=store.embedder)
    absent = [r for r in read_slice(SHARED, [("iclr", 2018)]) if corpus_part(r) == "dev"][:200]
    questions = (_questions(rows, 10, seed=5) + _questions(absent, 25, seed=5) +
                 ["What is the best recipe for sourdough bread?",
                  "Who won the 2022 football world cup?",
                  "Which court rulings shaped copyright law for photographs?"])
    seen = set()
    for q in questions:
        result = answer(q, retriever=retriever, answerer=answerer, k=6)
        seen.add(result.outcome)
        data = result.to_dict()
        assert data["outcome"] == result.outcome
        if result.outcome == "answered":
            assert not result.refused and result.citations
        elif result.outcome == "near_miss":
            assert result.refused and result.text.startswith((
                "Nothing in this collection is about", "No paper in this collection introduces"))
            assert 1 <= len(result.citations) <= 3
            assert result.grounding is not None
            assert all(c.verdict == "supported" for c in result.grounding.claims)
        else:
            assert result.refused and not result.citations
    assert seen == {"answered", "near_miss", "refused"}


def test_a_near_miss_goes_to_the_llm_which_may_answer_from_the_closest(slice_store, wire):
    """With an LLM, a near miss's closest papers go to the model (prompts/near_miss.md): a reply
    citing one of them is an answer; a NONE: reply stays a near miss, composed and cited."""
    store, _ = slice_store
    retriever = Retriever(store=store)
    offline = build_answerer(load_settings(), embedder=store.embedder)
    absent = [r for r in read_slice(SHARED, [("iclr", 2018)]) if corpus_part(r) == "dev"][:200]
    near = [q for q in _questions(absent, 25, seed=5)
            if answer(q, retriever=retriever, answerer=offline, ground=False).outcome
            == "near_miss"]
    assert near, "the decision never says near miss here"
    llm = build_answerer(load_settings(base_url=wire.base_url, model="wire-model"),
                         embedder=store.embedder)
    wire.script(["The second source does this [2]."])
    result = answer(near[0], retriever=retriever, answerer=llm)
    sent = wire.chat_requests()[-1]["messages"][-1]["content"]
    assert "None of them clearly matched the question" in sent
    assert result.outcome == "answered" and not result.refused
    assert [c.n for c in result.citations] == [1]
    assert result.citations[0].paper.paper_id == result.papers[1].paper.paper_id
    wire.script(["NONE: they are about other things."])
    again = answer(near[0], retriever=retriever, answerer=llm)
    assert again.outcome == "near_miss" and again.refused and again.citations
    assert again.text.startswith(("Nothing in this collection is about",
                                  "No paper in this collection introduces"))


def test_a_list_names_its_less_sure_papers_after_it_and_flags_them(slice_store):
    """"Which papers ...?": the papers the decision is sure of, then, cited after them and
    flagged ``less_sure``, those it estimates between V_MAYBE and the list's cut-off (never one
    of the list, never one it estimates lower)."""
    from assistant.answer.framing import ENGLISH
    from assistant.judge.relevance import MAYBE_MAX, V_LIST, V_MAYBE

    store, rows = slice_store
    retriever = Retriever(store=store)
    answerer = build_answerer(load_settings(), embedder=store.embedder)
    questions = [re.sub(r"^Which paper (\w+)", r"Which papers \1", q)
                 for q in _questions(rows, 30, seed=5)]
    opening = ENGLISH.less_sure.split("{")[0].strip()
    with_less = 0
    for q in questions:
        result = answer(q, retriever=retriever, answerer=answerer, k=6)
        if result.refused:
            assert not any(c.less_sure for c in result.citations), q
            continue
        estimate = {rp.paper.paper_id: rp.verified for rp in result.papers}
        sure = [c for c in result.citations if not c.less_sure]
        less = [c for c in result.citations if c.less_sure]
        assert sure, q
        assert len(less) <= MAYBE_MAX
        assert not {c.paper.paper_id for c in sure} & {c.paper.paper_id for c in less}, q
        if less:
            with_less += 1
            assert min(c.n for c in less) == max(c.n for c in sure) + 1, q
            line = result.text[result.text.index(opening):]
            assert [int(n) for n in re.findall(r"\[(\d+)\]", line)] == [c.n for c in less], q
            for c in less:
                assert V_MAYBE <= (estimate[c.paper.paper_id] or 0.0) < V_LIST, (q, c)
            flagged = [c["n"] for c in result.to_dict()["citations"] if c["less_sure"]]
            assert flagged == [c.n for c in less]
        else:
            assert opening not in result.text, q
    assert with_less >= 5
    for q in _questions(rows, 10, seed=5):  # "Which paper ...?": one paper, nothing less sure
        result = answer(q, retriever=retriever, answerer=answerer, k=6)
        assert not any(c.less_sure for c in result.citations) and opening not in result.text, q
