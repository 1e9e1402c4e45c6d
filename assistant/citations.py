"""Citation checking: parse [n], [n, m], [n-m]; drop what points at no source; renumber.

``CitationFilter`` works on a token stream, so what a front end shows while the answer streams
is already the checked text: citation groups are held back until they close, numbers are
mapped to the order of first use, and a citation of a source that was never given is dropped
(and recorded) instead of shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from assistant.paper import Paper

_GROUP = re.compile(r"\[\s*(\d{1,3}(?:\s*(?:[,;]|[-–—]|and)\s*\d{1,3})*)\s*\]")
_PREFIX = re.compile(r"^\[\s*(?:\d{1,3}(?:\s*(?:[,;]|[-–—]|a|an|and)\s*(?:\d{1,3})?)*)?\s*$")
_MAX_HELD = 40


def parse_group(body: str) -> list[int]:
    """'1, 3-5' -> [1, 3, 4, 5] (ranges capped at 50 numbers)."""
    numbers: list[int] = []
    for part in re.split(r"\s*(?:[,;]|and)\s*", body):
        if not part:
            continue
        m = re.match(r"^(\d+)\s*[-–—]\s*(\d+)$", part)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if lo <= hi and hi - lo <= 50:
                numbers.extend(range(lo, hi + 1))
            else:
                numbers.extend([lo, hi])
        elif part.strip().isdigit():
            numbers.append(int(part))
    return list(dict.fromkeys(numbers))


def format_group(numbers: list[int]) -> str:
    return "[" + ", ".join(str(n) for n in numbers) + "]"


@dataclass
class CitationFilter:
    n_sources: int
    mapping: dict[int, int] = field(default_factory=dict)  # source number -> shown number
    dropped: list[int] = field(default_factory=list)
    _held: str = ""

    def _rewrite(self, body: str) -> str:
        shown: list[int] = []
        for n in parse_group(body):
            if 1 <= n <= self.n_sources:
                if n not in self.mapping:
                    self.mapping[n] = len(self.mapping) + 1
                shown.append(self.mapping[n])
            else:
                self.dropped.append(n)
        return format_group(sorted(set(shown))) if shown else ""

    def feed(self, text: str) -> str:
        out: list[str] = []
        buf = self._held + text
        self._held = ""
        i = 0
        while i < len(buf):
            j = buf.find("[", i)
            if j < 0:
                out.append(buf[i:])
                break
            out.append(buf[i:j])
            m = _GROUP.match(buf, j)
            if m:
                replacement = self._rewrite(m.group(1))
                if not replacement:  # drop the space before a removed citation too
                    while out and out[-1].endswith(" "):
                        out[-1] = out[-1][:-1]
                        if out[-1] == "":
                            out.pop()
                out.append(replacement)
                i = m.end()
                continue
            rest = buf[j:]
            if _PREFIX.match(rest) and len(rest) < _MAX_HELD:
                self._held = rest  # might still become a citation: wait for more text
                break
            out.append("[")
            i = j + 1
        emitted = "".join(out)
        # hold trailing spaces too: a citation that follows them may be dropped with them
        stripped = emitted.rstrip(" \t")
        self._held = emitted[len(stripped):] + self._held
        return stripped

    def flush(self) -> str:
        held, self._held = self._held, ""
        return held

    @property
    def order(self) -> list[int]:
        """Source numbers in the order they were first cited."""
        return sorted(self.mapping, key=self.mapping.__getitem__)


def tidy(text: str) -> str:
    """Clean what dropping citations can leave: ' .' and doubled spaces inside a line (a line's
    indentation is kept: it nests a list item under the one before, as a comparison's points
    sit under their paper)."""
    text = re.sub(r"[ \t]+([.,;:!?])", r"\1", text)
    return re.sub(r"(?<=\S)[ \t]{2,}", " ", text)


def cited_numbers(text: str) -> list[int]:
    return list(dict.fromkeys(n for m in _GROUP.finditer(text) for n in parse_group(m.group(1))))


@dataclass
class Citation:
    n: int
    paper: Paper
    # a list's paper named under "less sure" (relevance.V_MAYBE): may bear on the question
    less_sure: bool = False

    def to_dict(self) -> dict[str, Any]:
        p = self.paper
        return {"n": self.n, "paper_id": p.paper_id, "title": p.title, "venue": p.venue,
                "year": p.year, "url": p.url or p.code_url, "code_url": p.code_url,
                "status": p.status, "published": not p.is_unpublished,
                "less_sure": self.less_sure}
