"""Chinese questions offline, searched in their English translation: the decision's cut-offs.

    python bench/answerability_zh.py [--fit]       # dev: score the shipped cut-offs (or fit)
    python bench/answerability_zh.py --split test  # the test figures, once (bench/report.py)

A Chinese question is translated offline into the collection's English words
(assistant/search/translate.py) and decided by the English decision's features and weights
(assistant/judge/answerability.py), read from a bag of glossed terms rather than a sentence:
so it has cut-offs of its own (``answerability.TRANSLATED``). Questions (the natural questions'
part, evals/natural/, over ml-large and ml-theory in bench/stores):

- answerable: the Chinese lookups (kind ``zh``), their paper in the store;
- near miss: the absent Chinese lookups (``zh-absent``: their paper held out of the store), and
  every Chinese lookup again with its paper dropped from what retrieval returned;
- off-domain: the Chinese questions of evals/natural/offdomain.jsonl, asked of both collections;
- and the same over a store of 19 papers (as small as the bundled list: most words of a question
  are missing from so few abstracts), the papers of 19 Chinese lookups of the part (seed 25):
  their lookups answerable, 40 other lookups near misses, the off-domain questions.

``--fit`` (dev only) chooses, on a grid of 0.01: the domain cut-off in the middle of the gap between
the dev off-domain questions and the answerable ones (a question about a paper here is never
refused as off-domain; when there is no gap, the highest that refuses none of them), then the
answer cut-off that maximises right-first minus twice wrong-first (answerable rows) minus the near-
miss rows answered, then the sure cut-off as the lowest at which at most 5% of the near-miss rows
are answered confidently; for a list question (the Chinese surveys, kind ``zh-survey``, with the
English surveys' labels) the answer cut-off and the estimate a listed paper needs, with the best
recall at a precision of at least 0.7 (the rule the English V_LIST was chosen by). It prints the
``Cutoffs`` to paste.
Without ``--fit``
the shipped cut-offs are scored.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import natural  # noqa: E402
from report import check_fit, split_option, write_results  # noqa: E402

from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.judge import answerability as ans  # noqa: E402
from assistant.judge.decision import best_of, decide  # noqa: E402
from assistant.query.form import parse  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402
from assistant.textutil import has_cjk  # noqa: E402

K = 6  # what `ask` searches (answer.pipeline)
SMALL = 19  # papers in the small store (the bundled list has 19)


def small_store(split: str, stores: Path, questions: list[dict[str, Any]],
                retrievers: dict[str, Retriever]) -> tuple[Retriever, list[dict[str, Any]]]:
    """SMALL papers that Chinese lookups of the part ask about, in a store of their own (as
    small as the bundled list), and the questions asked of it: theirs (answerable), 40 other
    lookups of the part (their paper is not there: near misses) and the off-domain ones."""
    rng = random.Random(25)
    lookups = [q for q in questions if q["kind"] == "zh"]
    chosen = rng.sample(lookups, min(SMALL, len(lookups)))
    ids = {q["papers"][0] for q in chosen}
    papers = [p for c, r in retrievers.items()
              for p in r.store.papers(sorted({q["papers"][0] for q in chosen
                                               if q["collection"] == c}))]
    store = PaperStore(collection=f"zh-small-{split}",
                       embedder=retrievers["ml-large"].store.embedder,
                       path=stores / "calib-zh-small", create=True)
    if {p.paper_id for p in store.papers()} != ids:
        store.ingest(papers, source="answerability_zh:small")
    others = rng.sample([q for q in lookups if q["papers"][0] not in ids], 40)
    asked = ([{**q, "collection": "small"} for q in chosen]
             + [{**q, "collection": "small", "kind": "zh-absent"} for q in others]
             + [{**q, "collection": "small"} for q in questions
                if q["kind"] == "off-domain" and q["collection"] == "ml-large"])
    return Retriever(store=store), asked


def rows(split: str, stores: Path) -> list[dict[str, Any]]:
    """One row per (question, variant): its group, p_domain, p_answer, right paper named."""
    emb = LocalEmbedder()
    retrievers = {c: Retriever(store=PaperStore(collection=c, embedder=emb, path=stores))
                  for c in natural.COLLECTIONS}
    questions = [q for q in natural.load(split, {"zh", "zh-absent", "off-domain"})
                 if has_cjk(q["question"])]
    retrievers["small"], on_small = small_store(split, stores, questions, retrievers)
    out = []
    for q in questions + on_small:
        retr = retrievers[q["collection"]]
        english, terms = retr.english(q["question"])
        form = parse(q["question"]).searched_as(english)
        papers = retr.search(terms, k=K + 1, dense_query=english).papers
        want = (q.get("papers") or [""])[0]
        variants = [("answerable" if q["kind"] == "zh" else
                     "near_miss" if q["kind"] == "zh-absent" else "off_domain",
                     papers[:K])]
        if q["kind"] == "zh":
            variants.append(("near_miss", [rp for rp in papers if rp.paper.paper_id != want][:K]))
        for group, found in variants:
            v = decide(form, found, index=retr.index())
            named = best_of([rp.paper.paper_id for rp in found], v.scores)
            out.append({"id": q["id"], "group": group, "store": q["collection"],
                        "p_domain": v.decision.p_domain, "p_answer": v.decision.p_answer,
                        "right": named == want,
                        "dropped": group == "near_miss" and q["kind"] == "zh"})
    return out


def survey_rows(split: str, stores: Path) -> list[dict[str, Any]]:
    """The Chinese surveys searched as a list is (SURVEY_K papers, spread by MMR): the
    decision's p_domain and p_answer, each paper's estimate, and the labels."""
    from assistant.answer.pipeline import SURVEY_K

    emb = LocalEmbedder()
    retrievers = {c: Retriever(store=PaperStore(collection=c, embedder=emb, path=stores))
                  for c in natural.COLLECTIONS}
    out = []
    for q in natural.load(split, {"zh-survey"}):
        retr = retrievers[q["collection"]]
        english, terms = retr.english(q["question"])
        form = parse(q["question"]).searched_as(english)
        papers = retr.search(terms, k=SURVEY_K, diversity=retr.mmr_lambda,
                             dense_query=english).papers
        v = decide(form, papers, index=retr.index())
        out.append({"id": q["id"], "p_domain": v.decision.p_domain,
                    "p_answer": v.decision.p_answer, "estimates": v.scores,
                    "relevant": v.relevance.relevant, "labels": q["labels"]})
    return out


def survey_rates(ss: list[dict[str, Any]], cut: ans.Cutoffs) -> dict[str, float]:
    """Recall and precision of the papers a Chinese survey lists, against its labels (a survey
    not answered lists none: recall 0, precision not counted)."""
    import numpy as np

    rec, prec = [], []
    for s in ss:
        on = {p for p, v in s["labels"].items() if v}
        listed: set[str] = set()
        if s["p_domain"] >= cut.domain and s["p_answer"] >= cut.list_answer and s["estimates"]:
            est = s["estimates"]
            listed = {p for p, v in est.items() if v >= cut.v_list} | {max(est, key=est.get)}
        rec.append(len(on & listed) / len(on) if on else 0.0)
        if listed:
            prec.append(len(on & listed) / len(listed))
    return {"survey_recall": round(float(np.mean(rec)), 3) if rec else 0.0,
            "survey_precision": round(float(np.mean(prec)), 3) if prec else 0.0,
            "surveys": len(ss)}


def rates(rs: list[dict[str, Any]], cut: ans.Cutoffs) -> dict[str, Any]:
    def share(group: str, test: Any) -> float:
        g = [r for r in rs if r["group"] == group]
        return round(sum(map(test, g)) / len(g), 3) if g else 0.0

    def answered(r: dict[str, Any]) -> bool:
        return bool(r["p_domain"] >= cut.domain and r["p_answer"] >= cut.answer)

    return {
        "n": {g: sum(r["group"] == g for r in rs) for g in ("answerable", "near_miss",
                                                             "off_domain")},
        "answerable_right_first": share("answerable", lambda r: answered(r) and r["right"]),
        "answerable_right_first_confident": share(
            "answerable", lambda r: answered(r) and r["right"] and r["p_answer"] >= cut.sure),
        "answerable_wrong_first": share("answerable", lambda r: answered(r) and not r["right"]),
        "answerable_refused": share("answerable", lambda r: r["p_domain"] < cut.domain),
        "near_miss_answered": share("near_miss", answered),
        "near_miss_answered_confident": share(
            "near_miss", lambda r: answered(r) and r["p_answer"] >= cut.sure),
        "off_domain_refused": share("off_domain", lambda r: r["p_domain"] < cut.domain),
    }


def fit(rs: list[dict[str, Any]], ss: list[dict[str, Any]]) -> ans.Cutoffs:
    grid = [i / 100 for i in range(1, 100)]
    answerable = [r for r in rs if r["group"] == "answerable"]
    highest = max(t for t in grid if not any(r["p_domain"] < t for r in answerable))
    off = [r["p_domain"] for r in rs if r["group"] == "off_domain"]
    # the middle of the gap between the off-domain questions and the answerable ones (the
    # top of it, refusing none of these, was at the edge of what dev held: a Chinese lookup
    # of another set scored just under it and was refused as off-domain)
    domain = round((max(off) + highest) / 2, 2) if off and max(off) < highest else highest

    def worth(t: float) -> float:
        f = rates(rs, ans.Cutoffs(domain, t, 1.0, 1.0, 1.0))
        return (f["answerable_right_first"] - 2 * f["answerable_wrong_first"]
                - f["near_miss_answered"])

    answer = max(grid, key=lambda t: (worth(t), -t))
    sure = min(t for t in grid if t >= answer and rates(
        rs, ans.Cutoffs(domain, answer, t, 1.0, 1.0))["near_miss_answered_confident"] <= 0.05)
    # a list: the answer cut-off and the estimate a listed paper needs, as the English V_LIST
    # was chosen: the best recall at a precision of at least 0.7 (ties: the higher cut-offs)
    best = (-1.0, 0.0, 0.0)
    for la in grid[::2]:
        for vl in grid[::2]:
            f = survey_rates(ss, ans.Cutoffs(domain, answer, sure, la, vl))
            if f["survey_precision"] >= 0.7:
                best = max(best, (f["survey_recall"], la, vl))
    return ans.Cutoffs(domain, answer, sure, best[1], best[2])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--fit", action="store_true", help="choose the cut-offs (dev only)")
    split_option(ap)
    args = ap.parse_args()
    check_fit(ap, args)
    rs, ss = rows(args.split, args.stores), survey_rows(args.split, args.stores)
    cut = fit(rs, ss) if args.fit else ans.TRANSLATED
    figures = {"cutoffs": asdict(cut), **rates(rs, cut), **survey_rates(ss, cut)}
    for k, v in figures.items():
        print(f"{k:36} {v}")
    if args.fit:
        print(f"\nTRANSLATED = Cutoffs({cut.domain}, {cut.answer}, {cut.sure}, "
              f"{cut.list_answer}, {cut.v_list})")
    print(write_results("answerability_zh", args.split, figures).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
