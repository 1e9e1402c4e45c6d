"""Questions about a topic over the years: "How has work on bandits changed since 2011?".

``read(question)`` returns the topic and the years asked about, or None for any other
question. It wants a sign of time (over the years, since 2015, a trend, from 2012 to 2018), the
literature itself changing ("how has research on X evolved"), so that "how has the bound
changed?" stays a question about papers, or a count of the papers on a topic ("how many papers
on X are there?": the answer counts them, by year), or the newest or the first papers on it
("the most recent paper on X", "the first paper to use X": ``TrendAsk.order``; who works on X
asked in Chinese, "谁在研究强化学习？", too: in English query/field_ask.py reads it). The topic
must name one (``textutil.names_a_topic``: "diffusion models use ImageNet" does not).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.textutil import names_a_topic, zh_compact, zh_size

_YEAR = r"(?:19|20)\d\d"
_SPAN = re.compile(rf"\b(?:from|between)\s+({_YEAR})\s*(?:to|and|until|till|-|–)\s*({_YEAR})\b"
                   rf"|\b({_YEAR})\s*(?:-|–|to)\s*({_YEAR})\b", re.IGNORECASE)
_SINCE = re.compile(rf"\b(?:since|after|from)\s+({_YEAR})\b", re.IGNORECASE)
_UNTIL = re.compile(rf"\b(?:until|till|before|up to)\s+({_YEAR})\b", re.IGNORECASE)
_TIME = (r"(?:over|through|across|during)\s+(?:the\s+)?(?:years|time|decades?|past\s+\w+\s+"
         r"years)|(?:per|each|by|every)\s+year|year\s+(?:by|to|over)\s+year|in\s+recent\s+"
         r"years|over\s+the\s+last\s+\w+\s+years|since\s+(?:19|20)\d\d|from\s+(?:19|20)\d\d|"
         r"between\s+(?:19|20)\d\d")
_BODY = r"(?:work|research|papers?|interest|literature|attention|publications?|studies)"
_CHANGE = r"(?:chang|evolv|develop|grow|grew|grown|shift|progress|declin|ris|fall|fell)\w*"
# where the papers counted are: "here", "in this collection"
_HERE = r"(?:here|in\s+(?:the|this|your|my)\s+(?:collection|list|store|corpus|data\s*set))"
_OUT = r"(?:published|written|released|appear(?:ed)?|come\s+out|came\s+out)"
_PATTERNS = [
    # "how has work on bandits changed (since 2011)?", "how did research into X evolve?"
    re.compile(rf"^how\s+(?:has|have|did|does|do)\s+(?:the\s+)?(?:amount\s+of\s+)?{_BODY}\s+"
               rf"(?:on|in|into|about|of|for)\s+(?P<t>.+?)\s+{_CHANGE}\b", re.IGNORECASE),
    # "how has bandit research changed over the years?"
    re.compile(rf"^how\s+(?:has|have|did|does|do)\s+(?:the\s+)?(?P<t>.+?)\s+{_BODY}\s+"
               rf"{_CHANGE}\b", re.IGNORECASE),
    # "trends in X", "what is the trend of X?", "show the trend for X since 2015"
    re.compile(r"\btrends?\s+(?:of|in|on|for|around)\s+(?:the\s+)?(?:work\s+on\s+|research\s+on"
               r"\s+|papers\s+on\s+)?(?P<t>.+?)(?:\s+(?:over|since|from|between|in|across|"
               r"per|by)\b.*)?$", re.IGNORECASE),
    re.compile(r"^(?:what\s+is\s+the\s+)?(?P<t>.+?)\s+trends?\b", re.IGNORECASE),
    # "how many papers on X per year?", "how much work on X over the years?"
    re.compile(rf"^how\s+(?:many|much)\s+{_BODY}\s+(?:on|about|in|into)\s+(?P<t>.+?)\s+"
               rf"(?:{_TIME})", re.IGNORECASE),
    # "how many papers on X are there?", "how many papers here are about X?", "how many papers
    # in this collection discuss X?": the trend's count answers it, with its years
    re.compile(rf"^how\s+(?:many|much)\s+(?:of\s+the\s+)?{_BODY}\s+(?:{_HERE}\s+)?(?:(?:is|are)"
               r"\s+there\s+|(?:is|are)\s+)?(?:on|about|in|into|study|studying|address|addressing|"
               r"cover|covering|deal\s+with|dealing\s+with|discuss|discussing|mention|mentioning|"
               r"focus\s+on|focusing\s+on|tackle|tackling|concern|concerning|work\s+on|look\s+at)"
               rf"\s+(?P<t>.+?)(?:\s+(?:are|is)\s+there|\s+(?:does|do)\s+(?:the\s+|this\s+)?"
               rf"(?:collection|list|store|it|you)\s+(?:have|hold|contain)|\s+{_HERE})?\s*\??$",
               re.IGNORECASE),
    # "which year had the most papers on X?", "in what year were most papers on X published?",
    # "when were most papers on X written?": the chart, its peak said
    re.compile(rf"^(?:in\s+)?(?:which|what)\s+years?\s+(?:had|has|have|saw|sees|produced|brought|"
               rf"was|were|did)\s+(?:the\s+)?(?:most|largest\s+number\s+of|highest\s+number\s+"
               rf"of|(?:greatest|largest|highest)\s+share\s+of)\s+{_BODY}\s+(?:on|about|in|into)"
               rf"\s+(?P<t>.+?)(?:\s+{_OUT})?\s*\??$", re.IGNORECASE),
    re.compile(rf"^when\s+(?:were|was|did)\s+(?:the\s+)?most\s+{_BODY}\s+(?:on|about|in|into)\s+"
               rf"(?P<t>.+?)\s+{_OUT}\s*\??$", re.IGNORECASE),
    # "when was X most popular?", "when were GANs at their peak?"
    re.compile(r"^when\s+(?:was|were|did)\s+(?P<t>.+?)\s+(?:most\s+(?:popular|studied|"
               r"researched|active|fashionable)|at\s+(?:its|their)\s+(?:peak|height|most\s+"
               r"popular)|hottest)\s*\??$", re.IGNORECASE),
    # "how has X changed over the years?", "X over time", "when did X take off?"
    re.compile(rf"^how\s+(?:has|have|did)\s+(?P<t>.+?)\s+{_CHANGE}\s+(?:{_TIME})",
               re.IGNORECASE),
    re.compile(r"^when\s+did\s+(?P<t>.+?)\s+(?:take\s+off|become\s+popular|catch\s+on|peak|"
               r"start)\b", re.IGNORECASE),
    re.compile(r"^(?:papers\s+on\s+|work\s+on\s+|research\s+on\s+)?(?P<t>.+?)\s+(?:over\s+"
               r"(?:the\s+)?(?:years|time)|(?:per|by|each)\s+year|since\s+(?:19|20)\d\d)\s*\??$",
               re.IGNORECASE),
]
_LEAD = re.compile(r"^(?:the\s+|a\s+|an\s+|work\s+on\s+|research\s+on\s+|papers\s+on\s+|"
                   r"interest\s+in\s+|the\s+field\s+of\s+|the\s+topic\s+of\s+)+", re.IGNORECASE)
_TAIL = re.compile(rf"\s+(?:{_TIME}|{_BODY}|in\s+this\s+collection|here|at|in|from|of|on)\s*$",
                   re.IGNORECASE)


# what a question word, a pronoun or "latest" leaves where a topic should be
_NOT_A_TOPIC = re.compile(r"^(?:(?:what|which|who|where|when|why|how|are|is|do|does|any|"
                          r"some|latest|recent|current|new|main|key|major)\b|(?:it|this|that|"
                          r"they|them|these|those|there)$)", re.IGNORECASE)


MAX_TOPIC_WORDS = 8  # a topic is a phrase; more words than this is a question about papers


@dataclass(frozen=True)
class TrendAsk:
    topic: str
    start: int | None = None
    end: int | None = None
    # "the most recent papers on X" ("newest"), "the first paper on X" ("oldest"): the topic's
    # papers in that order, not its chart; who works on X ("authors"): its authors with the
    # most papers on it
    order: str = ""
    # "how many papers on X are there?": the count of the topic's papers asked for
    count: bool = False


_HOW_MANY = re.compile(r"^\W*how\s+(?:many|much)\b", re.IGNORECASE)
# a verb after the topic asks something of the paper ("what does the latest paper on X report?")
_ASKED_OF_IT = frozenset(("report", "reports", "achieve", "achieves", "use", "uses", "propose",
                          "proposes", "claim", "claims", "say", "says", "conclude", "concludes",
                          "evaluate", "evaluates", "measure", "measures", "get", "gets",
                          "obtain", "obtains", "suggest", "suggests", "introduce", "introduces"))
_PAPERS = r"(?:papers?|works?|stud(?:y|ies)|research|results?|publications?|articles?)"
_ORDERS = [
    # "what is the most recent paper on diffusion policies?", "latest work about X"
    ("newest", re.compile(rf"\b(?:most\s+recent|latest|newest)\s+{_PAPERS}\s+(?:on|about|in|"
                          r"into|for|regarding)\s+(?P<t>.+?)\s*[?.!]*$", re.IGNORECASE)),
    # "summarize recent work on X", "what are the latest advances in X?"
    ("newest", re.compile(rf"\b(?:recent|latest|newest)\s+(?:{_PAPERS}|advances|advancements|"
                          r"progress|developments|breakthroughs)\s+(?:on|about|in|into|for|"
                          r"regarding|within)\s+(?P<t>.+?)\s*[?.!]*$", re.IGNORECASE)),
    # "what is new in X (since 2023)?": its newest papers (a hedged one-paper answer before)
    ("newest", re.compile(r"\bwhat(?:'s|’s|\s+is|\s+has\s+been)\s+new\s+(?:in|on|about|with|"
                          r"for|regarding)\s+(?P<t>.+?)\s*[?.!]*$", re.IGNORECASE)),
    # "which was the first paper on X?", "the earliest work about X"
    ("oldest", re.compile(rf"\b(?:first|earliest|oldest)\s+{_PAPERS}\s+(?:on|about|in|into|"
                          r"for|regarding)\s+(?P<t>.+?)\s*[?.!]*$", re.IGNORECASE)),
    # "which was the first paper to use transformers for robot manipulation?"
    ("oldest", re.compile(rf"\b(?:first|earliest)\s+{_PAPERS}\s+(?:to|that)\s+(?:use[sd]?|"
                          r"appl(?:y|ies|ied)|stud(?:y|ies|ied)|propos(?:e|es|ed)|"
                          r"introduc(?:e|es|ed)|address(?:es|ed)?|consider(?:s|ed)?|"
                          r"tackl(?:e|es|ed))\s+(?P<t>.+?)\s*[?.!]*$", re.IGNORECASE)),
]


def topic_of(text: str) -> str:
    """The topic of a topic given as words ("work on bandits" -> "bandits")."""
    topic = " ".join(text.split()).strip(" ?.!,;:\"'“”")
    before = None
    while before != topic:
        before = topic
        topic = _TAIL.sub("", _LEAD.sub("", topic)).strip(" ?.!,;:\"'“”")
    return topic


def years_of(question: str) -> tuple[int | None, int | None]:
    span = _SPAN.search(question)
    if span:
        a, b = (int(v) for v in span.groups() if v)
        return min(a, b), max(a, b)
    since, until = _SINCE.search(question), _UNTIL.search(question)
    return (int(since.group(1)) if since else None, int(until.group(1)) if until else None)


def a_topic(topic: str) -> bool:
    """Do these words name a topic (a phrase, no question word or pronoun, no verb clause)?"""
    return (len(topic) >= 3 and len(topic.split()) <= MAX_TOPIC_WORDS
            and not _NOT_A_TOPIC.match(topic) and names_a_topic(topic))


def read(question: str) -> TrendAsk | None:
    """The topic and years a question about a topic over the years asks, else None."""
    q = " ".join(question.split()).strip()
    for order, pattern in _ORDERS:
        m = pattern.search(q)
        topic = topic_of(m.group("t")) if m else ""
        if a_topic(topic) and topic.split()[-1].lower() not in _ASKED_OF_IT:
            return TrendAsk(topic, *years_of(q), order=order)
    for pattern in _PATTERNS:
        m = pattern.search(q)
        if not m:
            continue
        topic = topic_of(re.sub(_SPAN.pattern + "|" + _SINCE.pattern + "|" + _UNTIL.pattern,
                                " ", m.group("t"), flags=re.IGNORECASE))
        if a_topic(topic):
            start, end = years_of(q)
            return TrendAsk(topic, start, end, count=bool(_HOW_MANY.match(q)))
    return None


# -- asked in Chinese ------------------------------------------------------------------------
# "有多少篇论文是关于强化学习的？", "这里有多少关于扩散模型的论文？",
# "强化学习的论文有多少篇？", "强化学习的研究这些年有什么变化？", "扩散模型的发展趋势如何？",
# "2018年以来图神经网络的论文每年有多少？"; the topic as asked (the pipeline translates it)
_ZH_WORKS = r"(?:论文|文章|工作|研究|文献)"
_ZH_HERE = r"(?:(?:这里|这儿|本文集|这个文集|文集|集合|数据集|论文集)(?:中|里|里面)?)?"
_ZH_END = r"[？?。！!\s]*$"
_ZH_COUNTS = [
    re.compile(rf"^{_ZH_HERE}(?:一共|总共|共)?有多少(?:篇)?{_ZH_WORKS}?(?:是)?(?:关于|研究|涉及|讨论|"
               rf"针对|有关)(?P<t>.+?)(?:的)?{_ZH_WORKS}?{_ZH_END}"),
    re.compile(rf"^{_ZH_HERE}(?:关于|有关)?(?P<t>.+?)(?:相关)?的?{_ZH_WORKS}{_ZH_HERE}(?:一共|总共|共)?"
               rf"有多少(?:篇)?{_ZH_END}"),
    re.compile(rf"^{_ZH_HERE}(?:一共|总共|共)?有多少(?:篇)?(?P<t>.+?)(?:相关)?的?{_ZH_WORKS}{_ZH_END}"),
]
_ZH_TRENDS = [
    re.compile(r"^(?:关于)?(?P<t>.+?)(?:的)?(?:研究|论文|工作)?(?:这些年|近年来|近些年|多年来|历年来?|"
               r"逐年|每年|随时间|这几年|近几年)(?:来)?(?:有|发生了|是)?(?:什么|哪些|怎样的|怎样|如何|"
               r"怎么)?(?:的)?(?:变化|发展|演变|趋势|增长|变)"),
    re.compile(rf"^(?:关于)?(?P<t>.+?)(?:的)?(?:研究|论文)?的?(?:发展|演变|变化)?趋势(?:是什么|如何|"
               rf"怎么样|怎样)?{_ZH_END}"),
    re.compile(r"^(?:关于)?(?P<t>.+?)(?:的)?(?:论文|研究|工作)(?:的)?(?:数量)?(?:每年|逐年|按年|历年)"),
]
# who works on it: "谁在研究强化学习？", "哪些作者在研究图神经网络？",
# "强化学习方面论文最多的作者是谁？", "强化学习领域的主要作者有哪些？"
_ZH_WHO = r"(?:作者|研究者|研究人员|学者|人|团队|课题组)"
_ZH_FIELD = r"(?:方面|领域|方向)?(?:的)?"
_ZH_AUTHORS = [
    re.compile(rf"^谁(?:在|一直在)?(?:研究|做|从事)(?P<t>.+?){_ZH_FIELD}(?:研究|工作)?{_ZH_END}"),
    re.compile(rf"^(?:哪些|哪位|哪几位|有哪些){_ZH_WHO}(?:在|一直在)?(?:研究|做|从事)(?P<t>.+?)"
               rf"{_ZH_FIELD}(?:研究|工作)?{_ZH_END}"),
    re.compile(rf"^(?:哪些|哪位|哪几位){_ZH_WHO}(?:在)?(?:关于)?(?P<t>.+?){_ZH_FIELD}(?:发表|写)"
               rf"(?:了)?(?:的)?(?:论文|文章)?最多"),
    re.compile(rf"^(?:关于|在)?(?P<t>.+?){_ZH_FIELD}(?:发表)?(?:论文|文章|工作)?最多的{_ZH_WHO}"),
    re.compile(rf"^(?:关于|在)?(?P<t>.+?)(?:方面|领域|方向)(?:的)?(?:主要|重要|核心|代表性|知名)?"
               rf"{_ZH_WHO}(?:有哪些|是谁|有谁|都有谁)"),
]
# ... with years asked, how the work changed says a trend without a word of time
_ZH_CHANGED = re.compile(r"^(?:关于)?(?P<t>.+?)(?:的)?(?:研究|论文|工作)(?:有|发生了)?"
                         r"(?:什么|哪些|怎样的|怎样|如何|怎么)?(?:的)?(?:变化|发展|演变)")
_ZH_SPAN = re.compile(r"(?:从|自|在)?\s*((?:19|20)\d\d)\s*年?\s*(?:到|至|-|–|~)\s*((?:19|20)\d\d)"
                      r"\s*年?(?:间|之间|期间)?")
_ZH_SINCE = re.compile(r"(?:自|从)?\s*((?:19|20)\d\d)\s*年?\s*(?:以来|之后|以后|起|开始)")
_ZH_NOT_A_TOPIC = re.compile(r"^(?:它|它们|这|那|这个|那个|这些|那些|该|其|这篇|那篇|这个主题|"
                             r"这个方向|这个领域|哪些|什么|一)")
ZH_TOPIC_CHARS = 16  # at most (a Latin word counts two): a longer one describes papers


def read_chinese(question: str) -> TrendAsk | None:
    """``read`` for a question asked in Chinese: its topic (in Chinese, as asked), the years,
    whether it counts and whether it asks who works on it; None for any other question."""
    q = zh_compact(question)
    start = end = None
    if m := _ZH_SPAN.search(q):
        start, end = sorted((int(m.group(1)), int(m.group(2))))
    elif m := _ZH_SINCE.search(q):
        start = int(m.group(1))
    bare = _ZH_SINCE.sub("", _ZH_SPAN.sub("", q)).strip("，, ")
    changed = [_ZH_CHANGED] if start or end else []
    for kind, patterns in (("authors", _ZH_AUTHORS), ("count", _ZH_COUNTS),
                           ("trend", [*_ZH_TRENDS, *changed])):
        for pattern in patterns:
            m = pattern.search(bare)
            topic = m.group("t").strip("，,、 的") if m else ""
            topic = re.sub(r"^(?:关于|有关|研究)", "", topic).strip()
            if topic and zh_size(topic) <= ZH_TOPIC_CHARS and not _ZH_NOT_A_TOPIC.match(topic):
                return TrendAsk(topic, start, end, order="authors" if kind == "authors" else "",
                                count=kind == "count")
    return None
