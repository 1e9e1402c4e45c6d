"""A topic over the years: membership precision and recall, and the yearly share's error.

    python bench/trend_eval.py                 # dev topics: the figures to choose by
    python bench/trend_eval.py --fit           # fit W_MEMBER and T_MEMBER on the dev topics
    python bench/trend_eval.py --split test    # the test topics, once (bench/report.py)
    python bench/trend_eval.py --scale /tmp/scale   # speed over 22,912 papers (no labels)

The twelve topics of evals/trend/labels.jsonl over collection ml-years in bench/stores (the
multi-year fit venues, 4,482 papers: evals/trend/make_pools.py), each dev or test by the split
registry. Each topic's labels are a stratified sample (all of the top 60 of BM25 and MiniLM, 50
of ranks 61-300, 30 of the rest), graded 0-2 by helpers who saw only the abstracts; a paper is
on the topic when graded 1 or 2. Every estimate weighs a judged paper by its stratum's size over
its sample, so it is the collection's, not the sample's:

- precision and recall of ``trend``'s members (answer/trend.py, judged by
  judge/membership.py); recall of grade-2 papers;
- the yearly share's mean absolute error: per year, the members' share against the estimated
  share of papers on the topic (the weighted count over the year's papers);
- a baseline: BM25's hits that hold every topic word (what a keyword count would chart);
- off-domain topics (evals/trend/offdomain.json: outside machine learning, so no paper is on
  them): how many get a member, and how many papers in all.

``--fit`` fits the logistic membership model on the dev topics' judged papers, each weighed by
its stratum (so it is calibrated to the collection), with the papers nearest each dev
off-domain topic as noes, and chooses ``T_MEMBER`` on the dev topics each measured by a model
fitted on the others (how it does on a topic it has not seen).
Writes bench/results/trend_eval.json (test) or trend_eval-dev.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402
from report import check_fit, split_option, write_results, write_timing  # noqa: E402

from assistant.answer import trend as tr  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.judge import membership as mb  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402

LABELS = ROOT / "evals" / "trend" / "labels.jsonl"
OFF = ROOT / "evals" / "trend" / "offdomain.json"
COLLECTION = "ml-years"
OFF_NEAREST = 100  # an off-domain topic's nearest papers (by cosine) the fit reads, each a no
OFF_WEIGHT = 10.0  # ... of this weight: an off-domain topic weighs a fifth of a judged one


def off_topics(split: str) -> list[str]:
    from assistant.evaluation.splits import question_part

    return [t for t in json.loads(OFF.read_text())["topics"]
            if question_part([], f"trend-off:{t}") == split]


def part_of(row: dict[str, Any]) -> str:
    """A topic's part: round 1's topics are all dev now (its 7 test topics' figures were seen
    at issue 26's first report, e0c0019); round 2's by the split registry."""
    return "dev" if row.get("round", 1) == 1 else str(row["part"])


def judged(row: dict[str, Any]) -> dict[str, tuple[int, float]]:
    """paper id -> (grade, weight: the stratum's size over its sample)."""
    out = {}
    for s in row["strata"].values():
        labels = s["labels"]
        for pid, grade in labels.items():
            out[pid] = (int(grade), s["size"] / max(1, len(labels)))
    return out


def keyword_members(index: Any, topic: str) -> np.ndarray:
    """The baseline: papers holding every topic word (as BM25 stems them)."""
    from assistant.index.chunk_index import tokenize

    have = np.ones(len(index.all_paper_ids), dtype=bool)
    for stem in tokenize([topic])[0]:
        have &= index.papers_holding(stem)
    return have


def measure(member: dict[str, bool], labels: dict[str, tuple[int, float]], years: dict[str, int],
            totals: dict[int, int], counts: dict[int, int]) -> dict[str, float]:
    tp = fp = fn = tp2 = fn2 = 0.0
    true_year: dict[int, float] = {}
    for pid, (grade, w) in labels.items():
        pos, got = grade >= 1, member.get(pid, False)
        tp += w * (pos and got)
        fp += w * (got and not pos)
        fn += w * (pos and not got)
        tp2 += w * (grade == 2 and got)
        fn2 += w * (grade == 2 and not got)
        if pos and pid in years:
            true_year[years[pid]] = true_year.get(years[pid], 0.0) + w
    errors = [abs(counts.get(y, 0) - true_year.get(y, 0.0)) / n for y, n in totals.items() if n]
    return {"precision": tp / (tp + fp) if tp + fp else 1.0,
            "recall": tp / (tp + fn) if tp + fn else 1.0,
            "recall_grade2": tp2 / (tp2 + fn2) if tp2 + fn2 else 1.0,
            "share_mae": statistics.fmean(errors) if errors else 0.0,
            "on_topic_est": tp + fn}


def _fit_weights(rows: list[dict[str, Any]], feats: dict[str, dict[str, np.ndarray]],
                 at: dict[str, int], off: list[str]) -> np.ndarray:
    """A logistic model of the judged papers of ``rows``, each weighed by its stratum (so its
    output is calibrated to the collection, not to the sample), and of the ``OFF_NEAREST``
    papers nearest each off-domain topic of ``off``, each a no of weight 1."""
    x, y, w = [], [], []
    for r in rows:
        f = feats[r["topic"]]
        for pid, (grade, weight) in judged(r).items():
            x.append([float(f[name][at[pid]]) for name in mb.FEATURES])
            y.append(1.0 if grade >= 1 else 0.0)
            w.append(weight)
    for topic in off:
        f = feats[topic]
        for i in np.argsort(-f["dense"], kind="stable")[:OFF_NEAREST]:
            x.append([float(f[name][i]) for name in mb.FEATURES])
            y.append(0.0)
            w.append(OFF_WEIGHT)
    xa, ya, wa = np.array(x), np.array(y), np.array(w)
    xb = np.hstack([xa, np.ones((len(xa), 1))])
    beta = np.zeros(xb.shape[1])
    wa = wa / wa.mean()
    for _ in range(8000):
        p = 1 / (1 + np.exp(-xb @ beta))
        beta -= 0.5 * (xb.T @ ((p - ya) * wa) / len(ya) + 1e-4 * np.r_[beta[:-1], 0])
    return beta


def fit(rows: list[dict[str, Any]], feats: dict[str, dict[str, np.ndarray]],
        ids: list[str], off: list[str]) -> tuple[tuple[float, ...], float, float]:
    """W_MEMBER on every dev topic, and T_MEMBER: first each dev topic is measured by a model
    fitted on the others (leave one topic out: how the model does on a topic it has not
    seen) at each cut-off, and the cut-off chosen is the one whose mean precision and recall
    clear the issue's bars (0.8, 0.7) by the widest margin (the smaller of the two); then
    each off-domain topic is checked with a model fitted without it."""
    at = {p: i for i, p in enumerate(ids)}
    cuts = [round(float(c), 2) for c in np.arange(0.25, 0.71, 0.05)]
    probs = []
    for r in rows:
        beta = _fit_weights([o for o in rows if o is not r], feats, at, off)
        probs.append(mb.membership(feats[r["topic"]], tuple(float(v) for v in beta)))
    print("leave one dev topic out: mean precision / recall by cut-off")
    best = (-1.0, 0.5)
    for cut in cuts:
        got = [measure({pid: bool(m) for pid, m in zip(ids, mb.members(p, cut=cut, topic_cut=0.0),
                                                        strict=True)},
                       judged(r), {}, {}, {}) for r, p in zip(rows, probs, strict=True)]
        prec = statistics.fmean(g["precision"] for g in got)
        rec = statistics.fmean(g["recall"] for g in got)
        margin = min(prec - 0.8, rec - 0.7)
        print(f"  {cut}: {prec:.3f} / {rec:.3f}")
        if margin > best[0] + 1e-9:
            best = (margin, cut)
    cut = best[1]
    off_best = []
    for topic in off:
        beta = _fit_weights(rows, feats, at, [o for o in off if o != topic])
        off_best.append(float(mb.membership(feats[topic], tuple(float(v) for v in beta)).max()))
    in_best = [float(p.max()) for p in probs]
    # T_TOPIC: halfway between the best off-domain topic's best paper and the worst dev
    # topic's, each measured left out of the fit
    topic_cut = round((max(off_best) + min(in_best)) / 2, 2)
    print(f"leave one off-domain topic out, best papers' chances: "
          f"{sorted(round(b, 2) for b in off_best)}")
    print("the dev topics' best papers' chances (left out): "
          f"{sorted(round(b, 2) for b in in_best)}")
    print(f"T_TOPIC = {topic_cut}")
    weights = tuple(round(float(v), 3) for v in _fit_weights(rows, feats, at, off))
    print(f"W_MEMBER = {weights}  # features {mb.FEATURES}")
    print(f"T_MEMBER = {cut}")
    return weights, cut, topic_cut


def timing(store: Path, collection: str) -> int:
    """``--scale STORE``: the p50 and p95 of ``trend`` over a large collection's papers, after
    its index is open, for the twelve topics' names (no label read)."""
    retr = Retriever(store=PaperStore(collection=collection, embedder=LocalEmbedder(),
                                      path=store))
    index, emb = retr.index(), retr.store.embedder
    topics = [json.loads(x)["topic"] for x in LABELS.read_text().splitlines() if x.strip()]
    tr.trend(topics[0], index=index, embedder=emb)  # the index opened, the model loaded
    times = []
    for _ in range(3):
        for topic in topics:
            t = time.perf_counter()
            tr.trend(topic, index=index, embedder=emb)
            times.append((time.perf_counter() - t) * 1000)
    write_timing("trend_scale", "trend", index.paper_count, times)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--fit", action="store_true", help="fit W_MEMBER and T_MEMBER on dev")
    ap.add_argument("--scale", type=Path, help="time `trend` in this store's collection "
                    "(bench/scale.py's, 22,912 papers) and write trend_scale.json")
    ap.add_argument("--collection", default="ml-all")
    split_option(ap)
    args = ap.parse_args()
    check_fit(ap, args)
    if args.scale:
        return timing(args.scale, args.collection)
    rows = [json.loads(x) for x in LABELS.read_text().splitlines() if x.strip()]
    rows = [r for r in rows if part_of(r) == args.split]
    retr = Retriever(store=PaperStore(collection=COLLECTION, embedder=LocalEmbedder(),
                                      path=args.stores))
    index, emb = retr.index(), retr.store.embedder
    ids = index.all_paper_ids
    year_of = dict(zip(ids, (int(y) for y in index.paper_years()), strict=True))
    totals: dict[int, int] = {}
    for y in year_of.values():
        totals[y] = totals.get(y, 0) + 1
    off = off_topics(args.split)
    feats = {t: mb.scores(t, index=index, embedder=emb) for t in [*(r["topic"] for r in rows),
                                                                   *off]}
    weights, cut, topic_cut = mb.W_MEMBER, mb.T_MEMBER, mb.T_TOPIC
    if args.fit:
        weights, cut, topic_cut = fit(rows, feats, ids, off)
    per_topic: dict[str, Any] = {}
    for r in rows:
        labels = judged(r)
        p = mb.membership(feats[r["topic"]], weights)
        systems = {"trend": mb.members(p, cut=cut, topic_cut=topic_cut),
                   "keywords": keyword_members(index, r["topic"])}
        per_topic[r["topic"]] = {}
        for name, mask in systems.items():
            member = {pid: bool(m) for pid, m in zip(ids, mask, strict=True)}
            counts: dict[int, int] = {}
            for pid, m in member.items():
                if m:
                    counts[year_of[pid]] = counts.get(year_of[pid], 0) + 1
            figs = measure(member, labels, year_of, totals, counts)
            figs["members"] = int(mask.sum())
            per_topic[r["topic"]][name] = {k: round(v, 3) for k, v in figs.items()}
    summary = {name: {m: round(statistics.fmean(t[name][m] for t in per_topic.values()), 3)
                      for m in ("precision", "recall", "recall_grade2", "share_mae")}
               for name in ("trend", "keywords")}
    print(f"{args.split}: {len(rows)} topics over {len(ids)} papers (estimates over the "
          "collection; on topic = graded 1 or 2)")
    print("| topic | members | precision | recall | recall (2) | share MAE | keywords P / R |")
    print("|---|---|---|---|---|---|---|")
    for topic, t in per_topic.items():
        m, k = t["trend"], t["keywords"]
        print(f"| {topic} | {m['members']} (est. {m['on_topic_est']:.0f} on topic) | "
              f"{m['precision']} | {m['recall']} | {m['recall_grade2']} | {m['share_mae']} | "
              f"{k['precision']} / {k['recall']} |")
    for name, s in summary.items():
        print(f"mean {name}: precision {s['precision']}, recall {s['recall']}, recall of grade "
              f"2 {s['recall_grade2']}, yearly share MAE {s['share_mae']}")
    wrong = {t: int(mb.members(mb.membership(feats[t], weights), cut=cut,
                               topic_cut=topic_cut).sum()) for t in off}
    print(f"off-domain topics: {sum(n > 0 for n in wrong.values())} of {len(off)} have a "
          f"member ({sum(wrong.values())} papers in all): {wrong}")
    figures = {"topics": len(rows), "papers": len(ids), "weights": list(weights), "cut": cut,
               "topic_cut": topic_cut,
               "mean": summary, "per_topic": per_topic,
               "off_domain": {"topics": len(off), "with_members": sum(n > 0 for n in
                                                                      wrong.values()),
                              "members": sum(wrong.values()), "per_topic": wrong}}
    print(write_results("trend_eval", args.split, figures).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
