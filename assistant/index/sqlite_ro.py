"""Reading a SQLite file without writing to it (Chroma's own file, the derived index's
records): one helper, so every reader opens read-only, waits for a writer the same bounded
time, and closes its connection (``with sqlite3.connect(...)`` only ends a transaction)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def read_only(db: Path, *, timeout: float = 5.0) -> Iterator[sqlite3.Connection]:
    # as_uri() percent-encodes the path: a folder named "a?b#c" opens its own file
    con = sqlite3.connect(Path(db).resolve().as_uri() + "?mode=ro", uri=True, timeout=timeout)
    try:
        yield con
    finally:
        con.close()
