"""Two entries of one paper (a submission and its publication) are listed once, the other named
as its version: search/versions.py, over a real Chroma store."""

import json
from dataclasses import replace
from itertools import combinations

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.citations import cited_numbers
from assistant.cli.main import main
from assistant.index.store import PaperStore
from assistant.paper import Paper
from assistant.search.retrieval import Filters, Retriever
from assistant.search.versions import same_paper
from assistant.textutil import split_sentences

ABSTRACT = ("We study how sparse mixtures of experts route tokens in long documents. A learned "
            "router sends each token to two of sixty-four experts, and a balancing loss keeps "
            "the experts equally busy. On three summarisation benchmarks the model matches a "
            "dense transformer at a third of the compute, and it degrades gracefully when "
            "experts are dropped at inference time.")


def p(pid, title, abstract, venue="ICLR", year=2018):
    return Paper(pid, title, abstract, ["A. Author"], venue, year)


def test_a_resubmission_with_a_rewritten_abstract_is_the_same_paper():
    rewritten = ("Sparse mixtures of experts can route the tokens of long documents cheaply. "
                 "Our router sends every token to two of sixty-four experts; a balancing loss "
                 "keeps them equally busy. The model matches dense transformers on "
                 "summarisation at a third of the compute.")
    title = "Routing Tokens Through Sparse Experts"
    assert same_paper(p("a", title, ABSTRACT), p("b", title.upper(), rewritten, "NeurIPS"))


def test_a_retitled_version_with_the_same_abstract_is_the_same_paper():
    assert same_paper(p("a", "Routing Tokens Through Sparse Experts", ABSTRACT),
                      p("b", "Withdrawn", ABSTRACT))
    assert same_paper(p("a", "Sparse Experts for Long Documents", ABSTRACT),
                      p("b", "Sparse Expert Routing", ABSTRACT.replace("three", "four")))


def test_a_retitled_version_of_an_unpublished_submission_is_the_same_paper():
    """A rejected or workshop entry and its authors' later paper under another title, their
    abstracts rewritten, are one paper; the same authors' two published papers are not, nor
    is a rejected entry later than the paper it resembles."""
    rewritten = ("Long documents can be routed cheaply through sparse mixtures of experts. "
                 "Each token goes to two of sixty-four experts chosen by a learned router, and "
                 "an auxiliary loss balances their load. We match dense transformers on "
                 "summarisation with a third of the compute and study dropping experts.")
    authors = ["A. Author", "B. Writer", "C. Third"]
    draft = replace(p("a", "Routing Tokens Through Sparse Experts", ABSTRACT), authors=authors,
                    extra={"status": "Reject"})
    paper = replace(p("b", "Cheap Long-Document Summarisation", rewritten, "NeurIPS"),
                    authors=["B. Writer", "A. Author"])
    assert same_paper(draft, paper) and same_paper(paper, draft)
    workshop = replace(draft, extra={"status": "Workshop"})
    assert same_paper(workshop, paper)
    # both published: the same group's two papers
    assert not same_paper(replace(draft, extra={"status": "Poster"}), paper)
    # one shared author only, or a rejected entry a year after the paper
    assert not same_paper(draft, replace(paper, authors=["A. Author", "Z. Other"]))
    assert not same_paper(replace(draft, year=2019), paper)


def test_papers_on_one_topic_are_not_one_paper():
    other = ("We study how dense transformers summarise long documents. A sliding window "
             "attention reads each token with its neighbours, and a global token keeps the "
             "summary coherent. On three summarisation benchmarks the model matches sparse "
             "experts at half the memory.")
    assert not same_paper(p("a", "Routing Tokens Through Sparse Experts", ABSTRACT),
                          p("b", "Sliding Windows for Long Documents", other))
    # short abstracts made from one template, a few words apart, are different papers
    def gan(method, domain):
        return p(f"{method}-{domain}", f"{method} GANs for {domain}",
                 f"We train {method} generative adversarial networks on {domain}. The generator "
                 f"and the discriminator of the GAN play a minimax game; our {method} "
                 f"adversarial objective stabilises GAN training and improves sample quality "
                 f"on {domain}.")
    assert not same_paper(gan("Wasserstein", "face images"), gan("Wasserstein", "medical scans"))
    # a short title shared by chance ("Introduction", "Withdrawn") says nothing
    assert not same_paper(p("a", "Withdrawn", ABSTRACT), p("b", "Withdrawn", other))
    # nor does a long one over unrelated abstracts
    unrelated = " ".join(f"word{i}" for i in range(40))
    assert not same_paper(p("a", "Routing Tokens Through Sparse Experts", ABSTRACT),
                          p("b", "Routing Tokens Through Sparse Experts", unrelated))


def submission_of(paper: Paper) -> Paper:
    """The paper as a venue's earlier submission: its own id, the last sentence dropped."""
    sents = split_sentences(paper.abstract)
    abstract = " ".join(sents[:-1]) if len(sents) > 3 else paper.abstract
    return replace(paper, paper_id=f"sub-{paper.paper_id}", abstract=abstract,
                   venue="ICLR", year=2025, extra={"status": "Reject"})


@pytest.fixture
def versioned(tmp_path, embedder, bundled_store):
    papers = bundled_store.papers()
    subs = [submission_of(x) for x in papers[::3]]
    store = PaperStore(collection="versioned", embedder=embedder, path=tmp_path / "v",
                       create=True)
    store.ingest([*papers, *subs], source="versioned")
    return Retriever(store=store), papers, subs


