"""A question that asks which paper introduces a named method ("Which paper introduces Adam?",
"Who proposed the Transformer?") is answered only by a paper that is about that method: its
title carries the name, or its abstract introduces it ("we propose Adam", "Adam, a method
...", "named Adam"). A paper that only uses or compares with the method is the closest match,
not the answer, so the decision makes such a question a near miss that says the method is not
in the collection.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.paper import Paper
from assistant.textutil import clean_markup, split_sentences

_ASKS = re.compile(
    r"\b(?:introduc|propos|invent|develop|first describ|came up with)\w*\s+"
    r"(?:the\s+|a\s+|an\s+)?(?P<name>(?:[A-Z][\w\-–]*|[a-z]+[A-Z][\w\-–]*)"
    r"(?:[\s\-](?:[A-Z][\w\-–]*|\d[\w\-–]*))*)"
    # the question is about the name itself: nothing follows it but what kind of thing it is
    r"(?:\s+(?:optimi[sz]er|algorithm|method|model|architecture|framework|network|loss|"
    r"dataset|benchmark|technique|approach))?\s*[?.!]*\s*$")
_GENERIC = frozenset(["paper", "papers", "method", "methods", "model", "models", "approach",
                      "framework", "we", "i", "a", "the"])
_OWNS = re.compile(r"\b(?:we|this (?:paper|work))\s+(?:\w+\s+){0,3}?(?:propose|introduce|present|"
                   r"develop|design|call|name|dub|term)\w*\b|\b(?:named|called|dubbed|termed)\b",
                   re.IGNORECASE)


def asked_names(question: str) -> list[str]:
    """The method names a "which paper introduces X" question asks about ([] for others, and
    for a question that goes on to describe the work: "proposed an RNN-CNN model for ..." asks
    for a paper, not for the inventor of a name)."""
    out = []
    for m in _ASKS.finditer(question):
        name = m.group("name").strip(" -–?.!,;:")
        if name and name.lower() not in _GENERIC:
            out.append(name)
    return out


def _has(name: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE) is not None


def introduces(paper: Paper, name: str) -> bool:
    """Is ``paper`` about the method ``name``: in its title, or introduced by its abstract?"""
    if _has(name, paper.title):
        return True
    for sentence in split_sentences(clean_markup(paper.abstract)):
        if _has(name, sentence) and _OWNS.search(sentence):
            return True
    return False


def missing(question: str, papers: Sequence[Paper]) -> str:
    """The asked method name no paper of ``papers`` introduces ("" when none is asked, or one
    of them introduces it)."""
    for name in asked_names(question):
        if not any(introduces(p, name) for p in papers):
            return name
    return ""


def introducer(question: str, papers: Sequence[Paper]) -> Paper | None:
    """The first of ``papers`` that introduces every method the question asks about (None
    when the question asks about none, or no paper introduces them all)."""
    names = asked_names(question)
    if not names:
        return None
    return next((p for p in papers if all(introduces(p, n) for n in names)), None)
