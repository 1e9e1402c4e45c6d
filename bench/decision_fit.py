"""Fit the decision's constants (assistant/judge/evidence.py, answerability.py) on dev questions.

    python bench/decision_fit.py collect        # retrieval + verifier per dev question (cached)
    python bench/decision_fit.py fit            # fit, print the constants and their dev figures

Reads dev questions only (``--split test`` is refused): the natural questions' dev part
(evals/natural/questions.jsonl through evals/splits/natural.json) over ml-large and ml-theory
in bench/stores, and SciFact's dev claims over beir-scifact. Kinds of rows:

- in store: a lookup, fact, follow-up first turn or comparison side's paper is among the
  candidates: label 1 for it, 0 for the others;
- near miss: the same questions with their paper dropped from what retrieval returned, the
  absent questions (their paper is held out of the store): every candidate 0;
- off-domain: SciFact's dev claims asked of the ML collections and the ML questions asked of
  SciFact: every candidate 0, and the question off-domain.

``collect`` keeps, per question, the top ``CANDIDATES`` papers with their retrieval rank, fused
score, dense and lexical scores, the verifier's probability and the per-paper term coverage;
``fit`` fits the per-paper model (evidence.py: does this paper answer the question?) and the
question-level cut-offs from those rows, and prints what to paste.
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

import natural  # noqa: E402

from assistant.evaluation.beir import load_qrels, load_queries  # noqa: E402
from assistant.evaluation.metrics import fit_logistic  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.judge import answerability as ans  # noqa: E402
from assistant.judge import evidence, relevance  # noqa: E402
from assistant.judge.verifier import passage, shared  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402

SHARED = ROOT.parent / "shared"
CACHE = ROOT / "bench" / "stores" / "decision-dev.cache.jsonl"
SURVEY_CACHE = ROOT / "bench" / "stores" / "surveys-dev.cache.jsonl"
IDS = ROOT / "bench" / "stores" / "decision-dev.ids.json"
CHUNKS: dict[str, int] = {}  # chunks per store (answerability.oov_weight), filled by fit
CANDIDATES = evidence.CANDIDATES
SMALL, SMALL_COLLECTION = 19, "fit-small"  # a small store, as the bundled list is
ENGLISH = ("lookup", "fact", "followup", "absent", "compare")


def questions() -> list[dict[str, Any]]:
    out = []
    for q in natural.load("dev", set(ENGLISH), natural.COLLECTIONS + natural.OTHER):
        text = q["turns"][0] if q["kind"] == "followup" else q["question"]
        if q["kind"] == "compare":
            continue  # a comparison is decided side by side (its sides' own searches)
        out.append({"id": q["id"], "store": q["collection"], "q": text,
                    "want": q["papers"][0] if q["kind"] != "absent" else None,
                    "group": "absent" if q["kind"] == "absent" else "in store"})
    return out


def small_store(stores: Path, large: Retriever, items: list[dict[str, Any]],
                rng: random.Random) -> tuple[PaperStore, list[dict[str, Any]]]:
    """SMALL papers of ml-large (dev, each with a natural lookup) in a store of their own, and
    the rows asked of it: their questions in store, 100 other dev questions absent."""
    on_large = [i for i in items if i["store"] == "ml-large" and i["group"] == "in store"]
    ids = sorted({i["want"] for i in on_large})
    chosen = set(rng.sample(ids, SMALL))
    papers = large.store.papers(sorted(chosen))
    store = PaperStore(collection=SMALL_COLLECTION, embedder=large.store.embedder,
                       path=stores / "calib-small", create=True)
    if {p.paper_id for p in store.papers()} != chosen:
        store.ingest(papers, source="decision_fit:small")
    out = [{**i, "id": f"{i['id']}@small", "store": "small"}
           for i in on_large if i["want"] in chosen]
    others = [i for i in items if i["store"] in natural.COLLECTIONS and i.get("want") not in chosen]
    out += [{**i, "id": f"{i['id']}@small", "store": "small", "want": None, "group": "absent"}
            for i in rng.sample(others, 100)]
    return store, out


def candidates(retr: Retriever, stats: Any, q: str, k: int) -> list[dict[str, Any]]:
    papers = retr.search(q, k=k).papers
    probs = shared().score(q, [passage(rp.paper, q) for rp in papers])
    terms = evidence.term_features(q, [rp.paper for rp in papers], stats)
    return [{"pid": rp.paper.paper_id, "rank": rp.rank, "fused": rp.score,
             "dense": rp.dense or 0.0, "lexical": rp.lexical or 0.0, "ver": v, **tf}
            for rp, v, tf in zip(papers, probs, terms, strict=True)]


def collect(args: argparse.Namespace) -> int:
    emb = LocalEmbedder()
    stores = {c: Retriever(store=PaperStore(collection=c, embedder=emb, path=args.stores))
              for c in ("ml-large", "ml-theory", "beir-scifact", *natural.OTHER)}
    stats = {c: ans.TermStats(r.index()) for c, r in stores.items()}
    rng = random.Random(5)
    items = questions()
    # a small collection (as the bundled list is): SMALL dev papers of ml-large that natural
    # lookups ask about, asked those questions and ML questions it has no paper for
    small, small_items = small_store(args.stores, stores["ml-large"], items, rng)
    stores["small"] = Retriever(store=small)
    stats["small"] = ans.TermStats(stores["small"].index())
    items += small_items
    claims = load_queries(SHARED / "bench" / "scifact" / "queries_train.jsonl")
    qrels = load_qrels(SHARED / "bench" / "scifact" / "qrels_train_cited.tsv")
    sci_dev = [c for c in json.loads((ROOT / "evals" / "splits" / "scifact-train.json")
                                     .read_text())["dev"] if c in claims and c in qrels]
    for c in sci_dev:
        items.append({"id": f"claim-{c}", "store": "beir-scifact", "q": claims[c],
                      "want": sorted(qrels[c])[0], "wants": sorted(qrels[c]),
                      "group": "in store"})
    for coll in ("ml-large", "ml-theory", "small"):
        for c in rng.sample(sci_dev, min(80, len(sci_dev))):
            items.append({"id": f"claim-{c}@{coll}", "store": coll, "q": claims[c],
                          "want": None, "group": "off-domain"})
    ml = [i for i in items if i["store"] in ("ml-large", "ml-theory") and i["group"] == "in store"]
    for i in rng.sample(ml, min(160, len(ml))):
        items.append({**i, "id": f"{i['id']}@scifact", "store": "beir-scifact", "want": None,
                      "group": "off-domain"})
    # another field (bio): its questions in its own store (above), ML lookups asked of it and
    # its questions asked of the ML collections, off-domain both ways (a generator of its own,
    # so the ML rows stay the ones drawn before it was added)
    other = random.Random(7)
    for coll in natural.OTHER:
        mine = [i for i in items if i["store"] == coll and i["group"] == "in store"]
        for i in other.sample(ml, min(120, len(ml))):
            items.append({**i, "id": f"{i['id']}@{coll}", "store": coll, "want": None,
                          "group": "off-domain"})
        for ml_coll in natural.COLLECTIONS:
            for i in other.sample(mine, min(60, len(mine))):
                items.append({**i, "id": f"{i['id']}@{ml_coll}", "store": ml_coll,
                              "want": None, "group": "off-domain"})
    IDS.write_text(json.dumps([i["id"] for i in items]))  # what fit reads of the cache
    done = set()
    if CACHE.exists() and args.fresh:
        CACHE.unlink()
    if CACHE.exists():
        done = {json.loads(line)["id"] for line in CACHE.read_text().splitlines()}
    with CACHE.open("a") as fh:
        for n, item in enumerate(items, 1):
            if item["id"] in done:
                continue
            retr = stores[item["store"]]
            rows = candidates(retr, stats[item["store"]], item["q"], CANDIDATES + 1)
            f = ans.features(item["q"], [r for r in retr.search(item["q"], k=6).papers],
                             stats[item["store"]], [r["ver"] for r in rows[:6]])
            fh.write(json.dumps({**item, "rows": rows, "qf": f}) + "\n")
            if n % 100 == 0:
                print(f"{n}/{len(items)}", file=sys.stderr, flush=True)
    return 0


def collect_surveys(args: argparse.Namespace) -> int:
    """The dev surveys' candidates as a survey searches them (SURVEY_K, spread by MMR)."""
    from assistant.answer.pipeline import SURVEY_K

    emb = LocalEmbedder()
    stores = {c: Retriever(store=PaperStore(collection=c, embedder=emb, path=args.stores))
              for c in ("ml-large", "ml-theory")}
    stats = {c: ans.TermStats(r.index()) for c, r in stores.items()}
    dev = set(json.loads((ROOT / "evals" / "splits" / "natural.json").read_text())["dev"])
    with SURVEY_CACHE.open("w") as fh:
        for line in (ROOT / "evals" / "natural" / "surveys.jsonl").read_text().splitlines():
            q = json.loads(line)
            if q["id"] not in dev or q["kind"] != "survey":  # English (zh-survey: issue 25)
                continue
            retr = stores[q["collection"]]
            papers = retr.search(q["question"], k=SURVEY_K, diversity=retr.mmr_lambda).papers
            plain = [rp.paper.paper_id for rp in retr.search(q["question"], k=10).papers]
            probs = shared().score(q["question"],
                                   [passage(rp.paper, q["question"]) for rp in papers])
            terms = evidence.term_features(q["question"], [rp.paper for rp in papers],
                                           stats[q["collection"]])
            rows = [{"pid": rp.paper.paper_id, "rank": rp.rank, "fused": rp.score,
                     "dense": rp.dense or 0.0, "lexical": rp.lexical or 0.0, "ver": v, **tf}
                    for rp, v, tf in zip(papers, probs, terms, strict=True)]
            fh.write(json.dumps({"id": q["id"], "labels": q["labels"], "rows": rows,
                                 "search10": plain}) + "\n")
    return 0


