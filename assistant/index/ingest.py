"""Streamed, resumable ingest: parse -> chunk -> embed in batches -> write, group by group.

``run(store, papers, source=...)`` makes the collection hold exactly ``papers`` for ``source``:

- **What is already there is checked chunk by chunk.** A paper is unchanged when every one of
  its chunks carries the same content hash (text, chunking and model) and it has as many chunks
  as its first chunk says it should (``nchunks``); otherwise it is embedded again. So a paper
  left half-written by an interrupted run is repaired by the next one.
- **Streamed in groups of papers** (``group`` papers, about 250): each group is chunked,
  embedded, checked (one vector of the model's dimension per chunk) and written in one upsert,
  so a paper's chunks commit together; the next group is embedded while the previous one is
  being written (one writer thread), and memory holds at most two groups' vectors, whatever
  the corpus size. After each write the collection's revision changes, so the derived index
  (chunk_index.py) is rebuilt from what was committed.
- **Resumable.** A run stopped by Ctrl-C or a kill keeps every group it wrote; the next run
  finds those papers unchanged and embeds only the rest (at most one group is lost).
- **Nothing that was there is lost.** A paper's old chunks are replaced only by its new ones,
  and papers that left the source are removed only after every group was written.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import shutil
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from assistant.errors import EmbeddingError, StoreError
from assistant.index.chunking import Chunk, chunk_paper, embed_text
from assistant.index.records import chunk_meta

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np

    from assistant.index.protocol import WritableStore
    from assistant.paper import Paper

log = logging.getLogger(__name__)
GROUP = 256  # papers per write group



@dataclass
class IngestReport:
    source: str
    papers: int = 0
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    chunks_embedded: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        took = ""
        if self.seconds >= 0.05 and self.chunks_embedded:
            rate = (self.added + self.updated) / self.seconds
            took = f" in {self.seconds:.1f} s, {rate:.1f} papers/s"
        return (f"{self.source}: {self.papers} papers ({self.added} added, {self.updated} "
                f"updated, {self.removed} removed, {self.unchanged} unchanged; "
                f"{self.chunks_embedded} chunks embedded{took})")


@dataclass
class Progress:
    """What a progress display shows: papers and chunks done of the work to do."""

    papers_done: int
    papers_total: int
    chunks_done: int
    started: float

    @property
    def rate(self) -> float:
        """Papers a second so far."""
        elapsed = time.perf_counter() - self.started
        return self.papers_done / elapsed if elapsed > 0 else 0.0


_CHECK_KEYS = ("paper_id", "chunk", "hash", "source", "nchunks")


def _chunk_metas(store: WritableStore) -> tuple[list[str], list[dict[str, Any]]]:
    """Every chunk's id and the metadata the unchanged-check reads. An embedded store's are
    read straight from its SQLite file (only those keys: the paper records are most of the
    metadata, and Chroma would return them all) when those tables hold every write Chroma
    logged, or agree with Chroma's count; otherwise, and on a server, through Chroma."""
    import sqlite3

    from assistant.index.sqlite_ro import read_only

    if store.path is not None and (store.path / "chroma.sqlite3").exists():
        try:
            with read_only(store.path / "chroma.sqlite3") as con:
                rows = con.execute(
                    "SELECT e.embedding_id, m.key, m.string_value, m.int_value "
                    "FROM embeddings e JOIN embedding_metadata m ON m.id = e.id "
                    "WHERE e.segment_id = (SELECT s.id FROM segments s JOIN collections c "
                    "ON s.collection = c.id WHERE c.name = ? AND s.scope = 'METADATA') "
                    f"AND m.key IN ({','.join('?' * len(_CHECK_KEYS))})",
                    (store.name, *_CHECK_KEYS)).fetchall()
                caught_up = con.execute(
                    "SELECT (SELECT m.seq_id FROM max_seq_id m JOIN segments s ON s.id = "
                    "m.segment_id JOIN collections c ON s.collection = c.id WHERE c.name = ? AND "
                    "s.scope = 'METADATA') >= (SELECT coalesce(max(q.seq_id), 0) FROM "
                    "embeddings_queue q JOIN collections c ON q.topic LIKE '%/' || c.id "
                    "WHERE c.name = ?)", (store.name, store.name)).fetchone()[0]
            metas: dict[str, dict[str, Any]] = {}
            for cid, key, text, number in rows:
                metas.setdefault(cid, {})[key] = text if text is not None else number
            # the metadata tables hold every write Chroma logged (no chromadb import), or
            # they agree with Chroma's own count
            if caught_up or len(metas) == store.count():
                return list(metas), list(metas.values())
            log.info("store file and Chroma disagree on the chunk count: reading via Chroma")
        except sqlite3.Error as exc:
            log.info("reading chunk metadata from SQLite failed (%s): reading via Chroma", exc)
    res = store.get_pages(include=["metadatas"])
    return res["ids"], res["metadatas"]


