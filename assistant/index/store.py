"""The Chroma collection: source of truth for chunks, vectors and paper records.

Each chunk is one Chroma record ``<paper_id>::<i>`` whose metadata carries the paper's
filterable fields; chunk 0 also carries the whole paper as JSON. The collection's metadata
records which embedding model made its vectors.
"""

from __future__ import annotations

import errno
import logging
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from assistant.errors import EmbeddingMismatch, InputError, StoreError, StoreNotFound
from assistant.index import ingest
from assistant.index.protocol import ChunkHit, Row
from assistant.index.records import record, unpack
from assistant.paper import Paper, listing_order

if TYPE_CHECKING:
    import numpy as np

    from assistant.index.chunking import Chunk
    from assistant.index.embeddings import Embedder
    from assistant.settings import Settings

log = logging.getLogger(__name__)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{1,510}[A-Za-z0-9]$")


def fill_command(collection: str) -> str:
    """The command that fills a collection: the bundled list for the default one."""
    from assistant.settings import BUNDLED_COLLECTION

    return ("assistant ingest" if collection == BUNDLED_COLLECTION
            else f"assistant ingest FILE --collection {collection}")


def empty_collection(collection: str, location: str) -> StoreNotFound:
    """The one error for a collection that holds no papers (ask, search, the chat)."""
    return StoreNotFound(f"collection {collection!r} in {location} holds no papers: fill it "
                         f"with `{fill_command(collection)}`")


def validate_collection_name(name: str) -> str:
    if not _NAME.match(name) or ".." in name:
        raise InputError(f"invalid collection name {name!r}: use 3-512 letters, digits, '.', '_' "
                         "or '-', starting and ending with a letter or digit")
    return name


