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

from assistant.textutil import content_words, zh_compact, zh_size

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


# ... asked in Chinese: "关于强化学习但不使用模拟器的论文有哪些？", "不使用GAN的图像生成论文",
# "机器人抓取方面有哪些不用强化学习的工作？": the topic and the thing as asked (the pipeline
# translates both)
ZH_CHARS = 12  # at most, for the topic and for the thing (a Latin word counts two)
# (not the "没有" of "有没有": is there)
_ZH_NOT = (r"(?:不|(?<!有)没有|(?<![有没])没|无需|无须|不需要|不必)"
           r"(?:使用|用|依赖|需要|基于|采用|利用|涉及)")
_ZH_WORKS = r"(?:论文|文章|工作|研究|方法)"
_ZH_END = r"[？?。！!\s]*$"
_ZH_FORMS = [
    # "机器人抓取方面有哪些不用强化学习的工作？"
    re.compile(rf"^(?:关于)?(?P<x>.+?)(?:方面|领域|方向)?(?:中|里)?(?:有哪些|哪些)(?:是)?{_ZH_NOT}"
               rf"(?P<y>.+?)的{_ZH_WORKS}?{_ZH_END}"),
    # "关于强化学习但不使用模拟器的论文有哪些？", "强化学习方面不用模拟器的论文"
    re.compile(rf"^(?:有哪些|哪些)?(?:关于|有关)?(?P<x>.+?)(?:方面|领域|方向)?(?:的)?(?:但|而|却|并且|且)?"
               rf"{_ZH_NOT}(?P<y>.+?)的{_ZH_WORKS}(?:有哪些|是哪些|有什么)?{_ZH_END}"),
    # "不使用GAN的图像生成论文（有哪些）", "有没有不需要标签的图像分类方法？"
    re.compile(rf"^(?:有哪些|哪些|有没有)?{_ZH_NOT}(?P<y>.+?)的(?P<x>.+?){_ZH_WORKS}(?:有哪些|是哪些)?"
               rf"{_ZH_END}"),
]


def read_chinese(question: str) -> Exclusion | None:
    """``read`` for a request asked in Chinese: the topic and the thing as asked, in Chinese
    (or a name as written); None for any other question."""
    said = zh_compact(question)
    for form in _ZH_FORMS:
        m = form.match(said)
        if m is None:
            continue
        topic = re.sub(r"^(?:关于|有关)", "", m.group("x")).strip("，,、 的")
        excluded = m.group("y").strip("，,、 的")
        if 0 < zh_size(topic) <= ZH_CHARS and 0 < zh_size(excluded) <= ZH_CHARS and \
                not re.search(_ZH_WORKS, topic):
            return Exclusion(topic, excluded)
    return None