def fit_surveys(w: tuple[float, ...]) -> None:
    """Survey membership: recall and precision against the labels, by cut-off, for the
    estimate and for the verifier alone; and what `search --k 10` finds."""
    items = [json.loads(line) for line in SURVEY_CACHE.read_text().splitlines()]
    s10 = []
    for it in items:
        on = {p for p, v in it["labels"].items() if v}
        s10.append(len(on & set(it["search10"])) / len(on) if on else 0.0)
    print(f"\nsurveys (dev, {len(items)}): search --k 10 recall {np.mean(s10):.3f}")
    for name in ("estimate", "verifier"):
        for t in (0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5):
            rec, prec, n = [], [], []
            for it in items:
                on = {p for p, v in it["labels"].items() if v}
                p = (evidence.probabilities(it["rows"], w) if name == "estimate"
                     else [r["ver"] for r in it["rows"]])
                best = int(np.argmax(p))
                listed = {r["pid"] for r, v in zip(it["rows"], p, strict=True) if v >= t}
                listed.add(it["rows"][best]["pid"])
                rec.append(len(on & listed) / len(on) if on else 0.0)
                prec.append(len(on & listed) / len(listed))
                n.append(len(listed))
            print(f"  {name:<9} >= {t:.2f}: recall {np.mean(rec):.3f} precision "
                  f"{np.mean(prec):.3f} listed {np.mean(n):.1f}")
    print(f"  the list (estimate >= {relevance.V_LIST}) and its less sure papers (estimate >= "
          f"t, at most {relevance.MAYBE_MAX}): V_MAYBE is the highest t whose recall is above "
          "search --k 10's")
    for t in (0.02, 0.03, 0.04, 0.05, 0.07, 0.1):
        rec, prec, n = [], [], []
        for it in items:
            on = {p for p, v in it["labels"].items() if v}
            ranked = sorted(zip(evidence.probabilities(it["rows"], w), it["rows"],
                                strict=True), key=lambda x: -x[0])
            sure = {r["pid"] for v, r in ranked if v >= relevance.V_LIST} | {ranked[0][1]["pid"]}
            less = [r["pid"] for v, r in ranked if v >= t and r["pid"] not in sure]
            listed = sure | set(less[: relevance.MAYBE_MAX])
            rec.append(len(on & listed) / len(on) if on else 0.0)
            prec.append(len(on & listed) / len(listed))
            n.append(len(listed))
        print(f"  with less sure >= {t:.2f}: recall {np.mean(rec):.3f} precision "
              f"{np.mean(prec):.3f} listed {np.mean(n):.1f}")


