"""A sentence of the answer's own framing that names the paper it cites ("The closest match is
**T** [1]", "The third side of this comparison is **T** [3]", "比较的第一方是 **T** [1]") is never
marked as a claim the cited abstract does not support: checked for every such template, in
English and Chinese, for every side's ordinal, over every bundled paper, papers with a short
title and an author list of initials, and (with ../shared) 60 real papers. A short title sat
far from the framing words around it, and "side", "comparison" and the ordinals counted as
words the abstract had to hold: 6-9% of a comparison's side sentences were marked over 200
ml-large papers."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from assistant.answer.framing import CHINESE, ENGLISH, Framing
from assistant.citations import Citation
from assistant.evaluation.generate import read_slice
from assistant.evaluation.splits import corpus_part
from assistant.judge.grounding import ground
from assistant.paper import Paper
from assistant.search.retrieval import RetrievedPaper
from assistant.sources.corpus import bundled_papers, paper_from_record

SHARED = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "ml-abstracts.jsonl"

SHORT = [
    Paper("p-infer", "Learning to Infer",
          "Inference models replace an optimisation-based inference procedure with a learned "
          "model. We propose iterative inference models that learn to optimise a variational "
          "lower bound by repeatedly encoding gradients.", ["Joseph Marino", "Yisong Yue"],
          "ICLR", 2018),
    Paper("p-withdrawn", "Withdrawn",
          "Conditional sequence generation is widely studied. We train a dialogue generator "
          "adversarially with a ranking discriminator.", [], "ICLR", 2018),
    Paper("p-initials", "Mean Field for the Stochastic Blockmodel",
          "We study the loss landscape of mean field variational inference for the two-class "
          "stochastic blockmodel and show that random initialisation can converge to saddles.",
          ["Soumendu Sundar Mukherjee", "Purnamrita Sarkar", "Y. X. Rachel Wang"], "NeurIPS",
          2018),
    Paper("p-title", "Iterative Deep Compression",
          "We compress deep networks for classification and semantic segmentation by pruning "
          "and quantising them in turns.", ["Sugandha Doda", "Dr. Nadereh Hatami"], "ICLR",
          2018),
]


def framings(paper: Paper, say: Framing) -> list[str]:
    """Every template that names ``paper`` and cites it, as the answers write them."""
    t = paper.display_title
    by = say.by_authors.format(authors=paper.author_names(most=3)) if paper.authors else ""
    texts = [say.most_relevant.format(title=t, where=""),
             say.most_relevant.format(title=t, where=by),
             say.closest_match.format(title=t, where=""),
             say.one_sifted.format(title=t, where="")]
    for which in say.ordinals:
        texts += [say.side_sure.format(which=which, title=t, n=1),
                  say.side_closest.format(which=which, title=t, n=1),
                  say.side_missing.format(which=which, closest=t, n=1)]
    return texts


def marked(papers: list[Paper], embedder) -> list[str]:
    out = []
    for paper in papers:
        for say in (ENGLISH, CHINESE):
            for text in framings(paper, say):
                g = ground(text, [Citation(1, paper)], [RetrievedPaper(paper, 1.0, 1)],
                           embedder=embedder)
                out += [s.text for s in g.flagged()]
    return out


def test_framing_that_names_the_cited_paper_is_never_marked(embedder):
    papers = [*bundled_papers(), *SHORT]
    assert len(framings(SHORT[0], ENGLISH)) == 4 + 3 * 6
    assert marked(papers, embedder) == []


def test_a_title_is_no_support_for_another_papers_sentence(embedder):
    """Naming a paper is supported by that paper, not by any paper: the same sentence cited
    to another paper is marked (the words are the title's, and the title is not its)."""
    paper, other = SHORT[0], SHORT[2]
    text = ENGLISH.side_sure.format(which="third", title=paper.display_title, n=1)
    g = ground(text, [Citation(1, other)], [RetrievedPaper(other, 1.0, 1)], embedder=embedder)
    assert g.flagged()


@pytest.mark.shared
def test_framing_over_real_papers_is_never_marked(embedder):
    rows = [r for r in read_slice(SHARED, [("iclr", 2017)]) if corpus_part(r) == "dev"]
    papers = [paper_from_record(r) for r in random.Random(11).sample(rows, 60)]
    assert marked(papers, embedder) == []


def test_a_tie_naming_two_papers_is_never_marked(embedder):
    """"Two papers here match this about equally well: **A** [1] and **B** [2]." names each
    paper by its title and cites it: supported, in English and Chinese, over every pair of the
    bundled list's papers and the short titles above taken in turn."""
    papers = [*bundled_papers(), *SHORT]
    flagged = []
    for a, b in zip(papers, papers[1:] + papers[:1], strict=True):
        for say in (ENGLISH, CHINESE):
            text = say.closest_tied.format(title=a.display_title, where="", n=2,
                                           other=b.display_title, other_where="")
            g = ground(text, [Citation(1, a), Citation(2, b)],
                       [RetrievedPaper(a, 1.0, 1), RetrievedPaper(b, 0.9, 2)], embedder=embedder)
            flagged += [s.text for s in g.flagged()]
    assert flagged == []
