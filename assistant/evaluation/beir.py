"""`assistant eval retrieval`: a BEIR-format benchmark (corpus, queries, qrels) end to end.

The corpus is ingested into the store (incrementally: a second run embeds nothing), every
query with judgements is run, and nDCG@10, recall@10/100, MRR@10 and latency are reported.
"""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from assistant.errors import InputError
from assistant.evaluation.metrics import mean, mrr_at, ndcg_at, percentile, recall_at
from assistant.index.store import PaperStore
from assistant.search.retrieval import Mode, Retriever
from assistant.sources.corpus import load_papers


def load_queries(path: Path) -> dict[str, str]:
    if not path.exists():
        raise InputError(f"no such file: {path}")
    out: dict[str, str] = {}
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                out[str(rec["_id"])] = str(rec["text"])
            except (json.JSONDecodeError, KeyError):
                raise InputError(f"{path}:{lineno}: a query needs JSON with '_id' and 'text'"
                                 ) from None
    return out


def load_qrels(path: Path) -> dict[str, dict[str, int]]:
    if not path.exists():
        raise InputError(f"no such file: {path}")
    qrels: dict[str, dict[str, int]] = {}
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh, delimiter="\t")
        header = next(reader, None)
        if not header or [h.strip() for h in header[:2]] != ["query-id", "corpus-id"]:
            raise InputError(f"{path}: expected a TSV header 'query-id corpus-id score'")
        for row in reader:
            if len(row) < 3:
                continue
            qrels.setdefault(row[0], {})[row[1]] = int(float(row[2]))
    return qrels


def split_ids(path: Path, name: str) -> set[str]:
    """The query ids of one split in a JSON splits file ({"dev": [...], "test": [...]})."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read the splits file {path} ({exc})") from None
    if not isinstance(data.get(name), list):
        have = ", ".join(k for k, v in data.items() if isinstance(v, list))
        raise InputError(f"{path} has no split {name!r} (it has: {have})")
    return {str(i) for i in data[name]}


def default_collection(corpus: Path) -> str:
    stem = corpus.parent.name if corpus.stem in ("corpus", "docs") else corpus.stem
    name = "".join(c if c.isalnum() or c in "._-" else "-" for c in f"beir-{stem}")
    return name.strip("-._")[:60] or "beir"


def evaluate(*, corpus: Path, queries: Path, qrels: Path, store: PaperStore,
             retriever: Retriever, mode: Mode = "hybrid",
             progress: Callable[[str], None] | None = None,
             only: Collection[str] | None = None) -> dict[str, Any]:
    """nDCG@10, recall@10/100, MRR@10 over the judged queries (``only``: a subset of them)."""
    qs = load_queries(queries)
    judged = load_qrels(qrels)
    papers = load_papers(corpus)
    report = store.ingest(papers, source=str(corpus.resolve()))
    if progress:
        progress(report.summary())
    ids = [q for q in qs if q in judged and (only is None or q in only)]
    if not ids:
        raise InputError(f"no query in {queries} has a judgement in {qrels}")
    retriever.index()  # build or load outside the timed loop
    per_query: dict[str, dict[str, float]] = {}
    latencies: list[float] = []
    for done, qid in enumerate(ids, 1):
        if progress and done % 200 == 0:
            progress(f"{done}/{len(ids)} queries")
        t = time.perf_counter()
        order, _ = retriever.rank(qs[qid], mode=mode)
        latencies.append((time.perf_counter() - t) * 1000)
        ranked = [pid for pid, _ in order[:100]]
        rels = judged[qid]
        per_query[qid] = {"ndcg_at_10": ndcg_at(ranked, rels, 10),
                          "recall_at_10": recall_at(ranked, rels, 10),
                          "recall_at_100": recall_at(ranked, rels, 100),
                          "mrr_at_10": mrr_at(ranked, rels, 10)}
    keys = ("ndcg_at_10", "recall_at_10", "recall_at_100", "mrr_at_10")
    result: dict[str, Any] = {k: round(mean([m[k] for m in per_query.values()]), 4)
                              for k in keys}
    result.update(queries=len(ids), mode=mode,
                  latency_ms_p50=round(percentile(latencies, 0.5), 2),
                  latency_ms_p95=round(percentile(latencies, 0.95), 2),
                  collection=store.name, papers=len(papers))
    return result
