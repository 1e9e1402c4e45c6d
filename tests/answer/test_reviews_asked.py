"""A request for surveys of a topic (query/review_ask.py, judge/review.py): "Are there any
surveys on graph neural networks?" listed the topic's papers as if each were a survey; now its
papers that present themselves as one, or, none here, that said before its papers."""

from __future__ import annotations

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.judge.review import is_review
from assistant.paper import Paper
from assistant.query import review_ask

GRAPHS = [
    Paper("g1", "Graph attention networks", "We introduce attention over the neighbours of each "
          "node of a graph, a graph neural network that weighs them.", ["A. One"], "ICLR", 2018),
    Paper("g2", "Graph neural networks: a survey", "In this survey we review graph neural "
          "networks: spectral and spatial convolutions on graphs, message passing, and their "
          "applications.", ["B. Two"], "ICLR", 2018),
    Paper("g3", "Message passing for molecules", "A graph neural network passes messages along "
          "the bonds of a molecule to predict its properties.", ["C. Three"], "NeurIPS", 2018),
    Paper("g4", "Deeper graph convolutional networks", "Graph convolutional networks lose "
          "accuracy as they deepen; residual connections let graph neural networks go deeper.",
          ["D. Four"], "ICLR", 2018),
]
BANDITS = [
    Paper("b1", "Thompson sampling for linear bandits", "Thompson sampling for linear bandits "
          "attains near-optimal regret.", ["E. Five"], "COLT", 2019),
    Paper("b2", "Adversarial bandits with switching costs", "Multi-armed bandits with a cost for "
          "switching arms have regret of order T to the two thirds.", ["F. Six"], "COLT", 2015),
    Paper("b3", "Contextual bandits with side information", "We study contextual bandits and "
          "prove regret bounds in the dimension of the side information.", ["G. Seven"],
          "COLT", 2017),
    Paper("b4", "Adaptive crowdsourcing for the bandit survey problem", "In the bandit survey "
          "problem a multi-armed bandit chooses which workers to ask.", ["H. Eight"], "COLT",
          2013),
]
BY_ID = {p.paper_id: p for p in [*GRAPHS, *BANDITS]}


@pytest.fixture(scope="module")
def retriever(module_retriever_over):
    return module_retriever_over([*GRAPHS, *BANDITS], collection="reviews")


def _ask(question, retriever, embedder):
    return answer(question, retriever=retriever, answerer=ExtractiveAnswerer(embedder=embedder))


def test_a_request_for_surveys_is_read_and_others_are_not():
    for question, topic in (("Are there any surveys on graph neural networks?",
                             "graph neural networks"),
                            ("Is there a review of meta-learning?", "meta-learning"),
                            ("Which papers survey federated learning?", "federated learning"),
                            ("Any tutorial on Gaussian processes?", "Gaussian processes"),
                            ("surveys on bandits", "bandits"),
                            ("Are there any systematic reviews on depression treatment?",
                             "depression treatment"),
                            ("Is there a meta-analysis of statins?", "statins")):
        assert review_ask.read(question) == topic, question
    for question in ("Give me an overview of federated learning",
                     "Review the federated learning literature",
                     "Is there a paper on the bandit survey problem?",
                     "Is there a survey of it?", "What did the survey find?"):
        assert review_ask.read(question) is None, question


def test_a_paper_is_a_survey_when_it_says_so_of_itself():
    assert [p.paper_id for p in BY_ID.values() if is_review(p)] == ["g2"]
    for title in ("Deep learning for robotics: a survey", "A Review of Causal Discovery",
                  "Overview on Reinforcement Learning for Robotics",
                  "A Tutorial on Conformal Prediction"):
        assert is_review(Paper("x", title, "", [], "", 2020)), title
    assert not is_review(Paper("x", "Learning from survey samples", "We bound the risk of "
                               "Horvitz-Thompson estimators on survey data.", [], "", 2016))
    # a systematic review or meta-analysis, its kind said after a colon with what it covers
    assert is_review(Paper("x", "The benefits of statins: meta-analysis of randomised controlled "
                           "trials", "", [], "", 2009))
    assert is_review(Paper("x", "Suicide prevention strategies: a systematic review", "", [],
                           "", 2005))


def test_the_surveys_of_a_topic_are_listed_when_there_are_any(retriever, embedder):
    said = _ask("Are there any surveys on graph neural networks?", retriever, embedder)
    assert said.outcome == "answered"
    assert [c.paper.paper_id for c in said.citations] == ["g2"], said.text
    assert said.text.startswith("(Of the papers the search found on “graph neural networks”, "
                                "those that present themselves as a survey")


def test_a_topic_without_a_survey_says_so_then_lists_its_papers(retriever, embedder):
    said = _ask("Are there any surveys on bandits?", retriever, embedder)
    plain = _ask("Which papers are about bandits?", retriever, embedder)
    assert said.text.startswith("(None of the papers the search found on “bandits” presents "
                                "itself as a survey, review, meta-analysis or tutorial")
    assert [c.paper.paper_id for c in said.citations] == \
        [c.paper.paper_id for c in plain.citations]
    off = _ask("Are there any surveys on sourdough baking?", retriever, embedder)
    assert off.outcome == "refused" and "survey" not in off.text.split("\n")[0].lower()
