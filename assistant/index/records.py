"""The paper record kept in Chroma: a chunk's metadata, and the whole paper packed (compressed
JSON, in pieces) on its chunk 0. Encoding and decoding live here alone."""

from __future__ import annotations

import json
from typing import Any

from assistant.index.chunking import Chunk
from assistant.paper import Paper


def chunk_meta(paper: Paper, chunk: Chunk, source: str, digest: str, *, nchunks: int,
               chunking: str = "") -> dict[str, Any]:
    """A chunk's metadata. Every chunk carries what a filter or the unchanged-check reads
    (paper id, venue, year, content hash); only chunk 0 carries the paper record (compressed,
    in pieces: see ``PIECE``), its venue, source, chunk count and chunking. Title and authors
    live in the record only, and no document text is stored: the chunk texts are re-made from
    the record when the derived index is built (``_complete``)."""
    meta: dict[str, Any] = {
        "paper_id": paper.paper_id, "chunk": chunk.index, "venue_lc": paper.venue.lower(),
        "year": paper.year or 0, "hash": digest,
    }
    if chunk.index == 0:
        meta.update({"venue": paper.venue, "source": source, "nchunks": nchunks,
                     "chunking": chunking, **pieces(pack(paper))})
    return meta


# Chroma indexes every string metadata value in SQLite; a value longer than about 1,000 bytes
# spills to an overflow page of its own there (4 KB, mostly empty). The record is stored in
# pieces below that: chroma.sqlite3 is 29% smaller (bench/scale.py).
PIECE = 900


def pieces(z: str) -> dict[str, str]:
    """The packed record as metadata: "paper_z", then "paper_z1", "paper_z2", ..."""
    return {f"paper_z{k or ''}": z[i:i + PIECE] for k, i in enumerate(range(0, len(z), PIECE))}


def joined(meta: dict[str, Any]) -> str:
    """The packed record from its pieces (an older store's single "paper_z" as is)."""
    out, k = [str(meta["paper_z"])], 1
    while f"paper_z{k}" in meta:
        out.append(str(meta[f"paper_z{k}"]))
        k += 1
    return "".join(out)


def pack(paper: Paper) -> str:
    """The paper record as compressed JSON, base64 ("b64:" prefix; older stores hold base85,
    whose pure-Python decoder was a third of an index rebuild)."""
    import base64
    import zlib

    raw = json.dumps(paper.to_dict(), ensure_ascii=False, separators=(",", ":")).encode()
    return "b64:" + base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def unpack_z(z: str) -> dict[str, Any]:
    """The record dict of a packed record."""
    import base64
    import zlib

    blob = base64.b64decode(z[4:]) if z.startswith("b64:") else base64.b85decode(z)
    return dict(json.loads(zlib.decompress(blob)))


def record(meta: dict[str, Any]) -> dict[str, Any]:
    if "paper_z" in meta:
        return unpack_z(joined(meta))
    return dict(json.loads(meta["paper"]))


def unpack(meta: dict[str, Any]) -> Paper:
    """The paper record of a chunk-0 metadata (compressed, or plain JSON from older stores)."""
    return Paper.from_dict(record(meta))


def record_json(meta: dict[str, Any]) -> dict[str, Any] | None:
    """The paper record's dict from a chunk-0 metadata (None on other chunks); decoded once
    per metadata dict (kept under "_record")."""
    if "_record" in meta:
        return dict(meta["_record"])
    if "paper_z" not in meta and "paper" not in meta:
        return None
    meta["_record"] = record(meta)
    return dict(meta["_record"])
