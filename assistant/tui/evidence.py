"""Which sentences of an abstract an answer relied on (plain Python, no Textual).

An answer checked by the support judge (``Answer.grounding``) names its evidence sentence per
claim: those are highlighted. Otherwise (an answer saved before the check existed):

An answer's text is split into claims at its citation groups: the words before ``[2]`` (back to
the previous citation) are what source 2 is cited for. Each claim citing a paper is matched to
the abstract sentence that shares most content words with it; the extractive answerer quotes
its sentences, so its matches are exact. A paper the answer does not cite (or whose claims
match nothing) gets the sentences the extractive answerer would pick for the question.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from assistant.judge.grounding import answer_sentences, claims
from assistant.textutil import clean_markup, content_words, split_sentences

if TYPE_CHECKING:
    from assistant.answer.types import Answer
    from assistant.index.embeddings import Embedder
    from assistant.paper import Paper

MIN_SHARED = 2
MIN_COSINE = 0.2


@dataclass
class Evidence:
    sentences: list[str]  # the abstract, as sentences (what the modal shows)
    highlighted: list[int]  # indexes into sentences
    kind: str  # "cited": the answer's claims; "closest": best for the question; "none"


def abstract_sentences(paper: Paper) -> list[str]:
    return split_sentences(clean_markup(paper.abstract))


def _words(text: str) -> set[str]:
    return {w.rstrip("s") for w in content_words(clean_markup(text)) if len(w) > 2}


def best_match(claim: str, sentences: list[str]) -> int | None:
    want = _words(claim)
    if not want:
        return None
    best, best_score = None, 0.0
    for i, s in enumerate(sentences):
        have = _words(s)
        shared = len(want & have)
        if shared < MIN_SHARED:
            continue
        score = shared / math.sqrt(len(want) * len(have))
        if score > best_score:
            best, best_score = i, score
    return best if best_score >= MIN_COSINE else None


def relied_on(answer: Answer | None, paper: Paper, *, embedder: Embedder | None = None
              ) -> Evidence:
    sentences = abstract_sentences(paper)
    if answer is not None and answer.grounding is not None:  # the support check's evidence
        marks = [i for i in answer.grounding.evidence_for(paper.paper_id) if i < len(sentences)]
        if marks:
            return Evidence(sentences, marks, "cited")
    if answer is not None:
        numbers = {c.n for c in answer.citations if c.paper.paper_id == paper.paper_id}
        picked: set[int] = set()
        for claim, cited in (c for sentence in answer_sentences(answer.text)
                             for c in claims(sentence)):
            if numbers & set(cited):
                i = best_match(claim, sentences)
                if i is not None:
                    picked.add(i)
        if picked:
            return Evidence(sentences, sorted(picked), "cited")
    if embedder is not None and answer is not None and sentences:
        from assistant.answer.extractive import choose, score_sentences
        from assistant.query.form import parse
        from assistant.search.retrieval import RetrievedPaper

        # as searched: a Chinese question's English, a follow-up made standalone
        form = parse(answer.question).searched_as(answer.search_query or answer.question)
        scored = score_sentences(form, [RetrievedPaper(paper, 0.0, 1)], embedder=embedder)
        chosen = choose(scored, plural=False, max_sentences=2)[0]
        index = {s: i for i, s in enumerate(sentences)}
        marks = sorted(index[c.text] for c in chosen if c.text in index)
        if marks:
            return Evidence(sentences, marks, "closest")
    return Evidence(sentences, [], "none")
