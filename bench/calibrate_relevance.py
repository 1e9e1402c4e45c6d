"""Fit the refuse-or-answer decision (assistant/judge/relevance.py) on dev questions.

    python bench/calibrate_relevance.py [--stores bench/stores] [--n 200]   # dev: fit, tune
    python bench/calibrate_relevance.py --split test   # the test figures, once (bench/report.py)

Three stores of the fit venues and SciFact, each asked questions whose answer it holds and
questions whose answer it does not (nothing of the bundled ICML list, an unseen venue):
- SciFact (collection beir-scifact, ingested by `make bench-scifact`): in = its train claims
  (each has a judged abstract); out = titles of fit-venue ML papers (ml-abstracts papers whose
  ``uid`` is in the part, ``splits.corpus_part``) and ml-large TL;DR questions;
- ml-large (evals/make_large_suite.py --ingest): in = TL;DR questions of papers in the store;
  out = SciFact claims. (Its held-out-paper questions are reported, not fitted.)
- ml-theory (COLT, UAI; evals/natural/make_batches.py --ingest): in = the natural lookups
  (evals/natural) of the part; out = SciFact claims.

Every question, claim and title is dev or test by the one split registry
(assistant/evaluation/splits.py: the split files in evals/splits/, ``paper_part(uid)`` for the
titles); a case in no part is not used. ``--split dev`` (the default) is for tuning and reads
dev questions only: it fits the class-balanced logistic regression on (best paper's dense
cosine, question-word coverage) on dev, prints the fitted constants (on relevance.py's scale,
to paste) and the fitted and the shipped rule on dev. ``--split test`` is run only by `make
report` (bench/report.py): it fits nothing and scores the shipped rule on test, written to
bench/results/calibrate_relevance.json (a dev run writes calibrate_relevance-dev.json). The
method-name bonus W_NAMED (a question naming a method that a paper's title carries) is
hand-set, not fitted.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import natural  # noqa: E402
from report import split_option, write_results  # noqa: E402

from assistant.evaluation.beir import load_queries  # noqa: E402
from assistant.evaluation.metrics import fit_logistic  # noqa: E402
from assistant.evaluation.splits import corpus_part  # noqa: E402
from assistant.evaluation.suite import load_suite  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.judge import relevance  # noqa: E402
from assistant.judge.relevance import coverage, judge  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402

SHARED = ROOT.parent / "shared"


def features(retriever: Retriever, question: str) -> tuple[float, float, bool, bool]:
    """The best paper's (dense cosine, coverage, title names the question's method), and the
    shipped decision."""
    papers = retriever.search(question, k=3).papers
    rel = judge(question, papers)
    best = max(papers, key=lambda rp: rel.evidence[rp.paper.paper_id])
    cov = coverage(question, f"{best.paper.title} {best.paper.abstract}")
    named = relevance.names_title(question, best.paper.title)
    return best.dense or 0.0, cov, named, rel.relevant


def suite_questions(name: str, split: str) -> tuple[list[str], list[str], list[str]]:
    """(answerable, refuse, held-out) single-turn English questions of one split."""
    suite = load_suite(ROOT / "evals" / f"{name}.yaml").only(split)
    answerable, refuse, held = [], [], []
    for case in suite.cases:
        if len(case.turns) != 1 or any(t.startswith("zh") for t in case.tags) or \
                case.id.startswith("zh"):
            continue
        turn = case.turns[0]
        if "held-out" in case.tags:
            held.append(turn.question)
        elif turn.refuse:
            refuse.append(turn.question)
        elif turn.expect_papers:
            answerable.append(turn.question)
    return answerable, refuse, held


def natural_lookups(collection: str, split: str) -> list[str]:
    """The natural lookups (evals/natural) of one collection and part."""
    return [q["question"] for q in natural.load(split, {"lookup"})
            if q["collection"] == collection]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--n", type=int, default=200, help="questions per sampled group")
    split_option(ap)
    args = ap.parse_args()
    split = args.split
    rng = random.Random(0)
    emb = LocalEmbedder()
    sci = PaperStore(collection="beir-scifact", embedder=emb, path=args.stores)
    large = PaperStore(collection="ml-large", embedder=emb, path=args.stores)
    theory = PaperStore(collection="ml-theory", embedder=emb, path=args.stores)
    claims = load_queries(SHARED / "bench" / "scifact" / "queries_train.jsonl")
    sci_split = json.loads((ROOT / "evals" / "splits" / "scifact-train.json").read_text())
    with (SHARED / "corpus" / "ml-abstracts.jsonl").open() as fh:
        records = [json.loads(line) for line in fh]
    titles = [r["title"] for r in records if corpus_part(r) == split]  # fit venues only
    retrievers = {"scifact": Retriever(store=sci), "ml-large": Retriever(store=large),
                  "ml-theory": Retriever(store=theory)}
    rows: list[tuple[str, str, int, float, float, bool, bool]] = []
    large_in, _, large_held = suite_questions("ml-large", split)
    theory_in = natural_lookups("ml-theory", split)
    sci_claims = [claims[q] for q in sci_split[split] if q in claims]
    groups = {
        ("scifact", "claim", 1): rng.sample(sci_claims, min(args.n, len(sci_claims))),
        ("scifact", "ML title", 0): rng.sample(titles, min(args.n, len(titles))),
        ("scifact", "ML question", 0): rng.sample(large_in, min(args.n, len(large_in))),
        ("ml-large", "tldr in store", 1): rng.sample(large_in, min(args.n, len(large_in))),
        ("ml-large", "scifact claim", 0): rng.sample(sci_claims, min(args.n, len(sci_claims))),
        ("ml-large", "tldr held out", -1): large_held,
        ("ml-theory", "natural lookup", 1): rng.sample(theory_in, min(args.n, len(theory_in))),
        ("ml-theory", "scifact claim", 0): rng.sample(sci_claims, min(args.n, len(sci_claims))),
    }
    for (store, group, label), questions in groups.items():
        for q in questions:
            d, c, named, shipped = features(retrievers[store], q)
            rows.append((store, group, label, d, c, named, shipped))
    shipped_w = {"W_DENSE": relevance.W_DENSE, "W_OVERLAP": relevance.W_OVERLAP,
                 "BIAS": relevance.BIAS, "W_NAMED (hand-set)": relevance.W_NAMED}
    report: dict = {"shipped": shipped_w, "groups": []}
    fitted: dict[str, float] = {}
    if split == "dev":
        fit_rows = [r for r in rows if r[2] >= 0]
        x = np.array([[r[3], r[4]] for r in fit_rows])
        y = np.array([r[2] for r in fit_rows], dtype=float)
        w = fit_logistic(x, y)
        scale = relevance.W_DENSE / w[0]  # on the scale of relevance.py (dense weight fixed)
        fitted = {"W_DENSE": round(float(w[0] * scale), 2),
                  "W_OVERLAP": round(float(w[1] * scale), 2), "BIAS": round(float(w[2] * scale), 2)}
        report["fitted_on_dev"] = fitted
        print(f"fitted on dev ({len(fit_rows)} questions), to paste into "
              f"assistant/judge/relevance.py: {fitted}; shipped: {shipped_w}\n")
        print("| split | store | questions | truth | n | fitted rule | shipped rule |")
        print("|---|---|---|---|---|---|---|")
    else:
        print(f"shipped rule: {shipped_w}\n")
        print("| split | store | questions | truth | n | shipped rule |")
        print("|---|---|---|---|---|---|")

    def rule(r: tuple) -> bool:
        margin = fitted["W_DENSE"] * r[3] + fitted["W_OVERLAP"] * r[4] + fitted["BIAS"]
        return bool(margin + (relevance.W_NAMED if r[5] else 0.0) > 0)

    for store, group, label in dict.fromkeys((r[0], r[1], r[2]) for r in rows):
        sel = [r for r in rows if r[0] == store and r[1] == group]
        if not sel:
            continue
        truth = "answer" if label == 1 else "refuse"
        want = label == 1
        acc_s = float(np.mean([r[6] == want for r in sel]))
        entry = {"split": split, "store": store, "questions": group, "truth": truth,
                 "n": len(sel), "accuracy_shipped": round(acc_s, 4)}
        if fitted:
            acc_f = float(np.mean([rule(r) == want for r in sel]))
            entry["accuracy_fitted"] = round(acc_f, 4)
            print(f"| {split} | {store} | {group} | {truth} | {len(sel)} | {acc_f:.3f} | "
                  f"{acc_s:.3f} |")
        else:
            print(f"| {split} | {store} | {group} | {truth} | {len(sel)} | {acc_s:.3f} |")
        report["groups"].append(entry)
    print(f"\n{write_results('calibrate_relevance', split, report).relative_to(ROOT)}")


if __name__ == "__main__":
    main()
