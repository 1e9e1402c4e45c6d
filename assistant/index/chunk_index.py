"""The chunk index: BM25 (bm25s, Lucene scoring, Snowball stemming) and exact vectors.

It is derived data; the Chroma collection stays the source of truth. It lives beside the store
(``<store>/index/<collection>/``, or a user cache folder for a Chroma server), records the
collection revision it was built from, and is rebuilt from the collection whenever it is
missing or stale — so a client of a Chroma server can rebuild it too.

It holds, in one row order: the BM25 index of the chunk text, each chunk's vector (exact dense
search is a 0.2 ms matrix product at 11k chunks, against ~17 ms for Chroma's HNSW query at the
200-candidate depth fusion wants), and each chunk's paper id, venue, year, authors and
status (with ``accepted``, from the paper record on chunk 0), so one filter mask applies to both
retrieval sides inside candidate generation: a filtered search ranks only the papers that pass.
The manifest records the format; an index of another format is rebuilt like a stale one.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.errors import StoreError
from assistant.paper import venue_names

if TYPE_CHECKING:
    import numpy as np

    from assistant.index.protocol import Row, Store
    from assistant.paper import Paper

log = logging.getLogger(__name__)
FORMAT = 6  # 3: per-chunk authors, status and accepted; 4: paper records (records.db);
# 5: vectors one column a chunk in float16, records as packed text; 6: the name each title
# opens with before a colon (records.db "titled")
_COLUMNS = ("ids", "papers", "venues", "years", "authors", "status", "accepted")
Accepted = bool | str | int | float | None  # a paper record's "accepted", as the list gave it
_VERIFIED: dict[str, dict[str, list[int]]] = {}  # index folder -> its files' stamp when their
# checksums last matched, in this process


@functools.cache
def _bm25s() -> Any:
    """bm25s, imported once; its import sets its own logger to DEBUG, which would print
    "Building index from tokens" on every ingest: keep it at the root logger's level."""
    import bm25s

    logging.getLogger("bm25s").setLevel(logging.getLogger().getEffectiveLevel())
    return bm25s


@functools.cache
def _stemmer() -> Any:
    import Stemmer

    return Stemmer.Stemmer("english")


def tokenize(texts: list[str]) -> list[list[str]]:
    return list(_bm25s().tokenize(texts, stemmer=_stemmer(), stopwords="english",
                                  return_ids=False, show_progress=False))


@dataclass
class IndexHit:
    chunk_id: str
    paper_id: str
    score: float


