"""Chinese questions offline: retrieval by the multilingual side, and the answer / near-miss /
refuse decision on its cosines (assistant/judge/answerability.py ``decide_multilingual``).

    python bench/answerability_zh.py [--stores bench/stores] [--fit]   # dev: tune
    python bench/answerability_zh.py --split test    # the test figures, once (bench/report.py)

Questions: evals/zh-questions.jsonl (written in Chinese from the abstracts, never against the
program), dev or test by evals/splits/zh-questions.json (the one split registry,
assistant/evaluation/splits.py: a question follows its paper, near-miss and off-domain
questions their id; a question in no part is not used). Two stores, each searched through
``Retriever`` with its multilingual side as a user gets it:

- the bundled ICML 2026 list (19 papers): answer = a question about a paper; near miss = ML
  topics none of them covers, and each answer question with its paper removed; refuse = topics
  outside ML;
- a 400-paper slice of the ml-large collection (the 120 papers asked about, both parts, and
  280 others: the same store for either part; needs `make bench-large`): answer = translated
  TL;DR questions; near miss = the same with the paper removed; refuse = the off-domain
  questions.

``--split dev`` (the default) is for tuning: it reads and prints dev questions only. ``--fit`` fits
the two logistic models on dev (class-balanced) and picks the cut-offs on dev: T_ZH_DOMAIN for the
best balanced accuracy of in-domain vs off-domain among the cut-offs that refuse no dev answerable
question (a question about a paper here is never refused as off-domain), T_ZH_ANSWER for the best
balanced accuracy of answerable vs near miss; it prints the constants to paste and their dev
figures (it refuses ``--split test``); without it the shipped constants are scored. Reports top-1
and top-3 retrieval of the asked paper and the outcome rates of the one part. ``--split test`` is
run only by `make report` (bench/report.py) and writes bench/results/answerability_zh.json (a dev
run writes answerability_zh-dev.json).
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

from assistant.evaluation.metrics import fit_logistic  # noqa: E402
from assistant.index.chunk_index import ensure_index  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.judge import answerability as ans  # noqa: E402
from assistant.search import multilingual  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402
from assistant.sources.corpus import bundled_papers  # noqa: E402

NAMES = {0: "refuse", 1: "near miss", 2: "answer"}


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def retriever_for(store: PaperStore, where: Path) -> Retriever:
    return Retriever(store=store, multilingual=multilingual.PaperVectors(where, max_new=10_000))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--fit", action="store_true", help="fit the constants on dev, print them")
    split_option(ap)
    args = ap.parse_args()
    check_fit(ap, args)
    split = args.split
    questions = load(ROOT / "evals" / "zh-questions.jsonl")
    splits = json.loads((ROOT / "evals" / "splits" / "zh-questions.json").read_text())
    mine = set(splits[split])  # a question in no part (or the other) is not used
    emb = LocalEmbedder()
    icml = PaperStore(collection="icml2026", embedder=emb, path=args.stores / "calib-icml",
                      create=True)
    icml.ingest(bundled_papers(), source="bundled:icml2026")
    large = PaperStore(collection="ml-large", embedder=emb, path=args.stores)
    asked = [q["paper"] for q in questions if q["store"] == "ml-large"]
    index = ensure_index(large)
    others = sorted({str(p) for p in index.paper_ids_of(index.paper_mask())} - set(asked))
    rng = random.Random(5)
    slice_ids = sorted(set(asked)) + rng.sample(others, 280)
    zh_slice = PaperStore(collection="zh-slice", embedder=emb, path=args.stores, create=True)
    if zh_slice.paper_count() != len(slice_ids):
        zh_slice.ingest(large.papers(slice_ids), source="ml-large#zh-slice")
    retr = {"icml": retriever_for(icml, args.stores / "calib-icml.e5.npz"),
            "ml-large": retriever_for(zh_slice, args.stores / "zh-slice.e5.npz")}
    icml_papers = icml.papers()

    def hint_id(hint: str) -> str:
        found = [p.paper_id for p in icml_papers
                 if hint.lower() in f"{p.title} {p.abstract}".lower()]
        assert len(found) == 1, hint
        return found[0]

    data: list = []
    ranks: dict[str, list[int]] = {}
    right: dict[str, bool] = {}
    for q in questions:
        if q["id"] not in mine:
            continue
        store = q["store"]
        found = retr[store].search(q["question"], k=12)
        assert found.multilingual, q["question"]
        papers = found.papers
        if q["kind"] == "answer":
            pid = hint_id(q["paper_hint"]) if store == "icml" else q["paper"]
            ids = [rp.paper.paper_id for rp in papers]
            ranks.setdefault(store, []).append(ids.index(pid) + 1 if pid in ids else 99)
            right[q["id"]] = bool(ids) and ids[0] == pid
            rows = [(2, papers[:6], "answer"),
                    (1, [rp for rp in papers if rp.paper.paper_id != pid][:6], "paper removed")]
        elif q["kind"] == "near_miss":
            rows = [(1, papers[:6], "near miss")]
        else:
            rows = [(0, papers[:6], "off-domain")]
            if store == "icml":  # the same question against the larger collection
                rows.append((0, retr["ml-large"].search(q["question"], k=6).papers,
                             "off-domain@large"))
        for label, ps, group in rows:
            f = ans.zh_features(ps)
            data.append((store, group, label, [f[k] for k in ans.ZH_FEATURES],
                         right.get(q["id"], False) and group == "answer"))
    report: dict = {"retrieval": {}}
    print("| store | split | asked | top-1 | top-3 |\n|---|---|---|---|---|")
    for store, rs in ranks.items():
        r = np.array(rs)
        row = {"n": len(r), "top1": float(np.mean(r == 1)), "top3": float(np.mean(r <= 3))}
        report["retrieval"][store] = row
        print(f"| {store} | {split} | {row['n']} | {row['top1']:.3f} | {row['top3']:.3f} |")
    x = np.array([r[3] for r in data])
    y = np.array([r[2] for r in data])
    if args.fit:  # dev only (check_fit)
        wd = fit_logistic(x, (y > 0).astype(float), steps=8000, lr=1.0, l2=1e-4)
        inside = y > 0
        wa = fit_logistic(x[inside], (y[inside] == 2).astype(float), steps=8000,
                          lr=1.0, l2=1e-4)
        pd_dev = 1 / (1 + np.exp(-(x @ wd[:-1] + wd[-1])))
        # a question about a paper in the collection is never refused as off-domain: among
        # the cut-offs that keep every dev answerable question in domain, the best balanced one
        keeps = [t for t in np.linspace(0.05, 0.95, 91) if np.all(pd_dev[y == 2] >= t)] or [0.05]
        td = max(keeps, key=lambda t: (
            np.mean(pd_dev[y > 0] >= t) + np.mean(pd_dev[y == 0] < t)))
        pa_dev = 1 / (1 + np.exp(-(x @ wa[:-1] + wa[-1])))
        ta = max(np.linspace(0.05, 0.95, 91), key=lambda t: (
            np.mean((pa_dev >= t)[y == 2]) + np.mean((pa_dev < t)[y == 1])))
        print("\nfitted on dev: paste into assistant/judge/answerability.py")
        print("W_ZH_DOMAIN =", tuple(round(float(v), 3) for v in wd))
        print("W_ZH_ANSWER =", tuple(round(float(v), 3) for v in wa))
        print(f"T_ZH_DOMAIN = {td:.2f}\nT_ZH_ANSWER = {ta:.2f}")
        for i, name in enumerate(ans.ZH_FEATURES):
            print(f"{name:>8}: " + "  ".join(f"{NAMES[c]} {np.mean(x[y == c, i]):.3f}"
                                             for c in (2, 1, 0)))
    else:
        wd, wa = np.asarray(ans.W_ZH_DOMAIN), np.asarray(ans.W_ZH_ANSWER)
        td, ta = ans.T_ZH_DOMAIN, ans.T_ZH_ANSWER
    report["constants"] = {"from": "fitted on dev" if args.fit else "shipped",
                           "W_ZH_DOMAIN": [float(v) for v in wd],
                           "W_ZH_ANSWER": [float(v) for v in wa],
                           "T_ZH_DOMAIN": float(td), "T_ZH_ANSWER": float(ta)}
    dom = 1 / (1 + np.exp(-(x @ np.asarray(wd[:-1]) + wd[-1])))
    answer = 1 / (1 + np.exp(-(x @ np.asarray(wa[:-1]) + wa[-1])))
    pred = np.where(dom < td, 0, np.where(answer < ta, 1, 2))
    print(f"\n## {split} ({report['constants']['from']} constants)\n\n"
          "| store | questions | truth | n | answered | near miss | refused |"
          "\n|---|---|---|---|---|---|---|")
    groups: dict = {}
    for (store, group, label, *_), p in zip(data, pred, strict=True):
        groups.setdefault((store, group, label), []).append(int(p))
    out = []
    for (store, group, label), ps in groups.items():
        c, n = Counter(ps), len(ps)
        print(f"| {store} | {group} | {NAMES[label]} | {n} | {c[2] / n:.3f} | "
              f"{c[1] / n:.3f} | {c[0] / n:.3f} |")
        out.append({"store": store, "questions": group, "truth": NAMES[label], "n": n,
                    "answered": c[2] / n, "near_miss": c[1] / n, "refused": c[0] / n})
    ok = np.array([r[4] for r in data])
    answered = (y == 2) & (pred == 2)
    rates = {"answerable answered": float(np.mean(pred[y == 2] == 2)),
             "answered with the asked paper first": float(np.mean(ok[answered]))
             if answered.any() else 0.0,
             "near misses not answered": float(np.mean(pred[y == 1] != 2)),
             "off-domain refused": float(np.mean(pred[y == 0] == 0))}
    print("\n" + "  ".join(f"{k}: {v:.3f}" for k, v in rates.items()))
    report[split] = {"groups": out, "rates": rates}
    print(f"\n{write_results('answerability_zh', split, report).relative_to(ROOT)}")


if __name__ == "__main__":
    main()
