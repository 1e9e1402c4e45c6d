"""Two entries of one paper (a submission and its publication) are listed once, the other named
as its version: search/versions.py, over a real Chroma store."""

from dataclasses import replace
from itertools import combinations

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.citations import cited_numbers
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
