"""A comparison's side that is a method's name and a common word ("Compare ROAD and LUMA"): a
search for the word ranks the papers that use it ("road scenes") above the paper whose title
names it ("ROAD: ..."), and that paper was left out of the side: another was named, sure. The
paper whose title opens with the side as written joins the side's results and leads it."""

from __future__ import annotations

import random

import pytest

from assistant.answer.factory import build_answerer
from assistant.answer.pipeline import answer
from assistant.paper import Paper
from assistant.settings import load_settings

TOPICS = ["lane detection", "traffic forecasting", "pedestrian tracking", "map building",
          "driver monitoring", "parking", "route planning", "weather robustness"]


def _papers() -> list[Paper]:
    rng = random.Random(4)
    out = []
    for i in range(60):  # papers that use the word, many times over
        topic = rng.choice(TOPICS)
        out.append(Paper(f"road-{i}", f"Road scene {topic} with deep networks {i}",
                         f"We study {topic} on the road. Road scenes from dash cameras are "
                         f"segmented, and road users are tracked across frames ({i}).",
                         ["A. Driver"], "CoRL", 2021 + i % 4))
    out += [
        Paper("p-road", "ROAD: Recursive octree auto-decoders for 3D shapes",
              "We encode complex 3D shapes with a recursive octree auto-decoder that predicts "
              "surface detail level by level, and compress large shape collections.",
              ["B. Shape"], "CoRL", 2022),
        Paper("p-luma", "LUMA: Low-rank updates for memory-efficient adaptation",
              "We adapt large language models with low-rank updates to a few layers, cutting "
              "the memory of fine-tuning by half without losing accuracy.", ["C. Tune"],
              "UAI", 2023),
        Paper("p-twin1", "TWIN: Paired sampling for variance reduction",
              "We pair samples to reduce the variance of gradient estimates.", ["D. One"],
              "UAI", 2020),
        Paper("p-twin2", "TWIN: Twin networks for contrastive learning",
              "We train two networks on paired views of an image.", ["E. Two"], "UAI", 2021),
    ]
    return out


@pytest.fixture(scope="module")
def retriever(module_retriever_over):
    return module_retriever_over(_papers(), collection="named-sides")


def test_the_paper_named_by_its_title_is_the_one(retriever):
    assert retriever.named_by("ROAD").paper_id == "p-road"
    assert retriever.named_by("LUMA").paper_id == "p-luma"
    assert retriever.named_by("Road") is None  # as written: "Road scene ..." names nothing
    assert retriever.named_by("TWIN") is None  # two titles open with it: neither is the one
    assert retriever.named_by("octree") is None and retriever.named_by("") is None


@pytest.mark.parametrize("question", ["Compare ROAD and LUMA", "ROAD vs LUMA",
                                      "How does LUMA differ from ROAD?"])
def test_a_common_word_side_leads_with_its_own_paper(retriever, question):
    result = answer(question, retriever=retriever,
                    answerer=build_answerer(load_settings(), embedder=retriever.store.embedder))
    cited = [c.paper.paper_id for c in result.citations[:2]]
    want = ["p-road", "p-luma"] if question.index("ROAD") < question.index("LUMA") \
        else ["p-luma", "p-road"]
    assert cited == want, (question, cited, result.text)
    # never a road-scene paper presented for the ROAD side
    assert not any(c.paper.paper_id.startswith("road-") for c in result.citations[:2])
