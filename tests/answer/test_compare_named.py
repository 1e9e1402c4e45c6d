"""A comparison of two named methods ("Compare PPO and SAC") where no paper of the collection
introduces one of them lines up, for that side, a paper that only uses or mentions it: the
answer says so, and is not sure, instead of presenting it as the method's paper."""

from __future__ import annotations

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.paper import Paper

FOO = Paper("p-foo", "FOO: fast orthogonal optimization for deep networks",
            "We propose FOO, an optimizer for deep networks that keeps each layer's update "
            "orthogonal to its weights. FOO trains residual networks faster than momentum "
            "methods on image classification.", ["A. One"], "UAI", 2021)
USES = Paper("p-uses", "Contrastive pretraining of encoders for visual control",
             "Learning control from pixels is sample-inefficient. We pretrain an image encoder "
             "with a contrastive loss and plug it into BARX, a standard off-policy actor-critic "
             "baseline, which then reaches better returns on continuous control suites.",
             ["B. Two"], "CoRL", 2022)
OWN = Paper("p-barx", "BARX: off-policy maximum-entropy actor-critic",
            "We introduce BARX, an off-policy actor-critic algorithm that maximises expected "
            "return together with the policy's entropy, which makes learning stable and sample "
            "efficient on continuous control.", ["C. Three"], "CoRL", 2021)
OTHER = [
    Paper("p-gp", "Sparse Gaussian processes for streaming data",
          "We update a sparse Gaussian process posterior online as data arrive.", ["D. Four"],
          "UAI", 2019),
    Paper("p-bandit", "Regret bounds for contextual bandits with knapsacks",
          "We prove regret bounds for contextual bandits under global budget constraints.",
          ["E. Five"], "COLT", 2019),
    Paper("p-grasp", "Learning to grasp transparent objects from depth",
          "We train a grasping policy that completes missing depth of transparent objects.",
          ["F. Six"], "CoRL", 2023),
]
QUESTION = "Compare FOO and BARX"


@pytest.fixture(scope="module")
def without_own(module_retriever_over):
    return module_retriever_over([FOO, USES, *OTHER], collection="without")


@pytest.fixture(scope="module")
def with_own(module_retriever_over):
    return module_retriever_over([FOO, USES, OWN, *OTHER], collection="with")


def test_a_side_whose_method_no_paper_introduces_is_said_to_be_the_closest(without_own,
                                                                          embedder):
    result = answer(QUESTION, retriever=without_own, answerer=ExtractiveAnswerer(
        embedder=embedder))
    cited = [c.paper.paper_id for c in result.citations]
    assert result.outcome == "answered", result.text
    assert cited[:2] == ["p-foo", "p-uses"], result.text
    assert result.text.startswith("(No paper in this collection introduces BARX: that side is "
                                  "the closest paper found"), result.text
    assert not result.confident
    assert result.to_dict()["answerability"]["missing_method"] == "BARX"


def test_a_side_whose_method_a_paper_introduces_is_that_paper(with_own, embedder):
    result = answer(QUESTION, retriever=with_own, answerer=ExtractiveAnswerer(
        embedder=embedder))
    cited = [c.paper.paper_id for c in result.citations]
    assert cited[:2] == ["p-foo", "p-barx"], result.text
    assert "introduces" not in result.text, result.text
    assert not result.to_dict()["answerability"]["missing_method"]


ZUSES = Paper("p-zuses", "Planning with learned dynamics for legged robots",
              "We plan footsteps with a learned dynamics model and compare against ZORP, a "
              "sampling-based model-predictive planner, on rough terrain.", ["G. Seven"],
              "CoRL", 2023)


@pytest.fixture(scope="module")
def without_two(module_retriever_over):
    return module_retriever_over([FOO, USES, ZUSES, *OTHER], collection="without-two")


def test_several_sides_no_paper_introduces_are_each_named_once(without_two, embedder):
    """"Compare FOO, BARX and ZORP" with neither BARX nor ZORP introduced: one note names both,
    as a list, for those sides (it had joined them "BARX and ZORP" and said "that side")."""
    result = answer("Compare FOO, BARX and ZORP", retriever=without_two,
                    answerer=ExtractiveAnswerer(embedder=embedder))
    assert result.outcome == "answered", result.text
    assert [c.paper.paper_id for c in result.citations][:3] == ["p-foo", "p-uses", "p-zuses"]
    assert result.text.startswith("(No paper in this collection introduces BARX and ZORP: those "
                                  "sides are the closest papers found"), result.text
    assert not result.confident


def test_a_near_miss_says_which_named_side_no_paper_introduces(without_own, embedder):
    """"How does FOO differ from QUUX?" with QUUX nowhere: the note says no paper introduces
    QUUX, and the head does not call that side's closest paper its "closest match" (it named
    an unrelated paper so for "How does sample efficiency differ between PPO and TRPO?")."""
    result = answer("How does FOO differ from QUUX?", retriever=without_own,
                    answerer=ExtractiveAnswerer(embedder=embedder))
    assert result.outcome == "near_miss", result.text
    assert result.text.startswith("(No paper in this collection introduces QUUX: that side is "
                                  "the closest paper found, not its own.)"), result.text
    assert "closest match to the second side" not in result.text, result.text
    assert result.to_dict()["answerability"]["sides"][1] == "not_found"
    assert not result.confident


@pytest.mark.parametrize("form", ["How does sample efficiency differ between {a} and {b}?",
                                  "What differs between {a} and {b}?"])
def test_two_methods_compared_on_a_point_are_the_sides(without_own, embedder, form):
    result = answer(form.format(a="FOO", b="BARX"), retriever=without_own,
                    answerer=ExtractiveAnswerer(embedder=embedder))
    assert [c.paper.paper_id for c in result.citations][:2] == ["p-foo", "p-uses"], result.text
    assert result.text.startswith("(No paper in this collection introduces BARX"), result.text
    assert not result.confident
