"""Fit the answer / near-miss / refuse decision (assistant/judge/answerability.py) on dev.

    python bench/answerability.py [--stores bench/stores] [--n 150] [--fit]   # dev: tune
    python bench/answerability.py --split test    # the test figures, once (bench/report.py)

Needs `make bench-scifact bench-large` (collections beir-scifact and ml-large in bench/stores).
Questions with a known right outcome, each in dev or test by the one split registry
(assistant/evaluation/splits.py, through the split files in evals/splits/):

- ICML 2026 (19 papers): answer = suite answerable; near miss = suite near misses and ML
  topics, ml-large TL;DRs; refuse = SciFact claims, suite off-domain.
- ml-large (2,757 papers): answer = TL;DRs of papers in it; near miss = the same with the paper
  removed, held-out TL;DRs; refuse = SciFact claims.
- SciFact (5,183 abstracts): answer = claims; near miss = the same with the cited abstracts
  removed; refuse = ML paper titles (ml-abstracts papers whose ``uid`` is in the part).

The suites' cases follow evals/splits/icml2026.json and ml-large.json, the claims
evals/splits/scifact-train.json, the titles ``paper_part(uid)``; a case in no part is not used.
"Removed" = the paper is dropped from what retrieval returned (the store without it).

``--split dev`` (the default) is for tuning: it reads and prints dev questions only. ``--fit``
fits the two logistic models on dev (class-balanced) and picks the cut-offs on dev: T_DOMAIN
for the best balanced accuracy of in-domain vs off-domain, T_ANSWER as the highest at which
dev answerable questions are still answered 95% of the time; it prints the constants to paste
into answerability.py and their dev figures (it refuses ``--split test``). Without ``--fit``
the shipped constants are scored. ``--split test`` is run only by `make report`
(bench/report.py): the shipped rule's figures on test, written to
bench/results/answerability.json (a dev run writes answerability-dev.json).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from report import check_fit, split_option, write_results  # noqa: E402

from assistant.evaluation.beir import load_qrels, load_queries  # noqa: E402
from assistant.evaluation.metrics import fit_logistic  # noqa: E402
from assistant.evaluation.splits import paper_part  # noqa: E402
from assistant.evaluation.suite import load_suite, resolve_papers  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.judge import answerability as ans  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402
from assistant.sources.corpus import bundled_papers  # noqa: E402

SHARED = ROOT.parent / "shared"
NAMES = {0: "refuse", 1: "near miss", 2: "answer"}
# the suite's absent topics outside ML (its other absent topics are ML near misses)
OFF_DOMAIN_ABSENT = {"absent-bread", "absent-football"}


def suite_items(name: str, split: str, papers: list) -> list[tuple[str, int, set[str]]]:
    suite = load_suite(ROOT / "evals" / f"{name}.yaml").only(split)
    out = []
    for case in suite.cases:
        if len(case.turns) != 1 or case.id.startswith("zh"):
            continue
        t = case.turns[0]
        if "held-out" in case.tags or "near-miss" in case.tags:
            out.append((t.question, 1, set()))
        elif t.refuse:
            off = "off-domain" in case.tags or case.id in OFF_DOMAIN_ABSENT
            out.append((t.question, 0 if off else 1, set()))
        elif t.expect_papers:
            ids = set(resolve_papers(t.expect_papers, papers, case.id))
            out.append((t.question, 2, ids))
    return out


def row(retriever: Retriever, stats: ans.TermStats, q: str, drop: set[str], k: int = 6
        ) -> dict[str, float]:
    papers = retriever.search(q, k=k + len(drop)).papers
    papers = [rp for rp in papers if rp.paper.paper_id not in drop][:k]
    return ans.features(q, papers, stats, verified_scores(q, papers, stats))


def verified_scores(q: str, papers: list, stats: ans.TermStats | None = None) -> list[float]:
    """Each paper's estimate (judge/evidence.py: retrieval and the verifier together), as the
    decision computes it."""
    from assistant.judge.decision import estimates
    from assistant.judge.verifier import passage, shared

    raw = dict(zip([rp.paper.paper_id for rp in papers],
                   shared().score(q, [passage(rp.paper, q) for rp in papers]), strict=True))
    est = estimates(q, papers, raw, stats) if stats is not None else raw
    return [est[rp.paper.paper_id] for rp in papers]


def prob(w, x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-(x @ np.asarray(w[:-1]) + w[-1])))


def predict(wd, wa, td, ta, x: np.ndarray) -> np.ndarray:
    dom, answer = prob(wd, x), prob(wa, x)
    return np.where(dom < td, 0, np.where(answer < ta, 1, 2))


FIT_VENUES = {("iclr", 2017), ("iclr", 2018), ("nips", 2018)} | {
    ("corl", y) for y in range(2021, 2026)} | {("uai", y) for y in range(2019, 2025)} | {
    ("colt", y) for y in range(2011, 2025)} | {("acml", y) for y in range(2010, 2025)} | {
    ("automl", y) for y in range(2022, 2025)}


def ml_titles(split: str, rng: random.Random) -> list[str]:
    """Titles of fit-venue ml-abstracts papers whose uid is in ``split``, shuffled (the unseen
    venues are never read)."""
    with (SHARED / "corpus" / "ml-abstracts.jsonl").open() as fh:
        records = [json.loads(line) for line in fh]
    titles = [r["title"] for r in records if paper_part(str(r["uid"])) == split
              and (str(r.get("venue")), int(r.get("year") or 0)) in FIT_VENUES]
    rng.shuffle(titles)
    return titles


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--n", type=int, default=150, help="questions per sampled group")
    ap.add_argument("--fit", action="store_true", help="fit the constants on dev, print them")
    ap.add_argument("--features", default="", help="with --fit: a comma-separated subset of "
                    "the FEATURES to fit on (to compare)")
    ap.add_argument("--fresh", action="store_true", help="recompute the cached features")
    split_option(ap)
    args = ap.parse_args()
    check_fit(ap, args)
    split = args.split
    rng = random.Random(1)
    emb = LocalEmbedder()
    icml = PaperStore(collection="icml2026", embedder=emb, path=args.stores / "calib-icml",
                      create=True)
    icml.ingest(bundled_papers(), source="bundled:icml2026")
    stores = {"icml": icml,
              "ml-large": PaperStore(collection="ml-large", embedder=emb, path=args.stores),
              "scifact": PaperStore(collection="beir-scifact", embedder=emb, path=args.stores)}
    retr = {k: Retriever(store=s) for k, s in stores.items()}
    stats = {k: ans.TermStats(r.index()) for k, r in retr.items()}
    claims = load_queries(SHARED / "bench" / "scifact" / "queries_train.jsonl")
    qrels = load_qrels(SHARED / "bench" / "scifact" / "qrels_train_cited.tsv")
    sci_split = json.loads((ROOT / "evals" / "splits" / "scifact-train.json").read_text())
    titles = ml_titles(split, rng)
    icml_papers = icml.papers()
    rows: list[tuple[str, str, int, dict[str, float]]] = []
    cache_file = args.stores / f"answerability-{split}.cache.json"
    cache = json.loads(cache_file.read_text()) if cache_file.exists() and not args.fresh else {}

    def add(store: str, group: str, label: int, q: str, drop: set[str] = frozenset()) -> None:
        key = json.dumps([store, q, sorted(drop)])
        if key not in cache or set(cache[key]) != set(ans.FEATURES):
            cache[key] = row(retr[store], stats[store], q, drop)
        rows.append((store, group, label, cache[key]))

    for q, label, _ in suite_items("icml2026", split, icml_papers):
        add("icml", "suite", label, q)
    large_suite = load_suite(ROOT / "evals" / "ml-large.yaml").only(split)
    in_cases = [c for c in large_suite.cases if "in-store" in c.tags]
    held = [c for c in large_suite.cases if "held-out" in c.tags]
    for c in rng.sample(in_cases, min(args.n, len(in_cases))):
        q, pid = c.turns[0].question, c.turns[0].expect_papers[0]
        add("ml-large", "tldr in store", 2, q)
        add("ml-large", "tldr, paper removed", 1, q, {pid})
    for c in held:
        add("ml-large", "tldr held out", 1, c.turns[0].question)
    for c in rng.sample(in_cases, min(60, len(in_cases))):
        add("icml", "ml-large tldr", 1, c.turns[0].question)
    sci = [q for q in sci_split[split] if q in claims and q in qrels]
    for q in rng.sample(sci, min(args.n, len(sci))):
        add("scifact", "claim", 2, claims[q])
        add("scifact", "claim, cited removed", 1, claims[q], set(qrels[q]))
    for q in rng.sample(sci, min(60, len(sci))):
        add("icml", "scifact claim", 0, claims[q])
        add("ml-large", "scifact claim", 0, claims[q])
    for t in titles[: min(args.n, 100)]:
        add("scifact", "ML title", 0, t)
    cache_file.write_text(json.dumps(cache))
    names = args.features.split(",") if args.features else list(ans.FEATURES)
    x = np.array([[r[3][n] for n in names] for r in rows])
    y = np.array([r[2] for r in rows])
    if args.fit:  # dev only (check_fit)
        wd = fit_logistic(x, (y > 0).astype(float), steps=6000, lr=0.3, l2=1e-3)
        inside = y > 0
        wa = fit_logistic(x[inside], (y[inside] == 2).astype(float), steps=6000,
                          lr=0.3, l2=1e-3)
        pd_dev = prob(wd, x)
        td = max(np.linspace(0.05, 0.95, 91), key=lambda t: (
            np.mean(pd_dev[y > 0] >= t) + np.mean(pd_dev[y == 0] < t)))
        pa_dev = prob(wa, x)
        ok = [t for t in np.linspace(0.05, 0.95, 91)
              if np.mean((pa_dev >= t)[y == 2] & (pd_dev >= td)[y == 2]) >= 0.95]
        ta = max(ok) if ok else 0.5
        print("fitted on dev: paste into assistant/judge/answerability.py")
        print("W_DOMAIN =", tuple(round(float(v), 3) for v in wd))
        print("W_ANSWER =", tuple(round(float(v), 3) for v in wa))
        print(f"T_DOMAIN = {td:.2f}\nT_ANSWER = {ta:.2f}\n")
        for i, name in enumerate(names):  # how each feature separates, on dev
            col = x[:, i]
            print(f"{name:>12}: " + "  ".join(f"{NAMES[c]} {np.mean(col[y == c]):.3f}"
                                              for c in (2, 1, 0)))
        print()
    else:
        wd, wa, td, ta = ans.W_DOMAIN, ans.W_ANSWER, ans.T_DOMAIN, ans.T_ANSWER
    report: dict = {"features": names, "constants": "fitted on dev" if args.fit
                    else "shipped", "W_DOMAIN": list(map(float, wd)),
                    "W_ANSWER": list(map(float, wa)), "T_DOMAIN": float(td),
                    "T_ANSWER": float(ta)}
    pred = predict(wd, wa, td, ta, x)
    print(f"## {split} ({report['constants']} constants): by group (share of each outcome)\n")
    print("| store | questions | truth | n | answered | near miss | refused |")
    print("|---|---|---|---|---|---|---|")
    groups: dict = {}
    for (store, group, label, _), p in zip(rows, pred, strict=True):
        groups.setdefault((store, group, label), []).append(int(p))
    out = []
    for (store, group, label), ps in groups.items():
        c = Counter(ps)
        n = len(ps)
        print(f"| {store} | {group} | {NAMES[label]} | {n} | {c[2] / n:.3f} | "
              f"{c[1] / n:.3f} | {c[0] / n:.3f} |")
        out.append({"store": store, "questions": group, "truth": NAMES[label], "n": n,
                    "answered": c[2] / n, "near_miss": c[1] / n, "refused": c[0] / n})
    matrix = [[int(np.sum((y == t) & (pred == p))) for p in (2, 1, 0)] for t in (2, 1, 0)]
    print(f"\n{split} confusion (rows truth answer/near miss/refuse; columns the same): "
          f"{matrix}")
    rates = {"answerable answered": float(np.mean(pred[y == 2] == 2)),
             "near misses not answered": float(np.mean(pred[y == 1] != 2)),
             "off-domain refused": float(np.mean(pred[y == 0] == 0))}
    print("  ".join(f"{k}: {v:.3f}" for k, v in rates.items()))
    report[split] = {"groups": out, "confusion": matrix, "rates": rates}
    print(f"\n{write_results('answerability', split, report).relative_to(ROOT)}")


if __name__ == "__main__":
    main()
