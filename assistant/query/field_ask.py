"""Questions about a field's papers rather than one paper: "What are the open problems in safe
reinforcement learning?", "What datasets are commonly used to evaluate few-shot learning?",
"Give me an overview of the work on federated learning", "Who works on bandits?".

``read(question)`` returns the topic and what is asked of each of its papers (``FieldAsk``), or
None for any other question. ``pipeline.astream`` answers it as the list of papers on the topic,
searched and judged on the topic's words alone ("open problems" and "commonly used" name no
topic, and searched along they pulled in a paper titled "Open Problem: ..." on another topic),
each quoted where its abstract states what is asked (answer/extractive.py). Such questions were
answered as one paper ("The closest match is ..."). A question about one paper's limitations
("What are the limitations of IPMark?", "its challenges") is no field question: it names no
field's problems, and a pronoun or a paper's title is no topic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.query.aspects import ASPECTS, CHALLENGES, Aspect
from assistant.query.trend_ask import a_topic, topic_of

_DATA = ASPECTS[0]  # the data or benchmarks it uses
_BASELINES = ASPECTS[4]  # the baselines it is compared with


@dataclass(frozen=True)
class FieldAsk:
    topic: str
    aspect: Aspect | None = None  # what each paper is quoted on (None: what it does)
    who: bool = False  # who works on it: each paper's authors, and those on several


_ON = r"(?:in|of|for|on|facing|within|around|regarding)"
_HARD = (r"(?:(?:the\s+)?(?:(?:main|key|major|biggest|remaining|outstanding|current|central|"
         r"fundamental|important|unsolved|unresolved|common|known|technical)\s+)*"
         r"(?:open\s+(?:research\s+)?(?:problems?|questions?|challenges?|issues?)|"
         r"challenges|difficulties|bottlenecks|unsolved\s+problems|research\s+gaps|"
         r"(?:future|research)\s+directions))")
_DATASETS = (r"(?:(?:evaluation\s+|standard\s+|common\s+|popular\s+|typical\s+|main\s+|usual\s+)?"
             r"(?:data\s*sets?|benchmarks?|benchmark\s+data\s*sets?|corpora|test\s*beds?)"
             r"(?:\s+and\s+(?:data\s*sets?|benchmarks?|tasks|environments))?)")
_OFTEN = (r"(?:(?:most\s+)?(?:commonly|typically|usually|often|frequently|widely|generally|"
          r"normally|mostly|standardly)\s+)?")
_WORK = r"(?:work|research|papers|literature|studies|approaches|methods|efforts)"
# what a field's papers found: "Summarize the main results on private PAC learning"
_FOUND = (r"(?:(?:main|key|major|known|existing|current|recent|important|central)\s+)?(?:results|"
          r"findings|contributions|advances|developments|progress|ideas)")
_ASKS = r"^(?:(?:please|can\s+you|could\s+you|i\s+(?:want|need|would\s+like)\s+(?:you\s+)?to)\s+)?"
_PATTERNS: list[tuple[Aspect | None, re.Pattern[str]]] = [
    # "What are the open problems in X?", "What are some key challenges of X?"
    (CHALLENGES, re.compile(
        rf"^(?:what|which)\s+(?:are|were|is|remain)\s+(?:some\s+(?:of\s+)?(?:the\s+)?)?{_HARD}"
        rf"\s+(?:that\s+remain\s+)?{_ON}\s+(?P<t>.+)$", re.IGNORECASE)),
    # "What challenges remain in X?", "Which open problems are there in X?"
    (CHALLENGES, re.compile(
        rf"^(?:what|which)\s+{_HARD}\s+(?:remain|still\s+exist|exist|are\s+there|are\s+left|"
        rf"are\s+still\s+open|does|do)\s+(?:open\s+)?{_ON}\s+(?P<t>.+)$", re.IGNORECASE)),
    # "Summarize the open problems in X", "open challenges in X" (typed alone)
    (CHALLENGES, re.compile(
        rf"{_ASKS}(?:(?:list|summari[sz]e|describe|name|outline|give\s+(?:me\s+)?|tell\s+me\s+"
        rf"(?:about\s+)?)(?:the\s+)?)?{_HARD}\s+{_ON}\s+(?P<t>.+)$", re.IGNORECASE)),
    # "What makes X hard?"
    (CHALLENGES, re.compile(r"^what\s+makes\s+(?P<t>.+?)\s+(?:so\s+)?(?:hard|difficult|"
                            r"challenging)$", re.IGNORECASE)),
    # "What datasets are commonly used to evaluate X?", "Which benchmarks are used for X?"
    (_DATA, re.compile(
        rf"^(?:what|which)\s+(?:are\s+(?:the\s+)?)?{_DATASETS}\s+(?:are|is)\s+{_OFTEN}used\s+"
        r"(?:(?:the\s+)?most\s+(?:often\s+)?)?"
        rf"(?:to\s+(?:evaluate|test|benchmark|assess|compare|study|train)\s+|for\s+"
        rf"(?:evaluating|testing|benchmarking|training\s+)?|in\s+|by\s+{_WORK}\s+on\s+)"
        rf"(?:(?:papers|work|research|methods|models)\s+(?:on|in)\s+)?(?P<t>.+)$", re.IGNORECASE)),
    # "What are the standard benchmarks for X?", "common datasets in X" (typed alone)
    (_DATA, re.compile(
        rf"^(?:(?:what|which)\s+(?:are|is)\s+(?:the\s+|some\s+)?)?(?:standard|common|popular|"
        rf"typical|main|usual|most\s+used|widely\s+used|commonly\s+used)\s+{_DATASETS}\s+"
        rf"(?:for|in|of|used\s+(?:in|for))\s+(?P<t>.+)$", re.IGNORECASE)),
    # "Which benchmarks do papers on X use?", "What datasets do people evaluate X on?"
    (_DATA, re.compile(
        rf"^(?:what|which)\s+{_DATASETS}\s+do\s+(?:papers|works|studies|people|researchers|"
        rf"methods|approaches|authors)\s+(?:on|in|for|about|working\s+on)\s+(?P<t>.+?)\s+"
        rf"(?:typically\s+|usually\s+|commonly\s+)?(?:use|evaluate\s+on|test\s+on|report"
        rf"(?:\s+on)?|benchmark\s+on)$", re.IGNORECASE)),
    # "What benchmarks do people use for offline RL?", "Which datasets do researchers use to
    # evaluate X?", "Which simulators are popular for robot learning?"
    (_DATA, re.compile(
        rf"^(?:what|which)\s+(?:{_DATASETS}|simulators?|simulation\s+environments?)\s+do\s+"
        r"(?:people|researchers|papers|works|studies|authors|methods|approaches)\s+(?:typically\s+"
        r"|usually\s+|commonly\s+|most\s+often\s+)?(?:use|evaluate\s+on|test\s+on|benchmark\s+"
        r"on)\s+(?:for|in|to\s+(?:evaluate|test|benchmark|study|compare)|when\s+(?:evaluating|"
        r"studying|testing))\s+(?P<t>.+)$", re.IGNORECASE)),
    (_DATA, re.compile(
        rf"^(?:what|which)\s+(?:{_DATASETS}|simulators?|simulation\s+environments?)\s+(?:are|is)"
        r"\s+(?:the\s+)?(?:most\s+)?(?:popular|common|standard|typical|widely\s+used|commonly\s+"
        r"used)\s+(?:for|in)\s+(?P<t>.+)$", re.IGNORECASE)),
    # "What are common baselines for federated learning?", "Which baselines are used in X?"
    (_BASELINES, re.compile(
        r"^(?:what|which)\s+(?:are\s+(?:the\s+|some\s+)?)?(?:(?:common|standard|typical|usual|"
        r"main|popular|strong|usual)\s+)?baselines?\s+(?:(?:are|is)\s+(?:commonly\s+|typically\s+"
        r"|usually\s+|often\s+)?used\s+)?(?:for|in)\s+(?P<t>.+)$", re.IGNORECASE)),
    # "Summarize the work on X", "Give me an overview of X", "What is the state of the art in
    # X?", "What has been done on X?"
    (None, re.compile(
        rf"{_ASKS}(?:summari[sz]e|review|survey|overview|outline)\s+(?:the\s+)?(?:(?:existing\s+|"
        rf"current\s+|main\s+|prior\s+|previous\s+)?{_WORK}|{_FOUND})\s+(?:on|in|about|for|"
        rf"into|regarding)\s+(?P<t>.+)$", re.IGNORECASE)),
    # "What are the main results on X?", "What is known about X?"
    (None, re.compile(
        rf"^(?:what|which)\s+(?:are|were)\s+(?:the\s+|some\s+(?:of\s+the\s+)?)?{_FOUND}\s+(?:on|in|"
        rf"about|for|regarding|within)\s+(?P<t>.+)$", re.IGNORECASE)),
    # "Summarize the bandit papers from COLT 2023", "Review the federated learning literature"
    (None, re.compile(
        rf"{_ASKS}(?:summari[sz]e|review|survey|outline|go\s+over|walk\s+me\s+through)\s+"
        rf"(?:the\s+|all\s+(?:of\s+)?(?:the\s+)?)(?P<t>.+?)\s+(?:papers|work|research|"
        rf"literature|studies)(?P<r>\s+(?:from|at|in|published|since|between)\s+.+)?$",
        re.IGNORECASE)),
    (None, re.compile(
        rf"{_ASKS}(?:give\s+(?:me\s+)?|provide\s+)?(?:an?\s+|a\s+short\s+|a\s+brief\s+)?"
        rf"(?:overview|summary|survey|review|introduction|lay\s+of\s+the\s+land)\s+(?:of|on|for)"
        rf"\s+(?:the\s+)?(?:(?:work|research|literature|papers)\s+(?:on|in|about)\s+|"
        rf"(?:field|area|topic)\s+of\s+)?(?P<t>.+)$", re.IGNORECASE)),
    # where to start reading: "I'm new to PAC-Bayes. Where should I start?", "Which paper should
    # I read first to understand conformal prediction?", "a good introduction to causal
    # discovery": the topic's papers, best first
    (None, re.compile(
        r"^(?:i'?m|i\s+am)\s+(?:(?:new|a\s+newcomer)\s+to|(?:just\s+)?(?:starting|getting\s+"
        r"started)\s+(?:on|with|in|out\s+(?:on|with|in))|(?:just\s+)?getting\s+into|diving\s+"
        r"into|beginning\s+(?:to\s+learn\s+about|with|in))\s+(?P<t>[^.,;!?]+?)\s*[.,;!]\s*"
        r"(?:where|what|which|how|any|can|could)\b.*$", re.IGNORECASE)),
    (None, re.compile(
        r"^(?:which|what)\s+(?:papers?|work|works)?\s*(?:should|would|could|do\s+you\s+suggest|"
        r"would\s+you\s+recommend)\s*(?:i|one|a\s+beginner|a\s+newcomer)?\s+read\s+(?:first\s+)?"
        r"(?:to\s+(?:understand|learn(?:\s+about)?|get\s+into|get\s+started\s+(?:with|in|on))|on|"
        r"about|for|in)\s+(?P<t>.+)$", re.IGNORECASE)),
    (None, re.compile(
        r"^where\s+(?:should|do|can|could|would)\s+(?:i|one|a\s+beginner)\s+(?:start|begin)\s+"
        r"(?:with|on|in|reading\s+(?:about|on)|learning\s+(?:about)?)\s+(?P<t>.+)$",
        re.IGNORECASE)),
    (None, re.compile(
        rf"{_ASKS}(?:(?:is\s+there|are\s+there|what\s+(?:is|are)|which\s+(?:is|are))\s+)?"
        r"(?:an?\s+|any\s+|some\s+)?(?:good\s+|gentle\s+|accessible\s+)?(?:introduction|intro|"
        r"starting\s+point|entry\s+point|first\s+read)s?\s+(?:to|for|on|into)\s+(?P<t>.+)$",
        re.IGNORECASE)),
    (None, re.compile(
        r"^(?:what\s+is|what's|what\s+are)\s+(?:the\s+)?(?:current\s+)?(?:state\s+of\s+the\s+art|"
        r"sota|state\s+of\s+research|landscape)\s+(?:in|on|of|for)\s+(?P<t>.+)$", re.IGNORECASE)),
    (None, re.compile(r"^what\s+has\s+been\s+done\s+(?:on|in|about|for)\s+(?P<t>.+)$",
                      re.IGNORECASE)),
]
_PEOPLE = r"(?:authors?|researchers?|people|groups?|labs?|names?|experts?|scientists?)"
# "Who works on X?", "Who are the main researchers in X?", "Which groups publish on X?": not
# "Who wrote the paper on X?" (one paper's authors: answer_type.asks_authors)
_WHO = [
    re.compile(r"^who\s+(?:else\s+)?(?:works?|is\s+working|are\s+working|has\s+worked|have\s+"
               r"worked|publishes|is\s+publishing|are\s+publishing|has\s+been\s+working|"
               r"researches|is\s+researching|does\s+research|writes|has\s+written)\s+(?:on|about|"
               r"in|into)\s+(?P<t>.+)$", re.IGNORECASE),
    re.compile(rf"^who\s+(?:are|were|is)\s+(?:the\s+|some\s+(?:of\s+the\s+)?)?(?:(?:main|leading|"
               rf"key|top|most\s+active|most\s+prolific|prolific|important|major|active)\s+)?"
               rf"{_PEOPLE}\s+(?:in|on|working\s+on|for|studying)\s+(?P<t>.+)$",
               re.IGNORECASE),
    re.compile(rf"^(?:which|what)\s+{_PEOPLE}\s+(?:work|publish|have\s+(?:published|worked|"
               rf"written)|are\s+(?:working|active))\s+(?:on|about|in)\s+(?P<t>.+)$",
               re.IGNORECASE),
    # "Which authors have the most papers on X?", "Who has published the most on X?", "the
    # most prolific authors on X", "top authors in X"
    re.compile(rf"^(?:which|what)\s+{_PEOPLE}\s+(?:have|has|wrote|write|published|publish|"
               r"contributed)\s+(?:the\s+)?most\s+(?:papers\s+|work\s+)?(?:on|about|in|to)\s+"
               r"(?P<t>.+)$", re.IGNORECASE),
    re.compile(r"^who\s+(?:has|have)?\s*(?:written|published|wrote|writes|contributed)\s+"
               r"(?:the\s+)?most\s+(?:papers\s+|work\s+)?(?:on|about|in|to)\s+(?P<t>.+)$",
               re.IGNORECASE),
    re.compile(rf"^(?:(?:list|name|show)\s+(?:me\s+)?)?(?:the\s+)?(?:main|key|leading|top|"
               rf"most\s+prolific|most\s+active|prolific|major|most\s+frequent)\s+{_PEOPLE}\s+"
               r"(?:on|in|of|for|working\s+on|behind|studying|publishing\s+on)\s+(?P<t>.+)$",
               re.IGNORECASE),
]
# a topic that points back at a paper ("its challenges", "the method's data") or at an answer's
# papers ("the two papers", "the above papers", "the first three papers") is no field's
_BACK = re.compile(r"^(?:its|their|this|that|these|those|the\s+(?:paper|method|model|approach|"
                   r"work|authors?)|the\s+proposed|(?:two|three|four|five|both|first|second|"
                   r"third|last|above|previous|cited|listed|same|other|remaining)(?![\w-]))",
                   re.IGNORECASE)


# what one starts on that is no field ("I'm starting on a project. What should I read?")
_NO_FIELD = frozenset(("project", "new project", "thesis", "phd", "dissertation", "job", "course",
                       "class", "paper", "new paper", "research", "review", "survey"))


def read(question: str) -> FieldAsk | None:
    """The topic of a question about a field's papers, and what it asks of each, else None."""
    q = " ".join(question.split()).strip().rstrip("?.! ")
    for pattern in _WHO:
        m = pattern.match(q)
        topic = topic_of(m.group("t")) if m and not _BACK.match(m.group("t")) else ""
        if a_topic(topic):
            return FieldAsk(topic, who=True)
    for aspect, pattern in _PATTERNS:
        m = pattern.match(q)
        if not m or _BACK.match(m.group("t")):
            continue
        topic = topic_of(m.group("t") + (m.groupdict().get("r") or ""))
        if a_topic(topic) and topic.lower() not in _NO_FIELD:
            return FieldAsk(topic, aspect)
    return None
