"""``open_store``: the store a setting names: one collection, or several read as one
(``--collection a,b``, see ``union``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.errors import InputError
from assistant.index.embeddings import make_embedder
from assistant.index.store import PaperStore
from assistant.index.union import UnionStore

if TYPE_CHECKING:
    from assistant.index.embeddings import Embedder
    from assistant.index.protocol import Store
    from assistant.settings import Settings


def open_store(settings: Settings, *, embedder: Embedder | None = None) -> Store:
    """The store ``settings.collection`` names, to read."""
    if "," in settings.collection:
        return UnionStore.from_settings(settings, embedder=embedder or make_embedder(settings))
    return PaperStore.from_settings(settings, embedder=embedder)


def open_writable(settings: Settings, *, embedder: Embedder | None = None) -> PaperStore:
    """The one collection an ingest writes (created if missing)."""
    if "," in settings.collection:
        raise InputError(f"ingest into one collection at a time, not "
                         f"{settings.collection!r}: pass --collection NAME")
    return PaperStore.from_settings(settings, embedder=embedder, create=True)
