"""`assistant eval SUITE.yaml`: scripted Q&A evaluations with thresholds.

A suite is YAML::

    name: icml2026
    k: 6                                  # papers per answer (optional)
    thresholds: {citation_recall: 0.8, refusal_accuracy: 0.9, misattributed: 0, ...}
                                          # or one mapping per split: {dev: {...}, test: {...}}
    splits: icml2026.splits.json          # {"dev": [case ids], "test": [case ids]} (optional)
    cases:
      - id: dype
        question: Which paper ...?
        expect_papers: [DyPE]             # paper ids, or phrases of a title/abstract
        expect_facts: ["16 million", "re:training[- ]free"]
      - id: follow-up
        turns:
          - question: Which paper ...?
          - question: How robust is it?
            expect_papers: [DyPE]
      - id: absent
        question: Which paper studies protein folding?
        refuse: true

Every turn with expectations is scored: retrieval recall@k and MRR of the expected papers,
citation precision and recall (from the numbers the text cites), whether the expected paper is
cited first, fact coverage, refusal accuracy, the share of cited claims the grounding judge
finds supported, and the count of misattributed claims (a claim another retrieved paper
supports clearly better than the one it cites; see assistant/grounding.py), latency and
tokens. An optional LLM judge scores answers with strict JSON. ``--split dev|test`` runs one
part of a suite that declares its splits: tune on dev, report test.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from assistant.errors import SuiteError

METRICS = ("retrieval_recall", "mrr", "citation_precision", "citation_recall", "fact_coverage",
           "refusal_accuracy", "answered", "cited_first", "supported", "misattributed",
           "judge_score", "unknown_citations")
# metrics where lower is better: a threshold is a maximum
MAX_METRICS = ("misattributed", "unknown_citations", "latency_ms_p95")


@dataclass
class Turn:
    question: str
    expect_papers: list[str] = field(default_factory=list)
    expect_facts: list[str] = field(default_factory=list)
    refuse: bool | None = None
    filters: dict[str, Any] = field(default_factory=dict)

    @property
    def scored(self) -> bool:
        return bool(self.expect_papers or self.expect_facts or self.refuse is not None)


@dataclass
class Case:
    id: str
    turns: list[Turn]
    tags: list[str] = field(default_factory=list)
    review: bool = False  # expectations not yet checked by a person (a kept conversation)


@dataclass
class Suite:
    name: str
    cases: list[Case]
    k: int = 6
    gates: dict[str, dict[str, float]] = field(default_factory=dict)  # split (or "*") -> ...
    collection: str | None = None
    path: Path | None = None
    splits: dict[str, list[str]] = field(default_factory=dict)  # split name -> case ids
    split: str | None = None  # the split this Suite was narrowed to

    def only(self, split: str) -> Suite:
        """The cases of one split (``dev`` to tune on, ``test`` to report)."""
        if split not in self.splits:
            have = ", ".join(sorted(self.splits)) or "none: add a `splits:` file to the suite"
            raise SuiteError(f"suite {self.name} has no split {split!r} (splits: {have})")
        keep = set(self.splits[split])
        return Suite(self.name, [c for c in self.cases if c.id in keep], self.k,
                     self.gates, self.collection, self.path, self.splits, split)

    @property
    def thresholds(self) -> dict[str, float]:
        """The gates of this run: its split's (``all`` for the whole suite), else the flat ones."""
        return self.gates.get(self.split or "all", self.gates.get("*", {}))


def _as_list(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str | int) for v in value):
        return [str(v) for v in value]
    raise SuiteError(f"{where}: expected a string or a list of strings")


def _turn(raw: Any, where: str) -> Turn:
    if not isinstance(raw, dict) or not isinstance(raw.get("question"), str):
        raise SuiteError(f"{where}: each turn needs a 'question' string")
    unknown = set(raw) - {"question", "expect_papers", "expect_facts", "refuse", "filters"}
    if unknown:
        raise SuiteError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    refuse = raw.get("refuse")
    if refuse is not None and not isinstance(refuse, bool):
        raise SuiteError(f"{where}: 'refuse' must be true or false")
    facts = _as_list(raw.get("expect_facts"), where)
    for f in facts:
        if f.startswith("re:"):
            try:
                re.compile(f[3:])
            except re.error as exc:
                raise SuiteError(f"{where}: bad regex {f!r} ({exc})") from None
    return Turn(raw["question"], _as_list(raw.get("expect_papers"), where), facts, refuse,
                dict(raw.get("filters") or {}))


