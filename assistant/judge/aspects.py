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


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


ASPECTS = (
    Aspect("the data or benchmarks it uses",
           _re(r"\b(?:data ?sets?|benchmarks?|corpora|corpus|what data|which data|"
               r"(?:evaluated|tested|trained|validated) (?:it )?on)\b"),
           _re(r"\b(?:data ?sets?|benchmarks?|corpus|corpora|cohorts?|patients|"
               r"participants|subjects|(?:evaluat\w+|experiments?|tested|trained|results?) "
               r"(?:\w+ ){0,3}on (?:the )?[A-Z])")),
    Aspect("whether its code is available",
           _re(r"\b(?:code|implementation|github|open[- ]?source[ds]?|repository|repo)\b"),
           _re(r"\b(?:code|github|gitlab|implementation|open[- ]?source[ds]?|repository|"
               r"publicly available|released?|https?://)")),
    Aspect("its limitations",
           _re(r"\b(?:limitations?|weakness(?:es)?|drawbacks?|shortcomings?|downsides?|"
               r"failure (?:modes?|cases?)|where does it fail)\b"),
           _re(r"\b(?:limitations?|limited|however|fails?|failure|cannot|drawbacks?|"
               r"restricted|only (?:works|applies)|does not|do not|struggles?)\b")),
    Aspect("the compute or hardware it needs",
           _re(r"\b(?:compute|gpus?|tpus?|hardware|flops|gpu[- ]hours?|training (?:time|cost)|"
               r"how long (?:does|did) (?:it|training) take|memory (?:footprint|use|usage))\b"),
           _re(r"\b(?:gpus?|tpus?|hours?|days?|flops|memory|compute|computational|cost|"
               r"speed-?ups?|faster|efficien\w*|latency|overhead|\d+(?:\.\d+)?\s?[x×])\b")),
    Aspect("the baselines it is compared with",
           _re(r"\b(?:baselines?|compared? (?:to|with|against)|comparison with|"
               r"what (?:does|did) it (?:beat|outperform))\b"),
           _re(r"\b(?:baselines?|compared?|comparison|outperform\w*|than|state[- ]of[- ]the[- ]"
               r"art|sota|prior (?:work|methods?|approaches))\b")),
    Aspect("its sample size",
           _re(r"\bhow many (?:patients|participants|subjects|samples|people|individuals|"
               r"examples|images|cases)\b"),
           _re(r"\d")),
)


def asked(question: str) -> Aspect | None:
    """The aspect the question asks of a paper, if it asks one of ``ASPECTS``."""
    return next((a for a in ASPECTS if a.asked.search(question)), None)


def stated(aspect: Aspect, sentences: Iterable[str]) -> bool:
    """Does any of these sentences state ``aspect``?"""
    return any(aspect.stated.search(s) for s in sentences)