def expand(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each in-store question once as it is and once with its paper dropped (a near miss)."""
    out = []
    for it in items:
        wants = set(it.get("wants") or ([it["want"]] if it["want"] else []))
        rows = it["rows"]
        if it["group"] == "in store":
            out.append({**it, "rows": rows[:CANDIDATES], "wants": wants})
            out.append({**it, "group": "paper dropped", "wants": set(),
                        "rows": [r for r in rows if r["pid"] not in wants][:CANDIDATES]})
        else:
            out.append({**it, "rows": rows[:CANDIDATES], "wants": set()})
    return out


def fit(args: argparse.Namespace) -> int:
    emb = LocalEmbedder()
    for name, coll, path in (("ml-large", "ml-large", args.stores),
                             ("ml-theory", "ml-theory", args.stores),
                             ("beir-scifact", "beir-scifact", args.stores),
                             *((c, c, args.stores) for c in natural.OTHER),
                             ("small", SMALL_COLLECTION, args.stores / "calib-small")):
        retr = Retriever(store=PaperStore(collection=coll, embedder=emb, path=path))
        CHUNKS[name] = ans.TermStats(retr.index()).n
    wanted = set(json.loads(IDS.read_text()))
    items = expand([row for row in map(json.loads, CACHE.read_text().splitlines())
                    if row["id"] in wanted])
    x, y = [], []
    for it in items:
        feats = evidence.features([r for r in it["rows"]])
        for r, f in zip(it["rows"], feats, strict=True):
            x.append(f)
            y.append(1.0 if r["pid"] in it["wants"] else 0.0)
    xa, ya = np.array(x), np.array(y)
    w = evidence.W_PAPER if args.shipped else fit_logistic(xa, ya, steps=8000, lr=0.3, l2=1e-3)
    print("W_PAPER =", tuple(round(float(v), 3) for v in w), " # features", evidence.FEATURES)
    evaluate(items, tuple(float(v) for v in w))
    fit_outcomes(items, tuple(float(v) for v in w), shipped=args.shipped)
    if SURVEY_CACHE.exists():
        fit_surveys(tuple(float(v) for v in w))
    return 0


def question_features(it: dict[str, Any], w: tuple[float, ...]) -> list[float]:
    """answerability.FEATURES for a cached question, as answerability.features computes them
    at run time (the term features read the paper with the highest estimate)."""
    rows = it["rows"][:ans_over()]
    p = evidence.probabilities(rows, w)
    b = int(np.argmax(p))
    dense = [r["dense"] for r in rows]
    lex = [r["lexical"] for r in rows]
    ranked = sorted(p, reverse=True)
    qf = it["qf"]
    f = {"wcov": rows[b]["wcov"], "oov": qf["oov"] * ans.oov_weight(CHUNKS[it["store"]]),
         "dense": max(dense),
         "dense_gap": max(dense) - (sorted(dense, reverse=True)[1] if len(dense) > 1 else 0.0),
         "agree": 1.0 if int(np.argmax(dense)) == int(np.argmax(lex)) else 0.0,
         "names_found": rows[b]["names"] if qf["has_names"] else 1.0,
         "has_names": qf["has_names"], "p_top": ranked[0],
         "p_gap": ranked[0] - ranked[1] if len(ranked) > 1 else ranked[0]}
    return [f[k] for k in ans.FEATURES]


def ans_over() -> int:
    from assistant.judge.decision import DECIDE_OVER

    return DECIDE_OVER


def fit_outcomes(items: list[dict[str, Any]], w: tuple[float, ...], *,
                 shipped: bool = False) -> None:
    """The two question-level models (answerability.W_DOMAIN, W_ANSWER) and their cut-offs
    (``shipped``: the weights the package ships, measured on the same rows)."""
    keep = [it for it in items if it["rows"]]
    x = np.array([question_features(it, w) for it in keep])
    group = np.array([it["group"] for it in keep])
    sci = np.array([it["store"] == "beir-scifact" for it in keep])
    right = np.array([bool(it["rows"]) and it["rows"][int(np.argmax(
        evidence.probabilities(it["rows"][:ans_over()], w)))]["pid"] in it["wants"]
        for it in keep])
    inside = group != "off-domain"
    answerable = group == "in store"
    if shipped:
        wd, wa = np.array(ans.W_DOMAIN), np.array(ans.W_ANSWER)
    else:
        wd = fit_logistic(x, inside.astype(float), steps=6000, lr=0.3, l2=1e-3)
        wa = fit_logistic(x[inside], answerable[inside].astype(float), steps=6000, lr=0.3,
                          l2=1e-3)
    pd_, pa = _prob(wd, x), _prob(wa, x)
    print("\nW_DOMAIN =", tuple(round(float(v), 3) for v in wd))
    print("W_ANSWER =", tuple(round(float(v), 3) for v in wa), " # features", ans.FEATURES)
    print("\nT_DOMAIN | in-domain kept | off-domain refused")
    for t in (0.2, 0.3, 0.4, 0.5, 0.6, 0.7):
        print(f"  {t:.2f}   | {np.mean(pd_[inside] >= t):.3f} | {np.mean(pd_[~inside] < t):.3f}")
    other = np.array([it["store"] in natural.OTHER for it in keep])
    for name, part in (("ML", ~sci & ~other), ("another field (bio)", other)):
        print(f"\nT (on p_answer) | {name} lookups: right answered, wrong answered, near miss "
              "over the right one | absent answered | dropped answered | SciFact claims right "
              "answered")
        for t in (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8, 0.83):
            a = pa >= t
            lk = part & answerable
            print(f"  {t:.2f} | {np.mean((a & right)[lk]):.3f} {np.mean((a & ~right)[lk]):.3f} "
                  f"{np.mean((~a & right)[lk]):.3f} | "
                  f"{np.mean(a[part & (group == 'absent')]):.3f} | "
                  f"{np.mean(a[part & (group == 'paper dropped')]):.3f} | "
                  f"{np.mean((a & right)[sci & answerable]):.3f}")


def field_of(store: str) -> str:
    return "SciFact" if store == "beir-scifact" else "bio" if store in natural.OTHER else "ML"


def _prob(w: Any, x: Any) -> Any:
    return 1 / (1 + np.exp(-(x @ np.asarray(w[:-1]) + w[-1])))


def evaluate(items: list[dict[str, Any]], w: tuple[float, ...]) -> None:
    """The per-question outcome the cut-offs would give, on dev, for a grid of cut-offs."""
    best: dict[str, list[tuple[float, bool, bool]]] = {}
    for it in items:
        if not it["rows"]:
            continue
        p = evidence.probabilities(it["rows"], w)
        top = int(np.argmax(p))
        in_top = any(r["pid"] in it["wants"] for r in it["rows"])
        right = it["rows"][top]["pid"] in it["wants"]
        best.setdefault(f"{field_of(it['store'])}:{it['group']}", []).append(
            (float(p[top]), right, in_top))
    for key, vals in sorted(best.items()):
        arr = np.array([v[0] for v in vals])
        right = np.array([v[1] for v in vals])
        print(f"{key:<28} n {len(vals):4d}  right-at-top {right.mean():.3f}  "
              f"P_top median {np.median(arr):.3f}")
    print("\ncut-off  | in-store: right answered / wrong answered / right not answered | "
          "dropped answered | absent answered | off answered")
    def share(group: str, cond: Any, t: float, field: str = "ML") -> float:
        vals = best.get(f"{field}:{group}", [])
        return float(np.mean([cond(v, t) for v in vals])) if vals else float("nan")

    def answered_right(v: tuple[float, bool, bool], t: float) -> bool:
        return v[0] >= t and v[1]

    def answered_wrong(v: tuple[float, bool, bool], t: float) -> bool:
        return v[0] >= t and not v[1]

    def held_right(v: tuple[float, bool, bool], t: float) -> bool:
        return v[0] < t and v[1]

    def answered(v: tuple[float, bool, bool], t: float) -> bool:
        return v[0] >= t

    for t in (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7):
        print(f"{t:5.2f}    | {share('in store', answered_right, t):.3f} / "
              f"{share('in store', answered_wrong, t):.3f} / "
              f"{share('in store', held_right, t):.3f} | "
              f"{share('paper dropped', answered, t):.3f} | "
              f"{share('absent', answered, t):.3f} | {share('off-domain', answered, t):.3f}"
              f"  sci in-store right {share('in store', answered_right, t, 'SciFact'):.3f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("collect", "surveys", "fit"))
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--shipped", action="store_true",
                    help="fit: measure the shipped weights on the cached rows, fit nothing")
    ap.add_argument("--split", choices=("dev",), default="dev",
                    help="dev only: the decision is fitted on dev and never on test")
    args = ap.parse_args()
    return {"collect": collect, "surveys": collect_surveys, "fit": fit}[args.what](args)


if __name__ == "__main__":
    raise SystemExit(main())
