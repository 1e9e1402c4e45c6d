"""A question that reads as standalone but finds nothing sure is read from the previous
answer's paper when its words point there, and only then (answer/pipeline.py ``read_back``)."""

from __future__ import annotations

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.index.store import PaperStore
from assistant.judge import answerability, evidence
from assistant.paper import Paper
from assistant.query.followup import LEANS, is_follow_up, probability
from assistant.search.retrieval import Retriever

SAT = Paper("sat", "Stochastic satisfiability meets decision processes",
            "We relate stochastic Boolean satisfiability to finite-horizon planning in "
            "partially observable Markov decision processes. A reduction turns each planning "
            "problem into a stochastic satisfiability instance, and our solver, ProbSAT-R, "
            "answers it by branching on chance variables with caching. On benchmark planning "
            "domains the solver finds optimal policies faster than point-based planners.",
            ["A. Author"], "UAI", 2019)
OTHERS = [
    Paper("kg", "Popularity bias in knowledge graph evaluation",
          "Link prediction benchmarks for knowledge graph embeddings are dominated by a few "
          "frequent entities. We show that standard ranking scores overstate progress and "
          "propose frequency-stratified scores that weigh rare entities fairly.",
          ["B. Author"], "UAI", 2020),
    Paper("bandit", "Heavy-tailed rewards in graphical bandits",
          "We study bandits where pulling an arm also reveals the rewards of its neighbours in "
          "a feedback graph, with rewards whose tails are heavier than sub-Gaussian. A "
          "truncated-mean upper confidence bound algorithm attains regret that scales with "
          "the graph's independence number.", ["C. Author"], "UAI", 2023),
    Paper("robot", "Learning dexterous grasps from human videos",
          "A robot hand learns to grasp unseen household objects by imitating hand poses "
          "recovered from internet videos, then refines the grasps with reinforcement "
          "learning in simulation before transfer to hardware.", ["D. Author"], "CoRL", 2022),
    Paper("dp", "Private synthetic data with Wasserstein guarantees",
          "We release differentially private synthetic datasets whose distance to the real "
          "data in Wasserstein metric is bounded, and give a generator running in time "
          "polynomial in the dimension.", ["E. Author"], "COLT", 2021),
]
FIRST = ("Has anyone built a stochastic SAT solver and evaluated it on partially observable "
         "planning problems via a reduction?")
# second turns about another paper, or about nothing here: never read back
STANDALONE = [
    "Is there a paper showing knowledge graph benchmarks overstate progress because a few "
    "entities dominate them?",
    "Are there bandit algorithms with graph feedback for heavy-tailed rewards?",
    "How can a robot hand learn grasps from videos of people?",
    "What running time does the private synthetic data generator with Wasserstein utility "
    "guarantees have?",
    "What causes coral reef bleaching in warm years?",
]


@pytest.fixture
def retriever(retriever_over):
    return retriever_over([SAT, *OTHERS], collection="read-back")


def test_a_standalone_reading_that_finds_nothing_sure_is_read_from_the_previous_paper(
        retriever, embedder):
    answerer = ExtractiveAnswerer(embedder=embedder)
    first = answer(FIRST, retriever=retriever, answerer=answerer, ground=False)
    assert first.citations[0].paper.paper_id == "sat"
    question = "What's the solver called?"
    # it reads as standalone, though it may lean on the previous turn
    assert not is_follow_up(question, FIRST) and probability(question, FIRST) >= LEANS
    alone = answer(question, retriever=retriever, answerer=answerer, ground=False)
    assert not alone.confident
    second = answer(question, retriever=retriever, answerer=answerer, ground=False,
                    history=[(FIRST, first.text)])
    assert second.outcome == "answered" and second.filters == {"paper_ids": ["sat"]}
    assert second.citations[0].paper.paper_id == "sat"


@pytest.mark.parametrize("question", STANDALONE)
def test_a_question_about_something_else_is_never_read_back(retriever, embedder, question):
    answerer = ExtractiveAnswerer(embedder=embedder)
    assert not is_follow_up(question, FIRST)  # what read_back is asked of (a follow-up is not)
    first = answer(FIRST, retriever=retriever, answerer=answerer, ground=False)
    second = answer(question, retriever=retriever, answerer=answerer, ground=False,
                    history=[(FIRST, first.text)])
    alone = answer(question, retriever=retriever, answerer=answerer, ground=False)
    assert "paper_ids" not in second.filters
    assert [c.paper.paper_id for c in second.citations] == \
        [c.paper.paper_id for c in alone.citations]


def test_the_words_point_at_a_paper_that_is_first_or_holds_the_most_of_them(retriever):
    stats = answerability.stats_for(retriever.index())
    others = list(OTHERS)
    assert evidence.points_to("a planning solver", SAT, [SAT, *others], stats)
    assert not evidence.points_to("coral reef bleaching", SAT, [SAT, *others], stats)
    assert evidence.points_to("the stochastic satisfiability solver", SAT, others, stats)
    assert not evidence.points_to("heavy-tailed graph bandits", SAT, others, stats)
    assert not evidence.points_to("coral reef bleaching", SAT, others, stats)


EGYPT = Paper("egypt", "Hepatitis C in Egypt: a coalescent history",
              "Viral sequences sampled across Egypt date the epidemic's origin. Infections grew "
              "exponentially during a period of mass treatment campaigns, when reused needles "
              "spread the virus.", ["F. Author"], "Test", 2003)
GLOBAL = Paper("global", "The global spread of hepatitis C subtypes",
               "Sequences from many countries trace how subtypes spread. The number of "
               "infections grew exponentially during a period after transfusion became common, "
               "then the growth slowed.", ["G. Author"], "Test", 2014)


def test_the_words_point_at_a_paper_of_a_cluster_that_holds_nearly_the_most(tmp_path, embedder):
    """Papers of one field come in clusters: a follow-up's own words ("the number of
    infections") may be held a little more by a sibling of the paper just answered from. They
    still point at it; a question in the sibling's own words does not."""
    store = PaperStore(collection="cluster", embedder=embedder, path=tmp_path / "store",
                       create=True)
    store.ingest([SAT, *OTHERS, EGYPT, GLOBAL], source="test")
    stats = answerability.stats_for(Retriever(store=store).index())
    question = "During which period did the number of infections grow exponentially?"
    shares = [f["wcov"] for f in evidence.term_features(question, [EGYPT, GLOBAL], stats)]
    assert 0 < shares[0] < shares[1]  # the sibling holds more of the question's words
    assert evidence.points_to(question, EGYPT, [GLOBAL, *OTHERS], stats)
    assert not evidence.points_to("How did transfusion spread subtypes across many countries?",
                                  EGYPT, [GLOBAL, *OTHERS], stats)
