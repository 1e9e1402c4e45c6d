"""The answerer that prompts an OpenAI-compatible endpoint: numbered sources within a token
budget, prompts from files, a streaming chat model, an optional LLM re-ranking."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

from assistant import tokens
from assistant.judge import injection
from assistant.judge.relevance import Relevance
from assistant.llm import prompts
from assistant.llm.client import ChatModel, Message, complete, json_reply
from assistant.query.form import Form, Turn
from assistant.query.rewrite import with_llm
from assistant.search.retrieval import RetrievedPaper
from assistant.textutil import defang_refs

log = logging.getLogger(__name__)


class LLMAnswerer:
    """Numbered sources within a token budget, prompts from files, a streaming chat model."""

    multilingual = True
    reads_near_misses = True  # a near miss's closest papers go to the model (NONE or answer)

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
        """The numbered ``<source>`` blocks within the token budget. A paper's own text never
        ends its fence: a tag like ``</source>`` in a title or abstract loses its "<"
        (``injection.escape_fence``), and instruction-like sentences become a marker."""
        blocks: list[str] = []
        budget = self.context_tokens
        for n, rp in enumerate(papers, 1):
            p = rp.paper
            text = defang_refs(injection.neutralize(p.abstract))  # judged as written: "cite [3]"
            block = prompts.render("source", prompts_dir=self.prompts_dir, n=n,
                                   title=injection.escape_fence(p.title),
                                   venue_year=injection.escape_fence(p.venue_year or "n.d."),
                                   byline=injection.escape_fence(  # "who wrote it?"
                                       f", by {p.author_names()}" if p.authors else ""),
                                   text=injection.escape_fence(text))
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
                 history: Sequence[Turn] = (), *, near_miss: bool = False) -> list[Message]:
        """The chat messages; ``near_miss``: the decision found no paper clearly about the
        question, and these are the closest (prompts/near_miss.md: the model may answer from
        one, or reply NONE)."""
        hist = ""
        if history:
            turns = "\n".join(f"Q: {q}\nA: {tokens.truncate(a, 200)}" for q, a in history[-3:])
            hist = prompts.render("history", prompts_dir=self.prompts_dir, turns=turns)
        user = prompts.render("near_miss" if near_miss else "answer",
                              prompts_dir=self.prompts_dir, question=question,
                              sources=self.sources_block(papers), history=hist)
        system = prompts.render("system", prompts_dir=self.prompts_dir)
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    async def select(self, form: Form, papers: Sequence[RetrievedPaper],
                     relevance: Relevance, *, leads: int = 0) -> list[RetrievedPaper]:
        """Every retrieved paper, in retrieval order or (when enabled) the LLM's order."""
        if self.rerank_enabled and papers and not leads:
            return await self.rerank(form.question, list(papers))
        return list(papers)

    async def stream_answer(self, form: Form, sources: Sequence[RetrievedPaper],
                            history: Sequence[Turn] = (), *, near_miss: bool = False,
                            hedged: bool = False) -> AsyncIterator[str]:
        """``hedged`` is the decision's: the model reads the sources and says what it finds
        (the answer's ``confident`` flag and the chat's mark say it to the reader)."""
        async for delta in self.chat.stream(self.messages(form.question, sources, history,
                                                          near_miss=near_miss)):
            yield delta
        self.usage = dict(self.chat.usage)

    async def rerank(self, question: str, papers: list[RetrievedPaper]) -> list[RetrievedPaper]:
        """Order papers by LLM relevance scores (PaperQA2-style). A reply that is not the asked
        JSON leaves the retrieval order as it was (and is logged)."""
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

    async def rewrite(self, form: Form, history: Sequence[Turn]) -> str:
        return await with_llm(form, history, model=self.chat, prompts_dir=self.prompts_dir)
