"""The multilingual-e5 fallback's decision, fitted on fit-venue questions (ml-theory).

    python bench/multilingual_fit.py [--fit]        # dev: score the shipped weights (or fit)
    python bench/multilingual_fit.py --split test   # the test figures, once (bench/report.py)

Offline, a Chinese question is translated into the collection's English words
(assistant/search/translate.py) and decided like an English one. A question the dictionaries
cannot read at all (Japanese kana, Korean, a Chinese question of words they lack) is searched by
multilingual-e5 where the collection has its per-paper vectors (the bundled list ships them;
`assistant ingest --multilingual` makes them), and decided on the e5 cosines
(``answerability.decide_multilingual``: the best paper's cosine, its gap to the second, its
margin over the next five). This fits that decision's two logistic models and cut-offs on the
natural questions' Chinese lookups over ml-theory, searched by e5 alone (as an unreadable
question is): answerable (the paper in the store), near miss (the same with the paper dropped,
and the absent Chinese lookups) and off-domain (the Chinese questions of offdomain.jsonl). The
first run makes ml-theory's e5 vectors (about 20 minutes on 2 cores; kept beside the store).

``--fit`` (dev only): the domain cut-off is the best balanced one among those that refuse no
dev answerable question; the answer model and its best balanced cut-off are fitted and printed
too (on dev it could not tell a lookup from the same lookup with its paper dropped, so the
shipped decision has none: such a question is a near miss or refused).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import natural  # noqa: E402
from report import check_fit, split_option, write_results  # noqa: E402

from assistant.evaluation.metrics import fit_logistic  # noqa: E402
from assistant.index.chunk_index import index_dir  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.judge import answerability as ans  # noqa: E402
from assistant.search import multilingual  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402
from assistant.textutil import has_cjk  # noqa: E402

COLLECTION = "ml-theory"
ANSWER, NEAR, OFF = 2, 1, 0


def rows(split: str, stores: Path) -> tuple[np.ndarray, np.ndarray, float]:
    """Features and labels (2 answerable, 1 near miss, 0 off-domain); top-1 of the asked paper."""
    store = PaperStore(collection=COLLECTION, embedder=LocalEmbedder(), path=stores)
    where = index_dir(store)
    vectors = multilingual.PaperVectors(where.with_name(where.name + ".e5.npz"),
                                        max_new=100_000)
    retr = Retriever(store=store, multilingual=vectors)
    x: list[list[float]] = []
    y: list[int] = []
    top1: list[bool] = []
    for q in natural.load(split, {"zh", "zh-absent", "off-domain"}):
        if q["collection"] != COLLECTION or not has_cjk(q["question"]):
            continue
        found = retr.search(q["question"], k=7)  # the Chinese itself: the e5 side
        assert found.multilingual, q["id"]
        papers = found.papers
        want = (q.get("papers") or [""])[0]
        variants: list[tuple[int, Any]] = []
        if q["kind"] == "zh":
            top1.append(bool(papers) and papers[0].paper.paper_id == want)
            variants = [(ANSWER, papers[:6]),
                        (NEAR, [rp for rp in papers if rp.paper.paper_id != want][:6])]
        else:
            variants = [(NEAR if q["kind"] == "zh-absent" else OFF, papers[:6])]
        for label, ps in variants:
            f = ans.zh_features(ps)
            x.append([f[k] for k in ans.ZH_FEATURES])
            y.append(label)
    return np.asarray(x), np.asarray(y), float(np.mean(top1)) if top1 else 0.0


def _p(w: Any, x: np.ndarray) -> np.ndarray:
    w = np.asarray(w)
    return np.asarray(1 / (1 + np.exp(-(x @ w[:-1] + w[-1]))))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--fit", action="store_true", help="fit the weights and cut-offs (dev)")
    split_option(ap)
    args = ap.parse_args()
    check_fit(ap, args)
    x, y, top1 = rows(args.split, args.stores)
    wd, td = ans.W_ZH_DOMAIN, ans.T_ZH_DOMAIN
    wa: Any = None  # the shipped decision never answers (answerability.decide_multilingual)
    ta = 1.0
    if args.fit:
        wd = tuple(fit_logistic(x, (y > OFF).astype(float), steps=8000, lr=1.0, l2=1e-4))
        inside = y > OFF
        wa = tuple(fit_logistic(x[inside], (y[inside] == ANSWER).astype(float), steps=8000,
                                lr=1.0, l2=1e-4))
        pd, pa = _p(wd, x), _p(wa, x)
        grid = [round(float(t), 2) for t in np.linspace(0.05, 0.95, 91)]
        keeps = [t for t in grid if np.all(pd[y == ANSWER] >= t)] or [0.05]
        td = max(keeps, key=lambda t: np.mean(pd[y > OFF] >= t) + np.mean(pd[y == OFF] < t))
        ta = max(grid, key=lambda t: np.mean((pa >= t)[y == ANSWER])
                 + np.mean((pa < t)[y == NEAR]))
    pd = _p(wd, x)
    pa = _p(wa, x) if wa is not None else np.zeros(len(x))
    answered = (pd >= td) & (pa >= ta)
    figures = {
        "n": {"answerable": int(np.sum(y == ANSWER)), "near_miss": int(np.sum(y == NEAR)),
              "off_domain": int(np.sum(y == OFF))},
        "e5_top1": round(top1, 3),
        "answerable_answered": round(float(np.mean(answered[y == ANSWER])), 3),
        "near_miss_answered": round(float(np.mean(answered[y == NEAR])), 3),
        "off_domain_refused": round(float(np.mean(pd[y == OFF] < td)), 3),
        "W_ZH_DOMAIN": [round(float(v), 3) for v in wd],
        "W_ZH_ANSWER": [round(float(v), 3) for v in wa] if wa is not None else None,
        "T_ZH_DOMAIN": td, "T_ZH_ANSWER": ta}
    for k, v in figures.items():
        print(f"{k:22} {v}")
    print(write_results("multilingual_fit", args.split, figures).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
