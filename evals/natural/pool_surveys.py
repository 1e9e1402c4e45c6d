"""Candidate pools for the survey questions, for helpers to label (../shared/QUESTIONS.md).

    python evals/natural/pool_surveys.py pools OUT_DIR        # OUT_DIR/pool-NN.json
    python evals/natural/pool_surveys.py labels OUT_DIR       # -> evals/natural/surveys.jsonl

A survey question ("Which papers ...?", written by a helper from one abstract) gets a pool of
``POOL`` papers of its collection: the first papers of three searches (BM25 alone, dense alone,
and the fused ranking), taken in turn so each search contributes its best, with the paper the
writer started from always in. The pool is shuffled and shown without scores or ranks; a
helper who has not seen the program judges every paper on topic (1) or not (0). ``labels``
reads the helpers' ``pool-NN.labels.json`` ({paper_id: 0 or 1} for every pooled paper) into
surveys.jsonl; a pool whose labels do not cover it is left out, and said.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
POOL = 40
QUESTIONS = HERE / "questions.jsonl"
OUT = HERE / "surveys.jsonl"


def pools(out: Path, stores: Path) -> int:
    from assistant.index.embeddings import LocalEmbedder
    from assistant.index.store import PaperStore
    from assistant.search.retrieval import Retriever

    emb = LocalEmbedder()
    retr = {c: Retriever(store=PaperStore(collection=c, embedder=emb, path=stores))
            for c in ("ml-large", "ml-theory")}
    surveys = [q for q in map(json.loads, QUESTIONS.read_text().splitlines())
               if q["kind"] == "survey"]
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(11)
    for n, q in enumerate(surveys, 1):
        r = retr[q["collection"]]
        runs = [[rp.paper for rp in r.search(q["question"], k=POOL, mode=m).papers]
                for m in ("lexical", "dense", "hybrid")]
        picked: dict[str, object] = {}
        seed = r.store.papers([q["papers"][0]])
        for p in seed:
            picked[p.paper_id] = p
        for i in range(POOL):
            for run in runs:
                if i < len(run) and len(picked) < POOL:
                    picked.setdefault(run[i].paper_id, run[i])
        papers = list(picked.values())
        rng.shuffle(papers)
        doc = {"survey": q["id"], "question": q["question"],
               "papers": [{"paper_id": p.paper_id, "title": p.title,  # type: ignore[attr-defined]
                           "abstract": p.abstract} for p in papers]}  # type: ignore[attr-defined]
        (out / f"pool-{n:02d}.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False))
    print(f"{len(surveys)} pools -> {out}")
    return 0


def labels(out: Path) -> int:
    by_id = {q["id"]: q for q in map(json.loads, QUESTIONS.read_text().splitlines())}
    rows, missing = [], []
    for path in sorted(out.glob("pool-*.json")):
        if path.name.endswith(".labels.json"):
            continue
        pool = json.loads(path.read_text())
        lab_path = path.with_name(path.stem + ".labels.json")
        ids = [p["paper_id"] for p in pool["papers"]]
        lab = json.loads(lab_path.read_text()) if lab_path.exists() else {}
        if set(lab) != set(ids) or any(v not in (0, 1) for v in lab.values()):
            missing.append(path.name)
            continue
        q = by_id[pool["survey"]]
        rows.append({"id": q["id"], "collection": q["collection"], "kind": "survey",
                     "papers": q["papers"], "question": q["question"],
                     "labels": {pid: int(lab[pid]) for pid in ids}})
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    on = [sum(r["labels"].values()) for r in rows]
    print(f"{len(rows)} labelled surveys -> {OUT} (on topic per pool: median "
          f"{sorted(on)[len(on) // 2] if on else 0}); not labelled: {missing or 'none'}")
    return 0


if __name__ == "__main__":
    what, where = sys.argv[1], Path(sys.argv[2])
    raise SystemExit(pools(where, ROOT / "bench" / "stores") if what == "pools" else labels(where))
