"""A standalone second turn must never be answered from the previous answer's paper.

    python bench/read_back.py                  # dev: the figures LEANS was chosen by
    python bench/read_back.py --split test     # the test part, once (bench/report.py)

A question that reads as standalone but finds nothing sure is read from the previous answer's
paper when its words point there (answer/pipeline.py ``read_back``): "What's the solver called?"
after an answer about a SAT solver. The natural follow-ups measure what that gains
(bench/natural.py --kinds followup); this measures what it could cost, on two-turn
conversations made from the natural questions of one part (evals/splits/natural.json): a first
turn that is a lookup answered from one paper, then a second turn about something else:

- ``lookup``: another paper's lookup (English, or Chinese written natively);
- ``absent``: a question whose paper is held out of the store (English or Chinese);
- ``off-domain``: a question from another field (evals/natural/offdomain.jsonl).

Over ml-large and ml-theory (bench/stores) and over a 19-paper store, as the bundled list is
(decision_fit.py's ``fit-small``: at 19 papers the previous paper is often among the few a
question weighs). For each: how often the second answer is read back (answered from the first
turn's paper when it is not the one asked about), and for lookups how often it is right first,
beside the same question asked with no history. Read back: answered from a pin to the
previous paper, which is not the one asked about (``read_back``, or a reference the rules
found). Drawn back, any way: answered citing the previous paper first, which is not the one
asked about and which the question asked alone does not cite first (a follow-up's carried
title counts too). Writes bench/results/read_back.json (test) or
read_back-dev.json.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from natural import COLLECTIONS, cited_order, load  # noqa: E402
from report import split_option, write_results  # noqa: E402

from assistant.answer.extractive import ExtractiveAnswerer  # noqa: E402
from assistant.answer.pipeline import answer  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402

PAIRS = 60  # second-turn lookups per large collection (the 19-paper store: each of its own)
SMALL = ("fit-small", "calib-small")  # decision_fit.py's 19-paper store: collection, folder


def conversations(split: str, small_ids: set[str], rng: random.Random
                  ) -> list[dict[str, Any]]:
    qs = load(split, {"lookup", "fact", "zh", "absent", "zh-absent", "off-domain"})
    off = [q for q in qs if q["kind"] == "off-domain" and q["collection"] == COLLECTIONS[0]]
    out: list[dict[str, Any]] = []

    def add(coll: str, firsts: list[dict[str, Any]], second: dict[str, Any], kind: str,
            want: str | None) -> None:
        first = rng.choice([f for f in firsts if f["papers"][0] != want])
        out.append({"collection": coll, "kind": kind, "want": want,
                    "turns": [first["question"], second["question"]]})

    for coll in ("ml-large", "ml-theory"):
        looks = [q for q in qs if q["kind"] == "lookup" and q["collection"] == coll]
        for q in rng.sample(looks, min(PAIRS, len(looks))):
            add(coll, looks, q, "lookup", q["papers"][0])
        for q in qs:
            if q["collection"] != coll:
                continue
            if q["kind"] == "zh":
                add(coll, looks, q, "lookup", q["papers"][0])
            elif q["kind"] in ("absent", "zh-absent"):
                add(coll, looks, q, "absent", None)
        for q in off[:40]:
            add(coll, looks, q, "off-domain", None)
    if small_ids:
        coll = "small"
        ins = [q for q in qs if q["kind"] in ("lookup", "fact") and q["papers"][0] in small_ids]
        others = [q for q in qs if q["kind"] in ("lookup", "absent", "zh", "fact")
                  and q["papers"] and q["papers"][0] not in small_ids]
        if len({q["papers"][0] for q in ins}) > 1:
            for q in ins:
                add(coll, ins, q, "lookup", q["papers"][0])
            for q in rng.sample(others, min(150, len(others))):
                add(coll, ins, q, "absent", None)
            for q in off[:40]:
                add(coll, ins, q, "off-domain", None)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--seed", type=int, default=7)
    split_option(ap)
    args = ap.parse_args()
    emb = LocalEmbedder()
    retrievers = {c: Retriever(store=PaperStore(collection=c, embedder=emb, path=args.stores))
                  for c in ("ml-large", "ml-theory")}
    small_path = args.stores / SMALL[1]
    small_ids: set[str] = set()
    if small_path.exists():
        retrievers["small"] = Retriever(store=PaperStore(collection=SMALL[0], embedder=emb,
                                                         path=small_path))
        small_ids = {p.paper_id for p in retrievers["small"].store.papers()}
    answerer = ExtractiveAnswerer(embedder=emb)
    rows = []
    for conv in conversations(args.split, small_ids, random.Random(args.seed)):
        retr = retrievers[conv["collection"]]
        first_q, second_q = conv["turns"]
        first = answer(first_q, retriever=retr, answerer=answerer, ground=False)
        second = answer(second_q, retriever=retr, answerer=answerer, ground=False,
                        history=[(first_q, first.text)])
        alone = answer(second_q, retriever=retr, answerer=answerer, ground=False)
        prev = (cited_order(first) or [None])[0]
        cited = (cited_order(second) or [None])[0]
        cited_alone = (cited_order(alone) or [None])[0]
        # answered from the previous paper, which is not the one asked about
        from_prev = second.outcome == "answered" and cited is not None and cited == prev \
            and cited != conv["want"]
        rows.append({"collection": conv["collection"], "kind": conv["kind"],
                     "read_back": from_prev and bool((second.filters or {}).get("paper_ids")),
                     "drawn_back": from_prev and cited_alone != prev,
                     "turns": conv["turns"], "cited": cited,
                     "right_first": second.outcome == "answered" and cited == conv["want"],
                     "right_first_alone": alone.outcome == "answered"
                     and cited_alone == conv["want"]})
    figures: dict[str, Any] = {"split": args.split, "conversations": len(rows), "by": {}}
    print(f"## standalone second turns, {args.split} ({len(rows)} conversations)\n")
    print("| collection | second turn | n | read back | drawn back | right first (after / alone) |")
    print("|---|---|---|---|---|---|")
    for coll in ("ml-large", "ml-theory", "small"):
        for kind in ("lookup", "absent", "off-domain"):
            got = [r for r in rows if r["collection"] == coll and r["kind"] == kind]
            if not got:
                continue
            fig = {"n": len(got), "read_back": sum(r["read_back"] for r in got),
                   "drawn_back": sum(r["drawn_back"] for r in got)}
            line = ""
            if kind == "lookup":
                fig["right_first"] = round(sum(r["right_first"] for r in got) / len(got), 3)
                fig["right_first_alone"] = round(
                    sum(r["right_first_alone"] for r in got) / len(got), 3)
                line = f"{fig['right_first']} / {fig['right_first_alone']}"
            figures["by"][f"{kind}@{coll}"] = fig
            print(f"| {coll} | {kind} | {fig['n']} | {fig['read_back']} | {fig['drawn_back']} | "
                  f"{line} |")
    figures["read_back"] = sum(r["read_back"] for r in rows)
    figures["drawn_back"] = sum(r["drawn_back"] for r in rows)
    figures["cases"] = [{k: r[k] for k in ("collection", "kind", "turns", "cited", "read_back",
                                           "drawn_back")}
                        for r in rows if r["read_back"] or r["drawn_back"]]
    print(f"\nread back in all: {figures['read_back']} of {len(rows)}; drawn back (any way): "
          f"{figures['drawn_back']}")
    print(write_results("read_back", args.split, figures).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
