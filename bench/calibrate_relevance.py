"""Fit the refuse-or-answer decision (relevance.py) on in- versus out-of-corpus questions.

    python bench/calibrate_relevance.py [--scifact-store DIR] [--icml-store DIR]

Two stores, each with questions whose answer is in it and questions whose answer is not:
- the bundled ICML 2026 list: in = evals/icml2026.yaml questions with expected papers;
  out = its `refuse` questions and SciFact's biomedical training claims;
- SciFact: in = its training claims (each has a judged relevant abstract);
  out = the ICML suite's questions and titles of ML papers from ../shared/corpus.
For every question the features of the best-ranked paper (dense cosine, question-vocabulary
coverage) are taken; a class-balanced logistic regression is fitted on half of the questions
and scored on the other half. Prints a table and writes bench/results/calibrate_relevance.json.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np

from assistant.corpus import bundled_papers
from assistant.embeddings import LocalEmbedder
from assistant.evaluation.beir import load_qrels, load_queries
from assistant.evaluation.suite import load_suite
from assistant.relevance import coverage
from assistant.retrieval import Retriever
from assistant.store import PaperStore

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def features(retriever: Retriever, question: str) -> tuple[float, float, bool]:
    result = retriever.search(question, k=3)
    best = max(result.papers, key=lambda rp: rp.evidence)
    cov = coverage(question, f"{best.paper.title} {best.paper.abstract}")
    return best.dense or 0.0, cov, result.relevance.relevant


def fit(x: np.ndarray, y: np.ndarray, steps: int = 4000, lr: float = 0.5) -> np.ndarray:
    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(xb.shape[1])
    weight = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
    for _ in range(steps):
        p = 1 / (1 + np.exp(-xb @ w))
        w -= lr * (xb.T @ ((p - y) * weight)) / len(y)
    return w


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scifact-store", default="/tmp/scifact-store")
    ap.add_argument("--icml-store", default="/tmp/calib-icml")
    ap.add_argument("--n", type=int, default=300, help="questions per group (sampled)")
    args = ap.parse_args()
    rng = random.Random(0)
    emb = LocalEmbedder()
    icml = PaperStore(collection="icml2026", embedder=emb, path=Path(args.icml_store), create=True)
    icml.ingest(bundled_papers(), source="bundled:icml2026")
    sci = PaperStore(collection="scifact", embedder=emb, path=Path(args.scifact_store))
    suite = load_suite(ROOT / "evals" / "icml2026.yaml")
    suite_in = [t.question for c in suite.cases for t in c.turns if t.expect_papers
                and "zh" not in c.tags and len(c.turns) == 1]
    suite_out = [t.question for c in suite.cases for t in c.turns if t.refuse]
    claims = load_queries(SHARED / "bench" / "scifact" / "queries_train.jsonl")
    judged = load_qrels(SHARED / "bench" / "scifact" / "qrels_train_cited.tsv")
    claims_l = [claims[q] for q in claims if q in judged]
    titles = []
    with (SHARED / "corpus" / "ml-abstracts.jsonl").open() as fh:
        for line in fh:
            titles.append(json.loads(line)["title"])
    groups = {
        ("icml", 1): suite_in,
        ("icml", 0): suite_out + rng.sample(claims_l, args.n),
        ("scifact", 1): rng.sample(claims_l, args.n),
        ("scifact", 0): suite_in + suite_out + rng.sample(titles, args.n),
    }
    retrievers = {"icml": Retriever(store=icml), "scifact": Retriever(store=sci)}
    rows = []
    for (store, label), questions in groups.items():
        for q in questions:
            d, c, shipped = features(retrievers[store], q)
            rows.append((store, label, d, c, shipped))
    rng.shuffle(rows)
    x = np.array([[r[2], r[3]] for r in rows])
    y = np.array([r[1] for r in rows], dtype=float)
    half = len(rows) // 2
    w = fit(x[:half], y[:half])
    scale = 10.0 / w[0]  # report on the same scale as relevance.py (dense weight 10)
    pred = (np.hstack([x, np.ones((len(x), 1))]) @ w) > 0
    current = [r[4] for r in rows]  # the shipped decision (with the method-name rule)
    print(f"fitted: W_DENSE={w[0] * scale:.2f} W_OVERLAP={w[1] * scale:.2f} "
          f"BIAS={w[2] * scale:.2f}")
    print(f"{'store':<8} {'truth':<6} {'n':>5} {'fitted (held-out half)':>24} {'shipped':>8}")
    report = {"weights": {"W_DENSE": round(w[0] * scale, 2), "W_OVERLAP": round(w[1] * scale, 2),
                          "BIAS": round(w[2] * scale, 2)}, "groups": []}
    for store in ("icml", "scifact"):
        for label in (1, 0):
            idx = [i for i in range(half, len(rows)) if rows[i][0] == store and rows[i][1] == label]
            acc = float(np.mean([pred[i] == bool(label) for i in idx])) if idx else 0.0
            cur = float(np.mean([current[i] == bool(label) for i in idx])) if idx else 0.0
            name = "in" if label else "out"
            print(f"{store:<8} {name:<6} {len(idx):>5} {acc:>24.3f} {cur:>8.3f}")
            report["groups"].append({"store": store, "truth": name, "n": len(idx),
                                     "accuracy_fitted": round(acc, 4),
                                     "accuracy_shipped": round(cur, 4)})
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "calibrate_relevance.json").write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
