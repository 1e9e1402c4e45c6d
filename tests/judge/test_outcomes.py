"""The outcome an answer reports, read from the decision and from an LLM's reply.

- An LLM reply that starts with NONE: (the protocol prompts/system.md defines) is a near miss,
  never shown as an answer; any other reply streams as it comes.
- A near miss goes to the LLM with its closest papers (prompts/near_miss.md): an answer citing
  one of them is answered; NONE stays a near miss (test_attribution.py, over real papers).
- "Which paper introduces X?" is answered by the paper that introduces X, else it is a near
  miss that says X is not in the collection.
- Every cited and retrieved paper carries the verifier's score on one 0-1 scale.
"""

import json
import re
from pathlib import Path

import pytest

from assistant.answer.factory import build_answerer
from assistant.answer.outcome_gate import OutcomeGate
from assistant.answer.pipeline import answer
from assistant.cli.main import main
from assistant.evaluation.suite import load_suite
from assistant.index.store import PaperStore
from assistant.judge import introduces
from assistant.paper import Paper
from assistant.query.form import asked_names
from assistant.search.retrieval import Retriever
from assistant.settings import load_settings
from assistant.sources.corpus import bundled_papers
from assistant.sources.titles import is_name

ROOT = Path(__file__).resolve().parents[2]
ANSWERABLE = "Which paper generates ultra-high-resolution images with diffusion transformers?"
# the suite's near misses: on the field, about nothing in the 19 papers
NEARS = [c.turns[0].question for c in load_suite(ROOT / "evals" / "icml2026.yaml").cases
         if "near-miss" in c.tags]


@pytest.mark.parametrize("chunks,none,shown", [
    (["NONE: they are about images."], True, ""),
    (["NO", "NE", ": they", " are about images."], True, ""),
    (["  none:", " other topics"], True, ""),
    (["None of", " these [1]."], False, "None of these [1]."),
    (["No", "ise schedules [1]."], False, "Noise schedules [1]."),
    (["DyPE [1]."], False, "DyPE [1]."),
    (["NON"], False, "NON"),
])
def test_the_gate_reads_only_the_opening_mark(chunks, none, shown):
    gate = OutcomeGate()
    out = "".join(gate.feed(c) for c in chunks) + gate.flush()
    assert gate.none is none and out == shown


def _llm(store, wire):
    settings = load_settings(base_url=wire.base_url, model="wire-model")
    return build_answerer(settings, embedder=store.embedder)


def test_a_none_reply_is_a_near_miss_and_never_shown(bundled_store, wire):
    wire.script(["NO", "NE: the papers are about ", "other things."])
    deltas: list[str] = []
    result = answer(ANSWERABLE, retriever=Retriever(store=bundled_store),
                    answerer=_llm(bundled_store, wire), on_delta=deltas.append)
    assert result.outcome == "near_miss" and result.refused
    assert "NONE" not in "".join(deltas) and "NONE" not in result.text
    assert result.text.startswith("Nothing in this collection is about")
    assert result.answerability["llm"] == "none"
    assert result.citations and all(c.paper.paper_id in {rp.paper.paper_id for rp in
                                                         result.papers} for c in result.citations)


def _named_papers():
    """(method name, paper) for every bundled paper whose title leads with a name."""
    out = []
    for p in bundled_papers():
        first = re.split(r"[\s:(]", p.title.strip(), maxsplit=1)[0]
        if is_name(first) and len(first) >= 3:
            out.append((first, p))
    return out


@pytest.fixture(scope="module")
def half_store(tmp_path_factory, embedder):
    """The bundled list without every other named paper: (store, names kept, names removed)."""
    named = _named_papers()
    removed = {p.paper_id for _, p in named[1::2]}
    store = PaperStore(collection="half", embedder=embedder,
                       path=tmp_path_factory.mktemp("half") / "store", create=True)
    store.ingest([p for p in bundled_papers() if p.paper_id not in removed], source="half")
    return store, named[0::2], named[1::2]


def test_the_introduces_rule_on_real_abstracts():
    named = _named_papers()
    assert len(named) >= 8
    papers = bundled_papers()
    for name, paper in named:
        q = f"Which paper introduces {name}?"
        assert asked_names(q) == [name]
        assert introduces.introduces(paper, name), name
        assert introduces.missing(asked_names(q), papers) == ""
        others = [p for p in papers if p.paper_id != paper.paper_id]
        assert introduces.missing(asked_names(q), others) == name
    assert asked_names("Which papers are about reinforcement learning?") == []


def test_a_method_used_is_not_introduced_and_its_titled_paper_comes_first():
    """Every bundled method name: a paper that leverages the "recently developed" method does
    not introduce it; its own paper, listed after such a user, is still the introducer."""
    for name, paper in _named_papers():
        users = [Paper(f"user-{i}", f"A study of gates {i}",
                       f"We study gates. {lead} the {adverb} {verb} {name} method, and make the "
                       "model trainable.", ["A. Author"], "ICLR", 2018)
                 for i, (lead, adverb, verb) in enumerate([
                     ("We leverage", "recently", "developed"),
                     ("In this work, we generalize", "recently", "proposed"),
                     ("We extend", "previously", "introduced")])]
        for user in users:
            assert not introduces.introduces(user, name), (name, user.abstract)
        assert introduces.introducer([name], [*users, paper]) == paper, name
        own = Paper("own", "Gates", f"We propose {name}, a method for gates.", ["B"], "ICLR",
                    2018)
        assert introduces.introduces(own, name)  # the rule still reads a paper's own method


