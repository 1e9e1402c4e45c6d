"""Papers like this one: NDCG@20 and recall@20 per facet, against BM25 and MiniLM neighbours.

    python bench/similar_eval.py                 # dev: choose
    python bench/similar_eval.py --split test    # the test figures, once (bench/report.py)

The labelled pools of evals/similar/labels.jsonl (60 query papers of the fit venues, each with
40 pooled papers graded 0-3 on background, method and result by helpers who saw only the
abstracts: evals/similar/make_pools.py), each query dev or test by its paper. For each query
and facet, three rankings of the whole collection (ml-large or ml-theory in bench/stores), the
query paper left out:

- bm25: BM25 neighbours of the whole abstract;
- minilm: MiniLM neighbours of the whole abstract;
- similar: what `assistant similar --facet F` lists (search/similar.py).

NDCG@20 with the grades as gains (a paper outside the pool counts 0, as in TREC pooling) and
recall@20 of the papers graded 2 or 3 on that facet (queries with none are left out of recall).
Also the p50 time of `similar` a query. Writes bench/results/similar_eval.json (test) or
similar_eval-dev.json. ``--scale STORE`` times `similar` over 22,912 papers instead (a speed
figure, no labels read: bench/results/similar_scale.json).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from report import split_option, write_results, write_timing  # noqa: E402

from assistant.evaluation.metrics import percentile  # noqa: E402
from assistant.evaluation.splits import paper_part  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.search.facets import FACETS  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402
from assistant.search.similar import similar  # noqa: E402

LABELS = ROOT / "evals" / "similar" / "labels.jsonl"
K = 20


def ndcg(ranked: list[str], grades: dict[str, int], k: int = K) -> float:
    dcg = sum((2 ** grades.get(p, 0) - 1) / math.log2(i + 2) for i, p in enumerate(ranked[:k]))
    ideal = sorted(grades.values(), reverse=True)[:k]
    idcg = sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall(ranked: list[str], grades: dict[str, int], k: int = K) -> float | None:
    rel = {p for p, g in grades.items() if g >= 2}
    return len(rel & set(ranked[:k])) / len(rel) if rel else None


def timing(store: Path, collection: str) -> int:
    """``--scale STORE``: the p50 and p95 of `similar` over the 60 query papers (whole and each
    facet) in a large collection (bench/scale.py's 22,912 papers), after its index is open."""
    retr = Retriever(store=PaperStore(collection=collection, embedder=LocalEmbedder(),
                                      path=store))
    rows = [json.loads(x) for x in LABELS.read_text().splitlines() if x.strip()]
    queries = retr.index().papers([r["query"] for r in rows]) or []
    similar(queries[0].abstract, retriever=retr, k=K)  # the index opened, the model loaded
    times = []
    for q in queries:
        for facet in (None, *FACETS):
            t = time.perf_counter()
            similar(q.abstract, retriever=retr, facet=facet, k=K, exclude=[q.paper_id])
            times.append((time.perf_counter() - t) * 1000)
    write_timing("similar_scale", "similar", retr.index().paper_count, times)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--scale", type=Path, help="time `similar` in this store's collection "
                    "(bench/scale.py's, 22,912 papers) and write similar_scale.json")
    ap.add_argument("--collection", default="ml-all")
    split_option(ap)
    args = ap.parse_args()
    if args.scale:
        return timing(args.scale, args.collection)
    emb = LocalEmbedder()
    retrievers: dict[str, Retriever] = {}
    rows = [json.loads(x) for x in LABELS.read_text().splitlines() if x.strip()]
    rows = [r for r in rows if paper_part(r["query"]) == args.split]
    scores: dict[str, dict[str, dict[str, list[float]]]] = {
        f: {m: {"ndcg": [], "recall": []} for m in ("bm25", "minilm", "similar")}
        for f in FACETS}
    times: list[float] = []
    for r in rows:
        retr = retrievers.setdefault(r["collection"], Retriever(store=PaperStore(
            collection=r["collection"], embedder=emb, path=args.stores)))
        (query,) = retr.store.papers([r["query"]])
        runs: dict[str, Any] = {}
        for mode, name in (("lexical", "bm25"), ("dense", "minilm")):
            runs[name] = [rp.paper.paper_id for rp in
                          retr.search(query.abstract, k=K + 1, mode=mode).papers
                          if rp.paper.paper_id != query.paper_id][:K]
        for facet in FACETS:
            t = time.perf_counter()
            mine = similar(query.abstract, retriever=retr, facet=facet, k=K,
                           exclude=[query.paper_id], paper=query).papers
            times.append((time.perf_counter() - t) * 1000)
            grades = {p: g[facet] for p, g in r["labels"].items()}
            for name, ranked in (*runs.items(), ("similar", [s.paper.paper_id for s in mine])):
                scores[facet][name]["ndcg"].append(ndcg(ranked, grades))
                rec = recall(ranked, grades)
                if rec is not None:
                    scores[facet][name]["recall"].append(rec)
    figures: dict[str, Any] = {"queries": len(rows), "k": K, "facets": {},
                               "similar_ms_p50": round(percentile(times, 0.5), 1) if times else 0}
    print(f"{args.split}: {len(rows)} queries, NDCG@{K} / recall@{K}")
    print("| facet | bm25 | minilm | similar |\n|---|---|---|---|")
    for facet in FACETS:
        figures["facets"][facet] = {
            name: {m: round(sum(v) / len(v), 3) if v else None for m, v in vals.items()}
            for name, vals in scores[facet].items()}
        cells = [f"{figures['facets'][facet][n]['ndcg']} / {figures['facets'][facet][n]['recall']}"
                 for n in ("bm25", "minilm", "similar")]
        print(f"| {facet} | " + " | ".join(cells) + " |")
    print(f"similar: p50 {figures['similar_ms_p50']} ms a query")
    print(write_results("similar_eval", args.split, figures).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
