"""A paper named by its number in a recent answer: "tell me more about [2]", "what data did the
second one use?", "more like #3", "[1] vs [2]", "第二篇用了什么数据？".

An answer cites its papers as [n] beside their titles ("- **T** [2]", "**T** (UAI 2021) [1]"),
so a reader names them so. ``numbered_paper`` is the title of the one paper named;
``with_titles`` puts each named paper's title in place of its number, so the turn is read as
if the titles were typed (a comparison's sides, a search query). Such a turn was read from a
list's first paper, or, with nothing else in it ("[1] vs [2]"), as asking nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.textutil import has_cjk

Turn = tuple[str, str]  # (question, answer)

# a paper of the previous answer named by its number there: "[2]", "paper 3", "#2", "no. 2",
# "the second one", "第二篇"; never "top 2", "2 papers", "GPT-2", "the first paper on X"
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth")
_ZH_NUMBERS = "一二三四五六七八九十"
# "[2]", "paper 3", "#2", "no. 2", "the second one", "第二篇"; never "top 2", "2 papers",
# "GPT-2", "the first paper on X"
_NUMBERED = re.compile(
    r"\[(\d{1,2})\]|"
    r"\b(?:paper|ref(?:erence)?|source|item|result|number)\s*#?\s*(\d{1,2})\b(?![.-]\d)|"
    r"(?<![\w#])#(\d{1,2})\b|\bno\.\s*(\d{1,2})\b|"
    r"\bthe\s+(" + "|".join(_ORDINALS) + r"|last)\s+(?:one|paper|result|reference)\b"
    r"(?!\s+(?:on|about|in|to|that|which|who|where|of|for|with)\b)|"
    r"第([" + _ZH_NUMBERS + r"\d]{1,2})(?:篇|个|项)", re.IGNORECASE)
_ORDINAL_GROUPS = (5, 6)  # a word, not a number: it counts a list's papers
NUMBERED_TURNS = 3  # answers looked back through for a number the question names
# a title the answer names, then what it says beside it, then its number: "**T** [2]", "**T**
# (UAI 2021) [1]", "**T** (0.96, CORL 2025) [1]", "**T**, by A and B [3]"
_CITED = re.compile(r"\*\*([^*]{3,200})\*\*(?:\s*\([^()\n]{0,60}\))?(?:,\s+by\s+[^\[\n]{1,300}?)?"
                    r"\s*\[(\d+)\]")


def _number(m: re.Match[str], last: int) -> int:
    word = next(g for g in m.groups() if g)
    if word.isdigit():
        return int(word)
    if word.lower() == "last":
        return last
    if word.lower() in _ORDINALS:
        return _ORDINALS.index(word.lower()) + 1
    tens = 10 if len(word) > 1 else 0  # 十一 ... 十九
    return tens + _ZH_NUMBERS.index(word[-1]) + 1


def _numbers(said: str) -> dict[int, str]:
    """Each number an answer cites, and the title it names beside it first."""
    cited: dict[int, str] = {}
    for title, n in _CITED.findall(said):
        cited.setdefault(int(n), title)
    return cited


def _cited(m: re.Match[str], history: Sequence[Turn]) -> str | None:
    """The title a recent answer cited under the number ``m`` names: the latest that cited
    it; an ordinal ("the first one", "the last one") counts a list's papers, so it looks past
    an answer about one paper to the list before it."""
    for _, said in reversed(history[-NUMBERED_TURNS:]):
        cited = _numbers(said)
        if len(cited) < (2 if any(m.group(g) for g in _ORDINAL_GROUPS) else 1):
            continue
        n = _number(m, max(cited))
        if n in cited:
            return cited[n]
    return None


# the first few papers of a recent answer, named together: "the first two", "the top three
# papers", "these two", "the two papers", "both of them", "前两篇", "这两篇"; never "the first two
# layers", "these two settings" (what follows names something else)
_PAPERS_NOUN = r"(?:\s+(?:papers|ones|works|studies|results|listed|of\s+them|above))?"
_ENDS = r"(?=\s*(?:[?.,;!)]|and\b|vs\b|versus\b|differ\b|compare\b|$))"
_FEW = re.compile(
    r"\b(?:the\s+)?(?:first|top)\s+(two|three|2|3)" + _PAPERS_NOUN + _ENDS + "|"
    r"\b(?:these|those|the)\s+(two)" + _PAPERS_NOUN + _ENDS + "|"
    r"\b(both)\s+(?:of\s+them|papers)\b|前(两|二|三)篇(?:论文)?|[这那](两)篇(?:论文)?",
    re.IGNORECASE)
_HOW_MANY = {"two": 2, "2": 2, "both": 2, "两": 2, "二": 2, "three": 3, "3": 3, "三": 3}


def _first_few(m: re.Match[str], history: Sequence[Turn]) -> list[str]:
    """The titles of the first few papers a recent answer cited, as many as ``m`` says; []
    when none cited that many."""
    k = _HOW_MANY[next(g for g in m.groups() if g).lower()]
    for _, said in reversed(history[-NUMBERED_TURNS:]):
        cited = _numbers(said)
        if all(n in cited for n in range(1, k + 1)):
            return [cited[n] for n in range(1, k + 1)]
    return []


def named(question: str, history: Sequence[Turn]) -> list[str]:
    """The titles of the papers the question names by number, in its order, each once ("the
    first two": the first two a recent answer cited)."""
    found = [(m.start(), [t]) for m in _NUMBERED.finditer(question) if (t := _cited(m, history))]
    found += [(m.start(), ts) for m in _FEW.finditer(question) if (ts := _first_few(m, history))]
    return list(dict.fromkeys(t for _, ts in sorted(found) for t in ts))


def numbered_paper(question: str, history: Sequence[Turn]) -> str | None:
    """The title of the one paper the question names by number ("tell me more about [2]",
    "what data did the second one use?", "more like #3"); None when it names none, several
    ("[1] vs [2]"), or a number no recent answer cited."""
    titles = named(question, history)
    return titles[0] if len(titles) == 1 else None


def with_titles(question: str, history: Sequence[Turn]) -> str:
    """The question with each paper it names by number given by its title ("[1] vs [2]" ->
    "“A” vs “B”"); a number no recent answer cited stays as written."""
    def title(m: re.Match[str]) -> str:
        found = _cited(m, history)
        return f"“{found}”" if found else m.group(0)

    def titles(m: re.Match[str]) -> str:
        found = [f"“{t}”" for t in _first_few(m, history)]
        zh = has_cjk(m.group(0))
        return ((("、" if zh else ", ").join(found[:-1]) + (" 和 " if zh else " and ")
                 + found[-1]) if found else m.group(0))
    return _FEW.sub(titles, _NUMBERED.sub(title, question))


# a recent answer's papers taken as a set the question sifts: "which of them use domain
# randomization?", "do any of these need labels?", "among those, which run on real robots?",
# "其中哪些用了域随机化？", "这些论文中哪些需要标注数据？"
_SET = (r"(?:(?:these|those)\s+(?:papers|works|ones|results|methods|approaches|studies)|"
        r"the\s+(?:papers|ones|results)(?:\s+(?:above|you\s+(?:listed|found|cited|named|"
        r"mentioned)))?|them|these|those|the\s+above)")
_AMONG = re.compile(
    r"^(?:(?:and|so|ok(?:ay)?|now|then)[,\s]+)?(?:"
    rf"(?:which|what)\s+(?:ones?\s+)?of\s+{_SET}|"
    rf"(?:do|does|did|are|is|were|was|have|has|can|could)\s+any\s+(?:one\s+)?of\s+{_SET}|"
    rf"(?:among|of)\s+{_SET}(?=\s*,?\s*(?:which|what|do|does|are|is|how)\b)|"
    r"(?:which|what)\s+(?:of\s+)?(?:these|those)\s+(?:papers|works|ones|methods|approaches|"
    r"studies))(?![\w-])\s*,?\s*"
    r"|^(?:其中|(?:这|那)(?:些|几篇)(?:论文|工作|文章|研究)?(?:中|里|当中|之中)|它们(?:中|里|当中|之中))",
    re.IGNORECASE)
# "which of these two ...", "which of these is a method and which a testbed: A, or B?": two
# papers compared, not a list sifted
_TWO = re.compile(r"(?:two|both)\b", re.IGNORECASE)
_COMPARES = re.compile(r"\b(?:and|or|while|whereas)\s+which\b|:", re.IGNORECASE)
# a near miss's closest papers ("The closest papers, none of which answers it:", answer/
# framing.py): no list a question sifts (tests/answer/test_which_of_them.py checks the heads)
_NEAR_MISS = re.compile(r"none of which (?:answers it|is about it|is about both)|"
                        r"The closest of them:|"
                        r"The closest to each side|最接近的几篇|先列出与每一方最接近的论文")
_LISTED = re.compile(r"^- (\*\*.*)$", re.MULTILINE)  # a list's line: "- **T** [2]: ..."
# what is left to ask once the set is named: "which use X" -> "use X", "哪些用了X" -> "用了X"
_ASKING_WORD = re.compile(r"^(?:(?:which|what)(?:\s+ones?)?|do\s+any|does\s+any|are\s+any|is\s+"
                          r"any|how\s+many)\s+|^(?:有哪些|哪些|哪几篇|哪篇|有没有|是否有|有)",
                          re.IGNORECASE)


def among(question: str, history: Sequence[Turn]) -> tuple[str, list[str]] | None:
    """What a question asks of a recent answer's papers as a set ("which of them use domain
    randomization?" -> "use domain randomization"), and the titles of the papers a recent
    answer listed, in its order: the latest of the last ``NUMBERED_TURNS`` answers that listed
    two or more, a line each (its "possibly related too" papers are no part of the list; an
    answer about one paper that mentions others as "also related" lists none). None for any
    other question, one that asks nothing more ("which of them?"), or no such answer."""
    m = _AMONG.match(question.strip())
    if m is None or _TWO.match(question.strip()[m.end():]) or _COMPARES.search(question):
        return None  # "Which of these is a method and which a testbed: A or B?" compares two
    rest = _ASKING_WORD.sub("", question.strip()[m.end():].lstrip(" ,，")).strip(" ?？。.")
    if not rest:
        return None
    titles = listed(history)
    return (rest, titles) if titles else None


# each of a recent answer's papers summed up: "Summarize each of these papers in one
# sentence", "Summarize them", "What does each of them do?", "a one-line summary of each",
# "分别总结一下这些论文" (answered with one paper, the first listed, as a follow-up)
_EACH = re.compile(
    r"^(?:(?:please|can\s+you|could\s+you|now|ok(?:ay)?|and)[,\s]+)*(?:"
    rf"(?:summari[sz]e|sum\s+up|recap|describe|outline|go\s+(?:over|through))\s+(?:(?:each|all|"
    rf"every\s+one)\s+(?:of\s+)?)?{_SET}|"
    r"(?:summari[sz]e|sum\s+up|describe)\s+(?:each|every)\s+(?:one|paper)|"
    r"(?:give\s+(?:me\s+)?)?(?:an?\s+)?(?:one[- ](?:line|sentence)\s+|short\s+|brief\s+|quick\s+)?"
    rf"(?:summar(?:y|ies)|tl;?drs?)\s+(?:of|for)\s+(?:each|all|every\s+one)(?:\s+of\s+{_SET})?|"
    rf"what\s+(?:does|do)\s+(?:each|every\s+one|all)\s+(?:of\s+{_SET}|paper|one)\s+(?:do|propose|"
    r"study|show|find|contribute)"
    r")(?![\w-])(?!\s+(?:papers|works|ones|studies|methods|that|which|who|using|on)\b)|"
    r"^(?:请)?(?:分别)?(?:总结|概括|介绍|简述|说说)(?:一下)?(?:这些|那些|上面的?|以上|它们)(?:几篇)?(?:论文|文章|工作)?|"
    r"^(?:这些|那些|上面的?|以上)(?:几篇)?(?:论文|文章|工作)?(?:分别|各自)(?:讲了|做了|说了|提出了|研究了)什么",
    re.IGNORECASE)


def summed_up(question: str, history: Sequence[Turn]) -> list[str]:
    """The titles of the papers a recent answer listed (``listed``), when the question asks
    for each of them summed up ("Summarize each of these papers in one sentence"); [] for any
    other question."""
    return listed(history) if _EACH.match(question.strip()) else []


def listed(history: Sequence[Turn]) -> list[str]:
    """The titles of the papers a recent answer listed, in its order: the latest of the last
    ``NUMBERED_TURNS`` answers that listed two or more, a line each (its "possibly related
    too" papers are no part of the list, nor the closest papers of a near miss); [] when none
    did."""
    for _, said in reversed(history[-NUMBERED_TURNS:]):
        if _NEAR_MISS.search(said):  # the closest papers to something none is about
            continue
        titles = [c.group(1) for line in _LISTED.findall(said)
                  if (c := _CITED.match(line)) is not None]
        if len(titles) >= 2:
            return list(dict.fromkeys(titles))
    return []
