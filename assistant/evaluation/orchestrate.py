"""An evaluation run from settings, as ``assistant eval`` makes it: the store it runs over (the
bundled list ingested into an empty icml2026 collection; a benchmark's own ``-bench`` store),
the answerer and the LLM judge, then the run and its reports.

The front end prints: ``note`` and ``progress`` hear what there is to tell, and the results are
returned. Parts can be passed in (``store``, ``ingest``) instead of opened here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.errors import InputError
from assistant.settings import BUNDLED_SOURCE

if TYPE_CHECKING:
    from assistant.evaluation.suite import Suite
    from assistant.index.ingest import IngestReport
    from assistant.index.store import PaperStore
    from assistant.llm.client import ChatModel
    from assistant.paper import Paper
    from assistant.search.retrieval import Mode
    from assistant.settings import Settings

Say = Callable[[str], None]
# (store, papers, source) -> what was written; e.g. the CLI's ingest with a progress bar
Ingest = Callable[["PaperStore", Sequence["Paper"], str], "IngestReport"]


def open_writable(settings: Settings) -> PaperStore:
    """The one collection an evaluation writes (made if missing)."""
    from assistant.index.embeddings import make_embedder

    embedder = make_embedder(settings)
    embedder.preload()  # the model loads while Chroma imports
    from assistant.index import factory

    return factory.open_writable(settings, embedder=embedder)


# -- Q&A suites -----------------------------------------------------------------------------
def suite_settings(suite: Suite, settings: Settings, *, collection_given: bool) -> Settings:
    """The collection the suite names, unless one was asked for."""
    if suite.collection and not collection_given:
        return settings.model_copy(update={"collection": suite.collection})
    return settings


def suite_store(settings: Settings, *, store: PaperStore | None = None,
                note: Say | None = None) -> PaperStore:
    """The store a suite runs over. An empty icml2026 collection gets the bundled list (``note``
    hears the ingest's summary); any other empty collection is an error naming the ingest."""
    if store is None:
        store = open_writable(settings)
    if store.paper_count() == 0 and settings.collection == "icml2026":
        from assistant.sources.corpus import bundled_papers

        summary = store.ingest(bundled_papers(), source=BUNDLED_SOURCE).summary()
        if note is not None:
            note(summary)
    elif store.paper_count() == 0:
        raise InputError(f"collection {settings.collection!r} in {store.location} holds no "
                         f"papers: ingest the papers this suite asks about first (assistant "
                         f"ingest FILE --collection {settings.collection}; see the suite's "
                         f"header)")
    return store


def judge_model(settings: Settings, *, store: PaperStore) -> ChatModel:
    """The chat model that scores answers (the LLM the settings configure, whatever the
    backend under test)."""
    from assistant.answer.factory import build_answerer
    from assistant.answer.llm_answerer import LLMAnswerer

    judge = build_answerer(settings.model_copy(update={"backend": "llm"}),
                           embedder=store.embedder)
    assert isinstance(judge, LLMAnswerer)
    return judge.chat


def run_and_report(suite: Suite, *, settings: Settings, store: PaperStore, runs_dir: Path,
                   baseline: Path | None = None, judge: bool = False,
                   progress: Say | None = None) -> tuple[dict[str, Any], Path]:
    """Runs the suite with the answerer the settings build (``judge``: the LLM judge scores
    the answers too) and writes its reports; returns the result and the report folder."""
    from assistant.answer.factory import build_answerer
    from assistant.evaluation import runner
    from assistant.search.retrieval import Retriever

    earlier = runner.load_baseline(baseline) if baseline else None
    answerer = build_answerer(settings, embedder=store.embedder)
    judge_chat = judge_model(settings, store=store) if judge else None
    result = runner.run_suite(suite, retriever=Retriever.from_settings(settings, store=store),
                              answerer=answerer, judge_model=judge_chat, progress=progress)
    return result, runner.write_reports(result, runs_dir, earlier)


# -- BEIR retrieval benchmarks --------------------------------------------------------------
def bench_settings(settings: Settings, *, store_given: bool) -> Settings:
    """A benchmark never writes into the user's own store: ``<store>-bench`` beside it, unless
    a store or a Chroma server was asked for."""
    if not store_given and not settings.chroma_url:
        return settings.model_copy(
            update={"store": settings.store.with_name(settings.store.name + "-bench")})
    return settings


def run_beir(settings: Settings, *, corpus: Path, queries: Path, qrels: Path,
             mode: Mode | None = None, splits: Path | None = None, split: str | None = None,
             store: PaperStore | None = None, ingest: Ingest | None = None,
             note: Say | None = None) -> dict[str, Any]:
    """Ingests the corpus (``ingest``, by default without progress) and runs its judged queries
    (those of ``split`` in the ``splits`` file, default test); ``note`` hears the store, the
    ingest's summary and the progress."""
    from assistant.evaluation import beir
    from assistant.search.retrieval import Retriever
    from assistant.sources.corpus import load_papers

    if store is None:
        store = open_writable(settings)
    say: Say = note or (lambda _: None)
    say(f"benchmark store: {store.location} (collection {store.name!r})")
    papers, source = load_papers(corpus), str(corpus.resolve())
    if ingest is not None:
        report = ingest(store, papers, source)
    else:
        from assistant.index import ingest as plain

        report = plain.run(store, papers, source=source, prune=True)
    say(report.summary())
    del papers
    return beir.evaluate(corpus=corpus, queries=queries, qrels=qrels, store=store,
                         retriever=Retriever.from_settings(settings, store=store),
                         mode=mode or settings.retrieval_mode, progress=note,
                         only=beir.split_ids(splits, split or "test") if splits else None)
