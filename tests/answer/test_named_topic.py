"""A topic typed alone is answered with the papers on it; a paper's title, or the one-word name
its title starts with, with that paper; in a chat, a new topic said plainly is searched as
itself, never with the previous paper's title appended (that named the previous paper, sure)."""

from __future__ import annotations

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.paper import Paper

PRIVATE = [
    Paper("dp-mean", "Private mean estimation with heavy tails",
          "We estimate the mean of a heavy-tailed distribution under differential privacy, "
          "with a sample complexity that matches a new lower bound for private estimation.",
          ["A. One"], "COLT", 2021),
    Paper("dp-mean-opt", "Optimal private mean estimation with heavy tails, and the benefits "
          "of interaction",
          "We study private mean estimation with heavy tails under local differential privacy, "
          "and show that interaction between users lowers the sample complexity of private "
          "mean estimation with heavy tails.", ["A. One", "Z. Nine"], "COLT", 2024),
    Paper("dp-sgd", "Tighter accounting for differentially private SGD",
          "Differentially private stochastic gradient descent adds noise to clipped gradients. "
          "We give a tighter privacy accounting of its composition over many iterations.",
          ["B. Two"], "UAI", 2022),
    Paper("dp-release", "Releasing small tabular datasets with differential privacy",
          "Publishing small datasets under differential privacy loses much utility; random "
          "projections keep pairwise distances while guaranteeing privacy of each record.",
          ["C. Three"], "ACML", 2020),
]
SEMI = [
    Paper("ssl-case", "Semi-Supervised Learning: the case when unlabeled data is equally useful",
          "Semi-supervised learning algorithms use unlabeled data. We show a setting where an "
          "unlabeled example is worth as much as a labeled one for the learning rate.",
          ["D. Four"], "UAI", 2020),
    Paper("ssl-graph", "Learning the graph for semi-supervised learning",
          "Graph-based semi-supervised learning propagates labels over a similarity graph; we "
          "learn the graph itself from several views of the unlabeled data.",
          ["E. Five"], "UAI", 2023),
]
QUOKKA = Paper("quokka", "Quokka: streaming actions from flow policies",
               "A robot policy trained by flow matching streams its actions to the controller "
               "while the flow is still being sampled, cutting the latency of each step.",
               ["F. Six"], "CoRL", 2025)
OTHERS = [
    Paper("grasp", "Learning dexterous grasps from human videos",
          "A robot hand learns to grasp household objects by imitating hand poses recovered "
          "from internet videos, then refines them with reinforcement learning.",
          ["G. Seven"], "CoRL", 2022),
    Paper("kg", "Popularity bias in knowledge graph evaluation",
          "Link prediction benchmarks for knowledge graph embeddings are dominated by a few "
          "frequent entities; standard ranking scores overstate progress.",
          ["H. Eight"], "UAI", 2020),
]


@pytest.fixture
def retriever(retriever_over):
    return retriever_over([*PRIVATE, *SEMI, QUOKKA, *OTHERS], collection="topics")


def _ids(result) -> list[str]:
    return [c.paper.paper_id for c in result.citations]


def test_a_topic_typed_alone_lists_the_papers_on_it(retriever, embedder):
    result = answer("differential privacy", retriever=retriever,
                    answerer=ExtractiveAnswerer(embedder=embedder))
    assert result.outcome == "answered"
    assert "papers in the collection bear on this" in result.text.splitlines()[0]
    sure = [c.paper.paper_id for c in result.citations if not c.less_sure]
    assert len(sure) >= 2 and set(sure) <= {p.paper_id for p in PRIVATE}


@pytest.mark.parametrize(("typed", "paper_id"), [
    ("Tighter accounting for differentially private SGD", "dp-sgd"),
    ("tighter accounting for differentially private sgd", "dp-sgd"),
    ("Private mean estimation with heavy tails", "dp-mean"),
    ("Quokka", "quokka"), ("quokka", "quokka")])
def test_a_title_or_its_one_word_name_asks_for_that_paper(retriever, embedder, typed,
                                                          paper_id):
    result = answer(typed, retriever=retriever, answerer=ExtractiveAnswerer(embedder=embedder))
    assert result.outcome == "answered" and result.confident
    assert _ids(result) == [paper_id]
    assert result.text.startswith("The most relevant paper is")


def test_a_topic_a_title_starts_with_is_still_a_topic(retriever, embedder):
    """"Semi-Supervised Learning: the case when ..." names a topic before its colon, not a
    method: typed alone it asks for the papers on semi-supervised learning."""
    result = answer("semi-supervised learning", retriever=retriever,
                    answerer=ExtractiveAnswerer(embedder=embedder))
    assert {"ssl-case", "ssl-graph"} <= set(_ids(result))


def test_in_a_chat_a_new_topic_is_not_read_against_the_previous_paper(retriever, embedder):
    answerer = ExtractiveAnswerer(embedder=embedder)
    first = answer("Which paper streams a flow policy's actions to the robot?",
                   retriever=retriever, answerer=answerer)
    assert _ids(first)[0] == "quokka"
    second = answer("differential privacy", retriever=retriever, answerer=answerer,
                    history=[("Which paper streams a flow policy's actions to the robot?",
                              first.text)])
    assert second.search_query == "differential privacy"
    assert "quokka" not in _ids(second)
    assert set(_ids(second)) <= {p.paper_id for p in PRIVATE} and len(_ids(second)) >= 2
    # a fragment about the answer's parts still asks about its paper
    third = answer("latency of each step", retriever=retriever, answerer=answerer,
                   history=[("Which paper streams a flow policy's actions to the robot?",
                             first.text)])
    assert _ids(third)[0] == "quokka"



@pytest.mark.parametrize(("listed", "less", "hinted"), [
    (6, 10, True), (6, 4, True), (6, 3, False), (1, 2, False), (10, 5, False), (14, 1, False)])
def test_a_list_with_many_less_sure_papers_says_more_may_be_on_it(listed, less, hinted):
    """"bandits" over ml-years (some 300 bandit papers) listed 6 as sure and 10 as less sure
    under "6 papers in the collection bear on this": a list as long as one that may have been
    cut by k (``LIST_K``) with its less sure papers says more may be found, unless its head
    said so (10 sure or more: "... (more may: --k N ...)")."""
    from assistant.answer.extractive import LIST_K
    from assistant.answer.framing import CHINESE, ENGLISH
    from assistant.answer.pipeline import less_sure_line
    from assistant.citations import Citation

    more = [Citation(listed + n, Paper(f"p{n}", f"Paper {n}", "An abstract.", [], "COLT", 2020),
                     less_sure=True) for n in range(1, less + 1)]
    assert (listed + less >= LIST_K > listed) == hinted
    english = less_sure_line(ENGLISH, listed=listed, more=more)
    assert english.startswith("\n\nPossibly related too (not as sure): **Paper 1**")
    assert ("More may be: --k N" in english) == hinted
    assert ("可能还有更多" in less_sure_line(CHINESE, listed=listed, more=more)) == hinted
