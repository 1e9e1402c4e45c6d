"""Questions about citations (query/cites_ask.py, answer/no_citations.py): the collection holds
titles and abstracts, not reference lists or citation counts, and the answer says so. "Which
papers cite Attention Is All You Need?" named "Realizable Learning is All You Need" as the
closest match."""

from __future__ import annotations

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.query.cites_ask import CitesAsk, read
from assistant.search.retrieval import Retriever

READ = {
    "Which papers cite Attention Is All You Need?": ("citing", "Attention Is All You Need"),
    "Who cites DyPE?": ("citing", "DyPE"),
    "Papers citing the IPMark paper": ("citing", "IPMark"),
    "Papers citing the paper “DyPE”": ("citing", "DyPE"),
    # a title's own "The" stays (it was cut, and the paper not found by its title)
    "Which papers cite The Power of Depth for Feedforward Networks?":
        ("citing", "The Power of Depth for Feedforward Networks"),
    "Does any paper here cite Adam?": ("citing", "Adam"),
    "How many citations does DyPE have?": ("count", "DyPE"),
    "How many times has IPMark been cited?": ("count", "IPMark"),
    "What is the most cited paper on bandits?": ("most", "bandits"),
    "most influential papers in federated learning": ("most", "federated learning"),
    "Which papers are the most cited?": ("most", ""),
    "哪些论文引用了DyPE？": ("citing", "DyPE"),
    "DyPE被引用了多少次？": ("count", "DyPE"),
    "强化学习方面引用最多的论文是哪篇？": ("most", "强化学习"),
}
NOT_READ = ["How do I cite DyPE?", "What citation style should I use?",
            "Which papers reference the Transformer architecture?",
            "Which paper cites the most prior work?", "Give me the BibTeX for DyPE",
            "Which paper proposes a citation recommendation model?"]


def _ask(question, store, embedder, history=()):
    return answer(question, retriever=Retriever(store=store), history=history,
                  answerer=ExtractiveAnswerer(embedder=embedder))


def test_what_a_question_asks_of_citations_is_read():
    for question, (kind, what) in READ.items():
        assert read(question) == CitesAsk(kind, what), question
    for question in NOT_READ:
        assert read(question) is None, question


def test_the_papers_citing_one_here_are_said_unknown_then_those_most_like_it(bundled_store,
                                                                            embedder):
    said = _ask("Which papers cite DyPE?", bundled_store, embedder)
    like = _ask("Papers similar to DyPE", bundled_store, embedder)
    assert said.text.startswith("(This collection holds titles and abstracts, not the papers' "
                                "reference lists, so which papers cite **DyPE")
    assert "none is known to cite it" in said.text
    ids = [c.paper.paper_id for c in said.citations]
    assert ids and ids == [c.paper.paper_id for c in like.citations]
    assert not any("DyPE" in c.paper.title for c in said.citations)  # not itself
    # asked of the paper the last answer was about
    first = _ask("Which paper is about ultra-high-resolution image generation with diffusion "
                 "transformers?", bundled_store, embedder)
    assert "DyPE" in first.citations[0].paper.title
    back = _ask("Which papers cite it?", bundled_store, embedder,
                history=[(first.question, first.text)])
    assert [c.paper.paper_id for c in back.citations] == ids


@pytest.mark.parametrize("question", ["Which papers cite Attention Is All You Need?",
                                      "How many citations does IPMark have?",
                                      "Which papers are the most cited?"])
def test_what_no_paper_list_can_tell_is_said_and_nothing_is_cited(question, bundled_store,
                                                                   embedder):
    said = _ask(question, bundled_store, embedder)
    assert said.outcome == "refused" and said.refused and not said.citations
    assert said.text.startswith("This collection holds titles and abstracts, not ")
    if "IPMark" in question:  # the paper is here: named, its count not
        assert "how often **IPMark" in said.text


def test_the_most_cited_papers_on_a_topic_are_its_papers_after_saying_so(bundled_store,
                                                                        embedder):
    said = _ask("What is the most cited paper on quantization?", bundled_store, embedder)
    plain = _ask("Which papers are about quantization?", bundled_store, embedder)
    assert said.text.startswith("(This collection holds no citation counts, so which papers on "
                                "“quantization” are the most cited cannot be told from it")
    assert [c.paper.paper_id for c in said.citations] == \
        [c.paper.paper_id for c in plain.citations]
    assert said.question == "What is the most cited paper on quantization?"
    assert said.text.endswith(plain.text)
    assert said.grounding is not None and said.grounding.summary() == plain.grounding.summary()


def test_citations_asked_in_chinese_are_answered_in_chinese(bundled_store, embedder):
    said = _ask("哪些论文引用了DyPE？", bundled_store, embedder)
    assert said.text.startswith("（本文集只有标题和摘要，没有参考文献列表，"
                                "无法判断哪些论文引用了 **DyPE")
    count = _ask("DyPE被引用了多少次？", bundled_store, embedder)
    assert count.outcome == "refused"
    assert count.text.startswith("本文集只有标题和摘要，没有引用次数")
