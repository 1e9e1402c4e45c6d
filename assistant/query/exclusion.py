"""Papers on a topic that do not use something: "Which papers on robot grasping do not use
reinforcement learning?", "Papers on image generation without GANs", "Which GAN papers don't
need labels?".

Searched as they were, such questions listed the papers that do use it first (its words are the
question's): the answer said the opposite of what was asked. ``read(question)`` returns the
topic asked about, as the question "Which papers are about X?", and what its papers must not
use; None for any other question. Only a short request for papers reads so (the topic and the
excluded thing a few words each): in a question that describes one paper, "without" and "rather
than" say what that paper does ("... a density estimator built on tensor trains instead of
neural nets").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.textutil import content_words

TOPIC_WORDS = 6  # at most, for the topic; the excluded thing: at most EXCLUDED_WORDS
EXCLUDED_WORDS = 4

_LEAD = (r"^(?:(?:which|what|any|find|list|show(?:\s+me)?|give\s+me|i\s+want|i'm\s+looking\s+"
         r"for|looking\s+for|are\s+there(?:\s+any)?|is\s+there(?:\s+any)?)\s+)?(?:the\s+|some\s+)?")
_PAPERS = r"(?:papers?|works?|methods?|approaches|studies|research)"
_ON = r"(?:on|about|for|in|into)"
_NOT = r"(?:do|does|did)(?:n't|\s+not)"
_USE = (r"(?:use|rely\s+on|need|require|involve|employ|make\s+use\s+of|depend\s+on|"
        r"are\s+based\s+on|assume|exploit|leverage|utili[sz]e|apply)")
_WITHOUT = (r"(?:without(?:\s+(?:using|the\s+use\s+of|relying\s+on|requiring|needing|any))?|"
            r"not\s+(?:using|based\s+on|relying\s+on|requiring|assuming)|"
            r"that\s+avoids?(?:\s+using)?|"
            r"other\s+than)")
_END = r"\s*[?.!]*$"
_FORMS = [
    # "Which papers on robot grasping do not use reinforcement learning?"
    re.compile(rf"{_LEAD}{_PAPERS}\s+{_ON}\s+(?P<x>.+?)\s+(?:that\s+|which\s+)?{_NOT}\s+{_USE}"
               rf"\s+(?P<y>.+?){_END}", re.IGNORECASE),
    # "Which GAN papers don't need labels?"
    re.compile(rf"{_LEAD}(?P<x>.+?)\s+{_PAPERS}\s+(?:that\s+|which\s+)?{_NOT}\s+{_USE}\s+"
               rf"(?P<y>.+?){_END}", re.IGNORECASE),
    # "Are there papers that don't use RL for robot grasping?"
    re.compile(rf"{_LEAD}{_PAPERS}\s+(?:that|which)\s+{_NOT}\s+{_USE}\s+(?P<y>.+?)\s+(?:for|on|"
               rf"in|to)\s+(?P<x>.+?){_END}", re.IGNORECASE),
    # "Papers on image generation without GANs", "work on parsing not using neural networks"
    re.compile(rf"{_LEAD}{_PAPERS}\s+{_ON}\s+(?P<x>.+?)\s+{_WITHOUT}\s+(?P<y>.+?){_END}",
               re.IGNORECASE),
    # "Robot grasping papers without reinforcement learning"
    re.compile(rf"{_LEAD}(?P<x>.+?)\s+{_PAPERS}\s+{_WITHOUT}\s+(?P<y>.+?){_END}",
               re.IGNORECASE),
]


@dataclass(frozen=True)
class Exclusion:
    topic: str  # "robot grasping"
    excluded: str  # "reinforcement learning"

    @property
    def asked(self) -> str:
        """The question searched and judged: the topic's papers."""
        return f"Which papers are about {self.topic}?"


def read(question: str) -> Exclusion | None:
    """The topic and what its papers must not use, of a request for papers on a topic that do
    not use something; None for any other question."""
    said = " ".join(question.split())
    for form in _FORMS:
        m = form.match(said)
        if m is None:
            continue
        topic = re.sub(r"^(?:the|a|an)\s+", "", m.group("x").strip(" ,"), flags=re.IGNORECASE)
        excluded = re.sub(r"^(?:the|a|an|any)\s+", "", m.group("y").strip(" ,"),
                          flags=re.IGNORECASE)
        if 0 < len(topic.split()) <= TOPIC_WORDS and 0 < len(excluded.split()) <= \
                EXCLUDED_WORDS and content_words(topic) and content_words(excluded) and \
                not re.search(rf"\b{_PAPERS}\b", topic, re.IGNORECASE):
            return Exclusion(topic, excluded)
    return None
