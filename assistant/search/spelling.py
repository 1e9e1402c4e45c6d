"""A question's misspelt words read as the collection's own ("reinforcment lerning with
graph nueral netwroks" -> "reinforcment learning with graph neural networks").

A word is respelt when the collection never uses it (no chunk holds its stem), it is long
enough to be a typo of a word rather than a word of its own (``MIN_LENGTH``), written in lower
case (a capitalised word inside a question is a name: "Kaelbling"; the first word may be
capitalised), no common English word (MiniLM's vocabulary: "prose" is no typo of "prove"), and
one edit makes it a word at least ``MIN_CHUNKS`` chunks hold and a paper writes so. An edit is a
letter left out or two letters swapped; a letter changed or added too ("sparce" -> "sparse",
"bround" -> "bound") unless a dictionary lists the word as typed, or the word it inflects
(``listed``: Webster's Second's 234k words and CC-CEDICT's English: "tonal" is no typo of
"total", nor "garnet" of "garner", "clutter" of "cluster", "regenerated" of "degenerated";
MiniLM's vocabulary lacks them). Of several such words, the one whose edit is the likelier typo
(``_one_edit``), then the one found most often beside the question's other words, then the most
used. Nothing else is touched; the answer says what was searched ("Read as ..."). A misspelling
that keeps the word's stem ("reinforcment") BM25 already matches, and is kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from assistant.textutil import stem

MIN_LENGTH = 5
MIN_CHUNKS = 2
# a word a dictionary lists is respelt only for a letter left out or two swapped: a changed or an
# added letter turned the real words of 14 of the 1,458 dev questions and turns into others
# ("tonal" -> "total", "garnet" -> "garner", "quartets" -> "quarters", "catchy" -> "catch";
# MiniLM's vocabulary lacks them). Unlisted, any edit: 3 of the 1,458 ("thermogenin" ->
# "thermogenic", "clasts" -> "class" twice; with CC-CEDICT's words alone, "provably" ->
# "probably" too), while a letter changed or added in a word of a dev lookup the collection
# uses is read back as written 0.83-0.85 of the time (as another word 0.01-0.03, mostly for
# "there", which BM25 does not index; before, never read back)
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
            words: Collection[str] = frozenset(),
            listed: Callable[[str], bool] = lambda word: True) -> tuple[str, dict[str, str]]:
    """The query with its misspelt words respelt, and what was changed ({} when nothing).
    ``stems(word)``: its BM25 stems ([] for a stopword); ``chunks_with(stems)``: how many of
    the collection's chunks hold all these stems; ``writes(word, stem)``: does a paper use the
    word as written; ``words``: English words, never respelt ("prose", "shell", "fellow":
    words of another field, not typos of "prove", "shelf", "follow"); ``listed(word)``: does
    a dictionary list it (asked only when a word's likeliest respelling changes or adds a
    letter: a listed word is respelt only for a letter left out or two swapped)."""
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
            if count >= MIN_CHUNKS and writes(c, c_stem):
                # how often it is found beside the question's other words, for its use
                beside = sum(chunks_with([c_stem, k]) for k in known) / count ** 0.5
                held.append((likely, beside, count, c))
        if held and max(held)[0] < MIN_LIKELY and _listed(word, listed):
            held = [h for h in held if h[0] >= MIN_LIKELY]  # a word of its own: "tonal"
        if held:
            best = max(held)[3]
            fixes[said] = best if said == word else best.capitalize()
    if not fixes:
        return query, {}
    return _WORD.sub(lambda m: fixes.get(m.group(0), m.group(0)), query), fixes


# a dictionary lists a word's stem, not its inflections: "quartets", "regenerated", "provably"
_INFLECTED = (("s", ""), ("es", ""), ("ies", "y"), ("ed", ""), ("d", ""), ("ied", "y"),
              ("ing", ""), ("ing", "e"), ("ly", ""), ("ily", "y"))


def _listed(word: str, listed: Callable[[str], bool]) -> bool:
    """Does the dictionary list the word, or the word it inflects ("regenerated")?"""
    return listed(word) or any(
        word.endswith(end) and len(word) - len(end) >= 3 and listed(word[:-len(end)] + base)
        for end, base in _INFLECTED)
