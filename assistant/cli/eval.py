"""``assistant eval``: a Q&A suite (SUITE.yaml, its metrics against its thresholds, exit 1 when
one is missed) or ``eval retrieval`` (a BEIR benchmark). The runs are set up by
``assistant.evaluation.orchestrate``; this prints them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from assistant.cli.ingest import ingest_with_progress
from assistant.cli.shared import print_json, settings_from
from assistant.errors import InputError


def _say(message: str) -> None:
    print(message, file=sys.stderr)


def cmd_eval(args: argparse.Namespace) -> int:
    if args.target == "retrieval":
        return _eval_retrieval(args)
    return _eval_suite(args)


def _eval_retrieval(args: argparse.Namespace) -> int:
    from assistant.evaluation import beir, orchestrate

    if not (args.corpus and args.queries and args.qrels):
        raise InputError("eval retrieval needs --corpus, --queries and --qrels")
    args.collection = args.collection or beir.default_collection(args.corpus)
    settings = orchestrate.bench_settings(settings_from(args), store_given=args.store is not None)
    result = orchestrate.run_beir(
        settings, corpus=args.corpus, queries=args.queries, qrels=args.qrels, mode=args.mode,
        splits=args.splits, split=args.split, note=_say,
        ingest=lambda store, papers, source: ingest_with_progress(store, papers, source,
                                                                  prune=True))
    if args.json:
        print_json(result)
    else:
        for key, value in result.items():
            print(f"{key:<16} {value}")
    return 0


def _eval_suite(args: argparse.Namespace) -> int:
    from assistant.evaluation import orchestrate
    from assistant.evaluation.suite import load_suite

    suite = load_suite(Path(args.target))
    if args.split:
        suite = suite.only(args.split)
    settings = orchestrate.suite_settings(suite, settings_from(args, backend=args.backend),
                                          collection_given=bool(args.collection))
    store = orchestrate.suite_store(settings, note=_say)
    result, out = orchestrate.run_and_report(
        suite, settings=settings, store=store, runs_dir=args.runs_dir, baseline=args.baseline,
        judge=args.judge, progress=None if args.json else _say)
    if args.json:
        print_json({"report": str(out), **{k: result[k] for k in
                                           ("suite", "overall", "failures", "passed")}})
    else:
        for key, value in result["overall"].items():
            bound = suite.thresholds.get(key)
            print(f"{key:<20} {value}" + (f"   (threshold {bound})" if bound is not None else ""))
        print(f"report: {out / 'report.md'}")
        for f in result["failures"]:
            print(f"threshold missed: {f['metric']} = {f['value']} (needs {f['threshold']})",
                  file=sys.stderr)
    return 0 if result["passed"] else 1