class ChunkIndex:
    def __init__(self, directory: Path, *, k1: float = 0.9, b: float = 0.4) -> None:
        self.directory = Path(directory)
        self.k1 = k1
        self.b = b
        self._bm25: Any = None  # a bm25s.BM25 once loaded (False: the index holds no text)
        self._meta: dict[str, Any] = {}  # chunks.json
        # per chunk row, set by load() (and read only after it): paper id, venue, year
        self._papers: np.ndarray
        self._venues: np.ndarray
        self._years: np.ndarray
        self._vectors: np.ndarray | None = None
        self._row: dict[str, int] = {}
        self._paper_of: np.ndarray  # chunk row -> row in _paper_ids (set by load())
        self._paper_ids: np.ndarray  # set by load()
        self._first_chunk: dict[str, str] = {}
        self._first: np.ndarray | tuple[()] = ()  # per paper: its first chunk row
        self._names: list[list[str]] = []  # per paper: author names, lower case
        self._tags: list[frozenset[str]] = []  # per paper: what a status filter matches
        self._paper_masks: dict[tuple[str, str], np.ndarray] = {}

    # -- lifecycle -----------------------------------------------------------------------
    def _manifest(self) -> dict[str, Any] | None:
        """The index's manifest, or None (missing, unreadable or garbage: rebuilt)."""
        try:
            data = json.loads((self.directory / "manifest.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):  # ValueError: not JSON, not UTF-8
            return None
        return data if isinstance(data, dict) else None

    def _matches(self, data: dict[str, Any] | None) -> bool:
        return (data is not None and data.get("format") == FORMAT and data.get("k1") == self.k1
                and data.get("b") == self.b)

    @property
    def revision(self) -> str | None:
        data = self._manifest()
        return data.get("revision") if data is not None and self._matches(data) else None

    def usable(self) -> bool:
        """An index of this format and these BM25 parameters is there (whatever revision)."""
        return self._matches(self._manifest())

    def intact(self) -> bool:
        """Every file as the manifest recorded it (size and CRC-32)? The CRCs are computed in
        full the first time a process opens the index (~15 ms for 20 MB), so damage that keeps a
        file's size and modification time (bit rot, a restored backup, a copy that keeps times)
        is found; later checks in the same process recompute them only when a file's size or
        modification time changed."""
        data = self._manifest()
        if data is None:
            return False
        recorded = data.get("files")
        if recorded is None:
            return True  # written before checksums: trusted as before
        stamp = _stamp(self.directory)
        key = str(self.directory.resolve())
        if _VERIFIED.get(key) == stamp:
            return True
        ok = {k: list(v) for k, v in recorded.items()} == _checksums(self.directory)
        if ok:
            _VERIFIED[key] = stamp
        return ok

    def build(self, rows: list[Row], *, revision: str, vectors: np.ndarray | None = None
              ) -> None:
        """Index (chunk id, text, metadata) rows and their vectors; built in a temp dir, then
        swapped in, so a reader never sees half an index."""
        import numpy as np

        bm25s = _bm25s()
        self.directory.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".index-", dir=self.directory.parent))
        try:
            ids = [r[0] for r in rows]
            status = _statuses(rows)
            papers = [r[2].get("paper_id", "") for r in rows]
            meta = {"ids": ids, "papers": papers,
                    "venues": [r[2].get("venue_lc", "") for r in rows],
                    "years": [int(r[2].get("year") or 0) for r in rows],
                    "authors": [str(r[2].get("authors") or "") for r in rows],
                    "status": [status.get(p, ("", None))[0] for p in papers],
                    "accepted": [status.get(p, ("", None))[1] for p in papers]}
            # token ids with one vocabulary, not a string per token: a third of the build's
            # peak memory at 33k chunks
            tokens = (_bm25s().tokenize([r[1] for r in rows], stemmer=_stemmer(),
                                        stopwords="english", return_ids=True,
                                        show_progress=False) if rows else None)
            if tokens is not None and tokens.vocab:  # no index of no words (stopwords only)
                bm25 = bm25s.BM25(k1=self.k1, b=self.b, method="lucene")
                bm25.index(tokens, show_progress=False)
                bm25.save(str(tmp / "bm25"), show_progress=False)
            (tmp / "chunks.json").write_text(json.dumps(meta))
            _write_records(tmp / "records.db", rows)
            if vectors is not None and len(rows):  # one column a chunk, half precision
                np.save(tmp / "vectors.npy", np.ascontiguousarray(
                    np.asarray(vectors, dtype=np.float32).T.astype(np.float16)))
            (tmp / "manifest.json").write_text(json.dumps(
                {"format": FORMAT, "revision": revision, "count": len(rows),
                 "papers": len(set(papers)), "k1": self.k1,
                 "b": self.b, "files": _checksums(tmp)}))
            if self.directory.is_dir() and not self.directory.is_symlink():
                shutil.rmtree(self.directory)
            elif self.directory.exists() or self.directory.is_symlink():
                self.directory.unlink()  # a file where the index folder should be: derived
            os.replace(tmp, self.directory)
        except Exception:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        self._bm25 = None
        self._row = {}
        self._paper_masks = {}

    def load(self) -> None:
        import numpy as np

        bm25s = _bm25s()
        if self._bm25 is not None:
            return
        try:
            self._meta = json.loads((self.directory / "chunks.json").read_text())
            missing = [c for c in _COLUMNS if c not in self._meta]
            if missing:
                raise ValueError(f"no {', '.join(missing)}: an older format")
            bm25_dir = self.directory / "bm25"
            self._bm25 = (bm25s.BM25.load(str(bm25_dir), mmap=False, show_progress=False)
                          if bm25_dir.exists() else False)
        except (OSError, ValueError) as exc:
            raise StoreError(f"the chunk index at {self.directory} is unreadable ({exc}): "
                             "delete that folder and it will be rebuilt") from None
        self._papers = np.asarray(self._meta["papers"], dtype=object)
        self._venues = np.asarray(self._meta["venues"], dtype=object)
        self._years = np.asarray(self._meta["years"], dtype=np.int32)
        self._load_papers()
        vec_path = self.directory / "vectors.npy"
        # kept one column a chunk: numpy's (BLAS) vector-matrix product over that layout is 2.4x
        # faster than matrix-vector over rows at 33k chunks on one thread (bench/scale.py)
        self._vectors = (np.load(vec_path).astype(np.float32) if vec_path.exists() else None)

    def _load_papers(self) -> None:
        """Per-paper author names and status tags: a filter is tested once a paper, not once a
        chunk, then spread to the paper's chunks."""
        import numpy as np

        papers = self._meta["papers"]
        self._paper_ids, first, self._paper_of = np.unique(
            np.asarray(papers, dtype=str), return_index=True, return_inverse=True)
        self._first_chunk = {str(self._paper_ids[k]): self._meta["ids"][i]
                             for k, i in enumerate(first)}
        self._first = first
        self._names, self._tags = [], []  # made on the first author or status filter
        self._paper_masks = {}
        self._spoken: dict[str, str] | None = None

    def _per_paper(self) -> None:
        """Each paper's author names and status tags (half a second at 23k papers: only a
        question with an author or status filter pays it)."""
        from assistant.paper import tags_for

        if self._names or not len(self._first):
            return
        self._names = [[a.strip().lower() for a in self._meta["authors"][i].split(";")
                        if a.strip()] for i in self._first]
        self._tags = [tags_for(self._meta["status"][i], self._meta["accepted"][i])
                      for i in self._first]

    def author_names(self) -> dict[str, str]:
        """Each author's name as a question may say it (lower case, single spaces; a name of
        three words or more also as its first and last: "leslie kaelbling") -> the name as
        the list spells it. A short form two authors share is left out (it names neither)."""
        self.load()
        if self._spoken is None:
            full: dict[str, str] = {}
            short: dict[str, set[str]] = {}
            for i in self._first:  # one chunk a paper
                for name in str(self._meta["authors"][i]).split(";"):
                    said = " ".join(name.split())
                    words = said.lower().split()
                    if len(words) < 2:
                        continue
                    full.setdefault(" ".join(words), said)
                    if len(words) > 2:
                        short.setdefault(f"{words[0]} {words[-1]}", set()).add(said)
            spoken = {k: next(iter(v)) for k, v in short.items() if len(v) == 1}
            spoken.update(full)
            self._spoken = spoken
        return self._spoken

    def paper_mask(self, *, author: str | None = None, status: str | None = None
                   ) -> np.ndarray:
        """Per paper (rows of ``paper_ids_of``): does it pass the author and status filters?
        ``author`` is a case-insensitive substring of any author's name; ``status`` is one of
        the paper's status tags (see ``assistant.paper.tags_for``), case-insensitive."""
        import numpy as np

        self.load()
        key = (" ".join((author or "").lower().split()), " ".join((status or "").lower().split()))
        if key not in self._paper_masks:
            self._per_paper()
            needle, want = key
            self._paper_masks[key] = np.fromiter(
                ((not needle or any(needle in name for name in names))
                 and (not want or want in tags)
                 for names, tags in zip(self._names, self._tags, strict=True)),
                dtype=bool, count=len(self._names))
        return self._paper_masks[key]

    def status_tags(self) -> list[frozenset[str]]:
        """Each paper's status tags (what a status filter can match)."""
        self.load()
        self._per_paper()
        return list(self._tags)

    def paper_ids_of(self, paper_mask: np.ndarray, *, newest_first: bool = False) -> list[str]:
        """The paper ids a per-paper mask selects (with ``newest_first``, by year, latest
        first)."""
        import numpy as np

        self.load()
        ids = self._paper_ids[paper_mask]
        if newest_first:
            ids = ids[np.argsort(-self._years[self._first][paper_mask], kind="stable")]
        return [str(p) for p in ids]

    @property
    def paper_count(self) -> int:
        if self._bm25 is None:  # not loaded: the manifest says, when it is whole
            data = self._manifest()
            if data is not None and isinstance(data.get("papers"), int) and self.intact():
                return int(data["papers"])
        self.load()
        return len(self._paper_ids)

    def papers(self, ids: list[str]) -> list[Paper] | None:
        """The paper records of these ids, in that order, read from the index (so a question
        needs no Chroma client); None when this index keeps no records (an older one)."""
        from assistant.index.sqlite_ro import read_only

        db = self.directory / "records.db"
        if not db.exists():
            return None
        with read_only(db) as con:
            found = dict(con.execute(
                f"SELECT id, rec FROM records WHERE id IN ({','.join('?' * len(ids))})",
                ids).fetchall()) if ids else {}
        return [_record_paper(found[i]) for i in ids if i in found]

    def titled(self, name: str) -> list[str]:
        """The papers whose title opens with ``name`` as written, before a colon ("ROAD" for
        "ROAD: ..."): one lookup, however many papers use the name as a word."""
        from assistant.index.sqlite_ro import read_only

        db = self.directory / "records.db"
        if not db.exists():
            return []
        with read_only(db) as con:
            return [i for (i,) in con.execute("SELECT id FROM titled WHERE name = ?",
                                              (name.strip(),))]

    def all_papers(self) -> list[Paper] | None:
        """Every paper record the index keeps, in the order ``PaperStore.papers`` lists them
        (None: an older index without records). No Chroma client: a read-only store lists."""
        from assistant.index.sqlite_ro import read_only
        from assistant.paper import listing_order

        db = self.directory / "records.db"
        if not db.exists():
            return None
        with read_only(db) as con:
            recs = [r for (r,) in con.execute("SELECT rec FROM records")]
        return sorted(map(_record_paper, recs), key=listing_order)

    def postings(self, stems: Sequence[str]) -> np.ndarray | None:
        """The chunks (row numbers) holding every one of these BM25 stems; None when one of
        them is not in the collection (search/translate.py picks a gloss by them)."""
        import numpy as np

        self.load()
        if not self._bm25 or not stems:
            return None
        vocab, scores = self._bm25.vocab_dict, self._bm25.scores
        indptr, indices = scores["indptr"], scores["indices"]
        out: np.ndarray | None = None
        for stem in stems:
            t = vocab.get(stem)
            if t is None or t + 1 >= len(indptr):
                return None
            rows = indices[indptr[t]:indptr[t + 1]]
            out = rows if out is None else np.intersect1d(out, rows, assume_unique=True)
        return out

    @property
    def chunk_count(self) -> int:
        self.load()
        return len(self._meta["ids"])

    def paper_level(self, scores: dict[str, float], mask: np.ndarray | None
                    ) -> dict[str, tuple[float, list[str]]]:
        """Per-paper scores (a side that scores whole papers, multilingual.py) in the shape
        the chunk sides aggregate to: only papers with a chunk passing ``mask``, each with its
        first chunk."""
        self.load()
        allowed = None if mask is None else {str(p) for p in self._papers[mask]}
        return {p: (s, [self._first_chunk[p]]) for p, s in scores.items()
                if p in self._first_chunk and (allowed is None or p in allowed)}

    def venue_years(self) -> dict[tuple[str, int], int]:
        """Papers per (venue, year), one count a paper ("" and 0 where the list did not say);
        venues lower case, as filters read them."""
        self.load()
        pairs = zip(self._venues[self._first], self._years[self._first], strict=True)
        counts: dict[tuple[str, int], int] = {}
        for venue, year in pairs:
            key = (str(venue or ""), int(year))
            counts[key] = counts.get(key, 0) + 1
        return counts

    def facets(self) -> tuple[set[str], set[int]]:
        """The venues (lower case) and years the index holds, for reading filters."""
        self.load()
        return set(self._meta["venues"]) - {""}, set(self._meta["years"]) - {0}

    # -- search --------------------------------------------------------------------------
    def mask(self, *, venue: str | None = None, year: int | None = None,
             author: str | None = None, status: str | None = None,
             paper_ids: list[str] | None = None, since: int | None = None,
             until: int | None = None) -> np.ndarray | None:
        """The chunks that pass every given filter (None: no filter given); ``since`` and
        ``until`` bound the year, both inclusive (a paper of no known year passes neither)."""
        import numpy as np

        self.load()
        if not (venue or year or author or status or paper_ids or since or until):
            return None
        m = np.ones(len(self._meta["ids"]), dtype=bool)
        if venue:  # by any of its names ("NeurIPS" finds a list's "nips")
            m &= np.isin(self._venues, venue_names(venue))
        if year:
            m &= self._years == int(year)
        if since:
            m &= self._years >= int(since)
        if until:
            m &= (self._years <= int(until)) & (self._years > 0)
        if author or status:
            m &= self.paper_mask(author=author, status=status)[self._paper_of]
        if paper_ids:
            m &= np.isin(self._papers, list(paper_ids))
        return m

    def vectors_of(self, chunk_ids: list[str]) -> np.ndarray | None:
        """The stored vectors of these chunks (rows in the given order)."""
        self.load()
        if self._vectors is None:
            return None
        if not self._row:
            self._row = {cid: i for i, cid in enumerate(self._meta["ids"])}
        return self._vectors[:, [self._row[c] for c in chunk_ids]].T

    @property
    def width(self) -> int:
        """The chunk vectors' width (0: none kept)."""
        self.load()
        return 0 if self._vectors is None else int(self._vectors.shape[0])

    @property
    def has_vectors(self) -> bool:
        self.load()
        return self._vectors is not None

    def dense_scores(self, vector: np.ndarray) -> np.ndarray:
        """Every chunk's cosine to ``vector`` (rows are L2-normalised); -inf where it is not
        finite, an empty array when no vectors are kept."""
        import numpy as np

        self.load()
        if self._vectors is None or not self._vectors.shape[1]:
            return np.zeros(0, dtype=np.float32)
        with np.errstate(invalid="ignore", over="ignore"):
            scores = np.asarray(vector, dtype=np.float32) @ self._vectors
        return np.where(np.isfinite(scores), scores, -np.inf)

    def dense(self, vector: np.ndarray, *, n: int, mask: np.ndarray | None = None
              ) -> list[IndexHit]:
        """Exact cosine search over the chunk vectors (a NaN or infinite score never ranks)."""
        import numpy as np

        scores = self.dense_scores(vector)
        if not len(scores):
            return []
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        return self._top(scores, n, positive=False)

    def _top(self, scores: np.ndarray, n: int, *, positive: bool) -> list[IndexHit]:
        import numpy as np

        n = min(n, len(scores))
        top = np.argpartition(-scores, n - 1)[:n] if n < len(scores) else np.arange(len(scores))
        top = top[np.argsort(-scores[top], kind="stable")]
        ids, papers = self._meta["ids"], self._meta["papers"]
        keep = (scores[top] > 0) if positive else np.isfinite(scores[top])
        return [IndexHit(ids[i], papers[i], float(scores[i])) for i, k in zip(top, keep,
                                                                                 strict=True) if k]

    def lexical_scores(self, query: str) -> np.ndarray:
        """Every chunk's BM25 score for ``query`` (zeros when nothing matches)."""
        import numpy as np

        self.load()
        q = tokenize([query])[0] if self._bm25 else []
        if not q:
            return np.zeros(len(self._meta["ids"]), dtype=np.float32)
        return np.asarray(self._bm25.get_scores(q), dtype=np.float32)

    def search(self, query: str, *, n: int, mask: np.ndarray | None = None) -> list[IndexHit]:
        import numpy as np

        scores = self.lexical_scores(query)
        if not scores.any():
            return []
        if mask is not None:
            scores = np.where(mask, scores, 0.0)
        return self._top(scores, n, positive=True)

    # -- per paper (trends read every paper at once) -------------------------------------
    def paper_max(self, chunk_scores: np.ndarray) -> np.ndarray:
        """Each paper's best chunk score (rows of ``paper_ids_of``)."""
        import numpy as np

        self.load()
        out = np.full(len(self._paper_ids), -np.inf, dtype=np.float32)
        np.maximum.at(out, self._paper_of, chunk_scores)
        return out

    def paper_years(self) -> np.ndarray:
        """Each paper's year (0: none), rows of ``paper_ids_of``."""
        self.load()
        return self._years[self._first]

    def paper_venues(self) -> np.ndarray:
        """Each paper's venue, lower case ("" when none), rows of ``paper_ids_of``."""
        self.load()
        out: np.ndarray = self._venues[self._first]
        return out

    def papers_holding(self, stem: str) -> np.ndarray:
        """Per paper: does one of its chunks hold this BM25 stem?"""
        import numpy as np

        self.load()
        out = np.zeros(len(self._paper_ids), dtype=bool)
        rows = self.postings([stem])
        if rows is not None and len(rows):
            out[self._paper_of[rows]] = True
        return out

    def writes(self, word: str, stem: str, *, papers: int = 10) -> bool:
        """Does a paper here use ``word`` as written: one of the first ``papers`` whose chunks
        hold its BM25 ``stem`` (a stem's words are not all words: "regretion")? False when the
        index keeps no records."""
        import numpy as np

        self.load()
        rows = self.postings([stem])
        if rows is None:
            return False
        ids = [str(self._paper_ids[i]) for i in np.unique(self._paper_of[rows])[:papers]]
        written = re.compile(rf"(?<![a-z]){re.escape(word)}(?![a-z])")
        return any(written.search(f"{p.title} {p.abstract}".lower())
                   for p in self.papers(ids) or [])

    def first_chunk_of(self, paper_id: str) -> str:
        """The id of a paper's first chunk ("" when the index does not hold the paper)."""
        self.load()
        return str(self._first_chunk.get(paper_id, ""))

    def paper_vectors(self, paper_ids: list[str]) -> np.ndarray | None:
        """Each paper's first chunk vector (its title and opening), L2-normalised; None when
        the index keeps no vectors or lacks one of the papers."""
        import numpy as np

        chunks = [self.first_chunk_of(p) for p in paper_ids]
        vectors = self.vectors_of(chunks) if chunks and all(chunks) else None
        if vectors is None or not len(vectors):
            return None
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        out: np.ndarray = vectors / np.where(norms > 0, norms, 1.0)
        return out

    @property
    def all_paper_ids(self) -> list[str]:
        self.load()
        return [str(p) for p in self._paper_ids]


