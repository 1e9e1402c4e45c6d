"""Question -> ranked papers.

Dense retrieval from Chroma, aggregated from chunks to papers (a paper scores as its best
chunk). The ``Retriever`` is the seam: lexical (BM25) ranking and fusion plug in beside
``_dense``; the answerer only sees ``RetrievedPaper`` lists.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from assistant.paper import Paper
from assistant.relevance import Relevance, judge
from assistant.store import ChunkHit, PaperStore


@dataclass
class Filters:
    venue: str | None = None
    year: int | None = None
    author: str | None = None
    paper_ids: list[str] | None = None

    def where(self) -> dict[str, Any] | None:
        clauses: list[dict[str, Any]] = []
        if self.venue:
            clauses.append({"venue_lc": self.venue.lower()})
        if self.year:
            clauses.append({"year": int(self.year)})
        if self.paper_ids:
            clauses.append({"paper_id": {"$in": list(self.paper_ids)}})
        if not clauses:
            return None
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}

    def accepts(self, paper: Paper) -> bool:
        if self.author:
            needle = self.author.lower()
            return any(needle in a.lower() for a in paper.authors)
        return True


@dataclass
class RetrievedPaper:
    paper: Paper
    score: float
    rank: int
    dense: float | None = None
    evidence: float = 0.0  # relevance evidence (see relevance.py); > 0 means relevant
    passages: list[str] = field(default_factory=list)


@dataclass
class Retrieval:
    query: str
    papers: list[RetrievedPaper]
    relevance: Relevance
    timings: dict[str, float] = field(default_factory=dict)


def aggregate(hits: Sequence[ChunkHit]) -> list[tuple[str, float, list[str]]]:
    """Chunks -> papers: best chunk score, passages in score order."""
    best: dict[str, tuple[float, list[str]]] = {}
    for h in sorted(hits, key=lambda h: -h.score):
        if h.paper_id in best:
            best[h.paper_id][1].append(h.text)
        else:
            best[h.paper_id] = (h.score, [h.text])
    return sorted(((pid, s, t) for pid, (s, t) in best.items()), key=lambda x: -x[1])


class Retriever:
    def __init__(self, *, store: PaperStore, candidates: int = 60) -> None:
        self.store = store
        self.candidates = candidates

    def search(self, query: str, *, k: int = 10, filters: Filters | None = None) -> Retrieval:
        filters = filters or Filters()
        timings: dict[str, float] = {}
        t0 = time.perf_counter()
        vector = self.store.embedder.embed_query(query)
        timings["embed_ms"] = (time.perf_counter() - t0) * 1000
        t1 = time.perf_counter()
        hits = self.store.dense(vector, n=self.candidates, where=filters.where())
        timings["dense_ms"] = (time.perf_counter() - t1) * 1000
        ranked = aggregate(hits)
        papers = {p.paper_id: p for p in self.store.papers(pid for pid, _, _ in ranked[: k * 3])}
        out: list[RetrievedPaper] = []
        for pid, score, passages in ranked:
            paper = papers.get(pid)
            if paper is None or not filters.accepts(paper):
                continue
            out.append(RetrievedPaper(paper, score, len(out) + 1, dense=score, passages=passages))
            if len(out) >= k:
                break
        relevance = judge(query, out)
        timings["retrieve_ms"] = (time.perf_counter() - t0) * 1000
        return Retrieval(query=query, papers=out, relevance=relevance, timings=timings)