def test_search_lists_each_paper_once_and_names_its_other_entry(versioned):
    retriever, papers, subs = versioned
    named = 0
    for paper in papers:
        for query in (paper.title, split_sentences(paper.abstract)[0]):
            found = retriever.search(query, k=10).papers
            listed = [rp.paper for rp in found]
            assert not any(same_paper(a, b) for a, b in combinations(listed, 2)), query
            for rp in found:
                assert all(same_paper(rp.paper, v) for v in rp.versions)
            named += sum(len(rp.versions) for rp in found)
    assert named >= len(subs)  # every submission was found, as its paper's version
    # papers the user picked are each asked about, versions or not
    pair = [subs[0].paper_id, subs[0].paper_id.removeprefix("sub-")]
    picked = retriever.search(subs[0].title, k=10, filters=Filters(paper_ids=pair)).papers
    assert {rp.paper.paper_id for rp in picked} == set(pair)


def test_an_answer_never_cites_two_entries_of_one_paper(versioned, embedder):
    retriever, papers, subs = versioned
    answerer = ExtractiveAnswerer(embedder=embedder)
    versioned_ids = {s.paper_id.removeprefix("sub-") for s in subs}
    for paper in papers:
        ans = answer(f"Which paper is about {paper.title.lower()}?", retriever=retriever,
                     answerer=answerer, ground=False)
        by_n = {c.n: c.paper for c in ans.citations}
        cited = [by_n[n] for n in dict.fromkeys(cited_numbers(ans.text)) if n in by_n]
        assert not any(same_paper(a, b) for a, b in combinations(cited, 2)), paper.title
        if cited and cited[0].paper_id in versioned_ids:
            ref = ans.reference(cited[0])
            assert "Also in this collection as: ICLR 2025" in ref


def test_papers_like_one_list_each_paper_once_and_never_its_own_other_entry(versioned, capsys):
    """`similar`: the query paper's submission is named as its own entry, never as its nearest
    neighbour; two entries of another paper fill one place, the other named as its version."""
    from assistant.search.similar import similar

    retriever, papers, subs = versioned
    mine = {s.paper_id.removeprefix("sub-"): s.paper_id for s in subs}
    named = 0
    for paper in papers:
        found = similar(paper.abstract, retriever=retriever, k=8, exclude=[paper.paper_id],
                        paper=paper)
        listed = [s.paper for s in found.papers]
        assert not any(same_paper(a, b) for a, b in combinations([paper, *listed], 2)), paper
        assert [v.paper_id for v in found.versions] == (
            [mine[paper.paper_id]] if paper.paper_id in mine else [])
        assert len(listed) == 8  # a place left by an entry skipped is filled by the next paper
        for s in found.papers:
            assert all(same_paper(s.paper, v) for v in s.versions)
            named += len(s.versions)
    assert named >= len(subs)  # pairs met in the lists were named together, not listed twice
    # as the chat's turn: the query's own entry said above the list, a listed paper's other
    # entry in its reference line
    from assistant.answer.listing import similar_answer

    query = next(p for p in papers if p.paper_id in mine)
    found = similar(query.abstract, retriever=retriever, exclude=[query.paper_id],
                    paper=query)
    turn = similar_answer(found, title=query.display_title, facet=None)
    assert "It is also in this collection as" in turn.text
    assert mine[query.paper_id] not in {c.paper.paper_id for c in turn.citations}
    paired = [c for c in turn.citations if any(
        s.versions for s in found.papers if s.paper.paper_id == c.paper.paper_id)]
    assert all("Also in this collection as: ICLR 2025" in turn.reference(c.paper) or
               "Also in this collection as: ICML 2026" in turn.reference(c.paper) for c in paired)
    # the command says so, and --json gives both
    query = next(p for p in papers if p.paper_id in mine)
    args = ["similar", query.paper_id, "--store", str(retriever.store.path),
            "--collection", "versioned"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"also in this collection as (ICLR 2025)  [{mine[query.paper_id]}]" in out
    assert out.count("also here as (") >= 1
    assert main([*args, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["query"]["versions"] == [mine[query.paper_id]]
    ids = [p["paper_id"] for p in got["papers"]]
    assert mine[query.paper_id] not in ids
    assert any(p["versions"] for p in got["papers"])


def test_an_entry_listed_as_a_version_is_still_found_by_its_title(versioned, embedder):
    """A submission folded into its paper's entry is still the paper its own title names: a
    follow-up after an answer about it stays with it (the answer's title is looked up), and
    `similar` finds it by title."""
    from assistant.search.similar import resolve

    retriever, _, subs = versioned
    for sub in subs:
        found = retriever.paper_titled(sub.display_title)
        assert found is not None and found.paper_id == sub.paper_id, sub.display_title
        assert resolve(sub.display_title, retriever)[0] == sub
    sub = subs[0]
    said = (f"The most relevant paper is **{sub.display_title}** (ICLR 2025) [1]. "
            f"{split_sentences(sub.abstract)[0]} [1]")
    ans = answer("What did they evaluate it on?", retriever=retriever,
                 answerer=ExtractiveAnswerer(embedder=embedder),
                 history=[(f"Which paper is about {sub.title.lower()}?", said)], ground=False)
    cited = {c.paper.paper_id for c in ans.citations}
    assert cited == {sub.paper_id}, (cited, ans.text[:300])
