"""Follow-up or standalone: a small learned decision over the rule detector and plain cues.

The rules in followup.py find what points back ("it", "this method", "第二篇", "what about").
Alone they missed what researchers type in a chat that the rules never saw: bare fragments
("Token rate?", "How many NFEs?", "几步就够了？") and definite noun phrases about the last answer
("How does the router avoid test-time updates?"). One logistic model per language weighs the
rules' verdict with cues that generalise: length, how many topic words and method names the
question has of its own, a discourse opener ("And", "那"), a definite or demonstrative phrase,
a self-contained form ("Which papers ...", "关于…的论文", "what is"), a bare fragment, and how
many of its words the previous question already had. Fitted by ``bench/followups.py --fit`` on
the dev split of evals/followups.jsonl only (the one split registry: each case by its id).
"""

from __future__ import annotations

import math
import re

from assistant.query.followup_rules import is_follow_up_by_rules
from assistant.sources.titles import names_in
from assistant.textutil import has_cjk

FEATURES = ("rules", "length", "topic", "names", "opener", "definite", "self_contained",
            "fragment", "overlap", "short")
# fitted by bench/followups.py --fit (dev split only); bias last
WEIGHTS = {
    "en": (3.97, -1.86, -1.99, -1.36, 0.79, 0.6, -2.71, 1.37, -2.67, -0.98, 5.68),
    "zh": (2.84, -2.83, -0.39, -1.89, -0.88, 0.24, -2.85, 0.48, -3.76, -0.23, 6.43),
}

def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_STOP = _words(
    "a an the of to in on for with and or is are was were be been do does did can could how what "
    "which why when where who whose whom it its this that these those they their them there here "
    "any some much many more most less than then so also but if into from by at as about vs "
    "versus per up over under between i me my we our you your should would will may might has "
    "have had not no yes ever")
_GENERIC = _words(
    "paper papers work method methods model models approach result results performance accuracy "
    "gain gains speedup code data dataset datasets benchmark benchmarks experiment experiments "
    "evaluation training inference use used using does work works better worse compare "
    "compared baseline baselines number default typical large small")
_OPENER = re.compile(r"^(and|so|also|but|then|ok|okay|what about|how about|what if|same)\b",
                     re.IGNORECASE)
_ZH_OPENER = re.compile(r"^(那|那么|还有|另外|所以|然后|而且|同样)")
_DEFINITE = re.compile(r"\b(the|this|that|these|those|its|their)\s+\w+", re.IGNORECASE)
_ZH_DEFINITE = re.compile(r"(该|这个|那个|这篇|那篇|这些(?!年)|那些(?!年)|其|它|他们|作者|文中|"
                          r"论文里|这里|那里)")  # "这些年" (these years) points to no paper
_SELF = re.compile(r"\b(paper|papers|work|works) (on|about|that|which|proposing)\b|"
                   r"\bwhich papers?\b|\bis there\b|\bare there\b|\bwhat is\b|\bwhat are\b|"
                   r"\bin (this|the) collection\b|\bhow many (papers|works|studies)\b|"
                   r"\bwhen (was|were|did) .+ (most popular|at (its|their) peak|take off|catch "
                   r"on|become popular)\b",
                   re.IGNORECASE)
_ZH_SELF = re.compile(r"(关于.{2,}的(那篇|论文)|论文集|这个集合|有没有|哪篇|哪些论文|"
                      r"什么是|是什么|有多少篇?(论文|文章|工作|研究)|(论文|文章|工作|研究)有多少|"
                      r"发展趋势|(这些年|近年来|近些年|多年来|历年)(有|发生了)?(什么|哪些|怎样的)?变化|"
                      r"^谁(在|一直在)?(研究|做|从事)|最多的(作者|研究者|学者)|"
                      r"(作者|研究者|学者)(有哪些|是谁|有谁)|^(哪些|哪位|有哪些)(作者|研究者|学者|人))")
_LATIN = re.compile(r"[A-Za-z][\w\-.']*")
# a Chinese question that opens with a bare third-person pronoun as its subject ("它把…",
# "他们的实验设置…") has nothing before it in the question to point to ("其他", "其中",
# "其实", "其次", "其余" are no pronouns)
_ZH_LEADING_PRONOUN = re.compile(r"^[\s“\"]*(它们|它|他们|她们|其(?![他它中实次余]))")
_HAN2 = re.compile(r"[\u4e00-\u9fff]{2}")


def features(question: str, previous: str = "") -> dict[str, float]:
    q = question.strip()
    zh = has_cjk(q)
    latin = _LATIN.findall(q)
    if zh:
        n = len(re.findall(r"[\u4e00-\u9fff]", q)) / 2 + len(latin)
        topic = len([w for w in latin if w.lower() not in _GENERIC])
        opener, definite = _ZH_OPENER.search(q), _ZH_DEFINITE.search(q)
        self_contained, fragment = _ZH_SELF.search(q), q.endswith(("呢？", "呢?", "呢"))
    else:
        n = len(latin)
        topic = len([w for w in latin if w.lower() not in _STOP | _GENERIC])
        opener, definite = _OPENER.search(q), _DEFINITE.search(q)
        self_contained = _SELF.search(q)
        fragment = re.fullmatch(r"\w+( \w+)?\?", q) is not None
    before = {w.lower() for w in _LATIN.findall(previous)} | set(_HAN2.findall(previous))
    words = {w.lower() for w in latin if w.lower() not in _STOP} | set(_HAN2.findall(q))
    return {"rules": 1.0 if is_follow_up_by_rules(q) else 0.0, "length": math.log1p(n),
            "topic": min(topic, 4) / 4, "names": float(bool(names_in(q))),
            "opener": float(bool(opener)), "definite": float(bool(definite)),
            "self_contained": float(bool(self_contained)), "fragment": float(bool(fragment)),
            "overlap": len(words & before) / max(len(words), 1), "short": float(n <= 4)}


def probability(question: str, previous: str = "") -> float:
    w = WEIGHTS["zh" if has_cjk(question) else "en"]
    f = features(question, previous)
    z = sum(wi * f[k] for wi, k in zip(w, FEATURES, strict=False)) + w[-1]
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


THRESHOLD = 0.5
# a question at least this likely to lean on the previous turn, read as standalone, is read
# from the previous answer's paper when its own search finds nothing sure and its words point
# there (answer/pipeline.py read_back). Chosen on dev: the natural follow-ups gain the same at
# 0.3 and 0.35 (0.783 -> 0.804), and bench/read_back.py's 594 standalone second turns had one
# read back at 0.3 (a 19-paper store, an absent paper's question, chance 0.32), none at 0.35
LEANS = 0.35


def is_follow_up(question: str, previous: str = "") -> bool:
    """Does the question lean on an earlier turn (``previous``, the last question asked)?
    The rules' verdict weighed with other cues by the model above. Whether there is an
    earlier turn is the caller's test."""
    if not question.strip():
        return False
    if _ZH_LEADING_PRONOUN.match(question):
        return True  # the model weighs its length and names: 0.19 for "他们的实验设置是怎样的，…"
    if not is_follow_up_by_rules(question) and names_in(question):
        return False  # it names its method: "Who are the authors of the DyPE paper?"
    return probability(question, previous) >= THRESHOLD