def _statuses(rows: list[Row]) -> dict[str, tuple[str, Accepted]]:
    """paper id -> (status, accepted), read from the paper record that chunk 0 carries (so a
    store ingested before status filters existed needs no re-ingest)."""
    out: dict[str, tuple[str, Accepted]] = {}
    from assistant.index.records import record_json

    for _, _, meta in rows:
        if "_status" in meta:  # taken from the record when the rows were read (store.py)
            out[str(meta.get("paper_id", ""))] = (str(meta["_status"]), meta.get("_accepted"))
            continue
        try:
            record = record_json(meta)
        except (TypeError, ValueError, AttributeError, KeyError):
            continue
        if record is None:
            continue
        extra = record.get("extra") or {}
        accepted = extra.get("accepted")
        out[str(meta.get("paper_id", ""))] = (
            str(extra.get("status") or ""),
            accepted if isinstance(accepted, bool | str | int | float) else None)
    return out


def _stamp(directory: Path) -> dict[str, list[int]]:
    """Size and modification time (ns) of every file of an index."""
    return {str(f.relative_to(directory)): [f.stat().st_size, f.stat().st_mtime_ns]
            for f in sorted(directory.rglob("*")) if f.is_file()}


def _checksums(directory: Path) -> dict[str, list[int]]:
    """Size and CRC-32 of every file of an index (the manifest aside)."""
    import zlib

    out = {}
    for f in sorted(directory.rglob("*")):
        if f.is_file() and f.name != "manifest.json":
            crc = 0
            with f.open("rb") as fh:
                while block := fh.read(1 << 20):
                    crc = zlib.crc32(block, crc)
            out[str(f.relative_to(directory))] = [f.stat().st_size, crc]
    return out


