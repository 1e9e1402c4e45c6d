"""Runs a Suite through the same answer() every front end uses, and writes the reports."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assistant.answer.pipeline import answer
from assistant.answer.types import Answer, Answerer
from assistant.citations import cited_numbers
from assistant.errors import SuiteError
from assistant.evaluation.metrics import mean, percentile
from assistant.evaluation.suite import (
    MAX_METRICS,
    METRICS,
    Suite,
    dumps,
    fact_found,
    resolve_papers,
)
from assistant.llm import prompts
from assistant.llm.client import complete, json_reply
from assistant.search.retrieval import Filters, Retriever


def judge_answer(question: str, ans: Answer, *, model: Any, prompts_dir: Any = None
                 ) -> dict[str, Any]:
    """An LLM judge that must reply with strict JSON {"score": 0..1, "reason": "..."}."""
    sources = "\n\n".join(f"[{c.n}] {c.paper.title}\n{c.paper.abstract}" for c in ans.citations)
    content = prompts.render("judge", prompts_dir=prompts_dir, question=question,
                             answer=ans.text, sources=sources or "(no sources cited)")

    raw = asyncio.run(complete(model, content)).strip()
    try:
        data = json_reply(raw)
        score = float(data["score"])
        reason = str(data.get("reason", ""))
    except (KeyError, TypeError, ValueError):
        raise SuiteError(f"the judge's reply is not the required JSON "
                         f"{{\"score\": 0..1, \"reason\": ...}}: {raw[:120]!r}") from None
    if not 0.0 <= score <= 1.0:
        raise SuiteError(f"the judge's score {score} is outside 0..1")
    return {"score": score, "reason": reason}


def _turn_metrics(turn: Any, ans: Answer, expected: list[str], k: int) -> dict[str, Any]:
    retrieved = [rp.paper.paper_id for rp in ans.papers[:k]]
    by_n = {c.n: c.paper.paper_id for c in ans.citations}
    # what the text cites, in order of first use (a reference the text never uses is no claim)
    cited = list(dict.fromkeys(by_n[n] for n in cited_numbers(ans.text) if n in by_n))
    m: dict[str, Any] = {}
    refuse_expected = bool(turn.refuse)
    m["refusal_accuracy"] = 1.0 if ans.refused == refuse_expected else 0.0
    if expected:
        hits = [retrieved.index(e) + 1 for e in expected if e in retrieved]
        m["retrieval_recall"] = len(hits) / len(expected)
        m["mrr"] = 1.0 / min(hits) if hits else 0.0
        m["answered"] = 0.0 if ans.refused else 1.0
        m["citation_recall"] = len(set(expected) & set(cited)) / len(expected)
        m["citation_precision"] = (len([c for c in cited if c in expected]) / len(cited)
                                   if cited else 0.0)
        if len(expected) == 1:
            m["cited_first"] = 1.0 if cited[:1] == expected else 0.0
    searched = {rp.paper.paper_id for rp in ans.papers}
    m["unknown_citations"] = sum(c.paper.paper_id not in searched for c in ans.citations)
    if turn.expect_facts:
        found = [f for f in turn.expect_facts if fact_found(f, ans.text)]
        m["fact_coverage"] = len(found) / len(turn.expect_facts)
        m["facts_missing"] = [f for f in turn.expect_facts if f not in found]
    if ans.grounding is not None and ans.grounding.claims:
        summary = ans.grounding.summary()
        m["supported"] = summary["supported"] / summary["claims"]
        m["misattributed"] = summary["misattributed"]
        m["claims"] = summary["claims"]
    return m


def run_suite(suite: Suite, *, retriever: Retriever, answerer: Answerer,
              judge_model: Any = None, progress: Callable[[str], None] | None = None
              ) -> dict[str, Any]:
    papers = retriever.store.papers()
    cases_out: list[dict[str, Any]] = []
    latencies: list[float] = []
    tokens_used = 0
    for case in suite.cases:
        history: list[tuple[str, str]] = []
        turns_out: list[dict[str, Any]] = []
        for j, turn in enumerate(case.turns, 1):
            where = f"case {case.id} turn {j}"
            expected = resolve_papers(turn.expect_papers, papers, where)
            t = time.perf_counter()
            ans = answer(turn.question, retriever=retriever, answerer=answerer, k=suite.k,
                         filters=Filters(**turn.filters) if turn.filters else None,
                         history=history)
            latencies.append((time.perf_counter() - t) * 1000)
            tokens_used += int(ans.usage.get("total_tokens") or 0)
            history.append((turn.question, ans.text))
            if not turn.scored:
                continue
            m = _turn_metrics(turn, ans, expected, suite.k)
            if judge_model is not None and not ans.refused:
                verdict = judge_answer(turn.question, ans, model=judge_model)
                m["judge_score"], m["judge_reason"] = verdict["score"], verdict["reason"]
            turns_out.append({"turn": j, "question": turn.question, "answer": ans.text,
                              "refused": ans.refused, "outcome": ans.outcome,
                              "search_query": ans.search_query,
                              "cited": [c.paper.title for c in ans.citations],
                              "sentences": (ans.grounding.to_dict()["sentences"]
                                            if ans.grounding else []),
                              "retrieved": [rp.paper.title for rp in ans.papers[:suite.k]],
                              "metrics": m})
        case_metrics = {key: _combine(key, [t["metrics"][key] for t in turns_out
                                            if key in t["metrics"]])
                        for key in METRICS if any(key in t["metrics"] for t in turns_out)}
        cases_out.append({"id": case.id, "tags": case.tags, "review": case.review,
                          "metrics": case_metrics, "turns": turns_out})
        if progress:
            progress(f"{case.id}: " + ", ".join(f"{k}={v:.2f}" for k, v in case_metrics.items()))
    overall = _aggregate(cases_out)
    by_tag = {tag: _aggregate([c for c in cases_out if tag in c["tags"]])
              for tag in sorted({t for c in cases_out for t in c["tags"]})}
    overall["latency_ms_p50"] = round(percentile(latencies, 0.5), 1)
    overall["latency_ms_p95"] = round(percentile(latencies, 0.95), 1)
    overall["tokens"] = tokens_used
    failures, unmeasured = [], []
    for key, bound in suite.thresholds.items():
        value = overall.get(key)
        if value is None:  # no case of this run measures it (e.g. a split of refusals only)
            unmeasured.append(key)
        elif not (value <= bound if key in MAX_METRICS else value >= bound):
            failures.append({"metric": key, "value": value, "threshold": bound})
    return {"suite": suite.name, "split": suite.split or "all", "backend": answerer.backend,
            "model": answerer.model, "cases": cases_out, "overall": overall, "by_tag": by_tag,
            "unreviewed": [c["id"] for c in cases_out if c["review"]], "unmeasured": unmeasured,
            "thresholds": suite.thresholds,
            "failures": failures, "passed": not failures,
            "when": time.strftime("%Y-%m-%dT%H:%M:%S")}


def _combine(key: str, values: list[float]) -> float:
    """Counts add up; rates average."""
    return float(sum(values)) if key in ("misattributed", "unknown_citations") else mean(values)


def _aggregate(cases: list[dict[str, Any]]) -> dict[str, Any]:
    out = {key: round(_combine(key, [c["metrics"][key] for c in cases if key in c["metrics"]]), 4)
           for key in METRICS if any(key in c["metrics"] for c in cases)}
    out["cases"] = len(cases)
    return out


def load_baseline(path: Path) -> dict[str, Any]:
    target = path / "report.json" if path.is_dir() else path
    if not target.exists():
        raise SuiteError(f"no baseline report at {target}: pass a run folder or its report.json")
    try:
        return dict(json.loads(target.read_text()))
    except json.JSONDecodeError:
        raise SuiteError(f"{target} is not a report.json written by `assistant eval`") from None


_CASE_COLUMNS = ("retrieval_recall", "mrr", "citation_precision", "citation_recall",
                 "fact_coverage", "refusal_accuracy", "supported", "misattributed")


def _bad(c: dict[str, Any]) -> bool:
    m = c["metrics"]
    return bool(m.get("misattributed")) or any(
        v < 1.0 for k, v in m.items() if k in _CASE_COLUMNS and k != "misattributed")


def markdown(result: dict[str, Any], baseline: dict[str, Any] | None = None) -> str:
    lines = [f"# Evaluation: {result['suite']} ({result.get('split', 'all')})", "",
             f"Backend `{result['backend']}` (model `{result['model']}`), {result['when']}, "
             f"{len(result['cases'])} cases. **{'PASSED' if result['passed'] else 'FAILED'}**",
             "", "| metric | value | threshold |" + (" baseline | Δ |" if baseline else ""),
             "|---|---|---|" + ("---|---|" if baseline else "")]
    base = (baseline or {}).get("overall", {})
    for key, value in result["overall"].items():
        bound = result["thresholds"].get(key, "")
        row = f"| {key} | {value} | {bound} |"
        if baseline:
            b = base.get(key)
            delta = f"{value - b:+.4f}" if isinstance(b, int | float) else ""
            row += f" {b if b is not None else ''} | {delta} |"
        lines.append(row)
    if result["failures"]:
        lines += ["", "## Thresholds missed", ""]
        lines += [f"- {f['metric']}: {f['value']} (needs {f['threshold']})"
                  for f in result["failures"]]
    if result.get("unreviewed"):
        lines += ["", f"**Not yet reviewed by a person** (`review: true`): "
                  f"{', '.join(result['unreviewed'])}"]
    if result.get("by_tag"):
        keys = [k for k in METRICS if any(k in v for v in result["by_tag"].values())]
        lines += ["", "## By tag", "", "| tag | cases | " + " | ".join(keys) + " |",
                  "|---|---|" + "---|" * len(keys)]
        for tag, agg in result["by_tag"].items():
            cells = [f"{agg[k]:g}" if k in agg else "" for k in keys]
            lines.append(f"| {tag} | {agg['cases']} | " + " | ".join(cells) + " |")
    lines += ["", "## Cases", "", "| case | " + " | ".join(_CASE_COLUMNS) + " |",
              "|---|" + "---|" * len(_CASE_COLUMNS)]
    for c in result["cases"]:
        cells = [f"{c['metrics'][k]:.2f}" if k in c["metrics"] else "" for k in _CASE_COLUMNS]
        lines.append(f"| {c['id']} | " + " | ".join(cells) + " |")
    weak = [c for c in result["cases"] if _bad(c)]
    if weak:
        lines += ["", "## Cases below 1.0 or with a misattributed claim", ""]
        for c in weak:
            for t in c["turns"]:
                lines += [f"### {c['id']} (turn {t['turn']})", "", f"**Q:** {t['question']}",
                          "", f"**Search query:** {t['search_query']}", "",
                          f"**A:** {t['answer'][:600]}", "",
                          f"Retrieved: {'; '.join(t['retrieved'][:4])}", ""]
                flagged = [s for s in t.get("sentences", [])
                           if s["misattributed"] or s["verdict"] != "supported"]
                lines += [f"- {s['verdict']}{' · MISATTRIBUTED' if s['misattributed'] else ''}: "
                          f"{s['text'][:160]}" for s in flagged]
                if flagged:
                    lines.append("")
    return "\n".join(lines) + "\n"


def write_reports(result: dict[str, Any], runs_dir: Path, baseline: dict[str, Any] | None
                  ) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out = runs_dir / f"{stamp}-{result['suite']}-{result['backend']}"
    n = 1
    while out.exists():  # two runs in one second each keep their own report
        n += 1
        out = runs_dir / f"{stamp}-{result['suite']}-{result['backend']}-{n}"
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(dumps(result))
    (out / "report.md").write_text(markdown(result, baseline))
    return out
