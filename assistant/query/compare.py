"""Comparison questions: "A vs B", "how does A differ from B", "compare A and B".

One query for both sides finds the side whose words dominate it and misses the other (on ICLR
2017, "How do the Gumbel-Softmax and the Concrete distribution papers differ?" ranked the
Concrete paper 7th). So each side is searched on its own and its best paper leads the sources;
the answer then cites each side's paper for what that paper says.
"""

from __future__ import annotations

import re

_PATTERNS = [
    re.compile(r"^(?:how|in what ways?) (?:does|do|is|are) (?P<a>.+?) (?:differ|different) "
               r"from (?P<b>.+?)\??$", re.IGNORECASE),
    re.compile(r"^(?:how|in what ways?) (?:does|do) (?P<a>.+?) (?:and|&) (?P<b>.+?) "
               r"(?:differ|compare)\b.*$", re.IGNORECASE),
    re.compile(r"^(?:what (?:is|are) the )?(?:main |key )?differences? between (?P<a>.+?) "
               r"and (?P<b>.+?)\??$", re.IGNORECASE),
    re.compile(r"^compare (?P<a>.+?) (?:and|with|to|against) (?P<b>.+?)\??$", re.IGNORECASE),
    re.compile(r"^(?:how does )?(?P<a>.+?) compare (?:with|to|against) (?P<b>.+?)\??$",
               re.IGNORECASE),
    re.compile(r"^(?P<a>.+?) (?:vs\.?|versus) (?P<b>.+?)\??$", re.IGNORECASE),
]
_FILLER = re.compile(r"\b(?:the|a|an|paper|papers|work|works|method|methods|approach|"
                     r"approaches|proposed|in|of|on)\b", re.IGNORECASE)


def _clean(side: str) -> str:
    side = re.sub(r"^(?:what is|what are|how is|how are)\s+", "", side.strip(" ,.;:?"),
                  flags=re.IGNORECASE)
    words = _FILLER.sub(" ", side)
    return " ".join(words.split())


def sides(question: str) -> list[str] | None:
    """The two things a comparison question compares, or None for any other question."""
    q = " ".join(question.split())
    for pattern in _PATTERNS:
        m = pattern.match(q)
        if m:
            a, b = _clean(m.group("a")), _clean(m.group("b"))
            if a and b and a.lower() != b.lower():
                return [a, b]
    return None
