"""Does re-ranking the top candidates by the verifier pay? nDCG@10 with and without it.

    python bench/rerank.py [--stores bench/stores] [--top 10] [--n 300]   # dev: choose
    python bench/rerank.py --split test    # the test figures, once (bench/report.py)

Two tasks, each split by paper (the one split registry, through evals/splits/):

- SciFact (5,183 abstracts, collection beir-scifact): the train claims of the part, their
  cited abstracts as the relevant set;
- TL;DR -> paper (ml-large, 2,757 papers): the in-store TL;DR questions of evals/ml-large.yaml
  of the part, the paper as the one relevant document.

For each question the hybrid ranking (what ``search`` and ``ask`` use), then its first
``--top`` papers re-ordered three ways: by the verifier's score alone; by reciprocal-rank
fusion of the hybrid rank and the verifier's rank; by the verifier's logit plus a weight times
the hybrid score's z-score. Prints nDCG@10 and hit@1 per way, and the verifier's cost per
question and of the whole decision (``judge.decision.decide`` over 10 papers, the verifier
included; 60 questions a task). Needs `make bench-scifact bench-large`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from report import split_option, write_results  # noqa: E402

from assistant.evaluation.beir import load_qrels, load_queries  # noqa: E402
from assistant.evaluation.metrics import mean, ndcg_at  # noqa: E402
from assistant.evaluation.suite import load_suite  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.judge.decision import decide  # noqa: E402
from assistant.judge.verifier import passage, shared  # noqa: E402
from assistant.query.form import of  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402

SHARED = ROOT.parent / "shared"
WAYS = ("hybrid", "verifier", "rrf", "blend")


def reorder(way: str, ids: list[str], fused: list[float], probs: list[float]) -> list[str]:
    n = len(ids)
    if way == "hybrid" or n < 2:
        return ids
    if way == "verifier":
        key = [-p for p in probs]
    elif way == "rrf":
        vrank = {i: r for r, i in enumerate(sorted(range(n), key=lambda i: -probs[i]))}
        key = [-(1 / (60 + i) + 1 / (60 + vrank[i])) for i in range(n)]
    else:  # blend: verifier logit + z-scored fused score
        f = np.asarray(fused)
        z = (f - f.mean()) / (f.std() or 1.0)
        logit = [math.log(max(p, 1e-6) / max(1 - p, 1e-6)) for p in probs]
        key = [-(logit[i] + 1.0 * z[i]) for i in range(n)]
    return [ids[i] for i in sorted(range(n), key=lambda i: (key[i], i))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--top", type=int, default=10, help="candidates re-ranked")
    ap.add_argument("--n", type=int, default=300, help="questions per task at most")
    split_option(ap)
    args = ap.parse_args()
    emb = LocalEmbedder()
    ver = shared()
    tasks: dict[str, tuple[Retriever, list[tuple[str, set[str]]]]] = {}
    claims = load_queries(SHARED / "bench" / "scifact" / "queries_train.jsonl")
    qrels = load_qrels(SHARED / "bench" / "scifact" / "qrels_train_cited.tsv")
    part = json.loads((ROOT / "evals" / "splits" / "scifact-train.json").read_text())
    sci = [(claims[q], set(qrels[q])) for q in part[args.split] if q in claims and q in qrels]
    tasks["scifact"] = (Retriever(store=PaperStore(collection="beir-scifact", embedder=emb,
                                                    path=args.stores)), sci[: args.n])
    suite = load_suite(ROOT / "evals" / "ml-large.yaml").only(args.split)
    tldr = [(c.turns[0].question, {c.turns[0].expect_papers[0]}) for c in suite.cases
            if "in-store" in c.tags]
    tasks["tldr"] = (Retriever(store=PaperStore(collection="ml-large", embedder=emb,
                                                path=args.stores)), tldr[: args.n])
    figures: dict = {"top": args.top}
    print("| task | questions | way | nDCG@10 | hit@1 |\n|---|---|---|---|---|")
    for task, (retr, items) in tasks.items():
        per: dict[str, list[tuple[float, float]]] = {w: [] for w in WAYS}
        cost: list[float] = []
        decide_ms: list[float] = []
        for q, rel in items:
            order, _ = retr.rank(q)
            ids = [pid for pid, _ in order[:100]]
            fused = [s for _, s in order[: args.top]]
            head = ids[: args.top]
            papers = {p.paper_id: p for p in retr.store.papers(head)}
            t = time.perf_counter()
            probs = ver.score(q, [passage(papers[pid], q) for pid in head])
            cost.append((time.perf_counter() - t) * 1000)
            if len(decide_ms) < 60:  # the whole decision (verifier included) over 10 papers
                found = retr.search(q, k=args.top).papers
                t = time.perf_counter()
                decide(of(q), found, index=retr.index())
                decide_ms.append((time.perf_counter() - t) * 1000)
            for w in WAYS:
                ranked = reorder(w, head, fused, probs) + ids[args.top:]
                per[w].append((ndcg_at(ranked, dict.fromkeys(rel, 1), 10),
                               1.0 if ranked[0] in rel else 0.0))
        decide_ms.sort()
        figures[task] = {"questions": len(items), "verifier_ms_mean": round(mean(cost), 1),
                         "decide_ms_p50": round(decide_ms[len(decide_ms) // 2], 1),
                         "decide_ms_p95": round(decide_ms[int(len(decide_ms) * 0.95)], 1)}
        for w in WAYS:
            nd = mean([a for a, _ in per[w]])
            hit = mean([b for _, b in per[w]])
            figures[task][w] = {"ndcg_at_10": round(nd, 4), "hit_at_1": round(hit, 4)}
            print(f"| {task} | {len(items)} | {w} | {nd:.4f} | {hit:.3f} |")
        print(f"verifier cost on {task}: {mean(cost):.0f} ms a question for {args.top} papers; "
              f"the whole decision: p50 {figures[task]['decide_ms_p50']} ms, p95 "
              f"{figures[task]['decide_ms_p95']} ms")
    print(write_results("rerank", args.split, figures).relative_to(ROOT))


if __name__ == "__main__":
    main()
