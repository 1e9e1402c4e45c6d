"""Does a paper present itself as a survey, review or tutorial, as its title and abstract say?
For "Are there any surveys on X?" (query/review_ask.py). Said of itself: "X: A Survey", "A
Review of X", "X: a systematic review and meta-analysis", "In this survey we ...", "This paper
reviews ..."; not a survey as a topic ("the bandit survey problem", "learning from survey
samples") nor "we review X" said of background.
"""

from __future__ import annotations

import re

from assistant.paper import Paper

_KIND = r"(?:survey|review|overview|tutorial|primer|meta-?\s?analysis)"
_TITLE = re.compile(rf"(?::\s*(?:an?\s+)?(?:\w+\s+){{0,2}}{_KIND}\b(?:\s+(?:and|of|on)\b.*)?$|"
                    rf"^(?:an?\s+)?(?:\w+\s+){{0,2}}{_KIND}\s+(?:of|on)\b)", re.IGNORECASE)
_ABSTRACT = re.compile(
    rf"\b(?:this|our|the\s+present)\s+(?:paper|article|work|manuscript|chapter)\s+(?:is\s+an?\s+|"
    rf"presents\s+an?\s+|provides\s+an?\s+|offers\s+an?\s+)(?:\w+\s+){{0,2}}{_KIND}\b|"
    rf"\b(?:this|our)\s+(?:survey|review|tutorial)\b|\bin\s+this\s+(?:survey|review|tutorial)\b|"
    r"\b(?:this|the\s+present)\s+(?:paper|article|work)\s+(?:surveys|reviews)\b", re.IGNORECASE)


def is_review(paper: Paper) -> bool:
    """Does the paper say it is a survey, a review or a tutorial?"""
    return bool(_TITLE.search(paper.title or "") or _ABSTRACT.search(paper.abstract or ""))
