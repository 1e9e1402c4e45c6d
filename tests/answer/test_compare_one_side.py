"""A comparison near miss with one side here says which side (its paper, as sure or as the
closest match) and which is not (its closest paper, only that), in the asker's language;
with neither side here it says no two papers match both sides."""

from __future__ import annotations

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
               "We train a grasping policy that completes the depth of transparent objects.")],
              1)]
EN = "How does streaming Gaussian process inference differ from bandits with budgets?"
ZH = "流式高斯过程推断和带预算的老虎机有什么区别？"


@pytest.mark.parametrize(("question", "say"), [(EN, ENGLISH), (ZH, CHINESE)])
@pytest.mark.parametrize(("sides", "here"), [(("sure", "not_found"), 0),
                                             (("not_found", "found"), 1)])
def test_the_side_here_and_the_side_not(question, say, sides, here, embedder):
    text = near_miss_text(parse(question), PAPERS, embedder=embedder, sides=sides)
    template = say.one_side if sides[here] == "sure" else say.one_side_closest
    head = template.format(which=say.ordinals[here], other=say.ordinals[1 - here],
                           n=here + 1, m=2 - here, title=PAPERS[here].paper.display_title,
                           closest=PAPERS[1 - here].paper.display_title)
    assert text.startswith(head + "\n"), text
    assert text.count("\n- **") == len(PAPERS)  # the closest papers, listed as before


@pytest.mark.parametrize(("question", "say"), [(EN, ENGLISH), (ZH, CHINESE)])
@pytest.mark.parametrize("sides", [("not_found", "not_found"), ("found", "sure")])
def test_neither_or_both_sides_found_is_said_of_both(question, say, sides, embedder):
    """Both found is no near miss of the sides' own making (another rule made it one): no
    side is singled out."""
    text = near_miss_text(parse(question), PAPERS, embedder=embedder, sides=sides)
    assert text.startswith(say.nothing_both.split("“")[0]), text
