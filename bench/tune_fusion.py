"""Fit the fusion and BM25 parameters on the dev half of SciFact's train queries.

    python bench/tune_fusion.py [--store bench/stores] [--collection beir-scifact] [--split dev]

Needs the corpus ingested first (`assistant eval retrieval ...` does that). Caches each
query's dense hits once, builds a BM25 index per (k1, b), scores RRF and score-fusion variants
offline, prints the best of each family and writes bench/results/tune_fusion.json.
Only the queries of --split (default dev, from evals/splits/scifact-train.json) are used: the
test half is what `assistant eval retrieval --splits ... --split test` reports.
"""

from __future__ import annotations

import argparse
import itertools
import json
import tempfile
import time
from pathlib import Path

from assistant.evaluation.beir import load_qrels, load_queries, split_ids
from assistant.evaluation.metrics import mean, ndcg_at
from assistant.index.chunk_index import ChunkIndex, ensure_index
from assistant.index.embeddings import LocalEmbedder
from assistant.index.store import PaperStore
from assistant.search import fusion
from assistant.search.retrieval import aggregate

ROOT = Path(__file__).resolve().parents[1]
SCIFACT = ROOT.parent / "shared" / "bench" / "scifact"


def best_per_paper(hits: list) -> dict[str, float]:
    return {p: s for p, (s, _) in aggregate(hits).items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", default=str(ROOT / "bench" / "stores"))
    ap.add_argument("--collection", default="beir-scifact")
    ap.add_argument("--data", type=Path, default=SCIFACT)
    ap.add_argument("--split", default="dev")
    args = ap.parse_args()
    queries = load_queries(args.data / "queries_train.jsonl")
    qrels = load_qrels(args.data / "qrels_train_cited.tsv")
    keep = split_ids(ROOT / "evals" / "splits" / "scifact-train.json", args.split)
    ids = [q for q in queries if q in qrels and q in keep]
    store = PaperStore(collection=args.collection, embedder=LocalEmbedder(), path=Path(args.store))
    index = ensure_index(store)
    t = time.time()
    dense = {q: best_per_paper(index.dense(store.embedder.embed_query(queries[q]), n=300))
             for q in ids}
    rows, _ = store.chunks_with_vectors()
    print(f"{len(ids)} queries, {len(rows)} chunks, dense cached in {time.time() - t:.0f}s")

    def ndcg(rank_fn) -> float:
        return round(mean([ndcg_at([p for p, _ in rank_fn(q)], qrels[q], 10) for q in ids]), 4)

    results = [{"name": "dense", "ndcg_at_10": ndcg(lambda q: fusion.ranked(dense[q]))}]
    for k1, b in itertools.product((0.9, 1.2, 1.5), (0.4, 0.75)):
        with tempfile.TemporaryDirectory() as tmp:
            lex_index = ChunkIndex(Path(tmp) / "ix", k1=k1, b=b)
            lex_index.build(rows, revision="tune")
            lex = {q: best_per_paper(lex_index.search(queries[q], n=300)) for q in ids}
        results.append({"name": "lexical", "k1": k1, "b": b,
                        "ndcg_at_10": ndcg(lambda q, lex=lex: fusion.ranked(lex[q]))})
        for wl in (0.8, 1.0, 1.2):
            results.append({"name": "score", "k1": k1, "b": b, "w_lexical": wl,
                            "ndcg_at_10": ndcg(lambda q, lex=lex, wl=wl: fusion.ranked(
                                fusion.convex([dense[q], lex[q]], [1.0, wl])))})
            for k in (10, 60):
                def rrf(q, lex=lex, wl=wl, k=k):
                    dr = [p for p, _ in fusion.ranked(dense[q])]
                    lr = [p for p, _ in fusion.ranked(lex[q])]
                    return fusion.ranked(fusion.rrf([dr, lr], [1.0, wl], k=k))
                results.append({"name": "rrf", "k1": k1, "b": b, "w_lexical": wl, "rrf_k": k,
                                "ndcg_at_10": ndcg(rrf)})
    results.sort(key=lambda r: -r["ndcg_at_10"])
    print(f"{'family':<8} {'nDCG@10':>8}  parameters")
    for name in ("dense", "lexical", "rrf", "score"):
        best = next(r for r in results if r["name"] == name)
        params = {k: v for k, v in best.items() if k not in ("name", "ndcg_at_10")}
        print(f"{name:<8} {best['ndcg_at_10']:>8.4f}  {params}")
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / f"tune_fusion-{args.split}.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
