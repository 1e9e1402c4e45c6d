"""Asking across several collections: ``--collection icml2026,neurips2025``.

A ``UnionStore`` reads like one ``PaperStore`` (what retrieval, the answerer and the chat
read), over the named collections of one store: its derived index is built from every member's
chunks, so BM25 statistics, dense scores, filters and the answerability features are those of
one collection holding them all, and a ranking across collections is one ranking, not several
merged. The index is kept under the members' names joined with "+" (a character no collection
name has) and rebuilt when any member changes. A paper in two collections (same id) is kept
once, from the first collection named. Writing goes to one collection at a time.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.errors import InputError, StoreNotFound
from assistant.index.store import PaperStore
from assistant.paper import Paper

if TYPE_CHECKING:
    import numpy as np

    from assistant.index.embeddings import Embedder
    from assistant.index.protocol import ChunkHit, Row
    from assistant.settings import Settings


def names(collection: str) -> list[str]:
    """The collection names of a ``--collection`` value ("a,b" or "a, b")."""
    out = list(dict.fromkeys(n.strip() for n in collection.split(",") if n.strip()))
    if not out:
        raise InputError(f"no collection name in {collection!r}: pass --collection NAME[,NAME]")
    return out


class UnionStore:
    """Several collections of one store, read as one (see the module docstring)."""

    def __init__(self, members: list[PaperStore]) -> None:
        if len(members) < 2:
            raise ValueError("a union needs two collections or more")
        self.members = members
        first = members[0]
        self.name = "+".join(m.name for m in members)
        self.embedder = first.embedder
        self.path: Path | None = first.path
        self.url = first.url
        self.chunk_tokens, self.chunk_overlap = first.chunk_tokens, first.chunk_overlap

    @classmethod
    def from_settings(cls, settings: Settings, *, embedder: Embedder) -> UnionStore:
        members = []
        for name in names(settings.collection):
            member = settings.model_copy(update={"collection": name})
            members.append(PaperStore.from_settings(member, embedder=embedder))
        return cls(members)

    @property
    def location(self) -> str:
        return self.members[0].location

    @staticmethod
    def _missing(m: PaperStore) -> StoreNotFound:
        return StoreNotFound(f"no collection {m.name!r} in {m.location}: ingest it with "
                             f"`assistant ingest FILE --collection {m.name}`, or leave it out "
                             "of --collection (`assistant collections` lists them)")

    def _checked(self) -> None:
        """Each member exists and was embedded with this embedder (else its own clear error)."""
        for m in self.members:
            if not m.exists():
                raise self._missing(m)
            m.collection()

    def exists(self) -> bool:
        self._checked()
        return True

    def revision(self) -> str:
        out = []
        for m in self.members:
            try:
                out.append(m.revision())
            except StoreNotFound:
                if m.path is not None and not (m.path / "chroma.sqlite3").exists():
                    raise
                raise self._missing(m) from None
        return "+".join(out)

    def being_written(self) -> bool:
        return any(m.being_written() for m in self.members)

    def chunks_with_vectors(self) -> tuple[list[Row], np.ndarray | None]:
        import numpy as np

        self._checked()
        rows: list[Row] = []
        parts: list[np.ndarray] = []
        seen: set[str] = set()
        for m in self.members:
            got, vectors = m.chunks_with_vectors()
            keep = [i for i, (_, _, meta) in enumerate(got) if meta.get("paper_id") not in seen]
            seen.update(str(meta.get("paper_id")) for _, _, meta in got)
            rows.extend(got[i] for i in keep)
            if vectors is not None:
                parts.append(np.asarray(vectors)[keep] if keep else vectors[:0])
        both = len(parts) == len(self.members)
        return rows, (np.concatenate(parts) if both and parts else None)

    def papers(self, ids: Iterable[str] | None = None) -> list[Paper]:
        wanted = None if ids is None else list(dict.fromkeys(ids))
        found: dict[str, Paper] = {}
        for m in self.members:
            rest = None if wanted is None else [i for i in wanted if i not in found]
            if rest == []:
                break
            for p in m.papers(rest):
                found.setdefault(p.paper_id, p)
        if wanted is not None:
            return [found[i] for i in wanted if i in found]
        return sorted(found.values(), key=lambda p: (p.venue, -(p.year or 0), p.title.lower()))

    def paper_count(self) -> int:
        return len({p.paper_id for p in self.papers()})

    def dense(self, vector: np.ndarray, *, n: int, where: dict[str, Any] | None = None
              ) -> list[ChunkHit]:
        """Chroma's own search (used only when the derived index keeps no vectors)."""
        hits = [h for m in self.members for h in m.dense(vector, n=n, where=where)]
        best: dict[str, ChunkHit] = {}
        for h in sorted(hits, key=lambda h: -h.score):
            best.setdefault(h.chunk_id, h)
        return list(best.values())[:n]
