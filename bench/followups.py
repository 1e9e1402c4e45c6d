"""How well does the follow-up detector (assistant/query/followup.py) tell follow-ups apart?

    python bench/followups.py [--errors] [--fit]   # dev: tune
    python bench/followups.py --split test         # the test figures, once (bench/report.py)

The labelled set is evals/followups.jsonl: researcher questions asked mid-chat, each with the
previous question and a human label (does it lean on an earlier turn, or does it stand alone?),
in English and Chinese, in five batches: 1 written before the detector; 2 after its first draft,
without running it on them; 3 (80) written blind after all tuning; 4 (140) written blind to the
detector; 5 (100) written with batch 4 by the same hand.

Dev or test by ``evals/splits/followups.json`` from the one split registry
(assistant/evaluation/splits.py): these questions are about no collection's paper, so each
follows a hash of its own id (311 dev, 292 test, every batch in both). This script only reads
the file: a case missing from it is not used.

``--split dev`` (the default) is for tuning: it scores dev cases only, ``--fit`` fits
the detector's weights per language on dev and prints them to paste (it refuses ``--split
test``). Prints accuracy per (language, label), per language, and per language for each of
batches 2 to 5; ``--errors`` lists the misjudged questions. ``--split test`` is run only by
`make report` (bench/report.py) and writes bench/results/followups.json (a dev run writes
followups-dev.json).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from report import check_fit, split_option, write_results  # noqa: E402

from assistant.query.followup import is_follow_up  # noqa: E402

CASES = ROOT / "evals" / "followups.jsonl"
SPLIT = ROOT / "evals" / "splits" / "followups.json"


def load_cases(path: Path = CASES) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def load_split() -> dict[str, str]:
    """case id -> dev or test, as the split file says (never written here)."""
    data = json.loads(SPLIT.read_text())
    return {cid: name for name in ("dev", "test") for cid in data[name]}


def score(cases: list[dict[str, Any]], split: dict[str, str]) -> dict[str, Any]:
    cells: dict[str, dict[str, Any]] = {}
    errors: list[dict[str, Any]] = []

    def add(key: str, ok: bool) -> None:
        cell = cells.setdefault(key, {"n": 0, "correct": 0})
        cell["n"] += 1
        cell["correct"] += ok

    for case in cases:
        name = split.get(case["id"])
        if name is None:
            continue  # a case added after the split was fixed: not scored
        predicted = is_follow_up(case["question"], case.get("previous", ""))
        ok = predicted == case["follow_up"]
        label = "follow-up" if case["follow_up"] else "standalone"
        add(f"{name}/{case['lang']}/{label}", ok)
        add(f"{name}/{case['lang']}/all", ok)
        if case.get("batch") in (2, 3, 4, 5):
            add(f"{name}/{case['lang']}/batch {case['batch']}", ok)
        if not ok:
            errors.append({"split": name, **case, "predicted": predicted})
    for cell in cells.values():
        cell["accuracy"] = round(cell["correct"] / cell["n"], 3)
    return {"cells": dict(sorted(cells.items())), "errors": errors}


def fit(cases: list[dict[str, Any]], split: dict[str, str]) -> None:
    """Fit the detector's WEIGHTS per language on the dev split; print them to paste."""
    import numpy as np

    from assistant.evaluation.metrics import fit_logistic
    from assistant.query import followup as fm

    for lang in ("en", "zh"):
        dev = [c for c in cases if split.get(c["id"]) == "dev" and c["lang"] == lang]
        x = np.array([[fm.features(c["question"], c.get("previous", ""))[k]
                       for k in fm.FEATURES] for c in dev])
        y = np.array([1.0 if c["follow_up"] else 0.0 for c in dev])
        w = fit_logistic(x, y, steps=8000, lr=0.5, l2=1e-3)
        print(f'    "{lang}": {tuple(round(float(v), 2) for v in w)},')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="list the misjudged questions")
    parser.add_argument("--fit", action="store_true", help="fit the model's weights on dev")
    split_option(parser)
    args = parser.parse_args()
    check_fit(parser, args)
    cases = load_cases()
    split = {cid: name for cid, name in load_split().items() if name == args.split}
    if args.fit:  # dev only (check_fit)
        print("fitted on dev: paste into WEIGHTS in assistant/query/followup.py")
        fit(cases, split)
        return
    result = score(cases, split)
    print(f"{'split':<5} {'lang':<4} {'label':<10} {'n':>4} {'correct':>7} {'accuracy':>8}")
    for key, cell in result["cells"].items():
        name, lang, label = key.split("/")
        label = {"all": "ALL"}.get(label, label.replace("batch ", "ALL b"))
        print(f"{name:<5} {lang:<4} {label:<10} {cell['n']:>4} {cell['correct']:>7} "
              f"{cell['accuracy']:>8.1%}")
    if args.errors:
        for e in result["errors"]:
            said = "follow-up" if e["predicted"] else "standalone"
            print(f"  [{e['split']}] {e['id']}: said {said}: {e['question']}")
    print(write_results("followups", args.split, result).relative_to(ROOT))


if __name__ == "__main__":
    main()