def _existing(store: WritableStore) -> dict[str, dict[str, Any]]:
    """Per paper already stored: its first chunk's metadata, its chunk ids and their hashes."""
    ids, metas = _chunk_metas(store)
    out: dict[str, dict[str, Any]] = {}
    for cid, meta in zip(ids, metas, strict=True):
        entry = out.setdefault(meta["paper_id"], {"ids": [], "hashes": set(), "first": None})
        entry["ids"].append(cid)
        entry["hashes"].add(meta.get("hash"))
        if meta.get("chunk") == 0:
            entry["first"] = meta
    return out


def _digest(paper: Paper, params: str) -> str:
    """The content hash every chunk carries: the paper's content, the chunking and the model."""
    import hashlib

    return hashlib.sha1(f"{paper.content_hash()}:{params}".encode()).hexdigest()[:20]


def _unchanged(entry: dict[str, Any] | None, digest: str, source: str) -> bool:
    if entry is None or entry["first"] is None:
        return False
    first = entry["first"]
    expected = first.get("nchunks")
    return (first.get("source") == source and entry["hashes"] == {digest}
            and (expected is None or int(expected) == len(entry["ids"])))


def run(store: WritableStore, papers: Sequence[Paper], *, source: str, prune: bool = True,
        progress: Callable[[Progress], None] | None = None, group: int = GROUP
        ) -> IngestReport:
    report = IngestReport(source=source, papers=len(papers))
    started = time.perf_counter()
    chunking = f"{store.chunk_tokens}/{store.chunk_overlap}"
    params = f"{chunking}/{store.embedder.name}"
    created = not store.exists()  # reading what is there creates the collection
    old = _existing(store)
    todo: list[tuple[Paper, str]] = []
    for paper in papers:
        digest = _digest(paper, params)
        entry = old.get(paper.paper_id)
        if _unchanged(entry, digest, source):
            report.unchanged += 1
            continue
        if entry is None:
            report.added += 1
        else:
            report.updated += 1
        todo.append((paper, digest))
    keep = {p.paper_id for p in papers}
    gone = sorted(pid for pid, e in old.items()
                  if e["first"] is not None and e["first"].get("source") == source
                  and pid not in keep)
    if not todo and not (prune and gone):  # nothing to write: Chroma is not even opened
        report.seconds = time.perf_counter() - started
        return report
    col = store.collection()
    try:
        _write_all(store, col, todo, old, gone, report, source=source, prune=prune,
                   progress=progress, group=group, started=started)
    except BaseException:
        if created:  # a collection that never received a paper is not left behind
            with contextlib.suppress(Exception):
                if store.count() == 0:
                    store.drop()
        raise
    return report


