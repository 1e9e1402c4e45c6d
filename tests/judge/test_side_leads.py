"""A comparison side's paper is picked as a one-paper question's is: the paper that introduces a
method it names, else the highest estimate among its first results, not retrieval's first
alone; and a comparison whose side is led by a paper its own estimate does not put first is
never said as sure. The verifier is passed in (a scorer that reads the passage), so the pick
is the estimate's, whichever order retrieval gives."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assistant.judge.decision import decide, side_leads
from assistant.judge.verifier import Remembered
from assistant.paper import Paper
from assistant.query.form import of
from assistant.search.compared import lead_with_sides

DISCERN = Paper("p-discern", "Learning to Discern: imitating heterogeneous human demonstrations",
                "Practical imitation learning uses demonstrations of mixed quality. We learn to "
                "discern good from poor demonstrations with a quality estimator and filter the "
                "data before training the robot policy.", ["A. One"], "CoRL", 2023)
DREAMER = Paper("p-dreamer", "World models for physical robot learning",
                "We learn a world model online on physical robots and learn to act in it; the "
                "robots learn to walk within an hour.", ["B. Two"], "CoRL", 2022)
SOFTMAX = Paper("p-softmax", "Breaking the softmax bottleneck of language models",
                "The softmax layer limits the rank of a language model's output. A mixture of "
                "softmaxes lifts the bottleneck and lowers perplexity.", ["C. Three"], "ICLR",
                2018)
OTHER = [Paper(f"p-{i}", f"Regret bounds for bandit problem {i}",
               f"We prove regret bounds for bandit variant {i} with side information.",
               ["D. Four"], "COLT", 2019) for i in range(4)]


class Reads:
    """A verifier that is sure of a passage holding ``word`` and of nothing else."""

    def __init__(self, word: str) -> None:
        self.word = word

    def score(self, question: str, passages: list[str]) -> list[float]:
        return [0.97 if self.word in p else 0.02 for p in passages]


@pytest.fixture(scope="module")
def retriever(module_retriever_over):
    return module_retriever_over([DISCERN, DREAMER, SOFTMAX, *OTHER], collection="leads")


def _dreamer_first(found):
    """The side's results with the world-models paper first, as retrieval ranked it for
    "Learning to Discern" over a few thousand papers."""
    rest = [rp for rp in found if rp.paper is not DREAMER and rp.paper.paper_id != "p-dreamer"]
    first = next(rp for rp in found if rp.paper.paper_id == "p-dreamer")
    return [replace(rp, rank=i) for i, rp in enumerate([first, *rest], 1)]


def test_a_side_is_led_by_its_best_estimate_not_by_retrievals_first(retriever):
    side = "learning to discern good demonstrations"
    found = _dreamer_first(retriever.search(side, k=6).papers)
    assert found[0].paper.paper_id == "p-dreamer"
    lead = side_leads(index=retriever.index(), verifier=Reads("discern"))(side, found)
    assert lead is not None and lead.paper.paper_id == "p-discern"


def test_a_named_method_is_led_by_the_paper_that_introduces_it(retriever):
    """A side that names a method: its introducer, whatever the verifier says."""
    named = Paper("p-mos", "MixSoft: a mixture of softmaxes",
                  "We introduce MixSoft, a mixture of softmaxes for language models.", ["E. Five"],
                  "ICLR", 2018)
    found = retriever.search("MixSoft", k=6).papers
    from assistant.search.retrieval import RetrievedPaper

    found = [*found[:2], RetrievedPaper(named, 0.1, 3), *found[2:]][:6]
    lead = side_leads(index=retriever.index(), verifier=Reads("world model"))("MixSoft", found)
    assert lead is not None and lead.paper.paper_id == "p-mos"


def test_a_side_not_led_by_its_best_estimate_is_never_sure(retriever):
    a, b = "learning to discern good demonstrations", "breaking the softmax bottleneck"
    question = f"How does {a} differ from {b}?"
    side_a = _dreamer_first(retriever.search(a, k=6).papers)
    side_b = retriever.search(b, k=6).papers
    papers = [side_a[0], side_b[0], *side_a[1:]]
    verdict = decide(of(question), papers, index=retriever.index(),
                     sides=[(a, side_a), (b, side_b)], verifier=Reads("discern"))
    assert verdict.decision.sides[0] == "not_found"
    assert not verdict.confident


class Counted(Reads):
    """``Reads``, counting each (question, passage) pair it is asked to score."""

    def __init__(self, word: str) -> None:
        super().__init__(word)
        self.pairs: list[tuple[str, str]] = []

    def score(self, question: str, passages: list[str]) -> list[float]:
        self.pairs += [(question, p) for p in passages]
        return super().score(question, passages)


def test_remembered_reads_a_pair_once_and_gives_what_was_read():
    counted = Counted("discern")
    read = Remembered(counted)
    first = read.score("q", ["a discern", "b", "a discern"])
    assert first == [0.97, 0.02, 0.97]
    assert read.score("q", ["b", "c discern"]) == [0.02, 0.97]
    assert read.score("other q", ["b"]) == [0.02]
    assert counted.pairs == [("q", "a discern"), ("q", "b"), ("q", "c discern"),
                             ("other q", "b")]


def test_a_comparisons_side_papers_are_scored_once_and_judged_as_before(retriever):
    """The pipeline's way: one ``Remembered`` picks each side's paper and judges it; the
    verdict is the one a scorer read afresh each time gives, and no pair is read twice."""
    a, b = "learning to discern good demonstrations", "breaking the softmax bottleneck"
    question = of(f"How does {a} differ from {b}?")
    found = retriever.search(question.query or question.question, k=6)

    def judged(scorer):
        searched, sides = lead_with_sides((a, b), found, retriever=retriever, filters=None,
                                          k=6, lead=side_leads(index=retriever.index(),
                                                               verifier=scorer))
        return decide(question, searched.papers, index=retriever.index(), sides=sides,
                      verifier=scorer)

    afresh = Counted("discern")
    counted = Counted("discern")
    before, after = judged(afresh), judged(Remembered(counted))
    assert after.to_dict() == before.to_dict()
    assert len(set(afresh.pairs)) < len(afresh.pairs)  # read twice when not remembered
    assert len(set(counted.pairs)) == len(counted.pairs)
    assert set(counted.pairs) == set(afresh.pairs)
