"""A question that asks which paper introduces a named method ("Which paper introduces Adam?",
"Who proposed the Transformer?") is answered only by a paper that is about that method: its
title carries the name, or its abstract introduces it ("we propose Adam", "Adam, a method
...", "named Adam"). A paper that only uses or compares with the method is the closest match,
not the answer, so the decision makes such a question a near miss that says the method is not
in the collection.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from assistant.paper import Paper
from assistant.sources.titles import names_in, title_name
from assistant.textutil import clean_markup, split_sentences

if TYPE_CHECKING:
    from assistant.search.retrieval import RetrievedPaper

# "we propose X", "X, which we call ...": not "we leverage the recently developed X" (someone
# else's, described)
_OWNS = re.compile(r"\b(?:we|this (?:paper|work))\s+(?:(?!(?:recently|previously|originally|"
                   r"widely|commonly|newly|already|popularly|successfully|well)\b)\w+\s+){0,3}?"
                   r"(?:propose|introduce|present|"
                   r"develop|design|call|name|dub|term)\w*\b|\b(?:named|called|dubbed|termed)\b",
                   re.IGNORECASE)


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


def missing(names: Sequence[str], papers: Sequence[Paper]) -> str:
    """The asked method name (``Form.introduces``) no paper of ``papers`` introduces ("" when
    none is asked, or one of them introduces it)."""
    for name in names:
        if not any(introduces(p, name) for p in papers):
            return name
    return ""


def introducer(names: Sequence[str], papers: Sequence[Paper]) -> Paper | None:
    """The first of ``papers`` that introduces every method the question asks about (``names``:
    ``Form.introduces``; None when it asks about none, or no paper introduces them all): one
    whose title holds them first, as a title names what its paper is about."""
    if not names:
        return None
    titled_so = [p for p in papers if all(_has(n, p.title) for n in names)]
    return next((p for p in [*titled_so, *papers] if all(introduces(p, n) for n in names)), None)


def titled(side: str, paper: Paper) -> bool:
    """Is ``side`` the paper's title, or the name its title opens with before a colon or a
    parenthesis ("Post: Device Placement with ..." is "Post"'s paper, "Post-training for Deep
    Learning" is not)?"""
    want = " ".join(side.lower().split())
    title = " ".join(paper.title.lower().split())
    return bool(want) and want in (title, title_name(title))


def side_lead(side: str, found: Sequence[RetrievedPaper], *, over: int = 6,
              otherwise: Callable[[Sequence[RetrievedPaper]], RetrievedPaper | None] | None = None
              ) -> RetrievedPaper | None:
    """The paper a comparison's side stands for: the best-ranked of its first ``over``
    results whose title the side is or opens with (``titled``: "Compare Paleo and Post" named
    "Post-training for Deep Learning" for "Post", sure, over the paper "Post: Device Placement
    ..."); when the side names a method ("MaskAQ", "Q2D2"), the best-ranked that introduces it
    (a paper that only discusses or compares with the method is not it); else ``otherwise``'s
    pick of them (decision.side_leads: the highest estimate), else its first result."""
    for rp in found[:over]:
        if titled(side, rp.paper):
            return rp
    names = names_in(side)
    if names:
        for rp in found[:over]:
            if all(introduces(rp.paper, n) for n in names):
                return rp
    if otherwise is not None:
        return otherwise(found)
    return found[0] if found else None