def test_which_paper_introduces_a_method(half_store):
    store, kept, removed = half_store
    retriever = Retriever(store=store)
    offline = build_answerer(load_settings(backend="extractive"), embedder=store.embedder)
    # "the paper on NAME" asks for NAME's own paper too, when NAME is no field's word
    forms = ["Which paper introduces {n}?", "Who wrote the paper on the {n} method?",
             "Which paper is about {n}?"]
    for name, paper in kept:
        for form in forms:
            found = answer(form.format(n=name), retriever=retriever, answerer=offline)
            assert found.outcome == "answered", (form, name)
            assert found.citations[0].paper.paper_id == paper.paper_id, (form, name)
    tried = 0
    for name, paper in removed:  # not in the collection: never answered, never cited
        for form in forms:
            if not asked_names(form.format(n=name)):
                continue
            tried += 1
            gone = answer(form.format(n=name), retriever=retriever, answerer=offline)
            assert gone.outcome != "answered", (form, name)
            assert paper.paper_id not in {rp.paper.paper_id for rp in gone.papers}
            if gone.outcome == "near_miss":
                assert gone.text.startswith(f"No paper in this collection introduces {name}"), name
    assert tried >= 2 * len(removed)


def test_every_score_shown_is_the_decisions_estimate_on_one_scale(bundled_store, capsys):
    questions = [ANSWERABLE, NEARS[0], "Which papers are about reinforcement learning?",
                 "How do multi-agent system designs affect safety?"]
    for q in questions:
        assert main(["ask", "--json", q]) == 0
        out = json.loads(capsys.readouterr().out)
        for key in ("estimate", "verifier"):
            scores = [p[key] for p in out["papers"]]
            assert all(isinstance(s, float) and 0.0 <= s <= 1.0 for s in scores), q
            by_id = {p["paper_id"]: p[key] for p in out["papers"]}
            assert all(c[key] == by_id[c["paper_id"]] for c in out["citations"]), q
        assert out["confident"] == (out["outcome"] == "answered"
                                    and not out["answer"].startswith("The closest match")), q


@pytest.mark.parametrize("question", ["What datasets does it use?", "How robust is it to noise?",
                                      "Summarize this paper.", "Is it better than the rest?"])
def test_a_question_pinned_to_one_paper_names_it_as_the_answer(bundled_store, embedder,
                                                               question):
    """The chat's `a` (ask about this paper) picks the paper: it is the answer, never hedged
    as "the closest match" (a new user found it hedged)."""
    from assistant.search.retrieval import Filters

    retriever = Retriever(store=bundled_store)
    answerer = build_answerer(load_settings(), embedder=embedder)
    for paper in bundled_store.papers()[::6]:
        result = answer(question, retriever=retriever, answerer=answerer,
                        filters=Filters(paper_ids=[paper.paper_id]))
        assert result.outcome == "answered" and result.confident, (question, paper.title)
        assert result.citations[0].paper.paper_id == paper.paper_id
        assert not result.text.startswith("The closest match")


@pytest.mark.parametrize(("question", "topic"), [
    ("Is there a paper on reward hacking and over-optimization of reward models in RLHF?",
     "reward hacking and over-optimization of reward models in RLHF"),
    ("Are there any papers about coral reef bleaching?", "coral reef bleaching"),
    ("Any work on medieval French poetry?", "medieval French poetry"),
    # an instruction, judged as the question it asks ("Which paper is about X?")
    ("How do I cite the paper on robot cloth folding?", "robot cloth folding"),
    ("Give me the BibTeX for the paper on protein folding", "protein folding"),
    ("Summarize the paper on medieval French poetry", "medieval French poetry"),
])
def test_nothing_here_says_the_topic_a_question_for_papers_on_it_names(bundled_store, question,
                                                                         topic):
    """A near miss or a refusal of "Is there a paper on X?" (or of an instruction judged as
    "Which paper is about X?") says nothing here is about “X”, not about “Is there a paper on
    X” (one asked in other words is quoted whole)."""
    offline = build_answerer(load_settings(backend="extractive"), embedder=bundled_store.embedder)
    result = answer(question, retriever=Retriever(store=bundled_store), answerer=offline)
    assert result.outcome in ("near_miss", "refused"), result.text
    assert f"about “{topic}”" in result.text.split("\n")[0], result.text
    other = answer(f"Which paper studies {topic}?", retriever=Retriever(store=bundled_store),
                   answerer=offline)
    if other.outcome in ("near_miss", "refused"):
        assert f"“Which paper studies {topic}”" in other.text.split("\n")[0], other.text
