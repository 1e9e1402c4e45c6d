"""Questions about the collection itself: "How many papers are there?", "Which venues does
this collection cover?", "What years are covered?", "What's in here?", "这个文集有多少篇论文？".

``read(question)`` says whether the question asks what the collection holds. Searched as a
question, such a one named a paper ("How many papers are in this collection?" was answered,
sure, with an offline-RL paper) or was refused; ``pipeline.astream`` answers it from the
index's venues and years (answer/listing.py ``collection_answer``). A count of a topic's papers
("How many papers on bandits are there?") is ``trend_ask``'s.
"""

from __future__ import annotations

import re

_HERE = (r"(?:(?:in|within|inside)\s+(?:this|the|your)\s+(?:collection|list|store|corpus|"
         r"data\s*set|database|index)|(?:in\s+)?here|in\s+there|you\s+(?:have|hold|know|cover|index)|"
         r"(?:indexed|loaded|available|included|covered|stored)(?:\s+here)?|total|in\s+total|"
         r"altogether|overall)")
_COLLECTION = r"(?:(?:this|the|your)\s+(?:collection|list|store|corpus|data\s*set|database|index))"
_PATTERNS = [
    # "How many papers are there (in this collection)?", "how many papers do you have?"
    re.compile(rf"^how\s+many\s+(?:papers|abstracts|articles|documents|entries)\s+(?:are\s+there"
               rf"(?:\s+{_HERE})?|are\s+{_HERE}|(?:do|does)\s+(?:you|{_COLLECTION})\s+(?:have|"
               rf"hold|contain|include|cover|know(?:\s+about)?))$", re.IGNORECASE),
    re.compile(rf"^how\s+(?:big|large)\s+is\s+{_COLLECTION}$", re.IGNORECASE),
    # "Which venues / years does this collection cover?", "What conferences are in here?"
    re.compile(rf"^(?:which|what)\s+(?:venues?|conferences?|proceedings|journals?|years?|"
               rf"time\s+span|period)\s+(?:(?:are|is|were)\s+(?:{_HERE}|covered|included|"
               rf"there)(?:\s+{_HERE})?|(?:does|do)\s+(?:{_COLLECTION}|you|it)\s+(?:cover|"
               rf"include|span|have|hold|contain)|(?:does|do)\s+{_COLLECTION}\s+come\s+from)$",
               re.IGNORECASE),
    # "What's in this collection?", "What does the collection contain?", "What papers do you
    # have?", "describe the collection"
    re.compile(rf"^(?:what(?:'s|\s+is)\s+in\s+(?:here|{_COLLECTION})|what\s+(?:does|do)\s+"
               rf"{_COLLECTION}\s+(?:contain|hold|cover|include)|what\s+(?:papers|abstracts)\s+"
               rf"(?:do\s+you\s+have|are\s+(?:here|there|{_HERE}))|(?:describe|summari[sz]e)\s+"
               rf"{_COLLECTION}|what\s+(?:is|'s)\s+{_COLLECTION})$", re.IGNORECASE),
]
_ZH = re.compile(r"^(?:这个|此|本|你的)?(?:文集|论文集|集合|库|列表|这里)?(?:里|中)?"
                 r"(?:一共|总共|共)?(?:有|收录了?|包含了?|涵盖了?)(?:多少篇?|哪些)(?:论文|文章|会议|年份)?$")


def read(question: str) -> bool:
    """Does the question ask what the collection holds (its size, venues, years)?"""
    q = " ".join(question.split()).strip().rstrip("?？.!。！ ")
    return any(p.match(q) for p in _PATTERNS) or bool(_ZH.match(q))
