"""A question's misspelt words read as the collection's own ("reinforcment lerning with
graph nueral netwroks" -> "reinforcment learning with graph neural networks").

A word is respelt when the collection never uses it (no chunk holds its stem), it is long
enough to be a typo of a word rather than a word of its own (``MIN_LENGTH``), written in lower
case (a capitalised word inside a question is a name: "Kaelbling"; the first word may be
capitalised), no common English word (MiniLM's vocabulary: "prose" is no typo of "prove"), and
a letter left out or two letters swapped (``MIN_LIKELY``) make it a word at least
``MIN_CHUNKS`` chunks hold and a paper writes so. Of several such words, the one whose edit is
the likelier typo (``_one_edit``), then the one found most often beside the question's other
words, then the most used. Nothing else is touched; the answer says what was searched ("Read
as ..."). A misspelling that keeps the word's stem ("reinforcment") BM25 already matches, and
is kept; a changed letter ("sparce") is left as typed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from assistant.textutil import stem

MIN_LENGTH = 5
MIN_CHUNKS = 2
# only a letter left out or two swapped: a changed or an added letter turned the real words of
# 14 of the ~1,500 dev questions into others ("tonal" -> "total", "garnet" -> "garner",
# "quartets" -> "quarters", "catchy" -> "catch"; MiniLM's vocabulary lacks them)
MIN_LIKELY = 2
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_WORD = re.compile(r"(?<![\w-])[A-Za-z][a-z]+(?![\w-])")


def _one_edit(word: str) -> dict[str, int]:
    """The words one edit from ``word``, each with how likely that edit is as a typo: a letter
    left out (3: "traning" is "training" before "trading"), two swapped (2), one changed (1:
    "sparce" is "sparse" before "space"), one added (0). Chosen on dev lookups, each given one
    typo: every one of these pairs went the way the ranks say."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    out = {a + b[1:]: 0 for a, b in splits if b}
    out.update({a + c + b[1:]: 1 for a, b in splits if b for c in _LETTERS})
    out.update({a + b[1] + b[0] + b[2:]: 2 for a, b in splits if len(b) > 1})
    out.update({a + c + b: 3 for a, b in splits for c in _LETTERS})
    out.pop(word, None)
    return out


def respelt(query: str, *, stems: Callable[[str], list[str]],
            chunks_with: Callable[[Sequence[str]], int], writes: Callable[[str, str], bool],
            words: Collection[str] = frozenset()) -> tuple[str, dict[str, str]]:
    """The query with its misspelt words respelt, and what was changed ({} when nothing).
    ``stems(word)``: its BM25 stems ([] for a stopword); ``chunks_with(stems)``: how many of
    the collection's chunks hold all these stems; ``writes(word, stem)``: does a paper use the
    word as written; ``words``: English words, never respelt ("prose", "shell", "fellow":
    words of another field, not typos of "prove", "shelf", "follow")."""
    said_words = [(m.group(0), m.start(), stems(m.group(0).lower()))
                  for m in _WORD.finditer(query)]
    known = [s[0] for _, _, s in said_words if len(s) == 1 and chunks_with(s)]
    fixes: dict[str, str] = {}
    for said, at, own in said_words:
        word = said.lower()
        if len(word) < MIN_LENGTH or (said != word and at > 0) or len(own) != 1 or \
                word in words or chunks_with(own):
            continue  # short, a name, a stopword, a word, or one the collection uses
        held = []
        for c, likely in sorted(_one_edit(word).items()):
            c_stem = stem(c)
            count = chunks_with([c_stem])
            if likely >= MIN_LIKELY and count >= MIN_CHUNKS and writes(c, c_stem):
                # how often it is found beside the question's other words, for its use
                beside = sum(chunks_with([c_stem, k]) for k in known) / count ** 0.5
                held.append((likely, beside, count, c))
        if held:
            best = max(held)[3]
            fixes[said] = best if said == word else best.capitalize()
    if not fixes:
        return query, {}
    return _WORD.sub(lambda m: fixes.get(m.group(0), m.group(0)), query), fixes