class PaperStore:
    """One Chroma collection, embedded (``path``) or on a server (``url``)."""

    def __init__(self, *, collection: str, embedder: Embedder, path: Path | None = None,
                 url: str | None = None, chunk_tokens: int = 200, chunk_overlap: int = 40,
                 create: bool = False) -> None:
        self.name = validate_collection_name(collection)
        self.embedder = embedder
        self.path = Path(path) if path else None
        self.url = url
        self.chunk_tokens = chunk_tokens
        self.chunk_overlap = chunk_overlap
        self._create = create
        self._writing = False  # this process holds the write lock
        self._client: Any = None
        self._col: Any = None

    @classmethod
    def from_settings(cls, settings: Settings, *, embedder: Embedder | None = None,
                      create: bool = False) -> PaperStore:
        """One collection (``index.factory.open_store`` also opens several as one)."""
        from assistant.index.embeddings import make_embedder

        return cls(collection=settings.collection, embedder=embedder or make_embedder(settings),
                   path=None if settings.chroma_url else settings.store, url=settings.chroma_url,
                   chunk_tokens=settings.chunk_tokens, chunk_overlap=settings.chunk_overlap,
                   create=create)

    @property
    def location(self) -> str:
        return self.url or str(self.path)

    # -- connection ----------------------------------------------------------------------
    def client(self) -> Any:
        if self._client is not None:
            return self._client
        if not self.url and not self._create and not (
                Path(str(self.path)) / "chroma.sqlite3").exists():
            raise StoreNotFound(f"no store at {self.path}: run `assistant ingest` first "
                                "(or pass --store DIR)")
        import chromadb

        opts = chromadb.config.Settings(anonymized_telemetry=False)
        if self.url:
            parsed = urlparse(self.url if "://" in self.url else f"http://{self.url}")
            try:
                self._client = chromadb.HttpClient(
                    host=parsed.hostname or "127.0.0.1", port=parsed.port or 8000,
                    ssl=parsed.scheme == "https", settings=opts)
                self._client.heartbeat()
            except Exception as exc:
                self._client = None
                raise StoreError(
                    f"cannot reach the Chroma server at {self.url} ({type(exc).__name__}): "
                    "start it with `chroma run` or unset ASSISTANT_CHROMA_URL") from None
            return self._client
        assert self.path is not None
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the store folder {self.path} "
                             f"({exc.strerror or exc}): pass a writable --store DIR") from None
        if not os.access(self.path, os.W_OK):  # Chroma opens its file for writing, always
            raise self.read_only()
        if (self._create and not (self.path / "chroma.sqlite3").exists()
                and (self.path / "index").is_dir()):
            log.warning("%s holds a search index but no chroma.sqlite3 (deleted or moved?): "
                        "starting a new store file; papers it held must be ingested again",
                        self.path)
        try:
            self._client = chromadb.PersistentClient(path=str(self.path), settings=opts)
        except Exception as exc:
            if "readonly" in str(exc).lower() or "read-only" in str(exc).lower():
                raise self.read_only() from None
            hint = ("; its chroma.sqlite3 is damaged: restore it from a backup, or re-ingest "
                    "into a new --store" if any(w in str(exc) for w in ("malformed", "corrupt",
                                                          "not a database")) else "")
            raise StoreError(f"cannot open the store at {self.path}: {exc}{hint}") from None
        return self._client

    def not_found(self) -> StoreNotFound:
        """The one error for a collection that is not there, wherever it is asked for (ask,
        search, papers, chat): it lists the collections there are."""
        names = sorted(c.name for c in self.client().list_collections())
        there = (f"the collections there are {', '.join(names)}" if names
                 else "it holds no collection yet")
        return StoreNotFound(f"no collection {self.name!r} in {self.location} ({there}): pass "
                             f"one of those with --collection, or fill this one with "
                             f"`{fill_command(self.name)}`")

    def read_only(self) -> StoreError:
        """The error for a store this process cannot write (a read-only mount or folder)."""
        if self._create:
            return StoreError(f"the store at {self.path} is read-only: nothing was written; to "
                              "add papers, copy it to a writable folder and pass --store NEW")
        return StoreError(f"the store at {self.path} is read-only, and this needs to open it "
                          "with Chroma (its search index is missing or out of date): copy it "
                          "to a writable folder and pass --store NEW")

    def exists(self) -> bool:
        try:
            return self.name in {c.name for c in self.client().list_collections()}
        except StoreNotFound:
            return False

    def collection(self) -> Any:
        if self._col is not None:
            return self._col
        client = self.client()
        if self._create:
            self._col = client.get_or_create_collection(
                self.name, metadata={"embedding_model": self.embedder.name},
                configuration={"hnsw": {"space": "cosine"}}, embedding_function=None)
        else:
            if not self.exists():
                raise self.not_found()
            self._col = client.get_collection(self.name, embedding_function=None)
        model = (self._col.metadata or {}).get("embedding_model")
        if model and model != self.embedder.name:
            raise EmbeddingMismatch(
                f"collection {self.name!r} was embedded with {model}, not {self.embedder.name}: "
                "re-ingest into a new --collection, or switch ASSISTANT_EMBEDDER back")
        return self._col

    def count(self) -> int:
        return int(self.collection().count())

    def paper_count(self) -> int:
        return len(self.get_pages(where={"chunk": 0}, include=[])["ids"])

    # -- reading -------------------------------------------------------------------------
    def get_pages(self, **kwargs: Any) -> dict[str, Any]:
        col = self.collection()
        total = col.count()
        out: dict[str, list[Any]] = {"ids": [], "metadatas": [], "documents": []}
        page = 1000  # Chroma's own memory per page read grows with it
        for offset in range(0, max(total, 1), page):
            res = col.get(limit=page, offset=offset, **kwargs)
            out["ids"].extend(res["ids"])
            out["metadatas"].extend(res.get("metadatas") or [])
            out["documents"].extend(res.get("documents") or [])
            if len(res["ids"]) < page:
                break
        return out

    def papers(self, ids: Iterable[str] | None = None) -> list[Paper]:
        where: dict[str, Any] = {"chunk": 0}
        if ids is not None:
            ids = list(dict.fromkeys(ids))
            if not ids:
                return []
            where = {"$and": [{"chunk": 0}, {"paper_id": {"$in": ids}}]}
        res = self.get_pages(where=where, include=["metadatas"])
        papers = {m["paper_id"]: unpack(m) for m in res["metadatas"]}
        if ids is not None:
            return [papers[i] for i in ids if i in papers]
        return sorted(papers.values(), key=listing_order)

    def chunks(self, where: dict[str, Any] | None = None) -> list[Row]:
        """Every (chunk id, embedded text, metadata), for deriving the lexical index."""
        include = ["metadatas", "documents"]
        res = (self.get_pages(where=where, include=include) if where
               else self.get_pages(include=include))
        return self._complete(list(zip(res["ids"], res["documents"] or [None] * len(res["ids"]),
                                       res["metadatas"], strict=True)))

    def chunks_with_vectors(self) -> tuple[list[Row], np.ndarray | None]:
        """Every chunk (id, text, metadata) and its vector, in one order."""
        import numpy as np

        col = self.collection()
        rows: list[tuple[str, str | None, dict[str, Any]]] = []
        vecs: list[np.ndarray] = []
        page = 1000  # Chroma's own memory per page read grows with it
        for offset in range(0, max(col.count(), 1), page):
            res = col.get(limit=page, offset=offset,
                          include=["metadatas", "documents", "embeddings"])
            docs = res.get("documents") or [None] * len(res["ids"])
            rows.extend(zip(res["ids"], docs, res["metadatas"], strict=True))
            if res.get("embeddings") is not None and len(res["ids"]):
                vecs.append(np.asarray(res["embeddings"], dtype=np.float32))
            if len(res["ids"]) < page:
                break
        matrix = np.concatenate(vecs) if vecs else None
        return self._complete(rows), matrix

    def _complete(self, rows: list[tuple[str, str | None, dict[str, Any]]]) -> list[Row]:
        """Rows with their text (re-made from the paper record when no document is stored: the
        same chunking, so the same text that was embedded), and the paper's title and authors
        on every chunk. Each record is decoded once and let go (kept, 23k decoded records were
        a tenth of an index build's memory); chunk 0 also gets the record's status and
        acceptance ("_status", "_accepted") for the index's status filter."""
        from assistant.index.chunking import chunk_paper, embed_text

        firsts = {m["paper_id"]: m for _, _, m in rows if m.get("chunk") == 0}
        made: dict[str, tuple[list[str] | None, dict[str, Any]]] = {}
        out = []
        for cid, doc, meta in rows:
            pid = meta["paper_id"]
            first = firsts.get(pid)
            if pid not in made:
                made[pid] = self._paper_rows(first, texts=doc is None,
                                             chunk_paper=chunk_paper, embed_text=embed_text)
            texts, extra = made[pid]
            if doc is None:
                i = int(meta.get("chunk", 0))
                doc = texts[i] if texts is not None and i < len(texts) else ""
            if meta.get("chunk") != 0:
                extra = {k: v for k, v in extra.items() if not k.startswith("_")}
            extra = {k: v for k, v in extra.items() if k not in meta}
            out.append((cid, doc, {**meta, **extra} if extra else meta))
        return out

    def _paper_rows(self, first: dict[str, Any] | None, *, texts: bool,
                    chunk_paper: Callable[..., list[Chunk]], embed_text: Callable[[str, str], str]
                    ) -> tuple[list[str] | None, dict[str, Any]]:
        """One paper's chunk texts (when ``texts``) and what its chunks get from its record."""
        if not first:
            return None, {}
        try:
            rec = record(first) if ("paper_z" in first or "paper" in first) else {}
        except (TypeError, ValueError, KeyError):
            rec = {}
        extra: dict[str, Any] = {k: first[k] for k in ("title", "authors") if k in first}
        if "title" not in extra:
            extra = {"title": str(rec.get("title") or ""),
                     "authors": "; ".join(rec.get("authors") or [])}
        info = rec.get("extra") or {}
        accepted = info.get("accepted")
        extra["_status"] = str(info.get("status") or "")
        extra["_accepted"] = accepted if isinstance(accepted, bool | str | int | float) else None
        if not texts:
            return None, extra
        paper = Paper.from_dict(rec)
        tokens, overlap = (int(x) for x in (first.get("chunking") or
                           f"{self.chunk_tokens}/{self.chunk_overlap}").split("/"))
        return ([embed_text(paper.title, c.text) for c in
                 chunk_paper(paper, max_tokens=tokens, overlap=overlap)], extra)

    def dense(self, vector: np.ndarray, *, n: int, where: dict[str, Any] | None = None
              ) -> list[ChunkHit]:
        col = self.collection()
        total = col.count()
        if total == 0:
            return []
        res = col.query(query_embeddings=[list(map(float, vector))], n_results=min(n, total),
                        where=where or None, include=["metadatas", "distances"])
        return [ChunkHit(cid, meta["paper_id"], "", 1.0 - float(dist))
                for cid, meta, dist in zip(res["ids"][0], res["metadatas"][0],
                                           res["distances"][0], strict=True)]

    # -- writing -------------------------------------------------------------------------
    def ingest(self, papers: Sequence[Paper], *, source: str, prune: bool = True,
               progress: Callable[[int, int], None] | None = None) -> ingest.IngestReport:
        """Make the collection hold exactly ``papers`` for ``source`` (streamed and resumable:
        see ingest.py). ``progress(papers done, papers to embed)``."""
        return ingest.run(self, papers, source=source, prune=prune,
                          progress=(lambda st: progress(st.papers_done, st.papers_total))
                          if progress else None)

    def write_lock(self, *, on_wait: Callable[[], None] | None = None
                   ) -> AbstractContextManager[None]:
        """An exclusive lock on an embedded store for the length of a write (ingest, index
        build): a second ingest waits for the first instead of failing half-way. A Chroma
        server is its own arbiter: no lock."""
        import contextlib
        import fcntl

        @contextlib.contextmanager
        def held() -> Iterator[None]:
            if self.path is None:
                yield
                return
            try:
                self.path.mkdir(parents=True, exist_ok=True)
                fh = (self.path / ".write.lock").open("a")
            except OSError as exc:
                if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                    raise self.read_only() from None
                raise StoreError(f"cannot lock the store at {self.path} for writing "
                                 f"({exc.strerror or exc}): pass another --store DIR") from None
            with fh:
                try:
                    fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    if on_wait:
                        on_wait()
                    fcntl.flock(fh, fcntl.LOCK_EX)
                self._writing = True
                try:
                    yield
                finally:
                    self._writing = False
                    fcntl.flock(fh, fcntl.LOCK_UN)

        return held()

    def being_written(self) -> bool:
        """Does another process hold this embedded store's write lock (an ingest running)?
        Not this one: an ingest builds the index from what it has just written."""
        import fcntl

        if self._writing:
            return False
        lock = self.path / ".write.lock" if self.path is not None else None
        if lock is None or not lock.exists():
            return False
        with lock.open("a") as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(fh, fcntl.LOCK_UN)
        return False

    def revision(self) -> str:
        """Changes whenever an ingest changes the collection (keys derived indexes)."""
        fast = self._peek_revision()  # cheap, and sees another process's ingest
        if fast:
            return fast
        if self._col is not None and self.url:  # a server's handle caches the metadata
            self._col = None
        col = self.collection()
        return str((col.metadata or {}).get("revision") or f"count:{col.count()}")

    def _peek_revision(self) -> str | None:
        """The revision read straight from an embedded store's SQLite file, without importing
        chromadb (about a second of start-up): the common path of `ask` when the derived index
        is current. The same checks as ``collection()``: a missing store or collection and
        another embedding model are errors. None: not embedded, or anything unexpected (the
        caller asks Chroma)."""
        import sqlite3

        from assistant.index.sqlite_ro import read_only

        if self.url or self.path is None:
            return None
        db = self.path / "chroma.sqlite3"
        if not db.exists():
            if self._create:
                return None
            raise StoreNotFound(f"no store at {self.path}: run `assistant ingest` first "
                                "(or pass --store DIR)")
        try:
            with read_only(db) as con:
                rows = con.execute(
                    "SELECT m.key, m.str_value FROM collections c LEFT JOIN collection_metadata m"
                    " ON m.collection_id = c.id WHERE c.name = ?", (self.name,)).fetchall()
        except sqlite3.Error:
            return None
        if not rows:
            if not self._create:
                self.collection()  # raises StoreNotFound, naming the collection
            return None
        meta = {k: v for k, v in rows if k}
        model = meta.get("embedding_model")
        if model and model != self.embedder.name:
            self.collection()  # raises EmbeddingMismatch with its message
        return meta.get("revision") or None

    def bump_revision(self) -> None:
        import uuid

        col = self.collection()
        meta = dict(col.metadata or {})
        meta["revision"] = uuid.uuid4().hex
        col.modify(metadata=meta)
        self._col = None  # re-read the metadata on next use

    def drop(self) -> None:
        if self.exists():
            self.client().delete_collection(self.name)
        self._col = None
