"""What the command handlers share: settings from the flags, the store they open, the verifier
loading beside it, the --venue/--year/--author/--status filters, JSON on stdout, and how a
listing names a paper's other entry."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, Literal, overload

if TYPE_CHECKING:
    from assistant.index.protocol import Store
    from assistant.index.store import PaperStore
    from assistant.paper import Paper
    from assistant.search.retrieval import Filters, Retriever
    from assistant.settings import Settings


def settings_from(args: argparse.Namespace, **extra: Any) -> Settings:
    """The settings, with the store, collection and Chroma server the flags name."""
    from assistant.settings import load_settings

    return load_settings(store=getattr(args, "store", None),
                         collection=getattr(args, "collection", None),
                         chroma_url=getattr(args, "chroma_url", None), **extra)


@overload
def open_store(settings: Settings, *, create: Literal[True]) -> PaperStore: ...
@overload
def open_store(settings: Settings, *, create: Literal[False] = ...) -> Store: ...
def open_store(settings: Settings, *, create: bool = False) -> Store:
    """The store to read (``create``: the one collection to write, made if missing)."""
    from assistant.index.embeddings import make_embedder

    embedder = make_embedder(settings)
    embedder.preload()  # the model loads while Chroma imports
    from assistant.index import factory

    if create:
        return factory.open_writable(settings, embedder=embedder)
    return factory.open_store(settings, embedder=embedder)


def preload_verifier() -> None:
    """The decision's verifier loads while the store opens (ask, search)."""
    from assistant.judge.verifier import shared

    shared().preload()


def require_papers(store: Store, retriever: Retriever) -> None:
    """An empty collection is reported as such, with the command that fills it."""
    from assistant.index.store import empty_collection

    if retriever.index().paper_count == 0:
        raise empty_collection(store.name, store.location)


def filters_from(args: argparse.Namespace) -> Filters:
    from assistant.search.retrieval import Filters

    return Filters(venue=args.venue, year=args.year, author=args.author, status=args.status,
                   since=args.since, until=args.until)


def print_json(obj: Any) -> None:
    from assistant.textutil import safe_json

    sys.stdout.write(safe_json(obj) + "\n")


def also_as(paper: Paper) -> str:
    """Another entry of a listed paper (search/versions.py), as `search` and `similar` name it
    under the paper: "(ICLR 2018)  [id]"."""
    where = f"({paper.venue_year})  " if paper.venue_year else ""
    return f"{where}[{paper.paper_id}]"
