"""A comparison asked in Chinese is read from how the question is built, over generated
phrasings: each form yields its two sides as written; a side that points back, a comparison
inside a longer question about one paper, and questions that compare nothing are no
comparison."""

import itertools

import pytest

from assistant.query.compare import sides_zh
from assistant.query.form import parse

SIDES = [("IPMark", "IPMark", "VGS", "VGS"),
         ("知识蒸馏", "知识蒸馏", "模型剪枝", "模型剪枝"),
         ("关于蛋白质折叠的论文", "蛋白质折叠", "CPMöbius", "CPMöbius"),
         ("那篇关于文本水印的工作", "文本水印", "图神经网络的研究", "图神经网络"),
         ("扩散模型", "扩散模型", "生成对抗网络", "生成对抗网络")]
FORMS = ["{a}和{b}有什么区别？", "{a} 与 {b} 有何不同?", "{a}跟{b}之间有什么差别",
         "{a}和{b}的区别是什么？",
         "比较{a}与{b}", "请比较一下{a}和{b}的异同", "对比 {a} 和 {b}", "{a}与{b}相比如何？",
         "{a}和{b}相比，有什么不同？", "{a}和{b}哪个更好？", "{a} vs {b} 有什么区别",
         "请问{a}和{b}有什么区别？"]


@pytest.mark.parametrize(("side", "form"), list(itertools.product(
    itertools.permutations(SIDES, 2), FORMS)))
def test_every_form_yields_its_two_sides(side, form):
    (a, a_read, _, _), (_, _, b, b_read) = side
    question = form.format(a=a, b=b)
    assert sides_zh(question) == [a_read, b_read], question
    read = parse(question)
    assert read.asked_sides == (a_read, b_read) and read.cjk and not read.listing


@pytest.mark.parametrize("question", [
    "它和VGS有什么区别？",  # the previous answer's paper: a follow-up
    "这个方法与扩散模型相比如何？",
    "在冻结预训练网络上加一个小ReLU网络做微调，要改写N个样本的标签需要多少神经元？两层和三层网络的界有何区别？",
    "有没有关于水印和检测的论文？",
    "这篇论文用了哪些数据集？",
    "IPMark和IPMark有什么区别？",
    "哪些论文比较了扩散模型和生成对抗网络的区别？",  # papers that compare: a list
    "有没有工作研究扩散模型和GAN有什么区别",
    "How does IPMark differ from VGS?",  # English: query/compare.sides reads it
])
def test_no_comparison_of_two_papers(question):
    assert sides_zh(question) is None
    assert parse(question).asked_sides is None


# three or more things listed with "、" before the join: each a side
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("n", [3, 4])
def test_things_listed_before_the_join_are_sides_too(form, n):
    for start in range(len(SIDES) - n + 1):
        chosen = SIDES[start:start + n]
        listed = "、".join(side[0] for side in chosen[:-1])
        question = form.format(a=listed, b=chosen[-1][0])
        assert sides_zh(question) == [side[1] for side in chosen], question
        assert parse(question).asked_sides == tuple(side[1] for side in chosen)


@pytest.mark.parametrize("question", [
    "在强化学习中，PPO 和 SAC 有什么区别？",  # a clause before a comma is no side of its own
    "甲方法、乙方法、丙方法、丁方法、戊方法、己方法和庚方法有什么区别？",  # more than six things
])
def test_a_comma_or_a_long_list_is_not_several_sides(question):
    got = sides_zh(question)
    assert got is None or (len(got) == 2 and "，" in got[0]), (question, got)
