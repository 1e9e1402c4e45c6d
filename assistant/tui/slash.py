"""Slash commands typed into the chat input, and the question's scope (plain Python).

    /help  /new  /papers  /history  /export [md|json|bib|suite] [FILE]  /model [NAME|offline]
    /filter venue=ICML year=2026 since=2020 until=2024 author=NAME status=S paper=ID
    /filter off
    /copy  /save
    /table [md|csv] [FILE]   /similar [background|method|result] [PAPER]
"""

from __future__ import annotations

import shlex
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

from assistant.errors import InputError

if TYPE_CHECKING:
    from assistant.paper import Paper
    from assistant.search.retrieval import Filters

COMMANDS: dict[str, str] = {
    "/help": "every key and command",
    "/new": "start a new conversation",
    "/papers": "browse every paper in the store",
    "/history": "saved conversations: resume, search, delete",
    "/export": "/export [md|json|bib|suite] [FILE]: save this conversation to a file; "
               "suite keeps it as a test case",
    "/model": "/model [NAME|offline]: show or switch the chat model",
    "/filter": "/filter venue=V year=Y since=Y until=Y author=A status=S paper=ID, or "
               "/filter off",
    "/similar": "/similar [background|method|result] [ID|TITLE]: the papers most like one "
                "(by default the last one listed, or the paper asked about)",
    "/copy": "copy the selected answer with its references",
    "/save": "save the selected answer with its references to a file",
    "/table": "/table [md|csv] [FILE]: the selected answer's papers as a table (what each "
              "proposes, its main result), shown here, or written to a file",
}


@dataclass
class Slash:
    name: str
    args: list[str] = field(default_factory=list)


def parse(text: str) -> Slash | None:
    """A slash command, or None when ``text`` is a question."""
    text = text.strip()
    if not text.startswith("/") or text.startswith("//"):
        return None
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    name = words[0].lower()
    if name not in COMMANDS:
        raise InputError(f"unknown command {words[0]}: try {', '.join(COMMANDS)}")
    return Slash(name, words[1:])


@dataclass(frozen=True)
class Scope:
    """What the next question is limited to; empty means the whole store."""

    venue: str | None = None
    year: int | None = None
    author: str | None = None
    paper_id: str | None = None
    paper_title: str | None = None
    since: int | None = None
    until: int | None = None
    status: str | None = None  # how the papers fared: rejected, accepted, oral, ...

    @property
    def empty(self) -> bool:
        return not self.filters().any()

    def filters(self) -> Filters:
        from assistant.search.retrieval import Filters

        return Filters(venue=self.venue, year=self.year, author=self.author,
                       paper_ids=[self.paper_id] if self.paper_id else None,
                       since=self.since, until=self.until, status=self.status)

    def label(self) -> str:
        bits = []
        if self.paper_id:
            title = self.paper_title or self.paper_id
            bits.append(f"paper “{title if len(title) <= 48 else title[:47] + '…'}”")
        if self.venue:
            bits.append(f"venue {self.venue}")
        if self.year:
            bits.append(f"year {self.year}")
        if self.since or self.until:
            bits.append(f"years {self.since or '…'}–{self.until or '…'}")
        if self.author:
            bits.append(f"author {self.author}")
        if self.status:
            bits.append(f"status {self.status}")
        return " · ".join(bits)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v}

    @classmethod
    def of_paper(cls, paper: Paper) -> Scope:
        return cls(paper_id=paper.paper_id, paper_title=paper.title)


def parse_filter(args: list[str], current: Scope) -> Scope:
    """``/filter`` arguments on top of the current scope; ``off`` clears it."""
    if not args:
        return current
    if args[0].lower() in ("off", "clear", "none", "all"):
        return Scope()
    scope = current
    for arg in args:
        key, sep, value = arg.partition("=")
        key = key.lower()
        if not sep or key not in ("venue", "year", "since", "until", "author", "status",
                                  "paper"):
            raise InputError(f"cannot read {arg!r}: use venue=V, year=Y, since=Y, until=Y, "
                             "author=A, status=S, paper=ID or off")
        given = value.strip() or None  # key= clears that one
        if key in ("year", "since", "until"):
            if given is not None and not given.isdigit():
                raise InputError(f"{key} must be a number (a year), not {given!r}")
            number = int(given) if given else None
            scope = (replace(scope, year=number) if key == "year" else
                     replace(scope, since=number) if key == "since" else
                     replace(scope, until=number))
        elif key == "paper":
            scope = replace(scope, paper_id=given, paper_title=None)
        elif key == "venue":
            scope = replace(scope, venue=given)
        elif key == "status":
            scope = replace(scope, status=given)
        else:
            scope = replace(scope, author=given)
    return scope
