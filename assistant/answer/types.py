"""What an answer is: the ``Answer`` record, the ``Answerer`` protocol every answerer meets,
and the events ``pipeline.astream`` streams to the front ends."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from assistant.citations import Citation
from assistant.judge import grounding
from assistant.judge.relevance import Relevance
from assistant.paper import Paper
from assistant.query.form import Form, Turn
from assistant.search.retrieval import Retrieval, RetrievedPaper, best_first

__all__ = ["Answer", "Answerer", "Delta", "Event", "Finished", "Form", "Phase", "Retrieved",
           "Turn"]


class Answerer(Protocol):
    backend: str
    model: str
    usage: dict[str, Any]
    multilingual: bool  # False: understands English questions only (the offline answerer)
    reads_near_misses: bool  # a near miss's closest papers go to stream_answer(near_miss=True)

    async def select(self, form: Form, papers: Sequence[RetrievedPaper],
                     relevance: Relevance, *, leads: int = 0) -> list[RetrievedPaper]:
        """The sources to answer from, in citation order: ``[n]`` is the n-th of them. The
        first ``leads`` papers must be among them (a comparison's sides, in order)."""
        ...

    def stream_answer(self, form: Form, sources: Sequence[RetrievedPaper],
                      history: Sequence[Turn] = (), *, near_miss: bool = False,
                      hedged: bool = False) -> AsyncIterator[str]:
        """The answer's text, citing ``sources`` as [n]. A reply that starts with ``NONE:``
        says none of them answers the question (the pipeline reads it as a near miss).
        ``hedged``: the decision is not sure the first source is the one asked about."""
        ...

    async def rewrite(self, form: Form, history: Sequence[Turn]) -> str:
        """The query to search: ``form.question``, or a follow-up made standalone."""
        ...


@dataclass
class Answer:
    question: str
    text: str
    backend: str
    model: str
    citations: list[Citation]
    papers: list[RetrievedPaper]
    refused: bool
    usage: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    dropped_citations: list[int] = field(default_factory=list)
    relevance: dict[str, Any] = field(default_factory=dict)
    cut: bool = False
    cut_reason: str = ""  # why the stream broke off (a cut answer keeps what arrived)
    search_query: str = ""
    # answered | near_miss (nothing here is about it) | refused | listed (answer/listing.py)
    outcome: str = "answered"
    # answered, and its first paper named as the answer (False: "the closest match is ...")
    confident: bool = False
    answerability: dict[str, Any] = field(default_factory=dict)
    filters: dict[str, Any] = field(default_factory=dict)
    # filters read from the question (``filters`` holds them when applied); ``filters_dropped``:
    # read, but nothing passing them answered, so every paper was searched (the text says so)
    filters_read: dict[str, Any] = field(default_factory=dict)
    filters_dropped: dict[str, Any] = field(default_factory=dict)
    # misspelt words respelt as the collection's before searching ("lerning" -> "learning")
    respelt: dict[str, str] = field(default_factory=dict)
    grounding: grounding.Grounding | None = None  # per-sentence support and attribution
    trend: dict[str, Any] | None = None  # a topic over the years (answer/listing.py)

    @property
    def listed(self) -> bool:
        """A list made from the collection (papers like one, a topic over the years), not an
        answer written to a question: nothing in it is generated (answer/listing.py)."""
        return self.outcome == "listed" or self.trend is not None

    def reference(self, paper: Paper) -> str:
        """A cited paper's reference-list line, naming its other entries in the collection (a
        submission and its publication: search/versions.py)."""
        line = paper.reference()
        also = next((rp.versions for rp in self.papers if rp.paper.paper_id == paper.paper_id),
                    [])
        if also:
            line += " Also in this collection as: " + "; ".join(
                f"{v.venue_year or v.paper_id} ({v.url})" if v.url else (v.venue_year or v.paper_id)
                for v in also) + "."
        return line

    def references(self) -> str:
        return "\n".join(f"[{c.n}] {self.reference(c.paper)}" for c in self.citations)

    def to_dict(self) -> dict[str, Any]:
        def r3(v: float | None) -> float | None:
            return None if v is None else round(v, 3)

        verified = {rp.paper.paper_id: r3(rp.verified) for rp in self.papers}
        raw = {rp.paper.paper_id: r3(rp.verifier) for rp in self.papers}
        return {
            "confident": self.confident,
            "question": self.question,
            "answer": self.text,
            "backend": self.backend,
            "model": self.model,
            "citations": [{**c.to_dict(), "estimate": verified.get(c.paper.paper_id),
                           "verifier": raw.get(c.paper.paper_id)} for c in self.citations],
            "papers": [{"paper_id": rp.paper.paper_id, "title": rp.paper.title,
                        "estimate": verified.get(rp.paper.paper_id),
                        "verifier": raw.get(rp.paper.paper_id), "rank": rp.rank,
                        "score": round(rp.score, 4),
                        "versions": [v.paper_id for v in rp.versions]}
                       for rp in best_first(self.papers)],
            "refused": self.refused,
            "outcome": self.outcome,
            "cut": self.cut,
            "cut_reason": self.cut_reason,
            "answerability": self.answerability,
            "usage": self.usage,
            "timings": {k: round(v, 1) for k, v in self.timings.items()},
            "dropped_citations": self.dropped_citations,
            "relevance": self.relevance,
            "search_query": self.search_query,
            "filters": self.filters,
            "filters_read": self.filters_read,
            "filters_dropped": self.filters_dropped,
            **({"respelt": self.respelt} if self.respelt else {}),
            **({"trend": self.trend} if self.trend is not None else {}),
            **(self.grounding.to_dict() if self.grounding else
               {"sentences": [], "attribution": None}),
        }


# -- events streamed to front ends ----------------------------------------------------------
@dataclass
class Retrieved:
    retrieval: Retrieval


@dataclass
class Delta:
    text: str


@dataclass
class Finished:
    answer: Answer


@dataclass
class Phase:
    """What the answer waits on before its sources come (the chat shows it)."""
    text: str


Event = Phase | Retrieved | Delta | Finished
