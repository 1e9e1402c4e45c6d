"""A list question that asks for papers on two things at once ("Which papers work on both
differential privacy and bandits?") lists only papers about each; when none is, it says so,
instead of listing papers on one of them as bearing on it."""

from __future__ import annotations

import re

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.framing import ENGLISH
from assistant.answer.pipeline import answer
from assistant.paper import Paper
from assistant.query.conjunction import on_both
from assistant.query.form import parse

BOTH = [
    Paper("b-1", "Differentially private algorithms for stochastic multi-armed bandits",
          "We design bandit algorithms whose arm choices satisfy differential privacy with "
          "respect to the observed rewards, and prove regret bounds that pay a small additive "
          "cost for privacy.", ["A. One"], "UAI", 2021),
    Paper("b-2", "Private contextual bandits with linear rewards",
          "We study linear contextual bandits under joint differential privacy and give an "
          "algorithm whose regret nearly matches the non-private one.", ["B. Two"], "COLT",
          2022),
]
PRIVACY = [
    Paper("p-1", "Differentially private release of graph statistics",
          "We publish counts of walks in a graph under local differential privacy, with "
          "error bounds that improve on the Laplace mechanism.", ["C. Three"], "ACML", 2023),
    Paper("p-2", "Differential privacy for iterative learning algorithms",
          "We bound the differential privacy of iterative training algorithms by composing "
          "the privacy of each of their iterations.", ["D. Four"], "ACML", 2019),
    Paper("p-3", "Locally private hypothesis selection",
          "We select among candidate distributions under local differential privacy with few "
          "samples.", ["E. Five"], "COLT", 2020),
]
BANDITS = [
    Paper("n-1", "Thompson sampling for combinatorial bandits",
          "We analyse Thompson sampling for combinatorial semi-bandits and prove regret "
          "bounds that scale with the number of arms.", ["F. Six"], "COLT", 2019),
    Paper("n-2", "Best-arm identification in linear bandits",
          "We identify the best arm of a linear bandit with few pulls using an adaptive "
          "design.", ["G. Seven"], "UAI", 2020),
]
OTHER = [
    Paper("o-1", "Learning to grasp transparent objects from depth",
          "We train a grasping policy that completes missing depth of transparent objects.",
          ["H. Eight"], "CoRL", 2023),
    Paper("o-2", "Sparse Gaussian processes for streaming data",
          "We update a sparse Gaussian process posterior online as data arrive.", ["I. Nine"],
          "UAI", 2019),
]
QUESTION = "Which papers work on both differential privacy and bandits?"


@pytest.fixture(scope="module")
def retriever(module_retriever_over):
    return module_retriever_over([*BOTH, *PRIVACY, *BANDITS, *OTHER], collection="both")


@pytest.fixture(scope="module")
def without_both(module_retriever_over):
    return module_retriever_over([*PRIVACY, *BANDITS, *OTHER], collection="neither")


def _listed(result) -> set[str]:
    by_n = {c.n: c.paper.paper_id for c in result.citations}
    return {by_n[int(n)] for n in re.findall(r"^- \*\*.+?\*\* \[(\d+)\]", result.text,
                                             re.MULTILINE)}


@pytest.mark.parametrize("question", [
    QUESTION,
    "What papers combine differential privacy with bandits?",
    "Any work at the intersection of differential privacy and bandits?",
])
def test_a_list_of_papers_on_two_things_lists_only_papers_on_each(question, retriever,
                                                                   embedder):
    result = answer(question, retriever=retriever, answerer=ExtractiveAnswerer(
        embedder=embedder))
    cited = {c.paper.paper_id for c in result.citations}
    assert result.outcome == "answered", result.text
    assert _listed(result) == {"b-1", "b-2"}, result.text
    assert cited <= {"b-1", "b-2"}, result.text  # never a privacy-only or bandit-only paper


def test_a_list_of_papers_on_two_things_none_is_about_says_so(without_both, embedder):
    result = answer(QUESTION, retriever=without_both, answerer=ExtractiveAnswerer(
        embedder=embedder))
    assert result.outcome == "near_miss", result.text
    assert result.text.startswith(ENGLISH.nothing_on_both.format(
        a="differential privacy", b="bandits")), result.text


def test_a_list_on_one_thing_is_unchanged(retriever, embedder):
    """Without the two-things form, "differential privacy" lists its papers, bandits or not."""
    result = answer("Which papers study differential privacy?", retriever=retriever,
                    answerer=ExtractiveAnswerer(embedder=embedder))
    assert {"p-1", "p-2"} & _listed(result), result.text


@pytest.mark.parametrize(("question", "both"), [
    (QUESTION, ("differential privacy", "bandits")),
    ("What papers combine reinforcement learning with Gaussian processes?",
     ("reinforcement learning", "Gaussian processes")),
    ("Which papers combine early-exit networks and conformal prediction?",
     ("early-exit networks", "conformal prediction")),
    ("List work at the intersection of causal inference and fairness",
     ("causal inference", "fairness")),
    ("Which papers study bandits both in theory and in practice?", None),  # qualifies
    ("Which papers combine them with care?", None),
    ("Which papers study sampling and optimization?", None),  # either, or both: not said
    ("Which paper works on both differential privacy and bandits?", None),  # one paper
    ("Both relax faithfulness for causal structure search: how does the permutation-based "
     "approach compare with a two-node Markov-blanket condition and modified Grow-Shrink?",
     None),  # two papers compared
    ("Which papers do both seek minima of a non-convex objective through noisy queries and "
     "give a lower bound. How do they compare?", None),
])
def test_what_a_list_asks_its_papers_to_be_about_at_once_is_read(question, both):
    assert parse(question).both == both
    if both:
        assert on_both(question) == both


@pytest.mark.parametrize("question", [
    "Any collaborative filtering model that joins ordered-preference matrix factorization with "
    "MRFs to capture both global and local user-item interactions?",
    "For spike train data, any latent trajectory model combining recurrent dynamics with a "
    "nonparametric emission map?",
])
def test_two_things_a_described_paper_joins_are_no_list_of_papers_on_both(question):
    """A question that describes one paper ("Any model that joins X with Y ...") names its
    details, not two topics every listed paper must be about."""
    assert parse(question).both is None
