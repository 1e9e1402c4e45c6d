"""What kind of answer a question wants: a number, a name, or neither.

"What percentage of the RDA for iron did the cyclists consume?" is answered by the sentence
that gives the percentage, not by the abstract's opening that shares most of its words; "What
was the code name of the modulator?" by the sentence that names it. The offline answerer
(answer/extractive.py) favours, among the sentences that match the question, those that hold
what it asks for: a figure (digits, a bound in math notation, a spelled-out count) or a name
the question does not already hold (a capitalised word or acronym, a quoted term, "called
...").
"""

from __future__ import annotations

import re

_ASKS_NUMBER = re.compile(
    r"\bhow (?:many|much|long|large|big|fast|often|far|old|quickly|accurate|small|high|low)\b|"
    r"\bby (?:what|how much) (?:factor|margin|amount)\b|\bat what\b|\bduring which\b|"
    r"\b(?:what|which)\s+(?:is |was |were |are )?(?:the )?(?:[\w'-]+ ){0,3}?"
    r"(?:percentage|percent|fraction|share|proportion|rate|ratio|number|amount|size|count|time|"
    r"duration|speed|speedup|accuracy|error|bound|regret|complexity|dimension|median|mean|"
    r"average|score|value|frequency|dose|level|age|odds|risk|threshold|factor|runtime|"
    r"reduction|increase|improvement|gain|period|interval|year|depth|width|length|cost|"
    r"probability|prevalence|incidence|concentration|sample|margin)s?\b"
    # ... as a noun, not a modifier: "what time series model", "which value function"
    r"(?![ -](?:series|functions?|efficien\w*|based|fields?|measures?|correct\w*|distortion|"
    r"aware|sensitive|free|steps?|scales?|matching|estimat\w*|models?|networks?|methods?|"
    r"algorithms?|complexity|level|invariant|varying|dependent))", re.IGNORECASE)
_ASKS_NUMBER_ZH = re.compile(r"多少|几(?:个|种|步|倍|次|层|年|天|小时|例|名)|"
                             r"多大|多长|多久|多快|多高|比例|百分之|百分比|速度|"
                             r"复杂度|上界|下界|准确率|多长时间|运行时间|耗时")
_ASKS_NAME = re.compile(
    r"\b(?:called|named|name|code[- ]name|acronym|dubbed|termed)\b|"
    r"\b(?:which|what)\s+(?:is |was |were |are )?(?:the )?(?:[\w'-]+ ){0,3}?"
    r"(?:dataset|data set|benchmark|suite|environment|simulator|lemma|theorem|inequality|"
    r"algorithm|model|architecture|library|toolkit|software|platform|solver|language|game|"
    r"corpus|protein|gene|enzyme|drug|compound|receptor|species|strain|virus|cell line|"
    r"kinase|inhibitor|mutation|marker|molecule|hormone|antibody|organism)s?\b",
    re.IGNORECASE)  # things with proper names: "which task", "which technique" seldom have one
_ASKS_NAME_ZH = re.compile(r"叫什么|名字|名称|简称|(?:哪个|哪些|什么)"
                           r"(?:数据集|基准|环境|算法|模型|引理|定理|蛋白|基因|药物|受体)")

# who wrote a paper: its authors, from the list's metadata (the abstract never names them)
_ASKS_AUTHORS = re.compile(
    r"\bwho (?:wrote|writes|authored|published|are the authors|were the authors|is the author|"
    r"was the author|is behind|was behind|are behind)\b|\bauthors? of\b|\bwritten by\b|"
    r"\bby whom\b|\bwho (?:is|are|were) (?:its|their|the paper's) authors?\b|"
    r"\b(?:its|their|the paper's|the) authors\s*\?|谁写|作者(?:是谁|有哪些|是哪些)|哪些作者",
    re.IGNORECASE)
_FIGURE = re.compile(r"\d|\$[^$]+\$|\\(?:Theta|Omega|tilde|log|sqrt)\b|\b(?:two|three|four|"
                     r"five|six|seven|eight|nine|ten|eleven|twelve|twenty|hundred|thousand|"
                     r"million|billion|twice|half|double[ds]?|tripl\w+|\w+fold)\b",
                     re.IGNORECASE)
# a name: a capitalised word or an acronym not opening the sentence, a quoted term, "called ..."
_NAME = re.compile(r"(?<=[\s(,;/-])(?:[A-Z][\w-]*)|['\"“‘][^'\"”’]{2,40}['\"”’]|"
                   r"\b(?:called|named|dubbed|termed)\b")
_NOT_NAMES = frozenset(["we", "our", "the", "in", "this", "these", "however", "here", "results",
                        "methods", "background", "conclusions", "objective", "design", "i"])


def expects(question: str) -> str | None:
    """``"number"``, ``"name"`` or None: what the question asks for, if it is one of those."""
    if _ASKS_NUMBER.search(question) or _ASKS_NUMBER_ZH.search(question):
        return "number"
    if _ASKS_NAME.search(question) or _ASKS_NAME_ZH.search(question):
        return "name"
    return None


def holds(kind: str | None, sentence: str, question: str) -> bool:
    """Does ``sentence`` hold an answer of ``kind`` (``expects``'s) to ``question``: a figure,
    or a name the question does not already hold?"""
    if kind == "number":
        return bool(_FIGURE.search(sentence))
    if kind == "name":
        asked = {w.lower() for w in re.findall(r"[\w-]+", question)}
        for match in _NAME.finditer(sentence):
            word = match.group(0).strip("'\"“”‘’").lower()
            if word not in asked and word not in _NOT_NAMES:
                return True
    return False


def asks_authors(question: str) -> bool:
    """Does the question ask who wrote the paper ("Who wrote ...?", "the authors of ...")?"""
    return bool(_ASKS_AUTHORS.search(question))
