"""How well the verifier and the decision's estimate tell the paper asked about from its
neighbours: AUC and calibration, on three kinds of questions.

    python bench/verifier_eval.py [--split dev] [--n 300]
    python bench/verifier_eval.py --split test        # once, by bench/report.py

For each question, the papers retrieval returns first (``evidence.CANDIDATES``) are scored by
the verifier (its 0-1 probability) and by the decision's estimate (judge/evidence.py); a pair is
positive when the paper is the one the question is about. Three sets, each of its part of the
one registry:

- natural: the natural lookups, facts and follow-up first turns (evals/natural/questions.jsonl)
  over ml-large and ml-theory;
- tldr: ml-large's TL;DR questions about papers in the store (evals/ml-large.yaml);
- scifact: SciFact train claims with their cited abstracts (evals/splits/scifact-train.json).

AUC over all pairs; calibration as the expected calibration error over ten equal-width bins
(the mean |predicted - observed| weighted by the pairs in each bin); and how often the paper
scored highest is the right one (hit@1). Writes bench/results/verifier_eval(-dev).json.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import natural as natural_questions  # noqa: E402
from decision_fit import candidates  # noqa: E402
from report import split_option, write_results  # noqa: E402

from assistant.evaluation.beir import load_qrels, load_queries  # noqa: E402
from assistant.evaluation.suite import load_suite  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.judge import answerability as ans  # noqa: E402
from assistant.judge import evidence  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402

SHARED = ROOT.parent / "shared"


def auc(scores: list[float], labels: list[int]) -> float:
    s, y = np.asarray(scores), np.asarray(labels, dtype=bool)
    pos, neg = s[y], s[~y]
    if not len(pos) or not len(neg):
        return float("nan")
    order = np.argsort(np.concatenate([pos, neg]), kind="mergesort")
    ranks = np.empty(len(order))
    ranks[order] = np.arange(1, len(order) + 1)
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2)
                 / (len(pos) * len(neg)))


def ece(scores: list[float], labels: list[int], bins: int = 10) -> float:
    s, y = np.asarray(scores), np.asarray(labels, dtype=float)
    idx = np.minimum((s * bins).astype(int), bins - 1)
    return float(sum(abs(s[idx == b].mean() - y[idx == b].mean()) * np.sum(idx == b)
                     for b in range(bins) if np.any(idx == b)) / len(s))


def sets(split: str, n: int, rng: random.Random) -> dict[str, list[tuple[str, str, set[str]]]]:
    lookups = []
    for q in natural_questions.load(split, {"lookup", "fact", "followup"}):
        text = q["turns"][0] if q["kind"] == "followup" else q["question"]
        lookups.append((q["collection"], text, {q["papers"][0]}))
    large = load_suite(ROOT / "evals" / "ml-large.yaml").only(split)
    tldr = [("ml-large", c.turns[0].question, set(c.turns[0].expect_papers))
            for c in large.cases if "in-store" in c.tags]
    claims = load_queries(SHARED / "bench" / "scifact" / "queries_train.jsonl")
    qrels = load_qrels(SHARED / "bench" / "scifact" / "qrels_train_cited.tsv")
    sci_part = json.loads((ROOT / "evals" / "splits" / "scifact-train.json").read_text())[split]
    sci = [("beir-scifact", claims[c], set(qrels[c])) for c in sci_part
           if c in claims and c in qrels]
    return {name: rng.sample(items, min(n, len(items))) if n else items
            for name, items in (("natural", lookups), ("tldr", tldr), ("scifact", sci))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--n", type=int, default=300, help="questions per set (0: all)")
    ap.add_argument("--seed", type=int, default=9)
    split_option(ap)
    args = ap.parse_args()
    emb = LocalEmbedder()
    retr = {c: Retriever(store=PaperStore(collection=c, embedder=emb, path=args.stores))
            for c in ("ml-large", "ml-theory", "beir-scifact")}
    stats = {c: ans.TermStats(r.index()) for c, r in retr.items()}
    figures: dict[str, Any] = {"split": args.split}
    print(f"## verifier and estimate, {args.split}\n")
    print("| set | questions | pairs | scorer | AUC | ECE | hit@1 |\n|---|---|---|---|---|---|---|")
    for name, items in sets(args.split, args.n, random.Random(args.seed)).items():
        ver, est, lab, hits = [], [], [], {"verifier": [], "estimate": [], "retrieval": []}
        for coll, q, want in items:
            rows = candidates(retr[coll], stats[coll], q, evidence.CANDIDATES)
            if not rows:
                continue
            p = evidence.probabilities(rows)
            ver += [r["ver"] for r in rows]
            est += p
            lab += [int(r["pid"] in want) for r in rows]
            hits["verifier"].append(max(rows, key=lambda r: r["ver"])["pid"] in want)
            hits["estimate"].append(rows[int(np.argmax(p))]["pid"] in want)
            hits["retrieval"].append(rows[0]["pid"] in want)
        out = {"questions": len(items), "pairs": len(lab),
               "retrieval_hit1": round(float(np.mean(hits["retrieval"])), 3)}
        for scorer, vals in (("verifier", ver), ("estimate", est)):
            out[scorer] = {"auc": round(auc(vals, lab), 3), "ece": round(ece(vals, lab), 3),
                           "hit1": round(float(np.mean(hits[scorer])), 3)}
            print(f"| {name} | {len(items)} | {len(lab)} | {scorer} | {out[scorer]['auc']} | "
                  f"{out[scorer]['ece']} | {out[scorer]['hit1']} |")
        print(f"| {name} | | | retrieval's first | | | {out['retrieval_hit1']} |")
        figures[name] = out
    print(write_results("verifier_eval", args.split, figures).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