def load_suite(path: Path) -> Suite:
    if not path.exists():
        raise SuiteError(f"no such suite: {path}")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" at line {mark.line + 1}" if mark else ""
        raise SuiteError(f"{path}: not valid YAML{line}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise SuiteError(f"{path}: a suite is a mapping with a 'cases' list")
    seen: set[str] = set()
    cases = _cases(data["cases"], path, seen)
    gates = _gates(path, data.get("thresholds") or {})
    splits = _splits(path, data.get("splits"), {c.id for c in cases})
    return Suite(str(data.get("name") or path.stem), cases, int(data.get("k") or 6),
                 gates, data.get("collection"), path, splits)


def _gates(path: Path, raw: Any) -> dict[str, dict[str, float]]:
    """``thresholds:`` is one mapping of metric -> bound (every run), or one per split name
    (``dev``, ``test``, ``all`` for a run without --split): tune against dev's gates, and keep
    test's to what must never regress (a gate tuned against is no longer a test)."""
    if not isinstance(raw, dict):
        raise SuiteError(f"{path}: 'thresholds' is a mapping")
    per_split = all(isinstance(v, dict) for v in raw.values()) and bool(raw)
    groups = raw if per_split else {"*": raw}
    out: dict[str, dict[str, float]] = {}
    for split, bounds in groups.items():
        bad = set(bounds) - set(METRICS) - {"latency_ms_p95"}
        if bad:
            raise SuiteError(f"{path}: unknown threshold(s) {', '.join(sorted(bad))}; use "
                             f"{', '.join(METRICS)}, latency_ms_p95")
        try:
            out[str(split)] = {k: float(v) for k, v in bounds.items()}
        except (TypeError, ValueError):
            raise SuiteError(f"{path}: thresholds must be numbers") from None
    return out


def _splits(path: Path, value: Any, ids: set[str]) -> dict[str, list[str]]:
    """``splits: FILE.json`` beside the suite: {"dev": [case ids], "test": [case ids]}."""
    if not value:
        return {}
    target = path.parent / str(value)
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise SuiteError(f"{path}: cannot read its splits file {target} ({exc})") from None
    splits = {k: [str(i) for i in v] for k, v in data.items() if isinstance(v, list)}
    listed = [i for v in splits.values() for i in v]
    unknown = sorted(set(listed) - ids)
    if unknown:
        raise SuiteError(f"{target}: ids not in the suite: {', '.join(unknown[:5])}")
    if len(listed) != len(set(listed)):
        raise SuiteError(f"{target}: a case is in more than one split")
    return splits


def _cases(raws: list[Any], path: Path, seen: set[str]) -> list[Case]:
    cases: list[Case] = []
    for i, raw in enumerate(raws, 1):
        if not isinstance(raw, dict):
            raise SuiteError(f"{path}: case {i} is not a mapping")
        cid = str(raw.get("id") or f"case-{i}")
        where = f"{path.name}: case {cid}"
        if cid in seen:
            raise SuiteError(f"{where}: duplicate id")
        seen.add(cid)
        if "turns" in raw:
            if not isinstance(raw["turns"], list) or not raw["turns"]:
                raise SuiteError(f"{where}: 'turns' must be a non-empty list")
            turns = [_turn(t, f"{where} turn {j}") for j, t in enumerate(raw["turns"], 1)]
        else:
            turns = [_turn({k: v for k, v in raw.items() if k not in ("id", "tags", "review")},
                           where)]
        if not any(t.scored for t in turns):
            raise SuiteError(f"{where}: nothing to score (add expect_papers, expect_facts or "
                             "refuse)")
        review = raw.get("review", False)
        if not isinstance(review, bool):
            raise SuiteError(f"{where}: 'review' must be true or false")
        cases.append(Case(cid, turns, _as_list(raw.get("tags"), where), review))
    return cases


def fact_found(fact: str, text: str) -> bool:
    if fact.startswith("re:"):
        return re.search(fact[3:], text, re.IGNORECASE) is not None
    def norm(s: str) -> str:
        return re.sub(r"\s+", " ", s.lower())

    return norm(fact) in norm(text)


def resolve_papers(expected: list[str], papers: list[Any], where: str) -> list[str]:
    """Map each expectation (id or phrase) to exactly one paper id."""
    by_id = {p.paper_id: p for p in papers}
    out = []
    for e in expected:
        if e in by_id:
            out.append(e)
            continue
        needle = e.lower()
        hits = [p.paper_id for p in papers if needle in p.title.lower()]
        if not hits:
            hits = [p.paper_id for p in papers if needle in p.abstract.lower()]
        if len(hits) != 1:
            what = "no paper" if not hits else f"{len(hits)} papers"
            raise SuiteError(f"{where}: expected paper {e!r} matches {what} in the store; use "
                             "its paper_id or a more specific phrase")
        out.append(hits[0])
    return out


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=2)
