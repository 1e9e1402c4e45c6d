"""Saved conversations in one SQLite file (``settings.history``), searchable and exportable.

    conversations   id, title, collection, created, updated
    turns           one answered question: the Answer (text, backend, model, citations and the
                    retrieved papers with their scores, as JSON), whether it was cut, the filters

A turn keeps whole paper records, so a resumed conversation shows its sources and abstracts
even when the store has changed since. ``Conversation.history()`` is what a follow-up question
passes to ``astream(history=...)``.

Reading never writes: it opens the file read-only, and a missing or empty file is an empty
history. Only saving a new conversation creates the file and the tables. A file that holds
anything else (another program's tables, tables of this name with other columns, no SQLite at
all) is refused with one line, read or write, and left as it was.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.answer.types import Answer
from assistant.citations import Citation
from assistant.errors import AssistantError, InputError
from assistant.judge.grounding import Grounding
from assistant.paper import Paper
from assistant.search.retrieval import RetrievedPaper

_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    collection TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    backend TEXT NOT NULL,
    model TEXT NOT NULL,
    refused INTEGER NOT NULL DEFAULT 0,
    cut INTEGER NOT NULL DEFAULT 0,
    citations TEXT NOT NULL DEFAULT '[]',
    papers TEXT NOT NULL DEFAULT '[]',
    usage TEXT NOT NULL DEFAULT '{}',
    filters TEXT NOT NULL DEFAULT '{}',
    created REAL NOT NULL,
    checks TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS turns_by_conversation ON turns(conversation_id, seq);
"""
# the columns a file must have to be ours; ``turns.checks`` came later and is added on write
_COLUMNS = {"conversations": ("id", "title", "collection", "created", "updated"),
            "turns": ("id", "conversation_id", "seq", "question", "answer", "backend", "model",
                      "refused", "cut", "citations", "papers", "usage", "filters", "created")}
TITLE_CHARS = 72


@dataclass
class Turn:
    answer: Answer
    filters: dict[str, Any] = field(default_factory=dict)
    created: float = 0.0
    id: int | None = None


@dataclass
class Conversation:
    id: int
    title: str
    collection: str = ""
    created: float = 0.0
    updated: float = 0.0
    turns: list[Turn] = field(default_factory=list)
    n_turns: int = 0

    def history(self) -> list[tuple[str, str]]:
        """(question, answer) pairs, oldest first, for ``astream(history=...)``."""
        return [(t.answer.question, t.answer.text) for t in self.turns]


def title_for(question: str) -> str:
    text = " ".join(question.split())
    return text if len(text) <= TITLE_CHARS else text[: TITLE_CHARS - 1].rstrip() + "…"


# -- (de)serialising an Answer ---------------------------------------------------------------
def _citations_json(answer: Answer) -> str:
    return json.dumps([{"n": c.n, "paper": c.paper.to_dict(),
                        **({"less_sure": True} if c.less_sure else {})}
                       for c in answer.citations], ensure_ascii=False)


def _papers_json(answer: Answer) -> str:
    return json.dumps([{"paper": rp.paper.to_dict(), "score": rp.score, "rank": rp.rank,
                        "verified": rp.verified,
                        **({"versions": [v.to_dict() for v in rp.versions]}
                           if rp.versions else {})}
                       for rp in answer.papers], ensure_ascii=False)


def _answer_from_row(row: sqlite3.Row) -> Answer:
    citations = [Citation(int(c["n"]), Paper.from_dict(c["paper"]), bool(c.get("less_sure")))
                 for c in json.loads(row["citations"])]
    papers = [RetrievedPaper(Paper.from_dict(p["paper"]), float(p["score"]), int(p["rank"]),
                             verified=p.get("verified"),  # older histories: not kept
                             versions=[Paper.from_dict(v) for v in p.get("versions", [])])
              for p in json.loads(row["papers"])]
    # a history from before the support check has no `checks`: reading does not add it
    checks = json.loads(dict(row).get("checks") or "{}")
    grounded = Grounding.from_dict(checks["grounding"]) if checks.get("grounding") else None
    return Answer(row["question"], row["answer"], row["backend"], row["model"], citations, papers,
                  bool(row["refused"]), usage=json.loads(row["usage"]), cut=bool(row["cut"]),
                  outcome=checks.get("outcome", "answered"), grounding=grounded,
                  trend=checks.get("trend"))


