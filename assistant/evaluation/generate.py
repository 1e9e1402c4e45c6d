"""Generated Q&A cases over a slice of a large paper list (the shared ml-abstracts corpus).

Questions come from the papers' own TL;DR lines, turned into a question ("We propose X" ->
"Which paper proposes X?"). A paper whose TL;DR is asked about is either in the store (the
answer must cite it) or held out of the store (nothing in the store is that paper: the answer
must not present another paper as the one asked about). Everything is decided by a seeded
random generator, so the same slice and seed give the same cases.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

_LEAD = re.compile(r"^(?:(?:in this (?:paper|work)|here|in this study),?\s+)?we\s+"
                   r"((?:\w+ly\s+(?:and\s+\w+ly\s+)?)?)(\w+)\b\s*", re.IGNORECASE)
_THIS = re.compile(r"^(?:this|the|our) (?:paper|work|study|method|approach)\s+(\w+)\b\s*",
                   re.IGNORECASE)
_VERBS_3RD = frozenset(["introduces", "proposes", "presents", "combines", "shows", "uses",
                        "demonstrates", "provides", "describes", "develops", "studies",
                        "learns", "improves", "extends", "applies", "explores", "analyzes",
                        "analyses", "achieves", "enables", "investigates", "leverages",
                        "trains", "generalizes", "offers", "establishes", "reduces"])


def third_singular(verb: str) -> str:
    v = verb.lower()
    if v.endswith("ed") or v in ("can", "will", "also", "first", "then"):
        return v  # past tense or a modal: "Which paper proposed / can ..."
    if re.search(r"[^aeiou]y$", v):
        return v[:-1] + "ies"
    if re.search(r"(?:s|sh|ch|x|z|o)$", v):
        return v + "es"
    return v + "s"


def first_sentence(text: str) -> str:
    text = " ".join(text.split())
    m = re.search(r"(?<=[.!?])\s+(?=[A-Z])", text)
    return (text[: m.start()] if m else text).strip()


def tldr_question(tldr: str) -> str | None:
    """'We propose X.' -> 'Which paper proposes X?'; None when too short to ask about."""
    s = first_sentence(tldr).rstrip(" .;:")
    if len(s.split()) < 5:
        return None
    s = re.sub(r"\bwe\b", "the authors", s, flags=re.IGNORECASE)
    s = re.sub(r"\bour\b", "their", s, flags=re.IGNORECASE)
    m = _LEAD.match(first_sentence(tldr))
    if m:
        rest = first_sentence(tldr)[m.end():].rstrip(" .;:")
        rest = re.sub(r"\bwe\b", "the authors", rest, flags=re.IGNORECASE)
        rest = re.sub(r"\bour\b", "their", rest, flags=re.IGNORECASE)
        return f"Which paper {m.group(1)}{third_singular(m.group(2))} {rest}?"
    m = _THIS.match(s)
    if m:
        return f"Which paper {m.group(1).lower()} {s[m.end():]}?"
    head = s.split()[0]
    if head.lower() in _VERBS_3RD:
        return f"Which paper {head.lower()} {s[len(head):].strip()}?"
    keep = len(head) > 1 and (head[1:].lower() != head[1:] or head.isupper())
    lead = head if keep else head.lower()
    return f"Which paper is about {lead}{s[len(head):]}?"


def read_slice(path: Path, venues: Iterable[tuple[str, int]]) -> list[dict[str, Any]]:
    """The papers of some venue-years, in file order (they keep their ``uid`` as the id)."""
    wanted = {(v.lower(), int(y)) for v, y in venues}
    rows = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if (str(row.get("venue", "")).lower(), int(row.get("year") or 0)) in wanted:
                rows.append(row)
    return rows


# the ml-large suite's draw (evals/make_large_suite.py's defaults): in-store questions, papers
# held out and asked about, the seed; evals/natural/make_batches.py draws the same held-out set
LARGE_QUESTIONS, LARGE_HELD_OUT, LARGE_SEED = 600, 120, 2026


def _title(text: str) -> str:
    return " ".join("".join(c if c.isalnum() else " " for c in str(text).lower()).split())


def twinned(rows: Sequence[dict[str, Any]], held: set[str]) -> set[str]:
    """The held-out papers (uids in ``held``) whose twin, a paper of the same title (an ICLR
    submission later at NeurIPS), stays in the store: the store does hold the paper."""
    kept = {_title(r["title"]) for r in rows if r["uid"] not in held}
    return {r["uid"] for r in rows if r["uid"] in held and _title(r["title"]) in kept}


def make_cases(rows: Sequence[dict[str, Any]], *, questions: int, held_out: int, seed: int
               ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the rows to ingest, the cases). ``held_out`` papers with a TL;DR are kept out of the
    store and asked about; ``questions`` papers in the store are asked about. A held-out paper
    whose twin (the same title: an ICLR submission later at NeurIPS) stays in the store is not
    asked about: the store does hold the paper."""
    rng = random.Random(seed)
    askable = [r for r in rows if r.get("tldr") and tldr_question(r["tldr"])]
    rng.shuffle(askable)
    absent = askable[:held_out]
    present = askable[held_out: held_out + questions]
    absent_ids = {r["uid"] for r in absent}
    cases: list[dict[str, Any]] = []
    for r in present:
        cases.append({"id": f"in-{r['uid']}", "tags": ["tldr", "in-store"],
                      "question": tldr_question(r["tldr"]), "expect_papers": [r["uid"]]})
    twins = twinned(rows, absent_ids)
    for r in absent:
        if r["uid"] in twins:
            continue
        cases.append({"id": f"out-{r['uid']}", "tags": ["tldr", "held-out"],
                      "question": tldr_question(r["tldr"]), "refuse": True})
    store_rows = [r for r in rows if r["uid"] not in absent_ids]
    return store_rows, cases
