"""Questions asking for the papers like one paper: "Papers similar to Gaitor", "Which papers
are like the IPMark paper?", "Find more papers like this one".

``read(question)`` returns what names the paper ("Gaitor"; "" for the previous answer's paper:
"this one", "it"), or None for any other question. ``pipeline.astream`` answers it with
``search/similar.py``, as ``assistant similar`` does, when the paper is in the collection.
"""

from __future__ import annotations

import re

_PAPERS = r"(?:papers?|works?|stud(?:y|ies)|articles?)"
_LIKE = r"(?:similar\s+to|like|related\s+to|close\s+to|resembling)"
_ASKING = re.compile(
    r"^\W*(?:(?:can\s+you\s+|please\s+)?(?:find|show|list|give|recommend)\s+(?:me\s+)?|"
    r"(?:what|which)\s+(?:other\s+)?(?:" + _PAPERS + r"\s+)?(?:are|is)\s+(?:there\s+)?|"
    r"(?:are\s+there|any)\s+)?(?:more\s+|other\s+|some\s+)?(?:" + _PAPERS + r"\s+)?"
    + _LIKE + r"\s+(?P<x>.+?)\s*[?.!]*$", re.IGNORECASE)
# "find similar papers", "more like this": the previous answer's paper
_SIMILAR = re.compile(
    r"^\W*(?:(?:can\s+you\s+|please\s+)?(?:find|show|list|give|recommend)\s+(?:me\s+)?|"
    r"(?:are\s+there|any)\s+)?(?:more\s+|other\s+|some\s+)?similar\s+" + _PAPERS
    + r"\s*[?.!]*$|^\W*more\s+like\s+(?:this|that|it)\s*[?.!]*$", re.IGNORECASE)
_PREVIOUS = re.compile(r"^(?:this|that|it|this\s+one|that\s+one|the\s+(?:last|previous|"
                       r"first)\s+one|(?:this|that|the\s+last|the\s+previous)\s+paper)$",
                       re.IGNORECASE)
_WRAP = re.compile(r"^(?:the\s+)?(?:paper\s+)?[\"“'‘]?|[\"”'’]?(?:\s+paper)?$", re.IGNORECASE)


def read(question: str) -> str | None:
    """What names the paper whose like the question asks for ("" for the previous answer's),
    or None when it asks for something else."""
    q = " ".join(question.split())
    if _SIMILAR.match(q):
        return ""
    m = _ASKING.match(q)
    if not m:
        return None
    named = _WRAP.sub("", m.group("x").strip()).strip()
    return "" if _PREVIOUS.match(named) else named or None
