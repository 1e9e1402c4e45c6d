"""Survey questions: does the answer list the relevant papers as well as `assistant search` does?

    python bench/survey_recall.py [--stores bench/stores] [--n 60]   # dev: tune
    python bench/survey_recall.py --split test   # the test figures, once (bench/report.py)

"Which papers are about KEYWORD?" for author keywords that 3 to 8 papers of the ml-large
collection (evals/make_large_suite.py) carry; the relevant set is those papers. For each
question: recall and precision of the papers the offline answer cites, and recall of
`assistant search` at the same k (the answer's retrieval depth).

A keyword question follows its labelled papers (the one split registry,
assistant/evaluation/splits.py, ``question_part`` over the relevant paper ids): it is dev or
test when all of them are in that part, and dropped when they straddle both. Of the 203
keywords (the collection as `make bench-large` ingests it), 15 are dev, 18 test and 170
dropped; ``--n`` (default 60) takes the first in alphabetical order, so every one by default.

``--split dev`` (the default) is for tuning and asks dev questions only. ``--split test`` is
run only by `make report` (bench/report.py) and writes bench/results/survey_recall.json (a dev
run writes survey_recall-dev.json).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from report import split_option, write_results  # noqa: E402

from assistant.answer.extractive import LIST_K  # noqa: E402
from assistant.answer.factory import build_answerer  # noqa: E402
from assistant.answer.pipeline import answer  # noqa: E402
from assistant.evaluation.metrics import mean  # noqa: E402
from assistant.evaluation.splits import question_part  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402
from assistant.settings import load_settings  # noqa: E402


def keyword_sets(papers: list) -> dict[str, set[str]]:
    sets: dict[str, set[str]] = defaultdict(set)
    for p in papers:
        raw = p.extra.get("keywords") or ""
        words = raw if isinstance(raw, list) else str(raw).replace(";", ",").split(",")
        for w in words:
            w = " ".join(str(w).lower().split())
            if 6 <= len(w) <= 40:
                sets[w].add(p.paper_id)
    return {k: v for k, v in sets.items() if 3 <= len(v) <= 8}


def mentions(kw: str, papers) -> set[str]:
    """The papers whose title or abstract uses the keyword phrase itself (the precision label:
    a paper tagged with the keyword, or one that says it)."""
    return {rp.paper.paper_id for rp in papers
            if kw in " ".join(f"{rp.paper.title} {rp.paper.abstract}".lower().split())}


def sweep(chosen: list[str], sets: dict[str, set[str]], retriever: Retriever,
          answerer, k: int = LIST_K) -> None:
    """Dev: recall and precision of the listed papers for each verifier cut-off."""
    from assistant.judge import relevance

    print("| V_LIST | answer recall | answer precision | cited | search recall | answered |")
    print("|---|---|---|---|---|---|")
    for cut in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7):
        relevance.V_LIST = cut
        rec, prec, cited, srec, answered = [], [], [], [], []
        for kw in chosen:
            q, relevant = f"Which papers are about {kw}?", sets[kw]
            result = answer(q, retriever=retriever, answerer=answerer, k=k, ground=False)
            got = {c.paper.paper_id for c in result.citations}
            found = {rp.paper.paper_id for rp in retriever.search(q, k=LIST_K).papers}
            rec.append(len(got & relevant) / len(relevant))
            about = relevant | mentions(kw, result.papers)
            prec.append(len(got & about) / len(got) if got else 0.0)
            cited.append(len(got))
            srec.append(len(found & relevant) / len(relevant))
            answered.append(1.0 if result.outcome == "answered" else 0.0)
        print(f"| {cut} | {mean(rec):.3f} | {mean(prec):.3f} | {mean(cited):.1f} | "
              f"{mean(srec):.3f} | {mean(answered):.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--n", type=int, default=60, help="keyword questions asked")
    ap.add_argument("--candidates", type=int, default=LIST_K,
                    help="with --sweep: how many papers the answer searches")
    ap.add_argument("--sweep", action="store_true",
                    help="dev: the answer's recall and precision for each V_LIST cut-off")
    split_option(ap)
    args = ap.parse_args()
    if args.sweep and args.split == "test":
        ap.exit(2, "--sweep chooses on dev only\n")
    store = PaperStore(collection="ml-large", embedder=LocalEmbedder(), path=args.stores)
    retriever = Retriever(store=store)
    answerer = build_answerer(load_settings(backend="extractive"), embedder=store.embedder)
    sets = keyword_sets(store.papers())
    parts = {k: question_part(v, f"kw-{k}") for k, v in sets.items()}
    mine = sorted(k for k in sets if parts[k] == args.split)
    print(f"{len(sets)} keywords: {len(mine)} {args.split} (the others: the other part, or "
          f"their papers straddle both), asking {min(args.n, len(mine))}")
    chosen = mine[: args.n]
    if args.sweep:
        sweep(chosen, sets, retriever, answerer, args.candidates)
        return
    rows = []
    for kw in chosen:
        q = f"Which papers are about {kw}?"
        relevant = sets[kw]
        result = answer(q, retriever=retriever, answerer=answerer, k=LIST_K)
        cited = {c.paper.paper_id for c in result.citations}
        searched = {rp.paper.paper_id for rp in retriever.search(q, k=LIST_K).papers}
        about = relevant | mentions(kw, result.papers)
        rows.append({"keyword": kw, "relevant": len(relevant), "outcome": result.outcome,
                     "answer_recall": len(cited & relevant) / len(relevant),
                     "answer_precision": len(cited & about) / len(cited) if cited else 0.0,
                     "search_recall": len(searched & relevant) / len(relevant),
                     "cited": len(cited)})
    summary = {k: round(mean([r[k] for r in rows]), 3)
               for k in ("answer_recall", "answer_precision", "search_recall", "cited")}
    summary["questions"] = len(rows)
    summary["answered"] = round(mean([r["outcome"] == "answered" for r in rows]), 3)
    print(f"{args.split}: {summary}")
    out = write_results("survey_recall", args.split, {"summary": summary, "rows": rows})
    print(out.relative_to(ROOT))


if __name__ == "__main__":
    main()
