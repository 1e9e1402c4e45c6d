""""Who works on X?" lists the papers on X with their authors, then the authors on more than
one of them, each line citing those papers (checked, as any claim, against each paper's title
line). It was answered as one paper ("The closest match is ...") with no author named."""

from __future__ import annotations

import re

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.framing import ENGLISH
from assistant.answer.pipeline import answer
from assistant.paper import Paper
from assistant.query import field_ask
from assistant.query.numbered import numbered_paper

BANDITS = [
    Paper("b1", "Regret bounds for contextual bandits with side information",
          "We study contextual bandits and prove regret bounds that depend on the dimension of "
          "the side information.", ["Ann E. Ray", "Bo Li"], "COLT", 2017),
    Paper("b2", "Thompson sampling for linear bandits",
          "Thompson sampling for linear bandits attains a near-optimal regret bound; we give a "
          "simpler proof of its regret.", ["Ann E. Ray", "Cy Dunn"], "COLT", 2019),
    Paper("b3", "Bandits with delayed feedback",
          "In multi-armed bandits with delayed feedback the regret grows with the delay; we "
          "give an algorithm whose regret is optimal in it.", ["Dee Fox", "Bo Li"], "UAI", 2021),
    Paper("b4", "Adversarial bandits with switching costs",
          "Adversarial multi-armed bandits with a cost for switching arms have regret of order "
          "T to the two thirds; we match it.", ["Eve Gold"], "COLT", 2015),
]
OTHERS = [
    Paper("o1", "Grasping transparent objects from depth images",
          "A robot grasps transparent objects by completing their missing depth.",
          ["Ann E. Ray"], "CoRL", 2022),
    Paper("o2", "Popularity bias in knowledge graph evaluation",
          "Link prediction benchmarks for knowledge graph embeddings are dominated by frequent "
          "entities.", ["Fay Hill"], "UAI", 2020),
]
BY_ID = {p.paper_id: p for p in [*BANDITS, *OTHERS]}
ASKED = ["Who works on bandits?", "Who are the main researchers in bandits?",
         "Which researchers publish on bandits?", "Who has worked on bandits?"]


@pytest.fixture(scope="module")
def retriever(module_retriever_over):
    return module_retriever_over([*BANDITS, *OTHERS], collection="who")


def test_who_works_on_a_topic_is_read_and_one_papers_authors_are_not():
    for question in ASKED:
        asked = field_ask.read(question)
        assert asked is not None and asked.who and "bandits" in asked.topic, question
    for question in ["Who wrote the paper on bandits?", "Who are its authors?",
                     "Who works on it?", "Who are the authors of IPMark?"]:
        asked = field_ask.read(question)
        assert asked is None or not asked.who, question


@pytest.mark.parametrize("question", ASKED)
def test_the_papers_authors_and_those_on_several_are_named_and_checked(question, retriever,
                                                                       embedder):
    result = answer(question, retriever=retriever, answerer=ExtractiveAnswerer(embedder=embedder))
    by_n = {c.n: BY_ID[c.paper.paper_id] for c in result.citations}
    listed = re.findall(r"^- \*\*(.+?)\*\*, by (.+?) \[(\d+)\]:", result.text, re.MULTILINE)
    assert len(listed) >= 3, result.text
    for title, names, n in listed:  # each paper named with its own authors
        paper = by_n[int(n)]
        assert title == paper.display_title and names == paper.author_names()
    tally = result.text.split(ENGLISH.listing_who, 1)[1].split("\n\n", 1)[0]
    lines = re.findall(r"^- (.+?): (.+)$", tally, re.MULTILINE)
    assert lines, result.text
    listed_ns = {int(n) for _, _, n in listed}
    for names, cited in lines:  # every name is an author of every paper its line cites
        ns = [int(n) for n in re.findall(r"\[(\d+)\]", cited)]
        assert len(ns) > 1 and set(ns) <= listed_ns
        for name in re.split(r", | and ", names):
            assert all(name in by_n[n].authors for n in ns), (name, ns)
    assert "Ann E. Ray" in tally  # on b1 and b2; her robot paper is not on the topic
    assert result.grounding is not None  # a name's initial ("Ann E. Ray") ends no sentence:
    # every claim, the authors' lines and the tally's included, is supported
    assert [c.text for c in result.grounding.claims if c.verdict != "supported"] == []


def test_a_paper_of_a_who_list_is_named_by_its_number(retriever, embedder):
    answerer = ExtractiveAnswerer(embedder=embedder)
    first = answer("Who works on bandits?", retriever=retriever, answerer=answerer)
    two = next(c.paper for c in first.citations if c.n == 2)
    assert numbered_paper("tell me more about [2]", [("q", first.text)]) == two.display_title