def _record_paper(rec: str) -> Paper:
    """A record as ``_write_records`` keeps it ("json:..." or packed), read back."""
    from assistant.index.records import unpack_z
    from assistant.paper import Paper

    return Paper.from_dict(json.loads(rec[5:]) if rec.startswith("json:") else unpack_z(rec))


def _write_records(path: Path, rows: list[Row]) -> None:
    """Each paper's record (chunk 0's packed record, joined from its pieces) by id, and the
    name its title opens with before a colon, in a small SQLite file."""
    import sqlite3

    from assistant.index.records import joined, unpack_z

    recs = {str(m["paper_id"]): joined(m) if "paper_z" in m else "json:" + str(m["paper"])
            for _, _, m in rows if m.get("chunk") == 0 and ("paper_z" in m or "paper" in m)}
    titles = {pid: str((json.loads(rec[5:]) if rec.startswith("json:") else unpack_z(rec))
                       .get("title") or "") for pid, rec in recs.items()}
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE records (id TEXT PRIMARY KEY, rec TEXT NOT NULL)")
        con.executemany("INSERT INTO records VALUES (?, ?)", recs.items())
        con.execute("CREATE TABLE titled (name TEXT NOT NULL, id TEXT NOT NULL)")
        con.executemany("INSERT INTO titled VALUES (?, ?)", [
            (title.split(":", 1)[0].strip(), pid) for pid, title in titles.items()
            if ":" in title])
        con.execute("CREATE INDEX titled_name ON titled (name)")
    con.close()


