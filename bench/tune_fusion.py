"""Fit the fusion and BM25 parameters on the dev part of SciFact's train queries.

    python bench/tune_fusion.py [--store bench/stores] [--collection beir-scifact]   # dev: tune
    python bench/tune_fusion.py --split test   # the shipped parameters on test, once (report)

Needs the corpus ingested first (`assistant eval retrieval ...`, `make bench-scifact`). The
queries are dev or test by evals/splits/scifact-train.json (the one split registry,
assistant/evaluation/splits.py: a claim follows its judged abstracts, and one whose abstracts
are in both parts is in neither). Caches each query's dense hits once, builds a BM25 index per
(k1, b), and scores RRF and score-fusion variants offline.

``--split dev`` (the default) tunes on dev queries only: it prints the best of each family on
dev and the settings to paste (assistant/settings.py: fusion, w_lexical, rrf_k, bm25_k1,
bm25_b). ``--split test`` is run only by `make report` (bench/report.py): it searches no grid
and scores the shipped settings (dense alone, BM25 alone with the shipped k1 and b, and the
shipped fusion) on test, written to bench/results/tune_fusion.json (a dev run writes
tune_fusion-dev.json). The real retriever's test figures are `assistant eval retrieval --splits
evals/splits/scifact-train.json --split test` (also in the report).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
import time
from pathlib import Path

from report import split_option, write_results

from assistant.evaluation.beir import load_qrels, load_queries, split_ids
from assistant.evaluation.metrics import mean, ndcg_at
from assistant.index.chunk_index import ChunkIndex, ensure_index
from assistant.index.embeddings import LocalEmbedder
from assistant.index.store import PaperStore
from assistant.search import fusion
from assistant.search.retrieval import aggregate
from assistant.settings import load_settings

ROOT = Path(__file__).resolve().parents[1]
SCIFACT = ROOT.parent / "shared" / "bench" / "scifact"


def best_per_paper(hits: list) -> dict[str, float]:
    return {p: s for p, (s, _) in aggregate(hits).items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", default=str(ROOT / "bench" / "stores"))
    ap.add_argument("--collection", default="beir-scifact")
    ap.add_argument("--data", type=Path, default=SCIFACT)
    ap.add_argument("--n", type=int, default=0, help="the first N queries of the part only "
                    "(a quick check; default all)")
    split_option(ap)
    args = ap.parse_args()
    queries = load_queries(args.data / "queries_train.jsonl")
    qrels = load_qrels(args.data / "qrels_train_cited.tsv")
    keep = split_ids(ROOT / "evals" / "splits" / "scifact-train.json", args.split)
    ids = [q for q in queries if q in qrels and q in keep]
    ids = ids[: args.n] if args.n > 0 else ids
    store = PaperStore(collection=args.collection, embedder=LocalEmbedder(), path=Path(args.store))
    if store.paper_count() == 0:
        sys.exit(f"error: collection {args.collection!r} in {args.store} holds no papers "
                 "(make bench-scifact)")
    index = ensure_index(store)
    t = time.time()
    dense = {q: best_per_paper(index.dense(store.embedder.embed_query(queries[q]), n=300))
             for q in ids}
    rows, _ = store.chunks_with_vectors()
    print(f"{args.split}: {len(ids)} queries, {len(rows)} chunks, dense cached in "
          f"{time.time() - t:.0f}s")

    def ndcg(rank_fn) -> float:
        return round(mean([ndcg_at([p for p, _ in rank_fn(q)], qrels[q], 10) for q in ids]), 4)

    def lexical(k1: float, b: float) -> dict[str, dict[str, float]]:
        with tempfile.TemporaryDirectory() as tmp:
            lex_index = ChunkIndex(Path(tmp) / "ix", k1=k1, b=b)
            lex_index.build(rows, revision="tune")
            return {q: best_per_paper(lex_index.search(queries[q], n=300)) for q in ids}

    def rrf(q, lex, wl, k):
        dr = [p for p, _ in fusion.ranked(dense[q])]
        lr = [p for p, _ in fusion.ranked(lex[q])]
        return fusion.ranked(fusion.rrf([dr, lr], [1.0, wl], k=k))

    results = [{"name": "dense", "ndcg_at_10": ndcg(lambda q: fusion.ranked(dense[q]))}]
    if args.split == "test":  # the shipped settings only: nothing is chosen on test
        s = load_settings()
        lex = lexical(s.bm25_k1, s.bm25_b)
        results.append({"name": "lexical", "k1": s.bm25_k1, "b": s.bm25_b,
                        "ndcg_at_10": ndcg(lambda q: fusion.ranked(lex[q]))})
        shipped = {"name": s.fusion, "k1": s.bm25_k1, "b": s.bm25_b, "w_dense": s.w_dense,
                   "w_lexical": s.w_lexical}
        if s.fusion == "rrf":
            shipped["rrf_k"] = s.rrf_k
            shipped["ndcg_at_10"] = ndcg(lambda q: fusion.ranked(fusion.rrf(
                [[p for p, _ in fusion.ranked(dense[q])], [p for p, _ in fusion.ranked(lex[q])]],
                [s.w_dense, s.w_lexical], k=s.rrf_k)))
        else:
            shipped["ndcg_at_10"] = ndcg(lambda q: fusion.ranked(
                fusion.convex([dense[q], lex[q]], [s.w_dense, s.w_lexical])))
        results.append(shipped)
        print(f"{'family':<8} {'nDCG@10':>8}  parameters (shipped)")
        for r in results:
            params = {k: v for k, v in r.items() if k not in ("name", "ndcg_at_10")}
            print(f"{r['name']:<8} {r['ndcg_at_10']:>8.4f}  {params}")
        print(write_results("tune_fusion", "test", results).relative_to(ROOT))
        return
    for k1, b in itertools.product((0.9, 1.2, 1.5), (0.4, 0.75)):
        lex = lexical(k1, b)
        results.append({"name": "lexical", "k1": k1, "b": b,
                        "ndcg_at_10": ndcg(lambda q, lex=lex: fusion.ranked(lex[q]))})
        for wl in (0.8, 1.0, 1.2):
            results.append({"name": "score", "k1": k1, "b": b, "w_lexical": wl,
                            "ndcg_at_10": ndcg(lambda q, lex=lex, wl=wl: fusion.ranked(
                                fusion.convex([dense[q], lex[q]], [1.0, wl])))})
            for k in (10, 60):
                results.append({"name": "rrf", "k1": k1, "b": b, "w_lexical": wl, "rrf_k": k,
                                "ndcg_at_10": ndcg(lambda q, lex=lex, wl=wl, k=k:
                                                   rrf(q, lex, wl, k))})
    results.sort(key=lambda r: -r["ndcg_at_10"])
    print(f"{'family':<8} {'nDCG@10':>8}  parameters (best on dev)")
    for name in ("dense", "lexical", "rrf", "score"):
        best = next(r for r in results if r["name"] == name)
        params = {k: v for k, v in best.items() if k not in ("name", "ndcg_at_10")}
        print(f"{name:<8} {best['ndcg_at_10']:>8.4f}  {params}")
    top = next(r for r in results if r["name"] in ("rrf", "score"))
    paste = {"fusion": top["name"], "w_dense": 1.0, "w_lexical": top["w_lexical"],
             **({"rrf_k": top["rrf_k"]} if "rrf_k" in top else {}),
             "bm25_k1": top["k1"], "bm25_b": top["b"]}
    print("to paste into assistant/settings.py (the best fusion on dev): "
          + ", ".join(f"{k} {v!r}" for k, v in paste.items()))
    print(write_results("tune_fusion", "dev", {"best": paste, "grid": results})
          .relative_to(ROOT))


if __name__ == "__main__":
    main()
