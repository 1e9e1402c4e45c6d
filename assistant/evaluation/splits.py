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


# The venues of ../shared/corpus/ml-abstracts.jsonl that fitting, tuning, training and question
# writing may read (their dev part; the test part once, by make report). Every other venue
# (ICML, NeurIPS before 2018, AISTATS, COLM, ALT, ICLR 2013-14) stays an unseen collection:
# read only by make report's measurements, never to choose anything.
FIT_VENUES = frozenset({("iclr", 2017), ("iclr", 2018), ("nips", 2018)}
                       | {("corl", y) for y in range(2021, 2026)}
                       | {("uai", y) for y in range(2019, 2025)}
                       | {("colt", y) for y in range(2011, 2025)}
                       | {("acml", y) for y in range(2010, 2025)}
                       | {("automl", y) for y in range(2022, 2025)})
UNSEEN = "unseen"


def corpus_part(record: dict[str, object]) -> str:
    """An ml-abstracts record's part: ``dev`` or ``test`` for a fit-venue paper (by its uid),
    ``UNSEEN`` for every other venue."""
    venue = str(record.get("venue") or "").lower()
    year = int(str(record.get("year") or 0) or 0)
    if (venue, year) not in FIT_VENUES:
        return UNSEEN
    return paper_part(str(record["uid"]))


def by_part(items: Iterable[tuple[str, Part | str]]) -> dict[str, list[str]]:
    """{"dev": [ids], "test": [ids], "straddles": [ids]} from (id, part) pairs, in order."""
    out: dict[str, list[str]] = {"dev": [], "test": [], STRADDLES: []}
    for item_id, part in items:
        out[part].append(item_id)
    return out

