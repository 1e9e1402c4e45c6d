"""A request for surveys of a topic: "Are there any surveys on graph neural networks?", "Is
there a review of meta-learning?", "Which papers survey federated learning?", "Is there a
meta-analysis of statins?".

Searched as they were, such requests listed the topic's papers as if each were a survey. A
conference list rarely holds one (2 of the 6,963 papers of the fit venues present themselves
as one; a medical list holds many systematic reviews and meta-analyses), so whether any here
is one is what to say. ``read(question)`` returns the topic, or None for any other question;
"Give me an overview of X" asks for the topic's papers (query/field_ask.py), not for a survey.
"""

from __future__ import annotations

import re

from assistant.textutil import content_words

TOPIC_WORDS = 6  # at most: a longer one describes a paper
_KIND = (r"(?:surveys?|reviews?|review\s+papers?|survey\s+papers?|tutorials?|literature\s+reviews?|"
         r"systematic\s+reviews?|meta-?\s?analys[ie]s|umbrella\s+reviews?|scoping\s+reviews?)")
_ON = r"(?:on|of|about|for|in|covering)"
_FORMS = [
    # "Are there any surveys on X?", "Is there a survey of X?", "any review papers on X",
    # "Find a tutorial on X", "surveys on X"
    re.compile(rf"^(?:(?:are|is)\s+there\s+|do\s+you\s+have\s+|(?:can\s+you\s+|please\s+)?"
               rf"(?:find|show|list|give|recommend)\s+(?:me\s+)?|(?:which|what)\s+)?(?:any\s+|a\s+|"
               rf"an\s+|some\s+|the\s+)?(?:good\s+|recent\s+|comprehensive\s+)?{_KIND}\s+{_ON}\s+"
               r"(?:the\s+(?:effects?\s+of\s+)?)?"
               r"(?P<x>.+?)\s*[?.!]*$", re.IGNORECASE),
    # "Which papers survey X?", "Does any paper review X?"
    re.compile(r"^(?:which|what|any|does\s+any|do\s+any)\s+(?:papers?|works?|articles?)\s+"
               r"(?:here\s+)?(?:survey|surveys|review|reviews)\s+(?:the\s+(?:literature|work|"
               r"research)\s+on\s+)?(?P<x>.+?)\s*[?.!]*$", re.IGNORECASE),
]


def read(question: str) -> str | None:
    """The topic a request for its surveys names, or None."""
    said = " ".join(question.split())
    for form in _FORMS:
        m = form.match(said)
        if m is None:
            continue
        topic = re.sub(r"^(?:the|a|an)\s+", "", m.group("x").strip(" ,"), flags=re.IGNORECASE)
        if 0 < len(topic.split()) <= TOPIC_WORDS and content_words(topic) and not re.match(
                r"(?:it|this|that|these|those|them|its|their)\b", topic, re.IGNORECASE):
            return topic
    return None
