"""What the chat needs from the core, in plain Python (no Textual).

``open()`` does the slow part (imports Chroma and onnxruntime, opens the store, ingests the
bundled ICML 2026 list when the collection is empty, warms the embedder and tokenizer) and is
meant to run off the UI thread after the first paint. ``ask()`` is ``answer.astream`` with
the session's parts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from assistant.conversations.export import describe_backend

if TYPE_CHECKING:
    from assistant.answer.types import Answer, Answerer, Event
    from assistant.index.embeddings import Embedder
    from assistant.index.protocol import Store
    from assistant.llm.client import ChatModel
    from assistant.paper import Paper
    from assistant.search.retrieval import Filters, Retriever
    from assistant.settings import Settings
    from assistant.tui.evidence import Evidence

log = logging.getLogger(__name__)
Phase = Callable[[str], None]
Progress = Callable[[int, int], None]


class NotReady(RuntimeError):
    """The store is not open yet (``open()`` has not finished)."""


class ChatSession:
    def __init__(self, settings: Settings, *, embedder: Embedder | None = None,
                 model: ChatModel | None = None) -> None:
        self.settings = settings
        self._embedder = embedder
        self._model = model  # a chat model passed in (tests pass a QueueModel)
        self.store: Store | None = None
        self.retriever: Retriever | None = None
        self.answerer: Answerer | None = None
        self.paper_count = 0
        self.ingested = False

    # -- what the status line says -------------------------------------------------------
    @property
    def backend(self) -> str:
        if self.answerer is not None:
            return self.answerer.backend
        if self.settings.backend == "extractive":
            return "extractive"
        return "llm" if self._model is not None or self.settings.uses_llm else "extractive"

    @property
    def model(self) -> str:
        if self.answerer is not None:
            return self.answerer.model
        if self.backend == "extractive":
            return "extractive-v1"
        return self._model.model if self._model is not None else self.settings.model

    @property
    def backend_label(self) -> str:
        return describe_backend(self.backend, self.model)

    @property
    def collection(self) -> str:
        return self.settings.collection

    # -- the slow part -------------------------------------------------------------------
    def open(self, *, on_phase: Phase | None = None, on_progress: Progress | None = None) -> int:
        """Open (or first fill) the store and build the answerer; returns the paper count."""
        phase = on_phase or (lambda text: None)
        phase("loading the embedding model")
        from assistant.index.embeddings import make_embedder

        embedder = self._embedder or make_embedder(self.settings)
        embedder.preload()
        phase("opening the store")
        from assistant.index.factory import open_store, open_writable

        store = open_store(self.settings, embedder=embedder)
        from assistant.search.retrieval import Retriever

        def retriever_of(store: Any) -> Any:
            from_settings = getattr(Retriever, "from_settings", None)  # hybrid, if any
            return (from_settings(self.settings, store=store) if from_settings else
                    Retriever(store=store, candidates=self.settings.candidates))

        # the papers are counted from the derived index (built now if it is missing, so the
        # first question does not wait for it): no Chroma read of every paper at 20k papers
        retriever = retriever_of(store) if _has_collection(store) else None
        if retriever is not None:
            phase("loading the index")
        if retriever is None or retriever.index().paper_count == 0:
            from assistant.settings import BUNDLED_COLLECTION, BUNDLED_SOURCE
            from assistant.sources.corpus import bundled_papers

            if self.settings.collection != BUNDLED_COLLECTION:  # only the default collection
                _missing(store, retriever)  # is filled with the bundled list (a typo is not)

            papers = bundled_papers()
            phase(f"first run: ingesting the bundled ICML 2026 list ({len(papers)} papers)")
            writable = open_writable(self.settings, embedder=embedder)
            writable.ingest(papers, source=BUNDLED_SOURCE, progress=on_progress)
            self.ingested = True
            store = writable
            retriever = retriever_of(store)
        self.paper_count = retriever.index().paper_count
        self.store = store
        self.retriever = retriever
        self._build_answerer()
        phase("warming up")
        from assistant import tokens

        tokens.encoding()
        embedder.embed_query("warm up")
        return self.paper_count

    def _build_answerer(self) -> None:
        from assistant.answer.factory import build_answerer

        assert self.store is not None
        old = self.answerer
        if old is not None and getattr(old, "chat", None) is not self._model:
            asyncio.get_running_loop().create_task(self._close(old))
        offline = self.settings.backend == "extractive"
        self.answerer = build_answerer(self.settings, embedder=self.store.embedder,
                                       model=None if offline else self._model)

    @staticmethod
    async def _close(answerer: Any) -> None:
        """Close an LLM answerer's HTTP client on the loop that opened it (else, at garbage
        collection, httpx tries to close it on whatever loop runs then)."""
        close = getattr(getattr(answerer, "chat", None), "aclose", None)
        if close is not None:
            with contextlib.suppress(Exception):
                await close()

    async def aclose(self) -> None:
        if self.answerer is not None and getattr(self.answerer, "chat", None) is not self._model:
            await self._close(self.answerer)

    @property
    def ready(self) -> bool:
        return self.answerer is not None

    def _require(self) -> tuple[Retriever, Answerer]:
        if self.retriever is None or self.answerer is None:
            raise NotReady("the store is still opening")
        return self.retriever, self.answerer

    # -- per question ----------------------------------------------------------------------
    def ask(self, question: str, *, filters: Filters | None = None,
            history: Sequence[tuple[str, str]] = (), k: int | None = None
            ) -> AsyncIterator[Event]:
        from assistant.answer.pipeline import astream

        retriever, answerer = self._require()
        return astream(question, retriever=retriever, answerer=answerer,
                       k=k or self.settings.k, filters=filters, history=history)

    def similar(self, paper: Paper | str, *, facet: str | None = None, k: int = 10
                ) -> tuple[Paper | None, Answer]:
        """The papers most like ``paper`` (a paper, or an id, a title or an abstract to find
        it by) on ``facet``, else its whole abstract, as a turn of the chat: each cited as [n]
        with its 0-1 score and the sentence pair that ties it. Returns the paper found too
        (None for an abstract the collection does not hold)."""
        from assistant.answer.listing import similar_answer
        from assistant.search.similar import resolve, similar

        retriever, _ = self._require()
        found, text = (paper, paper.abstract) if not isinstance(paper, str) else resolve(
            paper, retriever)
        listed = similar(text, retriever=retriever, facet=facet, k=k,
                         exclude=[found.paper_id] if found else [],
                         paper=found)
        title = found.display_title if found else "the abstract given"
        return found, similar_answer(listed, title=title, facet=facet)

    def papers(self) -> list[Paper]:
        if self.store is None:
            raise NotReady("the store is still opening")
        return self.store.papers()

    def set_model(self, name: str) -> str:
        """Switch the chat model (``offline`` for the extractive answerer); returns the label."""
        if name.lower() in ("offline", "extractive"):
            self.settings = self.settings.model_copy(update={"backend": "extractive"})
        else:
            self.settings = self.settings.model_copy(update={"model": name, "backend": "llm"})
            if self._model is not None:
                self._model.model = name
        if self.store is not None:
            self._build_answerer()
        return self.backend_label

    def relied_on(self, answer: Answer | None, paper: Paper) -> Evidence:
        """The abstract sentences ``answer`` relied on for ``paper`` (see evidence.py)."""
        from assistant.tui.evidence import relied_on

        embedder = self.store.embedder if self.store is not None else None
        return relied_on(answer, paper, embedder=embedder)


def _missing(store: Any, retriever: Any) -> NoReturn:
    """The error for a collection that is not there (listing those there are) or is empty."""
    from assistant.index.store import empty_collection

    if retriever is None:
        raise store.not_found()
    raise empty_collection(store.name, store.location)


def _has_collection(store: Any) -> bool:
    """Does the collection exist? Read from SQLite for an embedded store (no chromadb import:
    about a second of the chat's start)."""
    from assistant.errors import StoreNotFound

    try:
        store.revision()
    except StoreNotFound:
        if hasattr(store, "members"):  # several collections: a missing one is an error
            raise
        return False
    return True
