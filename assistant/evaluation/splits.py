"""The one split registry: every paper is dev or test once, in every suite and benchmark.

A paper's part is fixed by a stable hash of its id as the store holds it (``paper_of``: the
bundled ICML list's ``icml2026-…`` ids, the ml-abstracts corpus's ``uid``, a SciFact abstract's
``corpus-id``), so adding papers or suites never moves one. A question follows its paper: a
question about several papers is dev or test only when they all are, and is left out of both
otherwise (``STRADDLES``); a question about no paper (off-domain, an absent topic, a
conversation's form) follows a hash of its own id under another salt.

Fit, tune and choose on ``dev`` only. The ``test`` parts are run once, by ``make report``
(``bench/report.py``), which writes ``bench/results/*.json``.

    python evals/make_splits.py      # rewrite every split file under evals/splits from it
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Literal

Part = Literal["dev", "test"]
STRADDLES = "straddles"  # a question whose papers are in both parts: in neither
TEST_SHARE = 0.5
_PAPER_SALT = "paper-split-v1:"
_QUESTION_SALT = "question-split-v1:"


def _part(key: str) -> Part:
    h = int(hashlib.sha1(key.encode("utf-8")).hexdigest()[:8], 16) / 0xFFFFFFFF
    return "test" if h < TEST_SHARE else "dev"


def paper_part(paper_id: str) -> Part:
    """dev or test for one paper, by its id alone."""
    return _part(_PAPER_SALT + paper_id.strip())


def question_part(paper_ids: Iterable[str], question_id: str) -> Part | str:
    """The part of a question about ``paper_ids`` (its own id's part when it is about none),
    or ``STRADDLES`` when its papers are in both parts."""
    parts = {paper_part(p) for p in paper_ids}
    if not parts:
        return _part(_QUESTION_SALT + question_id)
    if len(parts) > 1:
        return STRADDLES
    return parts.pop()


def is_dev(paper_id: str) -> bool:
    return paper_part(paper_id) == "dev"


def by_part(items: Iterable[tuple[str, Part | str]]) -> dict[str, list[str]]:
    """{"dev": [ids], "test": [ids], "straddles": [ids]} from (id, part) pairs, in order."""
    out: dict[str, list[str]] = {"dev": [], "test": [], STRADDLES: []}
    for item_id, part in items:
        out[part].append(item_id)
    return out

