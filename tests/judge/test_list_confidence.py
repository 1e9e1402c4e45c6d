"""A list question is answered as sure for the list it names; one that comes down to a single
paper is sure only as a one-paper answer is (its estimate at least the cut-off), over every
list phrasing and topic generated here, on the bundled store."""

from __future__ import annotations

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.judge import answerability
from assistant.search.retrieval import Retriever

TOPICS = ["making LLM quantization robust to outliers", "watermarking generated text",
          "pruning vision models", "differential privacy and memory", "audio codecs",
          "protein folding with language models", "reasoning without training data"]
FORMS = ["Which methods address {t}?", "Which papers study {t}?", "Any work on {t}?",
         "What approaches exist for {t}?"]


@pytest.mark.parametrize("form", FORMS)
def test_a_list_that_comes_down_to_one_paper_is_as_sure_as_that_paper(bundled_store, embedder,
                                                                       form):
    retriever = Retriever(store=bundled_store)
    answerer = ExtractiveAnswerer(embedder=embedder)
    singles = 0
    for topic in TOPICS:
        result = answer(form.format(t=topic), retriever=retriever, answerer=answerer,
                        ground=False)
        if result.outcome != "answered":
            continue
        # the answer's head, after any note in parentheses ("(Left out: ...)")
        head = next(line for line in result.text.split("\n") if line and line[0] != "(")
        if "papers in the collection bear on this" in head:
            assert result.confident, topic  # the list: each paper judged on topic
            continue
        singles += 1  # answered as one paper (others, if any, "also related")
        sure = result.answerability["p_answer"] >= answerability.ENGLISH.sure
        assert result.confident is sure, (topic, result.answerability)
        assert head.startswith("The most relevant" if sure else "The closest"), \
            result.text[:80]
    assert singles  # the store is small: some lists come down to one paper
