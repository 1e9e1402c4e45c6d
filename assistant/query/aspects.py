"""What a question asks of one paper, and whether its abstract states it at all.

"What datasets did they use?" about a paper whose abstract names none should be answered
"the abstract does not state the datasets", not with other sentences of the abstract (which
the support check then finds supported: they are quotes). An *aspect* is a thing researchers
ask of a paper that an abstract may or may not state: the data, the code, the limitations,
the compute, the baselines, the sample size. Each has a pattern for the question that asks
it and one for a sentence that states it; a question that asks no listed aspect is never
judged (most questions ask what a paper does, which every abstract states).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Aspect:
    name: str  # how the answer names it: "the datasets it uses"
    asked: re.Pattern[str]
    stated: re.Pattern[str]
    name_zh: str = ""  # the same for a Chinese question
    asked_zh: re.Pattern[str] | None = None  # a Chinese question that asks it
    # a sentence that names it outright (a dataset by its name), preferred where several state
    # it: in a list, one sentence a paper
    named: re.Pattern[str] | None = None


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# "data" as the first word of another noun asks no data set: "at what data rate", "which data
# structure"
_DATA_COMPOUND = (r"(?:rates?|structures?|streams?|points?|sizes?|types?|distributions?|"
                  r"augmentations?|efficiency|regimes?|complexity|budgets?|matri(?:x|ces)|"
                  r"dependen\w*|driven|access|collection|quality|requirements?|generating|"
                  r"models?|owners?|privacy|poisoning|shifts?)\b")

ASPECTS = (
    Aspect("the data or benchmarks it uses",
           _re(r"\b(?:what|which)\s+(?:\w+\s+)?(?:data ?sets?|benchmarks?|data|corpora|"
               r"corpus)\b(?![ -]" + _DATA_COMPOUND + r")|"
               r"\b(?:evaluated|tested|trained|validated)\s+on\s+what\b|"
               r"\bon\s+(?:what|which)\s+(?:data|benchmarks?)\b(?![ -]" + _DATA_COMPOUND + r")"),
           # a named set counts ("on MatGame, SMAC and SMACv2", "using ImageNet"): saying
           # "not stated" of an abstract that names its data would be a wrong claim
           re.compile(r"\b(?:[Dd]ata ?sets?|[Bb]enchmarks?|[Cc]orp(?:us|ora)|[Cc]ohorts?|"
                      r"[Pp]atients|[Pp]articipants|[Ss]ubjects)\b|"
                      r"\b(?:on|using|across|with|from|in) (?:the )?(?:[A-Z][a-z]*[A-Z0-9][\w-]*|"
                      r"[A-Z]{2,}[\w-]*)|\b(?:on|across) (?:\w+ ){0,4}(?:tasks?|environments?|"
                      r"games?|problems?|domains?)\b|"
                      # data of a kind it was run on ("evaluate MIRROR on real-world poaching
                      # data", "using both synthetic and real data")
                      r"\b(?:on|using|from|with) (?:both )?(?:(?:real[- ]world|real|synthetic|"
                      r"simulated|clinical|empirical|observational|experimental|field|"
                      r"historical|public|benchmark)(?:,? and |, | )){1,2}"
                      r"(?:[\w-]+ ){0,2}data\b"),
           name_zh="所用的数据或基准",
           named=re.compile(r"\b(?:on|using|across|with|from|in|and|,) (?:the )?"
                            r"(?:[A-Z][a-z]*[A-Z0-9][\w-]*|[A-Z]{2,}[\w-]*)|"
                            r"\b[A-Z][\w-]+ (?:[Dd]ata ?sets?|[Bb]enchmarks?|[Cc]orpus)\b"),
           # as in English, tasks and environments are no aspect ("在哪些任务上做了实验？"): an
           # abstract names them in words no pattern can tell ("on grasping and locomotion")
           asked_zh=re.compile(r"(?:哪些|什么|哪个|哪几个|哪类)(?:\w{0,2})(?:数据集|数据|基准|语料)|"
                               r"在(?:哪些|什么|哪个)(?:\w{0,4})(?:数据集|数据|基准)上|"
                               r"(?:数据集|基准)是(?:什么|哪些)")),
    Aspect("whether its code is available",
           _re(r"\b(?:is|are)\s+(?:the\s+|their\s+|its\s+)?(?:code|implementation|source "
               r"code|models?|weights)\s+(?:publicly\s+)?(?:available|released|public|open)|"
               r"\b(?:where|is there)\b[^?]*\b(?:code|github|repository|implementation)\b|"
               r"\bopen[- ]sourced?\s*\?"),
           _re(r"\b(?:code|github|gitlab|implementation|open[- ]?source[ds]?|repository|"
               r"publicly available|released?|https?://)"),
           name_zh="代码是否公开",
           asked_zh=re.compile(r"代码[^？?]{0,6}(?:公开|开源|发布)|(?:开源|公开)了?(?:吗|没有)|有没有(?:公开的?|开源的?)?代码|代码在哪")),
    Aspect("its limitations",
           _re(r"\b(?:what|which)\s+(?:are\s+|is\s+)?(?:the\s+|its\s+|their\s+)?"
               r"(?:main\s+)?(?:limitations?|weakness(?:es)?|drawbacks?|shortcomings?|"
               r"downsides?)\b|\bwhere does it fail\b|\b(?:any|its|their) limitations\b"),
           _re(r"\b(?:limitations?|limited|however|fails?|failure|cannot|drawbacks?|"
               r"restricted|only (?:works|applies)|does not|do not|struggles?)\b"),
           name_zh="它的局限", asked_zh=re.compile(r"局限|不足之处|缺点|弱点|短板")),
    Aspect("the compute or hardware it needs",
           _re(r"\bhow (?:much|many) (?:compute|gpus?|gpu[- ]hours|memory|time)\b|"
               r"\bwhat (?:hardware|gpus?|compute)\b|\bhow long (?:does|did) (?:it|training) "
               r"take\b"),
           _re(r"\b(?:gpus?|tpus?|hours?|days?|flops|memory|compute|computational|cost|"
               r"speed-?ups?|faster|efficien\w*|latency|overhead|\d+(?:\.\d+)?\s?[x×]|"
               r"(?:running |run )?time|runtime)\b|\bO\("),
           name_zh="所需的算力或硬件",
           asked_zh=re.compile(r"(?:多少|多大)(?:的)?(?:算力|计算量|显存|内存|GPU|计算资源)|训练(?:要|需要)?(?:多久|多长时间)|"
                               r"什么(?:硬件|GPU)")),
    Aspect("the baselines it is compared with",
           _re(r"\b(?:what|which) baselines?\b|\bwhat (?:does|did) it (?:beat|outperform|"
               r"compare (?:to|with|against))\b|\bcompared (?:to|with|against) what\b"),
           _re(r"\b(?:baselines?|compared?|comparison|outperform\w*|than|state[- ]of[- ]the[- ]"
               r"art|sota|prior (?:work|methods?|approaches))\b"),
           name_zh="与之比较的基线",
           asked_zh=re.compile(r"(?:和|与|跟)(?:哪些|什么)(?:基线|方法)[^？?]{0,4}(?:比较|对比)|基线(?:是|有)(?:什么|哪些)")),
    Aspect("its sample size",
           # "how many samples are needed to learn ...?" asks a sample complexity, a bound
           _re(r"\bhow many (?:patients|participants|subjects|samples|people|individuals|"
               r"examples|images|cases)\b(?![^?]*\b(?:needed|need|necessary|required|"
               r"requires?|suffic\w*|enough)\b)"),
           _re(r"\d"),
           name_zh="样本量",
           asked_zh=re.compile(r"多少(?:个|名|位)?(?:病人|患者|参与者|被试|受试者|样本|图像|例)")),
)
# what a field's papers say stands in its way: what "What are the open problems in X?" quotes of
# each paper on X (query/field_ask.py). Not asked of one paper (no part of ``ASPECTS``): what a
# paper's abstract says of the problem it takes on is what any question about it reads
CHALLENGES = Aspect(
    "the challenges or open problems it names",
    _re(r"\b(?:open problems?|open questions?|challenges)\b"),
    # a challenge named, not a "challenging benchmark" beaten
    _re(r"\b(?:challenges?|open (?:problems?|questions?)|(?:is|are|was|were|remains?|remained|"
        r"becomes?|been|be|proves?) (?:\w+ ){0,2}?(?:challenging|difficult|hard|unclear|unknown|"
        r"open|elusive|intractable|costly|expensive|prohibitive|problematic|unsolved|"
        r"unresolved|poorly understood)|difficult(?:y|ies)|bottlenecks?|limitations?|"
        r"barriers?|obstacles?|hurdles?|drawbacks?|shortcomings?|lacks?|lacking|fails? to|"
        r"failures?|struggles?|suffers? from|suffering from|hinders?|hamper\w*|yet to|"
        r"little is known|poorly understood|however|(?:can|may|often|usually|typically) fail|"
        r"instabilit(?:y|ies)|(?:key|main|major|central|core|fundamental|important|open) "
        r"(?:problems?|questions?|issues?|difficult(?:y|ies))|an? (?:open|active) "
        r"(?:problem|question|area)|"
        # a question put, the way an open problem's abstract puts it ("and ask whether it is
        # possible to achieve sublinear regret with efficient algorithms", "we conjecture")
        r"ask(?:s|ed)? (?:whether|if)|whether it is possible|conjectur\w*|(?:is|are) (?:still )?"
        r"not known)\b"),
    name_zh="它指出的挑战或开放问题")
# a question about which paper is about something names an aspect as its topic ("Which paper
# proposes a benchmark for ...?"); it does not ask it of a paper
_WHICH_PAPER = _re(r"^\W*(?:which|what|is there an?|are there)\s+(?:\w+\s+)?(?:papers?|works?|"
                   r"stud(?:y|ies)|methods?)\b")


# the same in Chinese ("哪篇论文提出了一个数据集 ……")
_WHICH_PAPER_ZH = re.compile(r"哪篇|哪些(?:论文|工作|研究)|有没有[^？?]*(?:论文|工作|研究)")


def asked(question: str) -> Aspect | None:
    """The aspect the question asks of a paper, if it asks one of ``ASPECTS`` (in English or
    in Chinese)."""
    if _WHICH_PAPER.search(question) or _WHICH_PAPER_ZH.search(question):
        return None
    return next((a for a in ASPECTS if a.asked.search(question)
                 or (a.asked_zh is not None and a.asked_zh.search(question))), None)


def stated(aspect: Aspect, sentences: Iterable[str]) -> bool:
    """Does any of these sentences state ``aspect``?"""
    return any(aspect.stated.search(s) for s in sentences)
