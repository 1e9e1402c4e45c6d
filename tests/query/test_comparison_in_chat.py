"""A comparison asked in a chat after another answer: "Compare Hyperband and successive halving"
compares things of its own and is a question of its own. It was read as a follow-up of the
answer before (on Massart noise), searched with that answer's titles appended, and its second
side named one of them. One that points back ("How does that compare to GPTQ?", "Compare [1]
and [2]", "the first one and the second one") is still read from the answer before."""

from __future__ import annotations

import random

import pytest

from assistant.answer.factory import build_answerer
from assistant.answer.pipeline import answer
from assistant.query.form import parse
from assistant.search.retrieval import Retriever
from assistant.settings import load_settings

PREVIOUS = [("Are there lower bounds for learning halfspaces with Massart noise?",
             "Two papers here match this about equally well: **Near-Optimal SQ Hardness** [1] "
             "and **Optimal SQ Lower Bounds** [2]."),
            ("Which paper proposes DyPE?", "The most relevant paper is **DyPE** [1].")]
NAMES = ["Hyperband", "successive halving", "PPO", "SAC", "flow matching", "rectified flow",
         "GPTQ", "AWQ", "batch normalization", "layer normalization", "Adam", "RMSProp"]
FORMS = ["Compare {a} and {b}", "{a} vs {b}", "How does {a} differ from {b}?",
         "What is the difference between {a} and {b}?", "Compare the sample complexity of {a} "
         "and {b}", "Compare {a} and {b} on sample efficiency"]


def test_a_comparison_of_its_own_is_no_follow_up():
    rng = random.Random(8)
    for _ in range(60):
        a, b = rng.sample(NAMES, 2)
        q = rng.choice(FORMS).format(a=a, b=b)
        for turn in PREVIOUS:
            form = parse(q, [turn])
            assert not form.follow_up, (q, turn[0])
            assert form.reading is not None and len(form.reading[0]) == 2, q


@pytest.mark.parametrize("q", ["How does that compare to GPTQ?", "Compare [1] and [2]",
                               "Compare the first one and the second one",
                               "How does it compare with successive halving?",
                               "Compare the method above with SAC", "Compare them"])
def test_a_comparison_that_points_back_is_a_follow_up(q):
    assert parse(q, PREVIOUS[:1]).follow_up, q


@pytest.mark.parametrize(("q", "follows"), [
    ("测试时训练和测试时自适应有什么区别？", False), ("IPMark 和 VGS 有什么区别？", False),
    ("比较文本水印和数据无关量化", False),
    ("前者和后者哪个更高效？", True), ("第二篇和 VGS 有什么区别？", True),
    ("它和 VGS 有什么区别？", True), ("上面的方法和 LoRA 相比如何？", True)])
def test_a_chinese_comparison_of_its_own_is_no_follow_up(q, follows):
    assert parse(q, [("LoRA 和 QLoRA 是什么？", "……")]).follow_up is follows, q


def test_the_comparison_is_searched_without_the_previous_titles(bundled_store):
    """Over the bundled list, after an answer on one paper, two other named methods compared:
    each side's own paper cited, in order, and the query is the question as asked."""
    retriever = Retriever(store=bundled_store)
    answerer = build_answerer(load_settings(), embedder=bundled_store.embedder)
    first = "Which paper generates ultra-high-resolution images with diffusion transformers?"
    before = answer(first, retriever=retriever, answerer=answerer)
    for q, want in (("Compare text watermarking and data-free quantization",
                     ["IPMark", "MaskAQ"]), ("Compare IPMark and VGS", ["IPMark", "VGS"])):
        result = answer(q, retriever=retriever, answerer=answerer,
                        history=[(first, before.text)])
        assert result.to_dict()["search_query"] == q
        cited = [c.paper.title.split(":")[0].split(" (")[0] for c in result.citations[:2]]
        assert cited == want, (q, cited, result.text)
        assert not any(c.paper.paper_id == before.citations[0].paper.paper_id
                       for c in result.citations[:2])
