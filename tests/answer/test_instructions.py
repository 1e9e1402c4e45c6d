"""A question typed as an instruction ("Summarize the DyPE paper", "Explain IPMark simply",
"Tell me about VGS") is judged as the question it asks (query/imperative.py): over the bundled
list, every paper's name asked so is answered as "Which paper is about NAME?" is, that paper
first."""

from __future__ import annotations

import re

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.query.imperative import as_question
from assistant.sources.corpus import bundled_papers

ASKED = {
    "Summarize the neural ODE paper.": "Which paper is about neural ODE?",
    "Please summarize the mixup paper, briefly": "Which paper is about mixup?",
    "Describe the paper on Gumbel-Softmax": "Which paper is about Gumbel-Softmax?",
    "Summarize the paper that introduced mixup": "Which paper introduced mixup?",
    "Explain spectral normalization simply": "What is spectral normalization?",
    "Can you explain neural ODEs in simple terms?": "What are neural ODEs?",
    "tell me about neural architecture search": "What is neural architecture search?",
    "Explain the limitations of mixup": "What are the limitations of mixup?",
    "Explain how batch norm helps optimization": "How batch norm helps optimization?",
    "Tell me about papers on GANs": "Which papers are about GANs?",
    "Give me a short summary of IPMark": "What is IPMark?",
}
AS_TYPED = ["Summarize the second paper", "Describe it", "Tell me more about it",
            "Tell me about [2]", "Explain", "Explain the second one",
            "Summarize the results of the first paper", "Describe the proposed method",
            "Describe a method that learns robot policies from videos",
            "Which paper is about mixup?", "Summarize this paper"]


def test_an_instruction_is_read_as_the_question_it_asks():
    for said, meant in ASKED.items():
        assert as_question(said) == meant, said
    for said in AS_TYPED:  # a back-reference is the follow-up's; a question stays one
        assert as_question(said) == said, said


NAMED = [(m.group(1), p.paper_id) for p in bundled_papers()
         if (m := re.match(r"^([A-Z][\w\-]*[A-Z][\w\-]*)[:( ]", p.title))]
FORMS = ["Tell me about {n}", "Explain {n} simply", "Summarize the {n} paper.",
         "Describe the paper on {n}", "Can you explain {n} in simple terms?"]


@pytest.fixture(scope="module")
def bundled(module_retriever_over):
    return module_retriever_over(bundled_papers(), collection="bundled")


def test_every_named_paper_asked_for_by_instruction_is_answered_as_the_question(bundled,
                                                                                embedder):
    assert len(NAMED) >= 10  # IPMark, DyPE, MaskAQ, VGS, UniR, Q2D2, ...
    answerer = ExtractiveAnswerer(embedder=embedder)
    for name, paper_id in NAMED:
        asked = answer(f"Which paper is about {name}?", retriever=bundled, answerer=answerer,
                       ground=False)
        assert asked.outcome == "answered" and asked.citations[0].paper.paper_id == paper_id
        for form in FORMS:
            said = answer(form.format(n=name), retriever=bundled, answerer=answerer,
                          ground=False)
            assert said.outcome == "answered", (form, name, said.text)
            assert said.citations[0].paper.paper_id == paper_id, (form, name)
            assert said.to_dict()["confident"] == asked.to_dict()["confident"], (form, name)
            assert said.question == form.format(n=name)  # the user's words, as asked
            # ... and what was searched and judged, as `ask --json` shows it
            assert said.to_dict()["search_query"] == as_question(form.format(n=name))
            assert said.to_dict()["search_query"] != form.format(n=name)