def _write_all(store: WritableStore, col: Any, todo: list[tuple[Paper, str]],
               old: dict[str, dict[str, Any]], gone: list[str], report: IngestReport, *,
               source: str, prune: bool, progress: Callable[[Progress], None] | None,
               group: int, started: float) -> None:
    chunking = f"{store.chunk_tokens}/{store.chunk_overlap}"
    batch = max(1, min(store.client().get_max_batch_size(), 5000))
    written = {"papers": 0}  # papers committed so far: a failed write says what is left
    state = Progress(0, len(todo), 0, started)
    if progress:
        progress(state)

    def write(part: list[tuple[Paper, Chunk, str]], texts: list[str], vectors: np.ndarray
              ) -> None:
        ids = [c.chunk_id for _, c, _ in part]
        counts: dict[str, int] = {}
        for p, _, _ in part:
            counts[p.paper_id] = counts.get(p.paper_id, 0) + 1
        metas = [chunk_meta(p, c, source, d, nchunks=counts[p.paper_id], chunking=chunking)
                 for p, c, d in part]
        try:
            for i in range(0, len(ids), batch):
                col.upsert(ids=ids[i:i + batch],
                           embeddings=[list(map(float, v)) for v in vectors[i:i + batch]],
                           metadatas=metas[i:i + batch])
            stale = sorted({cid for p in counts for cid in old.get(p, {"ids": []})["ids"]}
                           - set(ids))
            for i in range(0, len(stale), batch):
                col.delete(ids=stale[i:i + batch])
            store.bump_revision()
        except Exception as exc:
            left = len(todo) - written["papers"]
            per_paper = report.chunks_embedded / max(1, min(len(todo), state.papers_done))
            raise StoreError(write_failed(exc, store.path, papers=left,
                                          chunks=round(left * per_paper))) from None
        written["papers"] += len(counts)

    dim = getattr(store.embedder, "dim", None) or _stored_dim(col)
    pending: Future[None] | None = None
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest-write") as writer:
        try:
            for start in range(0, len(todo), group):
                part = [(p, c, d) for p, d in todo[start:start + group]
                        for c in chunk_paper(p, max_tokens=store.chunk_tokens,
                                             overlap=store.chunk_overlap)]
                texts = [embed_text(p.title, c.text) for p, c, _ in part]
                vectors = store.embedder.embed(texts)
                dim = check_vectors(vectors, len(texts), dim)
                report.chunks_embedded += len(texts)
                if pending is not None:
                    pending.result()  # at most one group waits to be written
                pending = writer.submit(write, part, texts, vectors)
                state.papers_done = min(start + group, len(todo))
                state.chunks_done = report.chunks_embedded
                if progress:
                    progress(state)
            if pending is not None:
                pending.result()
        except BaseException:
            if pending is not None and not pending.done():
                pending.result()  # let the group being written commit whole
            raise
    if prune and gone:
        report.removed = len(gone)
        drop = sorted(cid for pid in gone for cid in old[pid]["ids"])
        try:
            for i in range(0, len(drop), batch):
                col.delete(ids=drop[i:i + batch])
        except Exception as exc:
            raise StoreError(f"removing papers that left {source} failed ({exc}); re-run "
                             "the same ingest to finish it") from None
        store.bump_revision()
    report.seconds = time.perf_counter() - state.started


BYTES_PER_CHUNK = 6_500  # on disk, Chroma and the search index: 16,101 chunks in 105 MB


def write_failed(exc: Exception, where: Path | None, *, papers: int, chunks: int) -> str:
    """The line for a write that failed; for a full disk, how much room the rest needs."""
    text = str(exc)
    full = (getattr(exc, "errno", None) == errno.ENOSPC or "disk is full" in text
            or "No space left" in text)
    if not full:
        return (f"writing to the store failed ({text}); re-run the same ingest to continue "
                "where it stopped")
    free = ""
    if where is not None:
        with contextlib.suppress(OSError):
            free = f", {shutil.disk_usage(where).free / 1e6:.0f} MB free at {where}"
    need = max(chunks, 1) * BYTES_PER_CHUNK / 1e6
    return (f"writing to the store failed: the disk is full{free}. The rest of this ingest "
            f"({papers} papers, about {chunks} chunks) needs about {need:.0f} MB more: free "
            "that, then re-run the same ingest to continue where it stopped")


def _stored_dim(col: Any) -> int | None:
    """The width of the vectors already in the collection (None: it is empty)."""
    got = col.peek(1)
    vectors = got.get("embeddings")
    return len(vectors[0]) if vectors is not None and len(vectors) else None


def check_vectors(vectors: Any, expected: int, dim: int | None) -> int | None:
    """One finite vector of width ``dim`` per text, or nothing is written. Returns the width
    (the first group's, when ``dim`` was not known)."""
    import numpy as np

    try:
        arr = np.asarray(vectors, dtype=np.float32) if len(vectors) else np.zeros((0, 0))
    except (ValueError, TypeError):  # ragged: vectors of different lengths
        raise EmbeddingError("the embedder returned vectors of different dimensions: nothing "
                             "was written; check the embedding model and re-run") from None
    if len(arr) != expected:
        raise EmbeddingError(f"the embedder returned {len(arr)} vectors for {expected} texts: "
                             "nothing was written; check the embedding endpoint and re-run")
    if expected and (arr.ndim != 2 or (dim and arr.shape[1] != dim)
                     or not np.isfinite(arr).all()):
        shape = "x".join(map(str, arr.shape))
        raise EmbeddingError(f"the embedder returned vectors of shape {shape} (expected "
                             f"{expected}x{dim or '?'} finite numbers): nothing was written; "
                             "check the embedding model and re-run")
    return dim or (int(arr.shape[1]) if expected else None)
