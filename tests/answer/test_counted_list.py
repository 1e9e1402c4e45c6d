"""A list asked for by number ("Give me three papers on bandits") shows at most that many papers,
best first; a list asked for as a request ("Find papers about bandits") is answered as the
question "Which papers are about bandits?" is."""

from __future__ import annotations

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.paper import Paper

TOPICS = ["regret of Thompson sampling in stochastic multi-armed bandits",
          "contextual bandits with linear payoffs and confidence ellipsoids",
          "adversarial bandits with graph-structured feedback",
          "best-arm identification in stochastic bandits with a fixed budget",
          "bandits with knapsacks under global budget constraints",
          "dueling bandits that learn from pairwise preferences"]
BANDITS = [Paper(f"p-b{i}", f"Bandit study {i}: {topic}",
                 f"We study {topic}. Our bandit algorithm balances exploration and exploitation "
                 f"and we prove regret bounds for this multi-armed bandit setting.",
                 ["A. Author"], "COLT", 2020 + i % 4) for i, topic in enumerate(TOPICS)]
OTHER = [Paper("p-gp", "Sparse Gaussian processes for streaming data",
               "We update a sparse Gaussian process posterior online as data arrive.",
               ["D. Four"], "UAI", 2019),
         Paper("p-grasp", "Learning to grasp transparent objects from depth",
               "We train a grasping policy that completes missing depth of transparent objects.",
               ["F. Six"], "CoRL", 2023),
         Paper("p-dp", "Private mean estimation under local differential privacy",
               "We give optimal rates for estimating a mean under local differential privacy.",
               ["G. Seven"], "COLT", 2021)]


@pytest.fixture(scope="module")
def bandits(module_retriever_over):
    return module_retriever_over([*BANDITS, *OTHER], collection="bandits")


def _ask(q, retriever, embedder):
    return answer(q, retriever=retriever, answerer=ExtractiveAnswerer(embedder=embedder))


@pytest.mark.parametrize(("q", "n"), [
    ("Give me three papers on multi-armed bandits", 3),
    ("What are the top 2 papers about multi-armed bandits?", 2),
    ("List 4 papers on multi-armed bandits", 4),
    ("Recommend a couple of papers on multi-armed bandits", 2),
])
def test_a_list_asked_for_by_number_shows_that_many(bandits, embedder, q, n):
    result = _ask(q, bandits, embedder)
    assert result.outcome == "answered", result.text
    cited = [c.paper.paper_id for c in result.citations]
    assert 0 < len(cited) <= n, (q, cited)
    assert all(pid.startswith("p-b") for pid in cited), (q, cited)
    listed = [c for c in result.citations if not c.less_sure]
    if len(listed) == n:
        assert result.text.startswith(f"The {n} papers that bear most on this"), result.text
    # the same list unbounded holds more: the number asked for is what cut it
    whole = _ask("Which papers are about multi-armed bandits?", bandits, embedder)
    assert len(whole.citations) > n, whole.text
    assert cited == [c.paper.paper_id for c in whole.citations][:len(cited)], (cited, whole.text)


@pytest.mark.parametrize("request_form", [
    "Find papers about multi-armed bandits", "Give me papers on multi-armed bandits",
    "Show me some recent studies on multi-armed bandits, please",
    "Could you recommend works on multi-armed bandits?",
    "Give me 100 papers on multi-armed bandits"])
def test_a_list_asked_as_a_request_is_answered_as_the_question(bandits, embedder,
                                                                request_form):
    asked = _ask(request_form, bandits, embedder)
    question = _ask("Which papers are about multi-armed bandits?", bandits, embedder)
    assert asked.outcome == question.outcome == "answered", asked.text
    assert [c.paper.paper_id for c in asked.citations] == \
        [c.paper.paper_id for c in question.citations], (asked.text, question.text)
