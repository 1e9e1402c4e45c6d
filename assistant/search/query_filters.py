"""Filters read from the question itself: "ICML 2019 papers on ...", "from NeurIPS", "in 2021",
"What did Leslie Kaelbling publish on planning?".

Only unambiguous mentions count: a venue that the store holds (as a whole word), and a year
that the store holds *where it qualifies the papers*: after a held venue ("NeurIPS 2018"),
after "from", "in", "of", "during", "since", "year" ("papers from 2017"), or before "paper(s)",
"work", "submissions" ("2018 papers"). A year inside a name ("trained on CoNLL 2003", "the
ImageNet 2012 results") is part of the question, not a filter. An author counts when the
question names one of the store's authors in full (two words or more, capitalised as a name is:
"Nicholas Roy", "Leslie Kaelbling" for Leslie Pack Kaelbling); a surname alone, or a name two
authors share, does not. Explicit flags always win.

``infer`` returns the filters to search with; ``read`` says which of them came from the
question (``pipeline.searched`` drops those again when nothing passing them answers, and the
answer says what it did: ``notice``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from assistant.search.retrieval import Filters

_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_BEFORE = frozenset(["from", "in", "of", "during", "since", "year", "years", "published", "at",
                     "circa", "around"])
_AFTER = frozenset(["paper", "papers", "work", "works", "submission", "submissions", "article",
                    "articles", "publication", "publications", "proceedings", "edition"])
_WORD = re.compile(r"[\w'’-]+")


def _qualifying_years(question: str, venues: set[str]) -> set[int]:
    """Years that qualify the papers asked about, as the module docstring says."""
    out: set[int] = set()
    for m in _YEAR.finditer(question):
        before = _WORD.findall(question[: m.start()])
        after = _WORD.findall(question[m.end():])
        prev = before[-1].lower().rstrip("'’") if before else ""
        nxt = after[0].lower() if after else ""
        if prev in _BEFORE or prev in venues or nxt in _AFTER:
            out.add(int(m.group(1)))
    return out


# a run of capitalised words (with the particles names carry: "van der", "de"), as a name is
# written; "Roy's" counts as "Roy"
_PARTICLES = frozenset(["van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "dos",
                        "le", "la", "bin", "al", "y"])
_TOKEN = re.compile(r"[^\W\d_][\w'’.-]*")
NAME_WORDS = 5  # the longest name read


def named_author(question: str, names: Callable[[], Mapping[str, str]]) -> str | None:
    """The one author of the store the question names in full (the list's spelling), or None.
    ``names`` (the store's, ``ChunkIndex.author_names``) is read only when the question holds
    two capitalised words in a row."""
    tokens = [(m.group(0).rstrip(".").removesuffix("'s").removesuffix("’s"), m.start())
              for m in _TOKEN.finditer(question)]
    capital = [t[:1].isupper() or t.lower() in _PARTICLES for t, _ in tokens]
    if not any(a and b and t1[:1].isupper() and t2[:1].isupper() for a, b, (t1, _), (t2, _)
               in zip(capital, capital[1:], tokens, tokens[1:], strict=False)):
        return None
    known = names()
    found: dict[str, str] = {}
    i = 0
    while i < len(tokens):
        hit = None
        for n in range(min(NAME_WORDS, len(tokens) - i), 1, -1):  # the longest name first
            span = tokens[i:i + n]
            if not all(capital[i:i + n]) or not (span[0][0][:1].isupper()
                                                 and span[-1][0][:1].isupper()):
                continue
            key = " ".join(t.lower() for t, _ in span)
            if key in known:
                hit = (n, known[key])
                break
        if hit:
            found[hit[1].lower()] = hit[1]
            i += hit[0]
        else:
            i += 1
    return next(iter(found.values())) if len(found) == 1 else None


def infer(question: str, *, venues: Iterable[str], years: Iterable[int],
          explicit: Filters | None = None,
          authors: Callable[[], Mapping[str, str]] | None = None) -> Filters:
    explicit = explicit or Filters()
    venues = [v for v in venues if v]
    matches = (re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", question, re.IGNORECASE)
               for v in venues)  # as the question spells it (venues match in any case)
    found_venues = sorted({m.group(0) for m in matches if m})
    year_set = set(years)
    found_years = sorted(_qualifying_years(question, {v.lower() for v in venues}) & year_set)
    venue = explicit.venue or (found_venues[0] if len(found_venues) == 1 else None)
    year = explicit.year or (found_years[0] if len(found_years) == 1 else None)
    author = explicit.author or (named_author(question, authors) if authors else None)
    return dataclasses.replace(explicit, venue=venue, year=year, author=author)


def read(explicit: Filters | None, inferred: Filters | None) -> dict[str, Any]:
    """The filters ``infer`` added to the user's own: {"venue": ..., "year": ...}."""
    if inferred is None:
        return {}
    explicit = explicit or Filters()
    return {k: getattr(inferred, k) for k in ("venue", "year", "author")
            if getattr(inferred, k) and not getattr(explicit, k)}


def stripped(query: str, applied: dict[str, Any]) -> str:
    """The query without the venue and year the filters now carry ("Which NeurIPS 2019 papers
    cover transformers?" -> "Which papers cover transformers?"): they are no topic words, and
    no abstract holds them. A query of nothing else ("NeurIPS 2019") stays as it is."""
    out = leftover(query, applied)
    return out if any(ch.isalnum() for ch in out) else query


def leftover(query: str, applied: dict[str, Any]) -> str:
    """What the query says besides the filters read from it ("Nicholas Roy" -> "")."""
    out = query
    if applied.get("venue"):
        out = re.sub(rf"(?<![\w-]){re.escape(str(applied['venue']))}(?![\w-])", " ", out,
                     flags=re.IGNORECASE)
    if applied.get("year"):
        out = re.sub(rf"(?<!\d){int(applied['year'])}(?!\d)", " ", out)
    if applied.get("author"):  # as said: in full, or its first and last word
        words = str(applied["author"]).split()
        middle = rf"(?:\s+\S+){{0,{max(0, len(words) - 2)}}}"
        out = re.sub(rf"(?<![\w-]){re.escape(words[0])}{middle}\s+{re.escape(words[-1])}"
                     r"(?:'s|’s)?(?![\w-])", " ", out, flags=re.IGNORECASE)
    return " ".join(out.split())


def described(fields: dict[str, Any]) -> str:
    """"papers from 2018 at NeurIPS" for the answer's notice."""
    parts = ["papers"]
    if fields.get("author"):
        parts.append(f"by {fields['author']}")
    if fields.get("year"):
        parts.append(f"from {fields['year']}")
    if fields.get("venue"):
        parts.append(f"at {fields['venue']}")
    return " ".join(parts)


def described_zh(fields: dict[str, Any]) -> str:
    """"Nicholas Roy 2018 年 NeurIPS 的论文" for a Chinese answer's notice."""
    parts = [str(fields["author"])] if fields.get("author") else []
    if fields.get("year"):
        parts.append(f"{fields['year']} 年")
    if fields.get("venue"):
        parts.append(str(fields["venue"]))
    return " ".join(parts) + " 的论文"


def notice(applied: dict[str, Any], dropped: dict[str, Any], *, chinese: bool = False) -> str:
    """One line the answer opens with when the question itself set a filter (in Chinese for
    a question asked in Chinese)."""
    if chinese and dropped:
        return (f"（没有 {described_zh(dropped)}能回答这个问题，所以检索了全部论文；"
                "这个筛选条件是从问题中读出的。）")
    if chinese and applied:
        return (f"（只检索了 {described_zh(applied)}：这是从问题中读出的。"
                "换个说法即可检索全部论文。）")
    if dropped:
        return (f"(No {described(dropped)} answer this, so every paper was searched; the "
                "filter was read from the question.)")
    if applied:
        return (f"(Searched only {described(applied)}: read from the question. "
                "Reword it to search every paper.)")
    return ""