def _in_memory() -> sqlite3.Connection:
    """An empty history that is no file: what reading a history never saved to sees."""
    conn = sqlite3.connect(":memory:")
    conn.row_factory = sqlite3.Row
    conn.executescript(_SCHEMA)
    return conn


def _checks_json(answer: Answer) -> str:
    """What the answer was judged: its outcome and every sentence's support check."""
    return json.dumps({"outcome": answer.outcome,
                       "grounding": answer.grounding.to_dict() if answer.grounding else None,
                       **({"trend": answer.trend} if answer.trend is not None else {})})


def _foreign(db: sqlite3.Connection) -> str | None:
    """What makes the database not a history of ours (``"it has tables notes, tags"``), or
    None when it is one, or is empty. Only reads."""
    objects = {name: kind for kind, name in db.execute(
        "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}
    if not objects:
        return None
    tables = sorted(name for name, kind in objects.items() if kind == "table")
    if not set(_COLUMNS) & set(tables):
        return f"it has tables {', '.join(tables)}" if tables else "it has no tables"
    for table, wanted in _COLUMNS.items():
        if table not in tables:
            return f"it has no table {table}"
        have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
        if missing := [c for c in wanted if c not in have]:
            return f"table {table} lacks {', '.join(missing)}"
    return None


class History:
    """Conversations in the SQLite file at ``path`` (created when the first one is saved)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def _refusal(self, why: str) -> InputError:
        return InputError(f"{self.path} is not a conversation history of this assistant ({why}): "
                          "set ASSISTANT_HISTORY to another file or move it away")

    def _open(self, *, write: bool, create: bool) -> sqlite3.Connection:
        """A connection with our tables: the file's, or an empty one in memory when there is no
        file (or an empty one) and ``create`` is false. Read-only unless ``write``."""
        try:
            if not create and not self.path.exists():
                return _in_memory()
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = (sqlite3.connect(self.path, timeout=5) if write else
                    sqlite3.connect(self.path.resolve().as_uri() + "?mode=ro", uri=True,
                                    timeout=5))
        except (sqlite3.Error, OSError) as exc:
            raise self._cannot_open(exc) from None
        try:
            conn.row_factory = sqlite3.Row
            why = _foreign(conn)
            if why is not None:
                raise self._refusal(why)
            if not create and not conn.execute("SELECT 1 FROM sqlite_master").fetchone():
                conn.close()  # an empty file: nothing to read, and only a new conversation
                return _in_memory()  # may write the tables into it
            conn.execute("PRAGMA foreign_keys = ON")
            if write:
                conn.executescript(_SCHEMA)
                columns = {r["name"] for r in conn.execute("PRAGMA table_info(turns)")}
                if "checks" not in columns:  # a history written before the support check
                    conn.execute("ALTER TABLE turns ADD COLUMN checks TEXT NOT NULL DEFAULT '{}'")
        except InputError:
            conn.close()
            raise
        except sqlite3.Error as exc:
            conn.close()
            if exc.sqlite_errorcode == sqlite3.SQLITE_NOTADB:
                raise self._refusal("not a SQLite database") from None
            raise self._cannot_open(exc) from None
        return conn

    def _cannot_open(self, exc: Exception) -> AssistantError:
        return AssistantError(f"cannot open the conversation history at {self.path} ({exc}): "
                              "move the file away or set ASSISTANT_HISTORY")

    @contextmanager
    def _db(self, *, write: bool = False, create: bool = False) -> Iterator[sqlite3.Connection]:
        conn = self._open(write=write or create, create=create)
        try:
            with conn:
                yield conn
        except sqlite3.Error as exc:
            raise AssistantError(f"the conversation history at {self.path} failed ({exc}): "
                                 "move the file away or set ASSISTANT_HISTORY") from None
        finally:
            conn.close()

    # -- writing -----------------------------------------------------------------------------
    def new(self, title: str, *, collection: str = "") -> Conversation:
        now = time.time()
        with self._db(create=True) as db:
            cur = db.execute("INSERT INTO conversations (title, collection, created, updated) "
                             "VALUES (?, ?, ?, ?)", (title_for(title), collection, now, now))
        return Conversation(int(cur.lastrowid or 0), title_for(title), collection, now, now)

    def add(self, conversation_id: int, answer: Answer, *,
            filters: dict[str, Any] | None = None) -> Turn:
        now = time.time()
        with self._db(write=True) as db:
            self._require(db, conversation_id)
            seq = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM turns WHERE "
                             "conversation_id = ?", (conversation_id,)).fetchone()[0]
            cur = db.execute(
                "INSERT INTO turns (conversation_id, seq, question, answer, backend, model, "
                "refused, cut, citations, papers, usage, filters, created, checks) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (conversation_id, seq, answer.question, answer.text, answer.backend,
                 answer.model, int(answer.refused), int(answer.cut), _citations_json(answer),
                 _papers_json(answer), json.dumps(answer.usage), json.dumps(filters or {}), now,
                 _checks_json(answer)))
            db.execute("UPDATE conversations SET updated = ? WHERE id = ?", (now, conversation_id))
        return Turn(answer, dict(filters or {}), now, int(cur.lastrowid or 0))

    def delete(self, conversation_id: int) -> None:
        with self._db(write=True) as db:
            self._require(db, conversation_id)
            db.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))

    # -- reading -----------------------------------------------------------------------------
    def _require(self, db: sqlite3.Connection, conversation_id: int) -> sqlite3.Row:
        row = db.execute("SELECT c.*, (SELECT COUNT(*) FROM turns t WHERE t.conversation_id = "
                         "c.id) AS n_turns FROM conversations c WHERE c.id = ?",
                         (conversation_id,)).fetchone()
        if row is None:
            raise InputError(f"no conversation {conversation_id} in {self.path}: see "
                             "`assistant history list`")
        found: sqlite3.Row = row
        return found

    @staticmethod
    def _summary(row: sqlite3.Row) -> Conversation:
        return Conversation(int(row["id"]), row["title"], row["collection"], row["created"],
                            row["updated"], n_turns=int(row["n_turns"]))

    def get(self, conversation_id: int) -> Conversation:
        with self._db() as db:
            conv = self._summary(self._require(db, conversation_id))
            rows = db.execute("SELECT * FROM turns WHERE conversation_id = ? ORDER BY seq",
                              (conversation_id,)).fetchall()
        conv.turns = [Turn(_answer_from_row(r), json.loads(r["filters"]), r["created"], r["id"])
                      for r in rows]
        return conv

    def search(self, text: str, *, limit: int = 100) -> list[Conversation]:
        """Conversations whose title, questions or answers contain every word of ``text``."""
        where, args = [], []
        for word in text.split():
            like = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            where.append("(c.title LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM turns t WHERE "
                         "t.conversation_id = c.id AND (t.question LIKE ? ESCAPE '\\' OR "
                         "t.answer LIKE ? ESCAPE '\\')))")
            args += [like, like, like]
        sql = ("SELECT c.*, (SELECT COUNT(*) FROM turns t WHERE t.conversation_id = c.id) AS "
               "n_turns FROM conversations c" + (" WHERE " + " AND ".join(where) if where else "")
               + " ORDER BY c.updated DESC, c.id DESC LIMIT ?")
        with self._db() as db:
            rows = db.execute(sql, [*args, limit]).fetchall()
        return [self._summary(r) for r in rows]
