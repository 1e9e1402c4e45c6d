"""A question asking for the papers like one paper is read as such (and answered as
``assistant similar`` lists them); a question that only says "like" is not."""

from __future__ import annotations

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.query.similar_ask import read
from assistant.search.retrieval import Retriever

ASKED = {
    "papers similar to Gaitor": "Gaitor",
    "Which papers are like the IPMark paper?": "IPMark",
    "What other papers are similar to “Streaming Flow Policy”?": "Streaming Flow Policy",
    "Are there papers related to DyPE?": "DyPE",
    "Can you find me more papers like Q2D2?": "Q2D2",
    "Find more papers like this one": "", "find similar papers": "", "more like this": "",
    "Any similar papers?": "",
}
NOT_ASKED = ["Is there a paper that learns gaits like animals do?",
             "Which paper uses a loss like the hinge loss?",
             "How does this compare to papers like BERT?", "Papers on bandits",
             "Which paper makes diffusion transformers generate huge images?"]


@pytest.mark.parametrize(("question", "named"), ASKED.items())
def test_asking_for_papers_like_one_is_read(question, named):
    assert read(question) == named


@pytest.mark.parametrize("question", NOT_ASKED)
def test_a_question_that_only_says_like_is_not(question):
    assert read(question) is None


def test_papers_like_a_named_paper_are_listed_as_similar_lists_them(bundled_store, embedder):
    retriever = Retriever(store=bundled_store)
    answerer = ExtractiveAnswerer(embedder=embedder)
    ipmark = retriever.paper_titled("IPMark", named=True)
    result = answer("Which papers are like the IPMark paper?", retriever=retriever,
                    answerer=answerer)
    assert result.outcome == "listed"
    assert result.text.startswith(f"Papers like **{ipmark.display_title}**")
    ids = [c.paper.paper_id for c in result.citations]
    assert ids and ipmark.paper_id not in ids and len(ids) == len(set(ids))
    # asked after an answer about it, "more like this" lists the same papers
    first = answer("How does IPMark watermark LLM text?", retriever=retriever,
                   answerer=answerer)
    again = answer("find similar papers", retriever=retriever, answerer=answerer,
                   history=[("How does IPMark watermark LLM text?", first.text)])
    assert [c.paper.paper_id for c in again.citations] == ids


def test_papers_like_a_topic_no_paper_is_named_by_are_answered_as_usual(bundled_store,
                                                                         embedder):
    result = answer("papers similar to quantization of vision transformers",
                    retriever=Retriever(store=bundled_store),
                    answerer=ExtractiveAnswerer(embedder=embedder))
    assert not result.text.startswith("Papers like")
