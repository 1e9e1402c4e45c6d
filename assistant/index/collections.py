"""The collections of a store: what each holds (papers, venues and years, model, size), removal.

A store (a directory, or a Chroma server) holds named collections, one corpus each: the bundled
ICML 2026 list, a whole conference, a benchmark. Size on disk is what belongs to the collection
alone: its vector segment folders and the derived indexes beside the store; the
``chroma.sqlite3`` file that every collection shares (documents and metadata) is reported once.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from assistant.errors import StoreError, StoreNotFound
from assistant.index.sqlite_ro import read_only


@dataclass
class CollectionInfo:
    name: str
    papers: int
    chunks: int
    embedding_model: str
    venues: dict[str, int] = field(default_factory=dict)  # "ICML 2026" -> papers
    bytes_on_disk: int | None = None  # None: on a server
    # the same counts with venue and year apart (None when the list did not say), most first
    venue_years: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def line(self) -> str:
        where = ", ".join(f"{v} ({n})" for v, n in list(self.venues.items())[:4])
        if len(self.venues) > 4:
            where += f", +{len(self.venues) - 4} more"
        size = f"{self.bytes_on_disk / 1e6:.1f} MB" if self.bytes_on_disk is not None else "-"
        return (f"{self.name:<24} {self.papers:>7} {self.chunks:>8} {size:>9}  "
                f"{self.embedding_model}  {where or '(empty)'}")


def _dir_size(path: Path) -> int:
    if not path.exists():
        return 0
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _segment_dirs(store_path: Path, collection_id: str) -> list[Path]:
    """The vector segment folders Chroma keeps for one collection (named by segment id)."""
    db = store_path / "chroma.sqlite3"
    if not db.exists():
        return []
    try:
        with read_only(db) as con:
            rows = con.execute("SELECT id FROM segments WHERE collection = ?",
                               (collection_id,)).fetchall()
    except sqlite3.Error:
        return []
    return [store_path / str(r[0]) for r in rows if (store_path / str(r[0])).is_dir()]


def _venues(first_chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """Papers per venue and year, most first, from each paper's first chunk's metadata: as
    ``venues`` ("ICML 2026", "? 2018" for a year without a venue, "?" for neither) and as
    ``venue_years`` (venue and year apart, None where unknown)."""
    counts = Counter((m.get("venue") or None, m.get("year") or None) for m in first_chunks)
    venues: dict[str, int] = {}
    for (venue, year), n in counts.most_common():
        key = " ".join(str(x) for x in (venue or "?", year or "") if x).strip()
        venues[key] = venues.get(key, 0) + n
    return {"venues": venues,
            "venue_years": [{"venue": v, "year": int(str(y)) if str(y).isdigit() else y,
                             "papers": n} for (v, y), n in counts.most_common()]}


def _bytes_of(store_path: Path, collection_id: str, name: str) -> int:
    """What belongs to one collection on disk: its vector segments and derived indexes."""
    from assistant.index.chunk_index import index_root

    root = index_root(store_path)
    return (sum(_dir_size(d) for d in _segment_dirs(store_path, collection_id))
            + _dir_size(root / name) + _dir_size(root / f"{name}.e5.npz"))


def describe(client: Any, *, store_path: Path | None) -> list[CollectionInfo]:
    out = []
    for col in sorted(client.list_collections(), key=lambda c: c.name):
        first = col.get(where={"chunk": 0}, include=["metadatas"])
        size = None if store_path is None else _bytes_of(store_path, str(col.id), col.name)
        out.append(CollectionInfo(col.name, len(first["ids"]), int(col.count()),
                                  str((col.metadata or {}).get("embedding_model") or "?"),
                                  bytes_on_disk=size, **_venues(first["metadatas"])))
    return out


def describe_file(store_path: Path) -> list[CollectionInfo]:
    """``describe`` read from the store's SQLite file alone (read-only: Chroma opens its file for
    writing, so a read-only store is listed this way)."""
    out = []
    try:
        with read_only(store_path / "chroma.sqlite3") as con:
            cols = con.execute("SELECT id, name FROM collections ORDER BY name").fetchall()
            for cid, name in cols:
                model = con.execute("SELECT str_value FROM collection_metadata WHERE "
                                    "collection_id = ? AND key = 'embedding_model'",
                                    (cid,)).fetchone()
                rows = con.execute(
                    "SELECT e.id, m.key, m.string_value, m.int_value FROM embeddings e JOIN "
                    "segments s ON s.id = e.segment_id AND s.scope = 'METADATA' "
                    "JOIN embedding_metadata m ON m.id = e.id WHERE s.collection = ? AND "
                    "m.key IN ('chunk', 'venue', 'year')", (cid,)).fetchall()
                meta: dict[int, dict[str, Any]] = {}
                for eid, key, text, number in rows:
                    meta.setdefault(eid, {})[key] = text if text is not None else number
                first = [m for m in meta.values() if m.get("chunk") == 0]
                out.append(CollectionInfo(name, len(first), len(meta),
                                          str(model[0]) if model else "?",
                                          bytes_on_disk=_bytes_of(store_path, str(cid), name),
                                          **_venues(first)))
    except sqlite3.Error as exc:
        raise StoreError(f"cannot read the store at {store_path} ({exc}): its chroma.sqlite3 "
                         "looks damaged; restore it from a backup") from None
    return out


def shared_bytes(store_path: Path) -> int:
    return _dir_size(store_path / "chroma.sqlite3")


def remove(client: Any, name: str, *, store_path: Path | None) -> None:
    """Drop a collection and its derived indexes."""
    from assistant.index.chunk_index import index_root

    if name not in {c.name for c in client.list_collections()}:
        raise StoreNotFound(f"no collection {name!r} here: `assistant collections` lists them")
    client.delete_collection(name)
    if store_path is not None:
        root = index_root(store_path)
        shutil.rmtree(root / name, ignore_errors=True)
        (root / f"{name}.e5.npz").unlink(missing_ok=True)
        (root / f".{name}.verified.json").unlink(missing_ok=True)
