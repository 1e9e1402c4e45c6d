"""``Store``: what the rest of the program reads from a store. ``PaperStore`` (one Chroma
collection, embedded or on a server) and ``UnionStore`` (several read as one) both satisfy it;
``WritableStore`` is what an ingest writes through (a ``PaperStore`` only); ``ChunkHit`` is what
``Store.dense`` finds."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

    from assistant.index.embeddings import Embedder
    from assistant.paper import Paper

Row = tuple[str, str, dict[str, Any]]  # chunk id, embedded text, metadata (Chroma's)


@dataclass
class ChunkHit:
    """One chunk Chroma's own search found (``Store.dense``)."""

    chunk_id: str
    paper_id: str
    text: str  # empty when the query did not fetch documents
    score: float  # cosine similarity


class Store(Protocol):
    name: str
    embedder: Embedder
    path: Path | None
    url: str | None
    chunk_tokens: int
    chunk_overlap: int

    @property
    def location(self) -> str: ...

    def exists(self) -> bool: ...

    def revision(self) -> str:
        """Changes whenever an ingest changes what the store holds (keys derived indexes)."""
        ...

    def being_written(self) -> bool: ...

    def chunks_with_vectors(self) -> tuple[list[Row], np.ndarray | None]: ...

    def papers(self, ids: Iterable[str] | None = None) -> list[Paper]: ...

    def paper_count(self) -> int: ...

    def dense(self, vector: np.ndarray, *, n: int, where: dict[str, Any] | None = None
              ) -> list[ChunkHit]: ...


class WritableStore(Store, Protocol):
    def collection(self) -> Any: ...

    def client(self) -> Any: ...

    def count(self) -> int: ...

    def get_pages(self, **kwargs: Any) -> dict[str, Any]: ...

    def bump_revision(self) -> None: ...

    def drop(self) -> None: ...

    def write_lock(self, *, on_wait: Callable[[], None] | None = None
                   ) -> AbstractContextManager[None]: ...
