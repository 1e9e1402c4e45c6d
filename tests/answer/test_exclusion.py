"""Papers on a topic that do not use something ("Which papers on robot grasping do not use
reinforcement learning?"): listed as asked, the papers using it came first, the opposite of the
question. Now the topic's papers are listed with those whose title or abstract mentions the
excluded thing (other than as done without) left out, and the answer says how many."""

from __future__ import annotations

import re

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.judge.uses import uses
from assistant.paper import Paper
from assistant.query.exclusion import Exclusion, read
from assistant.sources.corpus import bundled_papers

READ = {
    "Which papers on robot grasping do not use reinforcement learning?":
        ("robot grasping", "reinforcement learning"),
    "Papers on image generation without GANs": ("image generation", "GANs"),
    "Which GAN papers don't need labels?": ("GAN", "labels"),
    "Are there papers that don't use reinforcement learning for robot grasping?":
        ("robot grasping", "reinforcement learning"),
    "Is there work on object detection that doesn't use anchors?": ("object detection",
                                                                     "anchors"),
    "Show me methods for domain adaptation that don't require target labels":
        ("domain adaptation", "target labels"),
    "Which papers on online learning do not assume convexity?": ("online learning",
                                                                 "convexity"),
}
# a question describing one paper says what it does without: read as asked
AS_ASKED = ["Is there a method to train GANs without labels?",
            "Which papers are about learning without labels?",
            "Any density estimator built on a tensor-train decomposition instead of neural nets?",
            "Which papers study bandit algorithms when rewards are heavy-tailed rather than "
            "sub-Gaussian?",
            "Any system that reconstructs per-object NeRF shapes from few observations, guiding "
            "a pretrained generative shape model without finetuning?"]


def test_a_request_for_papers_without_something_is_read_as_its_topic_and_the_thing():
    for said, (topic, thing) in READ.items():
        assert read(said) == Exclusion(topic, thing), said
        assert read(said).asked == f"Which papers are about {topic}?"
    for said in AS_ASKED:
        assert read(said) is None, said


def _paper(pid: str, title: str, abstract: str) -> Paper:
    return Paper(pid, title, abstract, ["A. Author"], "CoRL", 2022)


GRASPING = [
    _paper("rl1", "Deep reinforcement learning for robotic grasping",
           "The authors train a robotic grasping policy with deep reinforcement learning from "
           "camera images, reaching high grasp success on novel objects."),
    _paper("rl2", "Learning to grasp cluttered objects",
           "The authors learn a robot grasping policy in clutter with an RL agent rewarded for "
           "stable grasps."),
    _paper("g1", "Contact point detection for robot grasping",
           "The authors detect contact points for robot grasping from a volumetric scene "
           "model and select antipodal grasps analytically."),
    _paper("g2", "Grasping from demonstrations without reinforcement learning",
           "The authors learn robot grasping from human demonstrations instead of reinforcement "
           "learning, with a grasp quality network trained by supervised learning."),
    _paper("g3", "Tactile robot grasping of deformable objects",
           "The authors use tactile sensing to adjust grasp force for robot grasping of "
           "deformable objects."),
    _paper("o1", "Sparse Gaussian processes for streaming data",
           "The authors update a sparse Gaussian process posterior online."),
]


@pytest.fixture(scope="module")
def grasping(module_retriever_over):
    return module_retriever_over(GRASPING + bundled_papers(), collection="grasping")


def test_papers_that_use_the_excluded_thing_are_left_out_and_counted(grasping, embedder):
    answerer = ExtractiveAnswerer(embedder=embedder)
    said = answer("Which papers on robot grasping do not use reinforcement learning?",
                  retriever=grasping, answerer=answerer)
    cited = {c.paper.paper_id for c in said.citations}
    assert said.outcome == "answered" and cited, said.text
    assert not cited & {"rl1", "rl2"}, said.text  # both use it: neither listed
    assert "g2" in cited  # mentions it only as what it does without
    assert all(not uses(c.paper, "reinforcement learning") for c in said.citations)
    left = re.match(r"\(Left out: (\d+) papers the search found whose title or abstract "
                    r"mentions “reinforcement learning”", said.text)
    assert left and int(left.group(1)) >= 2, said.text
    assert said.to_dict()["search_query"] == "Which papers are about robot grasping?"
    # the papers left are judged on the topic, not answered as papers the user picked: a
    # topic nothing here is on is refused as "Which papers are about X?" is
    for off in ("Which papers on sourdough baking do not use yeast?",
                "Papers on medieval French poetry without rhyme"):
        refused = answer(off, retriever=grasping, answerer=answerer)
        assert refused.outcome == "refused" and not refused.citations, refused.text
        assert not refused.text.startswith("("), refused.text
    plain = answer("Which papers are about robot grasping?", retriever=grasping,
                   answerer=answerer)  # asked without the exclusion, they are listed
    assert {"rl1", "rl2"} & {c.paper.paper_id for c in plain.citations}


def test_a_mention_counts_as_use_unless_it_is_negated():
    def p(text: str) -> Paper:
        return _paper("x", "A method", text)
    for text, thing, used in (
            ("The authors develop a system based on reinforcement learning (RL).",
             "reinforcement learning", True),
            ("An RL policy learns grasps.", "reinforcement learning", True),
            ("Unlike prior RL-based approaches, the authors learn from demonstrations.",
             "reinforcement learning", False),
            ("Generative adversarial networks (GANs) are popular; the authors train a "
             "generator.", "GANs", True),
            ("The authors generate images without generative adversarial networks.", "GANs",
             False),
            ("Generative adversarial networks (GANs) are popular. A generator is trained.",
             "GAN", True),
            ("A label-free method is proposed.", "labels", False),
            ("Conditional models are trained with noisy labels.", "labels", True),
            ("Nothing related is said here.", "labels", False),
            ("Diffusion transformers generate images.", "diffusion models", True),
            ("A convolutional encoder reads each frame.", "convolutional networks", True)):
        assert uses(p(text), thing) == used, (text, thing)


def test_a_request_asked_in_chinese_leaves_out_the_same_papers(grasping, embedder):
    """ "机器人抓取方面有哪些不用强化学习的工作？" was searched "robotic grasping not so
    reinforcement learning" and listed the papers that use it; it is read as its English form
    is, the topic and the thing translated, the answer's own sentences in Chinese."""
    from assistant.query.exclusion import read_chinese

    for question, (topic, thing) in {
            "机器人抓取方面有哪些不用强化学习的工作？": ("机器人抓取", "强化学习"),
            "关于机器人抓取但不使用强化学习的论文有哪些？": ("机器人抓取", "强化学习"),
            "不使用GAN的图像生成论文有哪些？": ("图像生成", "GAN"),
            "有没有不需要标签的图像分类方法？": ("图像分类", "标签")}.items():
        assert read_chinese(question) == Exclusion(topic, thing), question
    for question in ("哪些论文不使用强化学习？", "这篇论文用了什么数据集？",
                     "有没有用强化学习做机器人抓取的论文？"):
        assert read_chinese(question) is None, question
    answerer = ExtractiveAnswerer(embedder=embedder)
    said = answer("机器人抓取方面有哪些不用强化学习的工作？", retriever=grasping, answerer=answerer)
    cited = {c.paper.paper_id for c in said.citations}
    assert said.outcome == "answered" and cited and not cited & {"rl1", "rl2"}, said.text
    assert all(not uses(c.paper, "reinforcement learning") for c in said.citations)
    assert re.match(r"（已排除搜索到的 \d+ 篇标题或摘要提到“reinforcement learning”的论文",
                    said.text), said.text
