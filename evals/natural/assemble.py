"""Gather the helpers' questions into evals/natural/questions.jsonl (committed).

    python evals/natural/assemble.py BATCH_DIR OUT_DIR     # batch-NN.json + batch-NN.jsonl
    python evals/natural/assemble.py --training DIR   # -> train/natural-train.jsonl
    python evals/natural/assemble.py --training2 DIR  # its round 2, added to round 1's lines
    python evals/natural/assemble.py --compare DIR    # comparisons, round 2 (dev papers)

Each helper saw one or two batches of abstracts (make_batches.py) and nothing else, and wrote
questions of the kinds in ../shared/QUESTIONS.md; check.py held them to its rules. Here each
question gets an id (``<batch>-<line>``), its collection, and its kind as the store sees it: a
lookup or a Chinese lookup about a paper held out of its store is ``absent`` / ``zh-absent``
(nothing there is the paper asked about); a fact, follow-up, comparison or survey about a
held-out paper is dropped, and so is an absent question whose paper's twin (the same title,
another venue or year: an ICLR submission later at NeurIPS) is in the store, since the store
does hold the paper asked about. A line that fails check.py is dropped, and counted. Only ids, the
questions and expected strings are kept: no abstract text is copied.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

from check import check  # noqa: E402
from make_batches import (  # noqa: E402
    CORPUS,
    LARGE,
    THEORY,
    large_held_out,
    rows,
    theory_held_out,
)

from assistant.evaluation.generate import twinned  # noqa: E402

OUT = HERE / "questions.jsonl"


def _checked(batch: dict, path: Path) -> Iterator[tuple[int, dict | None]]:
    """A helper's questions with their line numbers, each None when check.py refuses it (the
    batch-wide share of title words aside: that rule is the helper's, not a line's)."""
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            errors, _ = check(batch, [line])
            ok = not errors or all("at most half" in e for e in errors)
            yield n, json.loads(line) if ok else None


def training(where: Path) -> int:
    """The verifier's training questions: lookups (and Chinese lookups) about dev papers that no
    evaluation question is about, written the same way (make_batches.py --training)."""
    target = HERE.parents[1] / "train" / "natural-train.jsonl"
    asked = {p for q in map(json.loads, OUT.read_text().splitlines()) for p in q["papers"]}
    out, dropped = [], 0
    for path in sorted(where.glob("train-*.jsonl")):
        batch = json.loads(path.with_suffix(".json").read_text())
        for n, q in _checked(batch, path):
            if q is None or q["kind"] not in ("lookup", "zh") or set(q["paper_ids"]) & asked:
                dropped += 1
                continue
            out.append({"id": f"{path.stem}-{n:03d}", "collection": batch["collection"],
                        "kind": q["kind"], "papers": q["paper_ids"], "question": q["question"]})
    target.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in out))
    print(f"{len(out)} training questions ({dropped} dropped) -> {target}")
    return 0


def training2(where: Path) -> int:
    """Round 2 of the verifier's training questions (make_batches.py --training2: DIR holds
    ``train2-NN.json`` and the helper's ``train2-NN.questions.jsonl``), tagged ``"round": 2``
    and written after round 1's lines, which are kept as they are."""
    from make_batches import used_papers

    target = HERE.parents[1] / "train" / "natural-train.jsonl"
    kept = [line for line in target.read_text(encoding="utf-8").splitlines()
            if line.strip() and json.loads(line).get("round") != 2]
    asked = used_papers()  # evaluation questions', survey pools' and round 1's papers
    out, dropped = [], 0
    for path in sorted(where.glob("train2-*.questions.jsonl")):
        name = path.name.removesuffix(".questions.jsonl")
        batch = json.loads((where / f"{name}.json").read_text())
        for n, q in _checked(batch, path):
            if q is None or q["kind"] != "lookup" or set(q["paper_ids"]) & asked:
                dropped += 1
                continue
            out.append(json.dumps({"id": f"{name}-{n:03d}", "collection": batch["collection"],
                                   "kind": "lookup", "papers": q["paper_ids"],
                                   "question": q["question"], "round": 2}, ensure_ascii=False))
    target.write_text("".join(line + "\n" for line in kept + out))
    print(f"{len(out)} round-2 training questions ({dropped} dropped), {len(kept)} of round 1 "
          f"kept -> {target}")
    return 0


