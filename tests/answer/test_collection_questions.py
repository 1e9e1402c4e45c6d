"""A question about the collection itself ("How many papers are there?", "Which venues does
it cover?", "这个文集有多少篇论文？") is answered from the index: its papers by venue and year.
Searched as a question it named a paper, sure ("How many papers are in this collection?" got
an offline-RL paper as "the most relevant"), or was refused."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.paper import Paper
from assistant.query import collection_ask

TOPICS = ["bandit regret bounds", "robot grasping from videos", "private mean estimation",
          "graph neural network pooling", "diffusion model sampling"]
PAPERS = [Paper(f"p{i}", f"A study of {TOPICS[i % 5]} number {i}",
                f"We study {TOPICS[i % 5]}. Our method improves on prior work in case {i}.",
                [f"A. Author{i}"], venue, year)
          for i, (venue, year) in enumerate(
              [("COLT", 2011)] * 3 + [("COLT", 2012)] * 2 + [("COLT", 2014)] * 4
              + [("UAI", 2020)] * 5 + [("CoRL", 2023)] * 2 + [("", None)] * 1)]

ASKED = ["How many papers are in this collection?", "How many papers are there?",
         "how many papers do you have?", "Which venues does this collection cover?",
         "What years are covered?", "What conferences are in here?", "What's in this collection?",
         "describe the collection", "这个文集有多少篇论文？", "文集里收录了哪些会议？"]
NOT_ASKED = ["How many papers on bandits are there?", "How many papers study diffusion?",
             "What years did they evaluate on?", "Which venues published the IPMark paper?",
             "What is in the abstract?", "How many parameters does it have?",
             "How many patients were there?", "有多少篇论文研究扩散模型？",
             "文集里有多少关于扩散模型的论文"]


@pytest.fixture(scope="module")
def retriever(module_retriever_over):
    return module_retriever_over(PAPERS, collection="venues")


def test_questions_about_the_collection_are_read_and_others_are_not():
    assert [q for q in ASKED if not collection_ask.read(q)] == []
    assert [q for q in NOT_ASKED if collection_ask.read(q)] == []


@pytest.mark.parametrize("question", ASKED)
def test_the_collection_is_described_from_its_index(question, retriever, embedder):
    result = answer(question, retriever=retriever, answerer=ExtractiveAnswerer(embedder=embedder))
    assert result.outcome == "listed" and not result.citations and not result.refused
    text = result.text
    assert f"**{len(PAPERS)}**" in text
    lines = dict(re.findall(r"^- (\S+)[^:]*: (\d+)", text, re.MULTILINE))
    expected = Counter((p.venue or "").upper() for p in PAPERS if p.venue)
    assert {v: int(n) for v, n in lines.items() if v in expected} == dict(expected)
    assert "2011–2012, 2014" in text  # COLT's years as runs
    if not re.search(r"[\u4e00-\u9fff]", question):
        assert "from 2011 to 2023" in text and "no venue given: 1 paper" in text


def test_a_count_of_a_topics_papers_is_still_the_topics(retriever, embedder):
    result = answer("How many papers on bandit regret bounds are there?", retriever=retriever,
                    answerer=ExtractiveAnswerer(embedder=embedder))
    assert result.model != "collection-v1"  # the topic's papers, not the collection's
    # counted by the trend's judge, or (when it puts none on the topic) searched as the papers
    # on it
    assert result.trend is not None or (
        result.search_query == "Which papers are about bandit regret bounds?"
        and result.outcome == "answered" and result.citations), result.text
