"""A list question that asks for papers on two things at once: "Which papers work on both
differential privacy and bandits?", "What papers combine reinforcement learning with Gaussian
processes?", "work at the intersection of causal inference and fairness". Searched whole, such a
question listed papers on either thing (a differential-privacy paper on graph statistics, with
no bandit in it); its two parts (``on_both``) are what every listed paper must be about
(judge/decision.py).

Read only from these explicit forms; "X and Y" alone may mean either ("papers on sampling and
optimization"), and "both in theory and in practice" qualifies, it names no second topic.
"""

from __future__ import annotations

import re

from assistant.textutil import content_words

_FORMS = (  # never "Both relax faithfulness ...: how do they compare?" (two papers, each)
    re.compile(r"(?<=\w\s)both\s+(?P<a>.+?)\s+and\s+(?P<b>.+)$", re.IGNORECASE),
    re.compile(r"(?<![\w-])combin(?:e|es|ed|ing)\s+(?P<a>.+?)\s+(?:with|and)\s+(?P<b>.+)$",
               re.IGNORECASE),
    re.compile(r"(?<![\w-])intersection\s+(?:of|between)\s+(?P<a>.+?)\s+and\s+(?P<b>.+)$",
               re.IGNORECASE),
)
# the words around the two things in a question about them and nothing else
_FRAME = frozenset((
    "papers", "paper", "work", "works", "research", "studies", "study", "studied", "studying",
    "articles", "publications", "approaches", "approach", "methods", "method", "list", "show",
    "find", "give", "recommend", "suggest", "existing", "exist", "exists", "collection", "focus",
    "focuses", "focused", "address", "addresses", "tackle", "tackles", "explore", "explores",
    "combine", "combines", "combined", "combining", "looks", "look"))
MAX_WORDS = 10  # a part longer than this is a clause, not a topic
# a part that opens with one of these qualifies ("both in theory and in practice"), or says
# how ("combine them with care"): no topic of its own
_QUALIFIES = re.compile(r"^(?:in|on|at|for|from|by|as|to|with|under|over|them|it|this|these|"
                        r"those|the\s+two|each\s+other)\b", re.IGNORECASE)


def on_both(question: str) -> tuple[str, str] | None:
    """The two things a list question asks its papers to be about at once, or None. The
    question must be about them and nothing else: its other words frame a list ("Which papers
    work on ..."), or the two are details of a paper it describes ("Any model that joins
    matrix factorization with MRFs to capture both global and local interactions?")."""
    said = question.strip().rstrip("?？.。! ")
    for form in _FORMS:
        found = form.search(said)
        if found is None:
            continue
        a, b = (found[k].strip(" ,;:") for k in ("a", "b"))
        if any(_QUALIFIES.match(p) or not content_words(p) or len(p.split()) > MAX_WORDS
               or re.search(r"[:;?.。？]", p) for p in (a, b)):
            return None  # a qualifier, or a clause: no topic named
        framing = {w.lower() for w in content_words(said[:found.start()])}
        if framing - _FRAME:
            return None
        return a, b
    return None