def compare2(where: Path) -> int:
    """Round 2 of the comparisons (make_batches.py --compare: DIR holds ``compare-NN.json``, the
    pairs of dev papers, and a helper's ``compare-NN.questions.jsonl``, one question a pair),
    ids ``compare2-NN-PPP``, tagged ``"round": 2``, added to questions.jsonl in place of any
    earlier round 2. A question sharing a run of four words with either abstract or title is
    dropped."""
    from check import grams

    kept = [line for line in OUT.read_text(encoding="utf-8").splitlines()
            if line.strip() and not json.loads(line)["id"].startswith("compare2-")]
    out, dropped = [], 0
    for path in sorted(where.glob("compare-*.questions.jsonl")):
        name = path.name.removesuffix(".questions.jsonl")
        batch = json.loads((where / f"{name}.json").read_text())
        pairs = {p["pair"]: p["papers"] for p in batch["pairs"]}
        for line in path.read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            papers = pairs[q["pair"]]
            if any(grams(q["question"]) & grams(f"{p['title']} {p['abstract']}")
                   for p in papers):
                dropped += 1
                continue
            out.append(json.dumps({
                "id": f"compare2-{name.removeprefix('compare-')}-{q['pair']:03d}",
                "collection": batch["collection"], "kind": "compare",
                "papers": [p["paper_id"] for p in papers], "question": q["question"],
                "round": 2}, ensure_ascii=False))
    OUT.write_text("".join(line + "\n" for line in kept + out), encoding="utf-8")
    print(f"{len(out)} round-2 comparisons ({dropped} dropped) -> {OUT}")
    return 0


def questions_of(path: Path, batch: dict, *, held: set[str], twins: set[str],
                 skip: tuple[str, ...] = ()) -> tuple[list[dict], int]:
    """One helper's file (``path``, about ``batch``) as question items, and how many of its
    lines check.py refused: ids ``<file stem>-<line>``; a lookup (or Chinese lookup) about a
    paper in ``held`` is ``absent`` (``zh-absent``) unless its twin is in the store (``twins``),
    any other kind about one is dropped, and so is a kind in ``skip``."""
    out, dropped = [], 0
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        errors, _ = check(batch, [line])
        if [e for e in errors if not e.endswith("at most half may")]:
            dropped += 1
            continue
        q = json.loads(line)
        kind, ids = q["kind"], q["paper_ids"]
        if kind in skip:
            continue
        if any(i in held for i in ids):
            if kind not in ("lookup", "zh") or any(i in twins for i in ids):
                continue
            kind = "absent" if kind == "lookup" else "zh-absent"
        item = {"id": f"{path.stem}-{n:03d}", "collection": batch["collection"], "kind": kind,
                "papers": ids}
        if q["kind"] == "followup":
            item["turns"] = q["turns"]
        else:
            item["question"] = q["question"]
        if q.get("expect"):
            item["expect"] = q["expect"]
        out.append(item)
    return out, dropped


def main() -> int:
    if sys.argv[1] == "--compare":
        return compare2(Path(sys.argv[2]))
    if sys.argv[1] == "--training2":
        return training2(Path(sys.argv[2]))
    if sys.argv[1] == "--training":
        return training(Path(sys.argv[2]))
    batches, answers = Path(sys.argv[1]), Path(sys.argv[2])
    held = {"ml-large": set(large_held_out()),
            "ml-theory": set(theory_held_out(rows(CORPUS, THEORY)))}
    twins = {name: twinned(rows(CORPUS, venues), held[name])
               for name, venues in (("ml-large", LARGE), ("ml-theory", THEORY))}
    out: list[dict] = []
    dropped = 0
    for path in sorted(answers.glob("batch-*.jsonl")):
        batch = json.loads((batches / f"{path.stem}.json").read_text())
        coll = batch["collection"]
        items, refused = questions_of(path, batch, held=held[coll], twins=twins[coll])
        out += items
        dropped += refused
    OUT.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in out))
    counts: dict[str, int] = {}
    for i in out:
        key = f"{i['collection']}:{i['kind']}"
        counts[key] = counts.get(key, 0) + 1
    print(f"{len(out)} questions ({dropped} lines dropped by check.py) -> {OUT}")
    for k, v in sorted(counts.items()):
        print(f"  {k}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
