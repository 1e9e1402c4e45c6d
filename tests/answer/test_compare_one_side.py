"""A comparison near miss with some sides here says, side by side in order, which are (its
paper, as sure or as the closest match) and which are not (its closest paper, only that), in
the asker's language; with no side here, or every side found (another rule made it a near
miss), no side is singled out."""

from __future__ import annotations

import itertools

import pytest

from assistant.answer.extractive import near_miss_text
from assistant.answer.framing import CHINESE, ENGLISH
from assistant.paper import Paper
from assistant.query.form import parse
from assistant.search.retrieval import RetrievedPaper

PAPERS = [RetrievedPaper(Paper(f"p{i}", title, abstract, ["A. Author"], "UAI", 2021), 1.0, i)
          for i, (title, abstract) in enumerate([
              ("Sparse Gaussian processes for streaming data",
               "We update a sparse Gaussian process posterior online as data arrive."),
              ("Regret bounds for contextual bandits with knapsacks",
               "We prove regret bounds for contextual bandits under budget constraints."),
              ("Learning to grasp transparent objects from depth",
               "We train a grasping policy that completes the depth of transparent objects."),
              ("Certified robustness of graph neural networks to edge edits",
               "We certify graph neural network predictions against edge perturbations.")],
              1)]
EN = {2: "How does streaming Gaussian process inference differ from bandits with budgets?",
      3: "Compare streaming Gaussian processes, budgeted bandits and transparent grasping",
      4: "Compare streaming Gaussian processes, budgeted bandits, transparent grasping and "
         "certified graph networks"}
ZH = {2: "流式高斯过程推断和带预算的老虎机有什么区别？"}
STATES = ("sure", "found", "not_found")


def _cases():
    for n, question in [*EN.items()]:
        for sides in itertools.product(STATES, repeat=n):
            yield question, ENGLISH, sides
    for sides in itertools.product(STATES, repeat=2):
        yield ZH[2], CHINESE, sides


@pytest.mark.parametrize(("question", "say", "sides"), list(_cases()))
def test_each_side_is_said_in_turn(question, say, sides, embedder):
    form = parse(question)
    text = near_miss_text(form, PAPERS[:max(3, len(sides))], embedder=embedder, sides=sides)
    head = text.split("\n")[0]
    found = [s != "not_found" for s in sides]
    if not any(found) or all(found):  # no side singled out
        nothing = say.nothing_both if len(sides) == 2 else say.nothing_sides
        assert head == nothing.format(asked=head.split("“")[1].split("”")[0]), head
        assert not any(f"{o} side" in head or f"{o}方" in head for o in say.ordinals), head
    else:
        said = {"sure": say.side_sure, "found": say.side_closest}
        expected = "".join(said.get(state, say.side_missing).format(
            which=say.ordinals[i], n=i + 1, title=PAPERS[i].paper.display_title,
            closest=PAPERS[i].paper.display_title) for i, state in enumerate(sides))
        assert head == expected + say.sides_tail, head
        # every side named once, in order, each with its own paper's number
        at = [head.index(f"[{i + 1}]") for i in range(len(sides))]
        assert at == sorted(at), head
        for i in range(len(sides)):
            assert head.count(f"[{i + 1}]") == 1, head
    assert text.count("\n- **") == max(3, len(sides))  # the closest papers, listed
