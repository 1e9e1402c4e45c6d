"""Questions about citations, which a list of titles and abstracts cannot answer: "Which
papers cite Attention Is All You Need?", "How many citations does DyPE have?", "What is the
most cited paper on bandits?".

Searched as they are, they were answered from whatever matched their words ("Which papers cite
Attention Is All You Need?" named "Realizable Learning is All You Need" as the closest match).
``read(question)`` returns what is asked (``CitesAsk``), or None for any other question;
``pipeline.astream`` says the collection holds no reference lists or citation counts, and
gives what it can instead: the papers most like a paper it holds, a topic's papers best first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class CitesAsk:
    # "citing": which papers cite X; "count": how often X is cited; "most": the most cited
    # (or most influential) papers on a topic X
    kind: str
    what: str  # the paper as named (its title, its name), or the topic ("": none named)


_PAPERS = r"(?:papers?|works?|articles?|studies|publications?)"
_HERE = r"(?:here\s+|in\s+this\s+collection\s+|in\s+the\s+collection\s+)?"
_PATTERNS = [
    # ("reference" is left out: "Which papers reference the Transformer?" asks for a mention)
    ("citing", re.compile(rf"^(?:which|what)\s+(?:other\s+)?{_PAPERS}\s+{_HERE}(?:cite|cites|"
                          rf"cited|have\s+cited)\s+(?!(?:the\s+)?most\b)(?P<x>.+)$", re.I)),
    ("citing", re.compile(r"^(?:who|what)\s+(?:cites|cited|has\s+cited)\s+"
                          r"(?!(?:the\s+)?most\b)(?P<x>.+)$", re.I)),
    ("citing", re.compile(rf"^(?:(?:find|show|list|give)\s+(?:me\s+)?)?(?:all\s+)?(?:the\s+)?"
                          rf"{_PAPERS}\s+(?:that\s+cite|citing|which\s+cite)\s+(?P<x>.+)$", re.I)),
    ("citing", re.compile(rf"^(?:does|do)\s+(?:any|a)\s+(?:other\s+)?{_PAPERS}\s+{_HERE}cite\s+"
                          r"(?P<x>.+)$", re.I)),
    ("citing", re.compile(r"^(?:is|was|has)\s+(?P<x>.+?)\s+(?:been\s+)?cited\s+(?:by\s+(?:any|"
                          r"other)\b.*|here|in\s+this\s+collection)$", re.I)),
    ("count", re.compile(r"^how\s+many\s+(?:times\s+(?:is|was|has)\s+(?P<x>.+?)\s+(?:been\s+)?"
                         r"cited|citations\s+(?:does|did|has)\s+(?P<y>.+?)\s+(?:have|got|get|"
                         r"gotten|received?|receive))$", re.I)),
    ("count", re.compile(r"^(?:what\s+is|what's)\s+the\s+(?:citation\s+count|number\s+of\s+"
                         r"citations)\s+(?:of|for)\s+(?P<x>.+)$", re.I)),
    ("most", re.compile(rf"\b(?:most|highly|widely|best|top)[\s-]+cited\s+{_PAPERS}\s+(?:on|"
                        r"about|in|for|regarding)\s+(?P<x>.+)$", re.I)),
    ("most", re.compile(rf"\bmost\s+influential\s+{_PAPERS}\s+(?:on|about|in|for)\s+(?P<x>.+)$",
                        re.I)),
    # "Which papers are the most cited here?", "What are the most cited papers?": no topic
    ("most", re.compile(r"\b(?:(?:most|highly|widely)[\s-]+cited|cited\s+(?:the\s+)?most|most\s+"
                        r"citations)\b(?P<x>)", re.I)),
]
_ZH_PATTERNS = [
    ("citing", re.compile(r"^(?:有)?哪些(?:论文|文章|工作)引用了?(?P<x>.+?)"
                          r"(?:这篇论文|这篇文章)?$")),
    ("citing", re.compile(r"^(?P<x>.+?)被哪些(?:论文|文章|工作)引用(?:了|过)?$")),
    ("count", re.compile(r"^(?P<x>.+?)(?:被引用了?|的引用)(?:多少次|次数|数|量)(?:是多少)?$")),
    ("most", re.compile(r"^(?:关于)?(?P<x>.+?)(?:方面|领域|方向)?(?:的)?(?:引用|被引)(?:次数)?"
                        r"最(?:多|高)的(?:论文|文章|工作)")),
]
# "the IPMark paper", "the paper “DyPE”" -> the name ("The sample complexity of ..." keeps its
# "The": a title may start with it)
_PAPER = re.compile(r"^(?:the\s+)?paper\s+|^the\s+(?=.+\s+paper$)|\s+paper$", re.IGNORECASE)


def read(question: str) -> CitesAsk | None:
    """What a question asks of citations, or None when it asks none of it."""
    q = " ".join(question.split()).strip().rstrip("?？.!。！ ")
    for kind, pattern in [*_PATTERNS, *_ZH_PATTERNS]:
        m = pattern.search(q)
        if not m:
            continue
        what = next((g for g in m.groups() if g), "")
        what = _PAPER.sub("", what.strip()).strip(" ,，。\"“”'‘’") if kind != "most" \
            else what.strip()
        if what or kind == "most":
            return CitesAsk(kind, what)
    return None
