"""A list asked for by number or as a request.

"Give me three papers on X", "the top 5 papers about Y", "推荐三篇论文": the list shows at most
that many papers (``papers_counted``; judge/decision.py cuts it), and the number is no word to
search (``without_count``: "top" found papers on top-k selection). "Give me papers on X",
"Find studies about X", "What are some papers on X?": searched and judged as the question
"Which papers are about X?" (``as_asked``), the way the verifier was trained to read.
"""

from __future__ import annotations

import re

from assistant.textutil import HOW_MANY_PAPERS, NOTABLE_PAPERS, has_cjk

_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20,
                 "a couple of": 2, "a pair of": 2}
_ZH_NUMBERS = {"两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
               "十": 10}
_NUMBERS = {**_NUMBER_WORDS, **_ZH_NUMBERS}  # every number word, to its value
_NUMBER = rf"(?:\d{{1,3}}|{'|'.join(_NUMBER_WORDS)})"
_PAPERS = r"(?:papers|works|studies|articles|references|publications|readings)\b"
_COUNTED = re.compile(rf"(?:^|(?<=\s))(?:the\s+)?(?:top\s+|best\s+)?(?P<n>{_NUMBER})\s+"
                      rf"(?:[\w-]+\s+){{0,2}}?{_PAPERS}", re.IGNORECASE)
_COUNTED_ZH = re.compile(rf"(?P<n>\d{{1,3}}|[{''.join(_ZH_NUMBERS)}])\s*篇")
# "the two papers", "these three works", "both", "the first two": papers named before, not
# a number asked for
_NAMED_BEFORE = re.compile(r"(?:\b(?:the|these|those|both|my|our|their|its|first|last|of)|"
                           r"这|那|前|后)\s*$", re.IGNORECASE)
# a number of papers asked for, not said in passing ("I read 2 papers on X")
_ASKS_COUNTED = re.compile(rf"^(?:please\s+|can you\s+|could you\s+)?(?:give|list|recommend|"
                           rf"suggest|name|show|find|point me to|what are|which are|tell me)\b|"
                           rf"\b(?:top|best)\s+{_NUMBER}|推荐|列出|给我|找", re.IGNORECASE)
MOST_COUNTED = 20  # a list weighs this many papers at most (decision.VERIFY_OVER)


_COUNT_SAID = re.compile(rf"(?<![\w-])(?:(?:top|best)\s+{_NUMBER}|{_NUMBER}(?=\s+(?:[\w-]+\s+)"
                         rf"{{0,2}}?{_PAPERS}))(?![\w-])", re.IGNORECASE)


def without_count(query: str) -> str:
    """The query without the number of papers it asks for ("What are the top 5 papers about
    bandits?" -> "What are the papers about bandits?"): no abstract holds it, and "top" found
    papers on top-k selection."""
    out = " ".join(_COUNT_SAID.sub(" ", query).split())
    return out if any(ch.isalnum() for ch in out) else query


# a list asked for as a request ("Give me papers on X", "Find three studies about X"): judged
# and searched as "Which papers are about X?", as questions are asked (the verifier, trained
# on questions, scored "Give me papers on online learning with delays" a near miss that "Which
# papers are about online learning with delays?" answers, 0.25 against 0.85)
_REQUEST = re.compile(
    r"^(?:please\s+)?(?:(?:can|could|would) you\s+)?(?:(?:give me|show me|find(?: me)?|list|"
    r"recommend|suggest|point me to|get me|name|what are|which are|(?P<sing>what is|which is))"
    r"\s+|"
    r"(?=(?:the\s+)?(?:" + NOTABLE_PAPERS + r")\b))"
    r"(?:(?P<one>a|an|one|1|a single)\s+|some\s+|a few\s+|several\s+|any\s+|more\s+|"
    r"the\s+)?(?:(?:recent|relevant|related|" + NOTABLE_PAPERS + r")\s+)*"
    r"(?:(?P<paper>paper|work|study|article|publication)|papers|works|studies|articles|"
    r"publications|literature|research|reading list)\s+(?:on|about|regarding|concerning|"
    r"related to|dealing with|in|for|that (?:study|address|discuss|tackle|propose|use))\s+"
    r"(?P<topic>.+?)[\s.?!]*$", re.IGNORECASE)


# "How many papers here are about X?" (when the trend's judge puts none on X, it is searched
# as any question: answer/pipeline.py) is "Which papers are about X?", counted by its list
_HOW_MANY = re.compile(
    r"^" + HOW_MANY_PAPERS + r"(?:are\s+|is\s+)?(?:about|on|discuss|study|mention|address|cover|"
    r"focus\s+on|deal\s+with|tackle)\s+(?P<topic>.+?)(?:\s+(?:are|is)\s+there|\s+here|\s+in\s+"
    r"(?:the|this)\s+(?:collection|list))?[\s.?!]*$", re.IGNORECASE)


def as_asked(query: str) -> str:
    """A request for papers, as a question ("Give me papers on X, please" -> "Which papers are
    about X?"; "Give me a paper on X" -> "Which paper is about X?"); any other query as it
    is."""
    if counted := _HOW_MANY.match(query):
        return f"Which papers are about {counted.group('topic')}?"
    m = _REQUEST.match(without_count(query))
    topic = m.group("topic").removesuffix(", please").strip(" ,") if m else ""
    if m is None or not topic:
        return query
    one = (m.group("one") or m.group("sing")) and m.group("paper")  # "Which is the best
    # paper on X?", "Give me a paper on X"
    return f"Which paper is about {topic}?" if one else f"Which papers are about {topic}?"


def papers_counted(question: str) -> int:
    """How many papers a list question asks for by number (2 to ``MOST_COUNTED``): "Give me
    three papers on X", "the top 5 papers about Y", "a couple of papers", "推荐三篇论文"; 0 when
    it says none, or counts papers named before ("the two papers", "这两篇")."""
    for pattern in (_COUNTED_ZH, _COUNTED) if has_cjk(question) else (_COUNTED,):
        for m in pattern.finditer(question):
            said = m.group("n").lower()
            n = int(said) if said.isdigit() else _NUMBERS.get(said, 0)
            if m.group(0).lower().startswith("the ") and not re.search(
                    r"\b(?:top|best)\b", m.group(0), re.IGNORECASE):
                continue  # "the two papers": named before
            if n >= 2 and not _NAMED_BEFORE.search(question[:m.start()]):
                return min(n, MOST_COUNTED)
    return 0


def asks_counted(question: str) -> bool:
    """Does the question ask for its number of papers (a request, "top 5"), rather than say a
    number in passing ("I read 2 papers on X; which others are there?")?"""
    return bool(_ASKS_COUNTED.search(question))
