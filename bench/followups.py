"""How well does the follow-up detector (assistant/followup.py) tell follow-ups from new questions?

    python bench/followups.py [--errors]

The labelled set is evals/followups.jsonl: researcher questions asked mid-chat, each with the
previous question and a human label (does it lean on an earlier turn, or does it stand alone?),
in English and Chinese. Batch 1 was written before the detector; batch 2 after its first draft,
without running it on them (a check that the draft did not overfit batch 1).

``evals/splits/followups.json`` halves the set into dev (the cases the detector is tuned on) and
test (report only these), balanced by batch, language and label: within each group the ids are
ordered by a sha1 of the id and alternate between the halves. A case missing from the file is
assigned the same way and added to it; assigned cases never move.

Prints accuracy per (split, language, label), per (split, language), and per (split, language)
for batch 2 alone, and batch 3 (80 questions written blind after all tuning, all test);
batch 4 (140, written blind to the detector, all dev: tuned on) and batch 5 (100, written with
batch 4 by the same hand, all test: report only);
``--errors`` lists the misjudged questions. Results go to
bench/results/followups.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.query.rewrite import is_follow_up  # noqa: E402

CASES = ROOT / "evals" / "followups.jsonl"
SPLIT = ROOT / "evals" / "splits" / "followups.json"
OUT = ROOT / "bench" / "results" / "followups.json"
ABOUT = ("evals/followups.jsonl: dev = the cases the follow-up detector was tuned on; test = the "
         "held-out half (report only these). Balanced by batch, language and label; within each "
         "group the ids are ordered by a sha1 of the id and alternate between the halves.")


def load_cases(path: Path = CASES) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


# whole batches: 4 was written (blind to the detector) to tune on, 5 with it, to report only
WHOLE = {4: "dev", 5: "test"}


def assign(cases: list[dict[str, Any]]) -> dict[str, list[str]]:
    groups: dict[tuple[int, str, bool], list[str]] = defaultdict(list)
    halves: dict[str, list[str]] = {"dev": [], "test": []}
    for case in cases:
        if case.get("batch") in WHOLE:
            halves[WHOLE[case["batch"]]].append(case["id"])
            continue
        groups[(case.get("batch", 1), case["lang"], case["follow_up"])].append(case["id"])
    for ids in groups.values():
        ordered = sorted(ids, key=lambda i: hashlib.sha1(i.encode()).hexdigest())
        halves["dev"] += ordered[0::2]
        halves["test"] += ordered[1::2]
    return halves


def load_split(cases: list[dict[str, Any]]) -> dict[str, str]:
    data = json.loads(SPLIT.read_text()) if SPLIT.exists() else {"dev": [], "test": []}
    known = set(data["dev"]) | set(data["test"])
    new = [case for case in cases if case["id"] not in known]
    if new:
        for name, ids in assign(new).items():
            data[name] = sorted(data[name] + ids)
        SPLIT.parent.mkdir(parents=True, exist_ok=True)
        SPLIT.write_text(json.dumps({"about": ABOUT, "dev": data["dev"], "test": data["test"]},
                                    indent=1, ensure_ascii=False) + "\n")
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
    """Fit followup_model's weights per language on the dev split; print them to paste."""
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
    args = parser.parse_args()
    cases = load_cases()
    if args.fit:
        fit(cases, load_split(cases))
        return
    result = score(cases, load_split(cases))
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
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
