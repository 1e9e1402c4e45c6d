"""The natural questions (evals/natural/questions.jsonl) through the whole offline pipeline.

    python bench/natural.py [--split dev] [--n N] [--kinds lookup,absent]   # dev: tune
    python bench/natural.py --split test       # the test figures, once (bench/report.py)

Questions written by helpers who saw only abstracts (evals/natural/README.md), over two
collections of fit-venue papers in bench/stores: ``ml-large`` (ICLR 2017-18, CoRL 2022-23,
NeurIPS 2018) and ``ml-theory`` (COLT 2011-24, UAI 2019-24; `python
evals/natural/make_batches.py --ingest bench/stores`). Each question is dev or test by its
paper(s), through the one registry (evals/splits/natural.json). Every question goes through
``answer()`` with the built-in extractive answerer, as ``assistant ask`` runs it, and is scored
by what a reader sees: the outcome, whether the answer is confident or hedged ("the closest
match is ..."), and the paper the text cites first.

- lookup: right paper answered first (and confidently); a wrong paper answered first (hedged or
  not); "nothing here is about it" while the right paper is cited first among the closest. The
  right paper: the labelled one, or another entry of it in the collection that the answer names
  as its version (a submission and its publication, search/versions.py)
- absent (the paper is held out of the store): answered confidently; answered hedged
- fact: the expected string in the answer, with the right paper cited
- compare: both papers cited; a paper that is neither cited (an answered comparison)
- followup: the second turn (which refers back) answered from the right paper, first; also
  among those whose first turn was answered from the right paper (``right_after_right``: what
  the follow-up itself did), and split by the second turn's language (``@zh-turn``)
- zh / zh-absent / zh-fact / zh-survey: as lookup / absent / fact / survey, for questions written
  in Chinese (a follow-up's second turn may be Chinese too)
- survey: recall and precision of the papers the answer lists against the helper's labels of a
  40-paper pool (evals/natural/surveys.jsonl), where labelled; ``..._with_less_sure``: of
  those and the papers it names after them as less sure, together; ``recall_search_k10``:
  what plain ``search --k 10`` finds (English surveys), the recall a list should not fall below
- off-domain: SciFact's claims asked of each ML collection, and ML lookups asked of ``bio``:
  refused (or at least not answered)

A third collection, ``bio`` (SciFact's biomedical abstracts, evals/natural/make_bio.py), holds
questions of another field written the same way (evals/natural/bio.jsonl). Its figures are
reported on their own (``lookup@bio``, ...), never inside the ML ones (the issue's bars are
over the two ML collections), with their own latency.

Writes bench/results/natural.json (test) or natural-dev.json (dev), with every case's outcome
in ``cases`` so a figure can be traced to its questions.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from report import split_option, write_results  # noqa: E402

from assistant.answer.extractive import ExtractiveAnswerer  # noqa: E402
from assistant.answer.pipeline import answer  # noqa: E402
from assistant.citations import cited_numbers  # noqa: E402
from assistant.evaluation.beir import load_queries  # noqa: E402
from assistant.evaluation.metrics import percentile  # noqa: E402
from assistant.evaluation.suite import fact_found  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402
from assistant.textutil import has_cjk  # noqa: E402

QUESTIONS = ROOT / "evals" / "natural" / "questions.jsonl"
BIO = ROOT / "evals" / "natural" / "bio.jsonl"
SURVEYS = ROOT / "evals" / "natural" / "surveys.jsonl"
SPLITS = ROOT / "evals" / "splits" / "natural.json"
SCIFACT_SPLITS = ROOT / "evals" / "splits" / "scifact-train.json"
SHARED = ROOT.parent / "shared"
COLLECTIONS = ("ml-large", "ml-theory")
OTHER = ("bio",)  # reported on its own


def load(split: str, kinds: set[str] | None = None,
         collections: tuple[str, ...] = COLLECTIONS) -> list[dict[str, Any]]:
    """The questions of ``split`` (of ``kinds``), over ``collections``: the ML ones unless
    asked (every other script that reads them fits or measures on those alone)."""
    part = set(json.loads(SPLITS.read_text())[split])
    lines = QUESTIONS.read_text().splitlines()
    if "bio" in collections and BIO.exists():
        lines += BIO.read_text().splitlines()
    out = [q for q in map(json.loads, lines)
           if q["id"] in part and (not kinds or q["kind"] in kinds)
           and q["kind"] not in ("survey", "zh-survey") and q["collection"] in collections]
    off = QUESTIONS.with_name("offdomain.jsonl")
    if off.exists() and (not kinds or "off-domain" in kinds):
        out += [{**q, "collection": c} for q in map(json.loads, off.read_text().splitlines())
                if q["id"] in part for c in COLLECTIONS if c in collections]
    if SURVEYS.exists() and (not kinds or kinds & {"survey", "zh-survey"}):
        out += [q for q in map(json.loads, SURVEYS.read_text().splitlines())
                if q["id"] in part and (not kinds or q["kind"] in kinds)
                and q["collection"] in collections]
    return out


def cited_order(ans: Any) -> list[str]:
    """The papers the text cites, in order of first use."""
    by_n = {c.n: c.paper.paper_id for c in ans.citations}
    return list(dict.fromkeys(by_n[n] for n in cited_numbers(ans.text) if n in by_n))


def confident(ans: Any) -> bool:
    """``confident`` as the answer says it (before it did, a hedged answer opened "The closest
    match is ...")."""
    said = ans.to_dict().get("confident")
    if said is not None:
        return bool(said)
    return ans.outcome == "answered" and not ans.text.lstrip().startswith("The closest match")


def versions_of(ans: Any, paper_id: str | None) -> set[str]:
    """The other entries of one paper in the collection that ``ans`` names as its versions."""
    return {v.paper_id for rp in ans.papers if rp.paper.paper_id == paper_id
            for v in rp.versions}


def score(q: dict[str, Any], answers: list[Any]) -> dict[str, Any]:
    """What a reader sees of one question's answer(s), as flags."""
    last = answers[-1]
    cited = cited_order(last)
    first = cited[0] if cited else None
    want = q.get("papers", [])
    answered = last.outcome == "answered"
    out: dict[str, Any] = {"outcome": last.outcome, "confident": answered and confident(last),
                           "first": first}
    kind = q["kind"]
    if kind in ("lookup", "zh", "fact", "zh-fact", "followup"):
        # the paper, or another entry of it the answer names as its version (a submission and
        # its publication: search/versions.py; the labels name one of the two ids)
        right = first == want[0] or want[0] in versions_of(last, first)
        out["right_first"] = answered and right
        out["right_first_confident"] = out["right_first"] and out["confident"]
        out["wrong_first"] = answered and first is not None and not right
        out["nothing_right_first"] = not answered and right
    if kind in ("fact", "zh-fact"):
        out["fact"] = out["right_first"] and fact_found(q["expect"], last.text)
    if kind == "followup" and q.get("expect"):
        out["fact"] = out["right_first"] and fact_found(q["expect"], last.text)
    if kind == "followup":  # the second turn's own share: after a first turn answered right
        firsts = cited_order(answers[0])
        out["turn_language"] = "zh" if has_cjk(q["turns"][1]) else "en"
        out["right_after_right"] = out["right_first"] if firsts[:1] == want[:1] else None
    if kind in ("absent", "zh-absent", "off-domain"):
        out["answered_confident"] = answered and out["confident"]
        out["answered_hedged"] = answered and not out["confident"]
        out["refused"] = last.outcome == "refused"
    if kind == "compare":
        out["both_cited"] = answered and set(want) <= set(cited)
        out["other_cited"] = answered and bool(set(cited) - set(want))  # a paper of neither side
    if kind in ("survey", "zh-survey") and q.get("labels"):
        on = {pid for pid, lab in q["labels"].items() if lab}
        less = {c.paper.paper_id for c in last.citations if c.less_sure}
        shown = set(cited) if answered else set()
        listed = shown - less  # the list; then its "less sure" papers, with them
        out["recall"] = len(on & listed) / len(on) if on else None
        out["precision"] = len(on & listed) / len(listed) if listed else None
        out["listed"] = len(listed)
        out["recall_with_less_sure"] = len(on & shown) / len(on) if on else None
        out["precision_with_less_sure"] = len(on & shown) / len(shown) if shown else None
        out["listed_with_less_sure"] = len(shown)
    return out


def pct(values: list[float], q: float) -> float | None:
    return round(percentile(values, q), 1) if values else None


def rate(rows: list[dict[str, Any]], key: str) -> float | None:
    vals = [r[key] for r in rows if r.get(key) is not None]
    return round(sum(map(float, vals)) / len(vals), 3) if vals else None


FIGURES = {
    "lookup": ("right_first", "right_first_confident", "wrong_first", "nothing_right_first"),
    "zh": ("right_first", "right_first_confident", "wrong_first", "nothing_right_first"),
    "fact": ("fact", "right_first", "wrong_first"),
    "zh-fact": ("fact", "right_first", "wrong_first"),
    "followup": ("right_first", "wrong_first", "nothing_right_first", "fact",
                 "right_after_right"),
    "absent": ("answered_confident", "answered_hedged", "refused"),
    "zh-absent": ("answered_confident", "answered_hedged"),
    "off-domain": ("refused", "answered_confident", "answered_hedged"),
    "compare": ("both_cited", "other_cited"),
    "survey": ("recall", "precision", "listed", "recall_with_less_sure",
               "precision_with_less_sure", "listed_with_less_sure", "recall_search_k10"),
    "zh-survey": ("recall", "precision", "listed", "recall_with_less_sure",
                  "precision_with_less_sure", "listed_with_less_sure"),
}


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_kind[f"{r['kind']}@{r['collection']}"].append(r)
        if r["collection"] in OTHER:  # another field: on its own, never in the ML figures
            if r.get("turn_language"):
                by_kind[f"{r['kind']}@{r['collection']}-{r['turn_language']}-turn"].append(r)
            continue
        by_kind[r["kind"]].append(r)
        if r.get("turn_language"):  # a follow-up whose second turn is Chinese, or English
            by_kind[f"{r['kind']}@{r['turn_language']}-turn"].append(r)
    for key, group in sorted(by_kind.items()):
        kind = key.split("@")[0]
        out[key] = {"n": len(group), **{f: rate(group, f) for f in FIGURES.get(kind, ())}}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--kinds", default="", help="comma-separated kinds (default: all)")
    ap.add_argument("--n", type=int, default=0, help="at most N questions per kind (0: all)")
    ap.add_argument("--off", type=int, default=60, help="SciFact claims asked per collection")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--collections", default=",".join(COLLECTIONS + OTHER),
                    help="comma-separated collections to ask (default: all)")
    ap.add_argument("--quiet", action="store_true")
    split_option(ap)
    args = ap.parse_args()
    kinds = set(args.kinds.split(",")) if args.kinds else None
    rng = random.Random(args.seed)
    asked = [c for c in args.collections.split(",") if c]
    questions = load(args.split, kinds, tuple(asked))
    if args.n:
        by: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for q in questions:
            by[q["kind"]].append(q)
        questions = [q for group in by.values() for q in
                     rng.sample(group, min(args.n, len(group)))]
    if not kinds or "off-domain" in kinds:  # SciFact claims of this part, off-domain here
        claims = load_queries(SHARED / "bench" / "scifact" / "queries_train.jsonl")
        part = [c for c in json.loads(SCIFACT_SPLITS.read_text())[args.split] if c in claims]
        for coll in (c for c in COLLECTIONS if c in asked):
            for c in rng.sample(part, min(args.off, len(part))):
                questions.append({"id": f"scifact-{c}@{coll}", "collection": coll,
                                  "kind": "off-domain", "question": claims[c]})
        if "bio" in asked:  # ML lookups of this part, off-domain in a biomedical collection
            ml = load(args.split, {"lookup"})
            for q in rng.sample(ml, min(args.off, len(ml))):
                questions.append({"id": f"{q['id']}@bio", "collection": "bio",
                                  "kind": "off-domain", "question": q["question"]})
    emb = LocalEmbedder()
    retrievers = {c: Retriever(store=PaperStore(collection=c, embedder=emb, path=args.stores))
                  for c in asked}
    answerer = ExtractiveAnswerer(embedder=emb)
    rows: list[dict[str, Any]] = []
    latencies: dict[bool, list[float]] = {True: [], False: []}  # by: another field?
    t_all = time.perf_counter()
    for i, q in enumerate(questions, 1):
        retr = retrievers[q["collection"]]
        turns = q.get("turns") or [q["question"]]
        history: list[tuple[str, str]] = []
        answers = []
        for turn in turns:
            t = time.perf_counter()
            ans = answer(turn, retriever=retr, answerer=answerer, history=history, ground=False)
            latencies[q["collection"] in OTHER].append((time.perf_counter() - t) * 1000)
            history.append((turn, ans.text))
            answers.append(ans)
        row = {"id": q["id"], "kind": q["kind"], "collection": q["collection"],
               **score(q, answers)}
        if q["kind"] == "survey" and q.get("labels"):  # what plain `search --k 10` finds
            on = {pid for pid, lab in q["labels"].items() if lab}
            found = {rp.paper.paper_id for rp in retr.search(q["question"], k=10).papers}
            row["recall_search_k10"] = len(on & found) / len(on) if on else None
        rows.append(row)
        if not args.quiet and i % 50 == 0:
            print(f"{i}/{len(questions)} questions, {time.perf_counter() - t_all:.0f} s",
                  file=sys.stderr, flush=True)
    figures = {"split": args.split, "questions": len(rows), "by_kind": summary(rows),
               "latency_ms_p50": pct(latencies[False], 0.5),
               "latency_ms_p95": pct(latencies[False], 0.95),
               "bio_latency_ms_p50": pct(latencies[True], 0.5),
               "bio_latency_ms_p95": pct(latencies[True], 0.95),
               "cases": rows}
    print(f"## natural questions, {args.split} ({len(rows)} questions)\n")
    print("| kind | n | figures |\n|---|---|---|")
    for key, vals in figures["by_kind"].items():
        shown = ", ".join(f"{k} {v}" for k, v in vals.items() if k != "n")
        print(f"| {key} | {vals['n']} | {shown} |")
    print(f"\nlatency p50 {figures['latency_ms_p50']} ms, p95 {figures['latency_ms_p95']} ms"
          f" (bio: {figures['bio_latency_ms_p50']} / {figures['bio_latency_ms_p95']} ms)")
    print(write_results("natural", args.split, figures).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