def index_root(store_path: Path) -> Path:
    """Where an embedded store keeps its collections' derived indexes."""
    return store_path / "index"


def index_dir(store: Store) -> Path:
    if store.path is not None:
        return index_root(store.path) / store.name
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "assistant"
    safe = "".join(c if c.isalnum() else "_" for c in (store.url or "server"))
    return base / "index" / safe / store.name


def ensure_index(store: Store, *, k1: float = 0.9, b: float = 0.4) -> ChunkIndex:
    """The store's chunk index, rebuilt from the collection if missing, stale or damaged (a
    file whose size or checksum is not the one the manifest recorded)."""
    index = ChunkIndex(index_dir(store), k1=k1, b=b)
    revision = store.revision()
    if index.revision == revision and not index.intact():
        log.warning("the chunk index at %s is damaged: rebuilding it", index.directory)
        revision_ok = False
    else:
        revision_ok = index.revision == revision
    if not revision_ok:
        whole = index.usable() and index.intact()
        if whole and store.being_written():  # an ingest is writing: serve the last index
            log.info("an ingest is writing to %s: searching the index built before it",
                     store.name)
            return index
        log.info("rebuilding the chunk index for %s", store.name)
        try:
            rows, vectors = store.chunks_with_vectors()
        except Exception:
            if whole:  # a collection read mid-write can fail; the last index is whole
                log.warning("could not read %s to rebuild its index (being written?): "
                            "searching the index built before", store.name)
                return index
            raise
        index.build(rows, revision=revision, vectors=vectors)
    return index
