"""One question in, one cited answer out. The CLI, the TUI and the evaluations all call this.

    retrieval (Retriever.search) -> relevance gate (relevance.judge)
    -> answerer.select: the numbered sources, in the order [1], [2], ... refer to them
    -> answerer.stream_answer over exactly those sources
    -> CitationFilter (checked, renumbered citations) -> Answer with its reference list
    -> grounding: each answer sentence checked against the abstract it cites

The numbering has one owner: ``select`` returns the list, the answerer cites positions in it,
and the references are built from the same list. Nothing reorders it in between.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from assistant import (
    answerability,
    compare,
    grounding,
    injection,
    prompts,
    query_filters,
    tokens,
)
from assistant.citations import CitationFilter, tidy
from assistant.errors import LLMStreamCut
from assistant.extractive import LIST_K, ExtractiveAnswerer
from assistant.paper import Paper
from assistant.relevance import Relevance, judge
from assistant.retrieval import Filters, Retrieval, RetrievedPaper, Retriever
from assistant.rewrite import has_cjk, needs_llm
from assistant.textutil import defang_refs, is_list_question

if TYPE_CHECKING:
    from assistant.embeddings import Embedder
    from assistant.llm import ChatModel, Message
    from assistant.settings import Settings

Turn = tuple[str, str]  # (question, answer)
log = logging.getLogger(__name__)


class Answerer(Protocol):
    backend: str
    model: str
    usage: dict[str, Any]
    multilingual: bool  # False: understands English questions only (the offline answerer)

    async def select(self, question: str, papers: Sequence[RetrievedPaper],
                     relevance: Relevance, *, leads: int = 0) -> list[RetrievedPaper]:
        """The sources to answer from, in citation order: ``[n]`` is the n-th of them. The
        first ``leads`` papers must be among them (a comparison's sides, in order)."""
        ...

    def stream_answer(self, question: str, sources: Sequence[RetrievedPaper],
                      history: Sequence[Turn] = ()) -> AsyncIterator[str]: ...

    async def rewrite(self, question: str, history: Sequence[Turn]) -> str: ...


@dataclass
class Citation:
    n: int
    paper: Paper

    def to_dict(self) -> dict[str, Any]:
        p = self.paper
        return {"n": self.n, "paper_id": p.paper_id, "title": p.title, "venue": p.venue,
                "year": p.year, "url": p.url or p.code_url, "code_url": p.code_url,
                "status": p.status, "published": not p.is_unpublished}


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
    outcome: str = "answered"  # answered | near_miss (nothing here is about it) | refused
    answerability: dict[str, Any] = field(default_factory=dict)
    filters: dict[str, Any] = field(default_factory=dict)
    grounding: grounding.Grounding | None = None  # per-sentence support and attribution

    def references(self) -> str:
        return "\n".join(f"[{c.n}] {c.paper.reference()}" for c in self.citations)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer": self.text,
            "backend": self.backend,
            "model": self.model,
            "citations": [c.to_dict() for c in self.citations],
            "papers": [{"paper_id": rp.paper.paper_id, "title": rp.paper.title,
                        "score": round(rp.score, 4)} for rp in self.papers],
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


class LLMAnswerer:
    """Numbered sources within a token budget, prompts from files, a streaming chat model."""

    multilingual = True

    def __init__(self, *, model: ChatModel, context_tokens: int = 3000,
                 prompts_dir: Any = None, rerank: bool = False) -> None:
        self.chat = model
        self.rerank_enabled = rerank
        self.backend = model.backend
        self.model = model.model
        self.context_tokens = context_tokens
        self.prompts_dir = prompts_dir
        self.usage: dict[str, Any] = {}

    def sources_block(self, papers: Sequence[RetrievedPaper]) -> str:
        blocks: list[str] = []
        budget = self.context_tokens
        for n, rp in enumerate(papers, 1):
            p = rp.paper
            block = prompts.render("source", prompts_dir=self.prompts_dir, n=n, title=p.title,
                                   venue_year=p.venue_year or "n.d.",
                                   text=injection.neutralize(defang_refs(p.abstract)))
            cost = tokens.count(block)
            if cost > budget:
                if budget < 60:
                    break
                block = tokens.truncate(block, budget - 6) + " …\n</source>\n"
                cost = budget
            blocks.append(block)
            budget -= cost
        return "\n".join(blocks)

    def messages(self, question: str, papers: Sequence[RetrievedPaper],
                 history: Sequence[Turn] = ()) -> list[Message]:
        hist = ""
        if history:
            turns = "\n".join(f"Q: {q}\nA: {tokens.truncate(a, 200)}" for q, a in history[-3:])
            hist = prompts.render("history", prompts_dir=self.prompts_dir, turns=turns)
        user = prompts.render("answer", prompts_dir=self.prompts_dir, question=question,
                              sources=self.sources_block(papers), history=hist)
        system = prompts.render("system", prompts_dir=self.prompts_dir)
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    async def select(self, question: str, papers: Sequence[RetrievedPaper],
                     relevance: Relevance, *, leads: int = 0) -> list[RetrievedPaper]:
        """Every retrieved paper, in retrieval order or (when enabled) the LLM's order."""
        if self.rerank_enabled and papers and not leads:
            return await self.rerank(question, list(papers))
        return list(papers)

    async def stream_answer(self, question: str, sources: Sequence[RetrievedPaper],
                            history: Sequence[Turn] = ()) -> AsyncIterator[str]:
        async for delta in self.chat.stream(self.messages(question, sources, history)):
            yield delta
        self.usage = dict(self.chat.usage)

    async def rerank(self, question: str, papers: list[RetrievedPaper]) -> list[RetrievedPaper]:
        """Order papers by LLM relevance scores (PaperQA2-style). A reply that is not the asked
        JSON leaves the retrieval order as it was (and is logged)."""
        from assistant.llm import complete, json_reply

        blocks = "\n\n".join(f"[{n}] {rp.paper.title}\n{tokens.truncate(rp.paper.abstract, 300)}"
                              for n, rp in enumerate(papers, 1))
        content = prompts.render("rerank", prompts_dir=self.prompts_dir, question=question,
                                 sources=blocks)
        raw = await complete(self.chat, content)
        try:
            scores = json_reply(raw)["scores"]
            values = [float(s) for s in scores]
            if len(values) != len(papers):
                raise ValueError("wrong length")
        except (ValueError, KeyError, TypeError):
            log.warning("rerank reply unusable: %r", raw[:120])
            return papers
        order = sorted(range(len(papers)), key=lambda i: (-values[i], i))
        out = [papers[i] for i in order]
        for rank, rp in enumerate(out, 1):
            rp.rank = rank
        return out

    async def rewrite(self, question: str, history: Sequence[Turn]) -> str:
        from assistant.rewrite import with_llm

        return await with_llm(question, history, model=self.chat, prompts_dir=self.prompts_dir)


def build_answerer(settings: Settings, *, embedder: Embedder,
                   model: ChatModel | None = None) -> Answerer:
    if model is None and not settings.uses_llm:
        return ExtractiveAnswerer(embedder=embedder)
    if model is None:
        from assistant.llm import OpenAIChatModel

        key = settings.api_key.get_secret_value() if settings.api_key else None
        model = OpenAIChatModel(model=settings.model, base_url=settings.base_url, api_key=key,
                                temperature=settings.temperature, max_tokens=settings.max_tokens,
                                timeout=settings.timeout)
    return LLMAnswerer(model=model, context_tokens=settings.context_tokens,
                       prompts_dir=settings.prompts_dir, rerank=settings.rerank)


REFUSAL = ("The indexed papers do not answer this: none of the {n} papers searched is about "
           "“{q}”. Try other words, or ingest a paper list that covers it.")
CJK_OFFLINE = ("The indexed papers do not answer this in the offline mode: the built-in "
               "answerer matches English abstracts, so a question in Chinese is found only by the "
               "method names it contains (multilingual search is off, not installed, or this "
               "collection has more papers than ASSISTANT_MULTILINGUAL_MAX_PAPERS lets it embed). "
               "Ask in English, name the method, raise that setting, or configure an LLM "
               "endpoint (OPENAI_BASE_URL) to translate the question.")
NEAR_MISS_PAPERS = 3
_LLM_REFUSAL_MARKERS = ("do not answer", "does not answer", "don't answer", "cannot answer",
                        "no information", "not covered")


async def astream(question: str, *, retriever: Retriever, answerer: Answerer, k: int = 6,
                  filters: Filters | None = None, history: Sequence[Turn] = (),
                  infer_filters: bool = True, ground: bool = True) -> AsyncIterator[Event]:
    """Stream the events of one answer: Retrieved, then Deltas, then Finished.

    ``ground`` checks every answer sentence against the abstract it cites (``Answer.grounding``).
    """
    t0 = time.perf_counter()
    question = " ".join(question.split())
    waits = isinstance(answerer, LLMAnswerer) and needs_llm(question, history)
    if waits:  # a follow-up (or another language) is rewritten by the LLM first: say so,
        yield Phase("asking the LLM to make the question standalone…")  # not a slow search
    search_query = await answerer.rewrite(question, history)
    if waits:
        yield Phase("retrieving…")
    if infer_filters:
        venues, years = retriever.facets()
        filters = query_filters.infer(question, venues=venues, years=years, explicit=filters)
    listing = is_list_question(question)
    diversity = retriever.mmr_lambda if listing else None
    if listing:  # a survey lists every relevant paper among more candidates
        k = max(k, LIST_K)
    retrieval = retriever.search(search_query, k=k, filters=filters, diversity=diversity)
    sides = _compared(search_query, retrieval, retriever=retriever, filters=filters, k=k)
    leads = len(sides)
    yield Retrieved(retrieval)
    timings = dict(retrieval.timings)
    rel = judge(search_query, retrieval.papers)
    if retrieval.multilingual and retrieval.papers:
        rel = rel.only(retrieval.papers[0].paper.paper_id)
    decision = _decide(search_query, retrieval, sides, retriever=retriever)
    if filters and filters.paper_ids and retrieval.papers:  # the user picked the paper
        decision.outcome = "answered"
        if not rel.relevant:
            rel = rel.scoped([rp.paper.paper_id for rp in retrieval.papers])
    extra: dict[str, Any] = {"search_query": search_query, "outcome": decision.outcome,
             "answerability": decision.to_dict(),
             "filters": {k: v for k, v in asdict(filters).items() if v} if filters else {}}
    if decision.outcome != "answered":
        result = _unanswered(question, retrieval, retriever=retriever,
                             answerer=answerer, timings=timings, relevance=rel.to_dict(),
                             **extra)
        yield Delta(result.text)
        timings["total_ms"] = (time.perf_counter() - t0) * 1000
        if ground:
            _ground(result, retriever)
        yield Finished(result)
        return
    t_s = time.perf_counter()
    sources = await answerer.select(question, retrieval.papers, rel, leads=leads)
    timings["select_ms"] = (time.perf_counter() - t_s) * 1000
    filt = CitationFilter(len(sources))
    parts: list[str] = []
    t1 = time.perf_counter()
    first: float | None = None
    cut_reason = ""
    try:
        async for raw in answerer.stream_answer(question, sources, history):
            if first is None:
                first = (time.perf_counter() - t1) * 1000
            shown = filt.feed(raw)
            if shown:
                parts.append(shown)
                yield Delta(shown)
    except LLMStreamCut as exc:  # keep what arrived, marked as cut, with the reason
        cut_reason = str(exc)
    tail = filt.flush()
    if tail:
        parts.append(tail)
        yield Delta(tail)
    text = tidy("".join(parts)).strip()
    timings["first_token_ms"] = first or 0.0
    timings["generate_ms"] = (time.perf_counter() - t1) * 1000
    citations = [Citation(filt.mapping[n], sources[n - 1].paper) for n in filt.order]
    refused = not citations and any(m in text.lower() for m in _LLM_REFUSAL_MARKERS)
    result = Answer(question, text, answerer.backend, answerer.model, citations,
                    retrieval.papers, refused, dict(answerer.usage), timings, filt.dropped,
                    rel.to_dict(), cut=bool(cut_reason), cut_reason=cut_reason, **extra)
    if ground:
        _ground(result, retriever)
    timings["total_ms"] = (time.perf_counter() - t0) * 1000
    yield Finished(result)


def _decide(query: str, retrieval: Retrieval, sides: list[tuple[str, list[RetrievedPaper]]],
            *, retriever: Retriever) -> answerability.Decision:
    """Answer, near miss or refuse; a comparison is answerable when each side is, on its own
    search (the weakest side decides)."""
    if retrieval.multilingual:
        return answerability.decide_multilingual(retrieval.papers)
    stats = answerability.stats_for(retriever.index())
    if not sides:
        return answerability.decide(query, retrieval.papers, stats)
    verdicts = [answerability.decide(q, found, stats) for q, found in sides]
    return min(verdicts, key=lambda d: ("refused", "near_miss", "answered").index(d.outcome))


def _unanswered(question: str, retrieval: Retrieval, *, retriever: Retriever,
                answerer: Answerer, **fields: Any) -> Answer:
    """A near miss (``fields["outcome"]``) names the closest papers, cited like any claim; a
    refusal says what to do. Neither calls an LLM."""
    unreadable = has_cjk(question) and not (answerer.multilingual or retrieval.multilingual)
    if fields.get("outcome") == "near_miss" and not unreadable:
        closest = retrieval.papers[:NEAR_MISS_PAPERS]
        text = ExtractiveAnswerer(embedder=retriever.store.embedder).compose_near_miss(
            question, closest)
        citations = [Citation(n, rp.paper) for n, rp in enumerate(closest, 1)]
    else:
        n = retriever.index().paper_count if retrieval.papers else 0
        text = CJK_OFFLINE if unreadable else REFUSAL.format(n=n, q=question)
        citations = []
    return Answer(question, text, answerer.backend, answerer.model, citations,
                  retrieval.papers, True, **fields)


def _ground(result: Answer, retriever: Retriever) -> None:
    """Check every cited sentence against the abstract it cites (grounding.py)."""
    if not result.citations:
        return
    t = time.perf_counter()
    result.grounding = grounding.ground(result.text, result.citations, result.papers,
                                        embedder=retriever.store.embedder)
    result.timings["ground_ms"] = (time.perf_counter() - t) * 1000


def _compared(query: str, retrieval: Retrieval, *, retriever: Retriever,
              filters: Filters | None, k: int) -> list[tuple[str, list[RetrievedPaper]]]:
    """For "A vs B": each side searched on its own, its best paper put first. Returns each
    side's query and search results (none when the question compares nothing, or both sides
    find the same paper)."""
    pair = compare.sides(query)
    if not pair or (filters and filters.paper_ids):
        return []
    leads: list[RetrievedPaper] = []
    searched: list[tuple[str, list[RetrievedPaper]]] = []
    for side in pair:
        found = retriever.search(side, k=k, filters=filters).papers
        if found and all(found[0].paper.paper_id != rp.paper.paper_id for rp in leads):
            leads.append(found[0])
            searched.append((side, found))
    if len(leads) < 2:
        return []
    ids = {rp.paper.paper_id for rp in leads}
    rest = [rp for rp in retrieval.papers if rp.paper.paper_id not in ids]
    retrieval.papers = (leads + rest)[: max(k, 2)]
    for rank, rp in enumerate(retrieval.papers, 1):
        rp.rank = rank
    return searched


def answer(question: str, *, retriever: Retriever, answerer: Answerer, k: int = 6,
           filters: Filters | None = None, history: Sequence[Turn] = (),
           on_delta: Callable[[str], None] | None = None, infer_filters: bool = True,
           ground: bool = True) -> Answer:
    """The synchronous form of ``astream``: returns the finished Answer."""

    async def run() -> Answer:
        result: Answer | None = None
        async for event in astream(question, retriever=retriever, answerer=answerer, k=k,
                                   filters=filters, history=history,
                                   infer_filters=infer_filters, ground=ground):
            if isinstance(event, Delta) and on_delta:
                on_delta(event.text)
            elif isinstance(event, Finished):
                result = event.answer
        assert result is not None
        return result

    return asyncio.run(run())
