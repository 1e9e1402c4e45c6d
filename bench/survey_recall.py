"""Survey questions: does the answer list the relevant papers as well as `assistant search` does?

    python bench/survey_recall.py [--stores bench/stores] [--split test]

"Which papers are about KEYWORD?" for author keywords that 3 to 8 papers of the ml-large
collection (evals/make_large_suite.py) carry; the relevant set is those papers. For each
question: recall and precision of the papers the offline answer cites, and recall of
`assistant search` at the same k (the answer's retrieval depth). Keywords are split dev/test by
a hash (assistant/evaluation/generate.split_of). Writes bench/results/survey_recall.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.answer.factory import build_answerer  # noqa: E402
from assistant.answer.pipeline import LIST_K, answer  # noqa: E402
from assistant.evaluation.generate import split_of  # noqa: E402
from assistant.evaluation.metrics import mean  # noqa: E402
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--split", default="test")
    ap.add_argument("--n", type=int, default=60)
    args = ap.parse_args()
    store = PaperStore(collection="ml-large", embedder=LocalEmbedder(), path=args.stores)
    retriever = Retriever(store=store)
    answerer = build_answerer(load_settings(backend="extractive"), embedder=store.embedder)
    sets = keyword_sets(store.papers())
    chosen = sorted(k for k in sets if split_of(f"kw-{k}") == args.split)[: args.n]
    rows = []
    for kw in chosen:
        q = f"Which papers are about {kw}?"
        relevant = sets[kw]
        result = answer(q, retriever=retriever, answerer=answerer, k=LIST_K)
        cited = {c.paper.paper_id for c in result.citations}
        searched = {rp.paper.paper_id for rp in retriever.search(q, k=LIST_K).papers}
        rows.append({"keyword": kw, "relevant": len(relevant), "outcome": result.outcome,
                     "answer_recall": len(cited & relevant) / len(relevant),
                     "answer_precision": len(cited & relevant) / len(cited) if cited else 0.0,
                     "search_recall": len(searched & relevant) / len(relevant),
                     "cited": len(cited)})
    summary = {k: round(mean([r[k] for r in rows]), 3)
               for k in ("answer_recall", "answer_precision", "search_recall", "cited")}
    summary["questions"] = len(rows)
    summary["answered"] = round(mean([r["outcome"] == "answered" for r in rows]), 3)
    print(f"{args.split}: {summary}")
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / f"survey_recall-{args.split}.json").write_text(
        json.dumps({"summary": summary, "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
