"""Write every split file under evals/splits from the one registry (assistant/evaluation/splits.py).

    python evals/make_splits.py          # rewrite them
    python evals/make_splits.py --check  # exit 1 if a committed file differs (tests run this)

Each file lists which questions (or papers) are dev and which are test, derived from the papers
they are about: the ICML suite's expected papers, ml-large's asked paper, the Chinese set's
paper (or, for the bundled list, the paper its hint names), the grounding pairs' papers, and
SciFact's judged abstracts. Questions about no paper follow their own id. The follow-up set's
questions are about no paper of a collection (they test the form of a question), so they
follow their ids too.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.evaluation.splits import by_part, paper_part, question_part  # noqa: E402
from assistant.evaluation.suite import load_suite, resolve_papers  # noqa: E402
from assistant.sources.corpus import bundled_papers  # noqa: E402

SPLITS = ROOT / "evals" / "splits"
SCIFACT = ROOT.parent / "shared" / "bench" / "scifact" / "qrels_train_cited.tsv"
ABOUT = "split by paper from the one registry (assistant/evaluation/splits.py); written by " \
        "evals/make_splits.py: "


def icml_suite() -> dict[str, Any]:
    suite = load_suite(ROOT / "evals" / "icml2026.yaml")
    papers = bundled_papers()
    items = []
    for case in suite.cases:
        ids = [pid for turn in case.turns
               for pid in resolve_papers(turn.expect_papers, papers, case.id)]
        items.append((case.id, question_part(ids, case.id)))
    return {"about": ABOUT + "icml2026.yaml cases follow their expected papers (a case "
            "about no paper follows its id)", **by_part(items)}


def ml_large() -> dict[str, Any]:
    suite = load_suite(ROOT / "evals" / "ml-large.yaml")
    items = []
    for case in suite.cases:
        paper = case.id.split("-", 1)[1]  # in-<uid> (in the store) / out-<uid> (held out)
        items.append((case.id, question_part([paper], case.id)))
    return {"about": ABOUT + "ml-large.yaml cases follow the paper asked about (in the store "
            "or held out of it)", **by_part(items)}


def zh_questions() -> dict[str, Any]:
    papers = bundled_papers()
    items = []
    for line in (ROOT / "evals" / "zh-questions.jsonl").read_text().splitlines():
        q = json.loads(line)
        if q.get("paper"):
            ids = [q["paper"]]
        elif q.get("paper_hint"):
            ids = resolve_papers([q["paper_hint"]], papers, q["id"])
        else:
            ids = []
        items.append((q["id"], question_part(ids, q["id"])))
    return {"about": ABOUT + "Chinese questions follow their paper (the bundled list's through "
            "paper_hint); near-miss topics and off-domain questions follow their id",
            **by_part(items)}


def followups() -> dict[str, Any]:
    items = []
    for line in (ROOT / "evals" / "followups.jsonl").read_text().splitlines():
        q = json.loads(line)
        items.append((q["id"], question_part([], q["id"])))
    return {"about": ABOUT + "follow-up cases are about no collection's paper: each follows "
            "its id", **by_part(items)}


def natural() -> dict[str, Any]:
    items = []
    for name in ("questions.jsonl", "offdomain.jsonl", "bio.jsonl"):  # surveys: question ids
        path = ROOT / "evals" / "natural" / name
        for line in path.read_text().splitlines() if path.exists() else []:
            q = json.loads(line)
            items.append((q["id"], question_part(q.get("papers", []), q["id"])))
    return {"about": ABOUT + "natural questions follow their papers (a comparison both, a "
            "survey the paper its writer started from, an absent question the paper held out of "
            "the store; an off-domain question its id; bio.jsonl's the same)", **by_part(items)}


def grounding_pairs() -> dict[str, Any]:
    old = json.loads((SPLITS / "grounding-pairs.json").read_text())
    return {"about": ABOUT + "the papers bench/grounding_judge.py makes labelled pairs from; a "
            "pair's two papers are drawn from one part",
            "papers": {pid: paper_part(pid) for pid in sorted(old["papers"])}}


def scifact() -> dict[str, Any] | None:
    if not SCIFACT.exists():
        return None
    judged: dict[str, list[str]] = {}
    with SCIFACT.open() as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            judged.setdefault(row["query-id"], []).append(row["corpus-id"])
    items = [(qid, question_part(docs, qid)) for qid, docs in
             sorted(judged.items(), key=lambda kv: int(kv[0]) if kv[0].isdigit() else kv[0])]
    return {"about": ABOUT + "SciFact train claims follow their judged abstracts (corpus ids); "
            "a claim whose abstracts are in both parts is in neither", **by_part(items)}


FILES = {"icml2026.json": icml_suite, "ml-large.json": ml_large,
         "zh-questions.json": zh_questions, "followups.json": followups, "natural.json": natural,
         "grounding-pairs.json": grounding_pairs, "scifact-train.json": scifact}


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=0) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare, do not write")
    args = ap.parse_args(argv)
    stale = []
    for name, make in FILES.items():
        data = make()
        if data is None:
            print(f"{name}: skipped (../shared is absent)")
            continue
        text = render(data)
        target = SPLITS / name
        counts = {k: len(v) for k, v in data.items() if isinstance(v, list | dict)
                  and k != "about"}
        if args.check:
            if not target.exists() or target.read_text() != text:
                stale.append(name)
            continue
        target.write_text(text)
        print(f"{name}: {counts}")
    if stale:
        print(f"stale split files: {', '.join(stale)}: run python evals/make_splits.py")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
