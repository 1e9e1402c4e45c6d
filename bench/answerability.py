"""Score the answer / near-miss / refuse decision (assistant/judge/answerability.py).

    python bench/answerability.py [--stores bench/stores] [--n 150]   # dev figures
    python bench/answerability.py --split test    # the test figures, once (bench/report.py)

The constants are fitted by bench/decision_fit.py (natural questions); this scores them on
other question sets. Needs `make bench-scifact bench-large` (collections beir-scifact and
ml-large in bench/stores). Questions with a known right outcome, each in dev or test by the
one split registry (assistant/evaluation/splits.py, through the split files in evals/splits/);
nothing of an unseen venue (the bundled ICML list is scored by its own suite, `make report`'s
icml2026 step):

- ml-large (2,757 papers): answer = TL;DRs of papers in it; near miss = the same with the paper
  removed, held-out TL;DRs; refuse = SciFact claims.
- SciFact (5,183 abstracts): answer = claims; near miss = the same with the cited abstracts
  removed; refuse = fit-venue ML paper titles (``splits.corpus_part``).

"Removed" = the paper is dropped from what retrieval returned (the store without it). A dev
run writes bench/results/answerability-dev.json; ``--split test`` (only `make report`)
bench/results/answerability.json.
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

from report import split_option, write_results  # noqa: E402

from assistant.evaluation.beir import load_qrels, load_queries  # noqa: E402
from assistant.evaluation.splits import corpus_part  # noqa: E402
from assistant.evaluation.suite import load_suite  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.judge import answerability as ans  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402

SHARED = ROOT.parent / "shared"
NAMES = {0: "refuse", 1: "near miss", 2: "answer"}
# the suite's absent topics outside ML (its other absent topics are ML near misses)


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


def ml_titles(split: str, rng: random.Random) -> list[str]:
    """Titles of fit-venue ml-abstracts papers whose uid is in ``split``, shuffled (the unseen
    venues are never read)."""
    with (SHARED / "corpus" / "ml-abstracts.jsonl").open() as fh:
        records = [json.loads(line) for line in fh]
    titles = [r["title"] for r in records if corpus_part(r) == split]
    rng.shuffle(titles)
    return titles


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--n", type=int, default=150, help="questions per sampled group")
    ap.add_argument("--fresh", action="store_true", help="recompute the cached features")
    split_option(ap)
    args = ap.parse_args()
    split = args.split
    rng = random.Random(1)
    emb = LocalEmbedder()
    stores = {"ml-large": PaperStore(collection="ml-large", embedder=emb, path=args.stores),
              "scifact": PaperStore(collection="beir-scifact", embedder=emb, path=args.stores)}
    retr = {k: Retriever(store=s) for k, s in stores.items()}
    stats = {k: ans.TermStats(r.index()) for k, r in retr.items()}
    claims = load_queries(SHARED / "bench" / "scifact" / "queries_train.jsonl")
    qrels = load_qrels(SHARED / "bench" / "scifact" / "qrels_train_cited.tsv")
    sci_split = json.loads((ROOT / "evals" / "splits" / "scifact-train.json").read_text())
    titles = ml_titles(split, rng)
    rows: list[tuple[str, str, int, dict[str, float]]] = []
    cache_file = args.stores / f"answerability-{split}.cache.json"
    cache = json.loads(cache_file.read_text()) if cache_file.exists() and not args.fresh else {}

    def add(store: str, group: str, label: int, q: str, drop: set[str] = frozenset()) -> None:
        key = json.dumps([store, q, sorted(drop)])
        if key not in cache or set(cache[key]) != set(ans.FEATURES):
            cache[key] = row(retr[store], stats[store], q, drop)
        rows.append((store, group, label, cache[key]))

    large_suite = load_suite(ROOT / "evals" / "ml-large.yaml").only(split)
    in_cases = [c for c in large_suite.cases if "in-store" in c.tags]
    held = [c for c in large_suite.cases if "held-out" in c.tags]
    for c in rng.sample(in_cases, min(args.n, len(in_cases))):
        q, pid = c.turns[0].question, c.turns[0].expect_papers[0]
        add("ml-large", "tldr in store", 2, q)
        add("ml-large", "tldr, paper removed", 1, q, {pid})
    for c in held:
        add("ml-large", "tldr held out", 1, c.turns[0].question)
    sci = [q for q in sci_split[split] if q in claims and q in qrels]
    for q in rng.sample(sci, min(args.n, len(sci))):
        add("scifact", "claim", 2, claims[q])
        add("scifact", "claim, cited removed", 1, claims[q], set(qrels[q]))
    for q in rng.sample(sci, min(60, len(sci))):
        add("ml-large", "scifact claim", 0, claims[q])
    for t in titles[: min(args.n, 100)]:
        add("scifact", "ML title", 0, t)
    cache_file.write_text(json.dumps(cache))
    names = list(ans.FEATURES)
    x = np.array([[r[3][n] for n in names] for r in rows])
    y = np.array([r[2] for r in rows])
    wd, wa, td, ta = ans.W_DOMAIN, ans.W_ANSWER, ans.T_DOMAIN, ans.T_ANSWER
    report: dict = {"features": names, "constants": "shipped", "W_DOMAIN": list(map(float, wd)),
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
