"""The Paper type every other module speaks.

A paper list may say how a submission fared (OpenReview's ``status``: Poster, Oral, Reject,
Withdraw, ...; and ``accepted``); those fields stay in ``Paper.extra``. A rejected or withdrawn
submission is not in the proceedings, and every place that cites one says so.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from assistant.textutil import printable, readable


def _printable(value: Any) -> Any:
    """A field's strings without terminal escapes (strings, lists and dicts of them)."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list):
        return [_printable(v) for v in value]
    if isinstance(value, dict):
        return {k: _printable(v) for k, v in value.items()}
    return value


# status (lower case) -> what happened to the submission
_UNPUBLISHED = {"reject": "rejected", "rejected": "rejected", "desk reject": "rejected",
                "desk rejected": "rejected", "withdraw": "withdrawn", "withdrawn": "withdrawn"}


def _flag(value: Any) -> bool | None:
    """A yes/no field as a list gives it: JSON booleans, or "true"/"false" text from a CSV."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower() if value is not None else ""
    if text in ("true", "yes", "1"):
        return True
    if text in ("false", "no", "0"):
        return False
    return None


def outcome_of(status: str, accepted: Any) -> str:
    """What happened to a submission outside the proceedings ("rejected", "withdrawn" or "not
    accepted"); empty for a published paper, or one whose list says nothing."""
    outcome = _UNPUBLISHED.get(" ".join(str(status or "").lower().split()))
    if outcome:
        return outcome
    return "not accepted" if _flag(accepted) is False else ""


def tags_for(status: str, accepted: Any) -> frozenset[str]:
    """The words a status filter matches: the status itself (lower case), plus "accepted" for a
    paper in the proceedings, or "unpublished" and its outcome ("rejected", "withdrawn")."""
    own = " ".join(str(status or "").lower().split())
    outcome = outcome_of(status, accepted)
    tags = {own} if own else set()
    tags |= {"unpublished", outcome} if outcome else {"accepted"}
    return frozenset(tags)


STATUS_WORDS = frozenset({"accepted", "unpublished", "rejected", "withdrawn"})

# one venue, two names: a list of NeurIPS papers may call it "nips" (the papercopilot lists
# do, before and after the rename), and a user says "NeurIPS" (or the other way round)
VENUE_ALIASES = {"nips": ("neurips",), "neurips": ("nips",)}


def venue_names(venue: str) -> tuple[str, ...]:
    """A venue's names, lower case, as a filter on it matches papers: its own and the others
    of ``VENUE_ALIASES``."""
    own = " ".join(venue.lower().split())
    return (own, *VENUE_ALIASES.get(own, ()))


def require_status(status: str, tags: Iterable[frozenset[str]]) -> None:
    """A status filter that no paper here can match is a typo, not an empty result: an error
    that lists the statuses there are. ``tags``: each paper's ``tags_for``."""
    known = STATUS_WORDS.union(*tags)
    if " ".join(status.lower().split()) not in known:
        from assistant.errors import InputError

        raise InputError(f"no paper in this collection has status {status!r}: use one of "
                         f"{', '.join(sorted(known))}")


@dataclass
class Paper:
    paper_id: str
    title: str
    abstract: str
    authors: list[str] = field(default_factory=list)
    venue: str = ""
    year: int | None = None
    url: str = ""
    code_url: str = ""
    title_derived: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def link(self) -> str:
        return self.url or self.code_url

    @property
    def venue_year(self) -> str:
        return " ".join(p for p in (self.venue, str(self.year or "")) if p)

    @property
    def status(self) -> str:
        """The list's own status ("Poster", "Reject", ...), else what ``accepted`` says, else ""."""
        status = " ".join(str(self.extra.get("status") or "").split())
        if status:
            return status
        accepted = _flag(self.extra.get("accepted"))
        return "" if accepted is None else ("Accepted" if accepted else "Not accepted")

    @property
    def outcome(self) -> str:
        """Why the paper is not in the proceedings ("rejected", ...), or empty (see outcome_of)."""
        return outcome_of(str(self.extra.get("status") or ""), self.extra.get("accepted"))

    @property
    def is_unpublished(self) -> bool:
        """A rejected or withdrawn submission (or one its list marks not accepted)."""
        return bool(self.outcome)

    @property
    def status_tags(self) -> frozenset[str]:
        return tags_for(str(self.extra.get("status") or ""), self.extra.get("accepted"))

    def author_names(self, most: int = 6) -> str:
        """The authors as a sentence names them: "A, B and C"; past ``most``, the first three
        and "et al."."""
        names = [" ".join(str(a).split()) for a in self.authors if str(a).strip()]
        if len(names) > most:
            return ", ".join(names[:3]) + " et al."
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] \
            if names else ""

    @property
    def display_title(self) -> str:
        """The title for a reader: its LaTeX rendered, marked when the paper is not in the
        proceedings."""
        outcome = self.outcome
        title = readable(self.title)
        if not outcome:
            return title
        return title + (f" ({outcome} submission)" if outcome != "not accepted"
                             else " (submission, not accepted)")

    @property
    def keywords(self) -> list[str]:
        """The list's keywords ("a;b" text or a list), one string each."""
        value = self.extra.get("keywords")
        if isinstance(value, list):
            return [str(v).strip() for v in value if str(v).strip()]
        text = str(value or "")
        sep = ";" if ";" in text else ","
        return [k.strip() for k in text.split(sep) if k.strip()]

    @property
    def tldr(self) -> str:
        return " ".join(str(self.extra.get("tldr") or "").split())

    def to_dict(self) -> dict[str, Any]:
        """The record as plain data. Shallow (no deep copy: ``asdict`` copied every nested value
        and was most of an unchanged re-ingest of 23k papers); the lists are copied."""
        out = {f: getattr(self, f) for f in self.__dataclass_fields__}
        for key, value in out.items():
            if isinstance(value, list):
                out[key] = list(value)
            elif isinstance(value, dict):
                out[key] = dict(value)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Paper:
        """A paper read back (from the store, an index or the history), its text printable:
        an escape sequence planted in a paper list never reaches a terminal, an export or a
        prompt (the store keeps the original; see ``textutil.printable``)."""
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: _printable(v) for k, v in data.items() if k in known})

    def content_hash(self) -> str:
        blob = json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha1(blob.encode("utf-8")).hexdigest()

    def reference(self) -> str:
        """One reference-list line: title, authors, venue and year (or "ICLR 2018 (submission,
        rejected)" for a paper that is not in the proceedings), link."""
        bits = [self.title.rstrip(".") + "."]
        if self.authors:
            names = ", ".join(self.authors[:3]) + (" et al" if len(self.authors) > 3 else "")
            bits.append(names.rstrip(".") + ".")
        outcome = self.outcome
        if outcome:
            where = self.venue_year
            bits.append(f"{where} (submission, {outcome})." if where
                        else f"Unpublished submission ({outcome}).")
        elif self.venue_year:
            bits.append(self.venue_year + ".")
        if self.url:
            bits.append(self.url)
        if self.code_url and self.code_url != self.url:
            bits.append(f"Code: {self.code_url}")
        return " ".join(bits)


def listing_order(p: Paper) -> tuple[str, int, str]:
    """How a paper list is shown: by venue, newest year first, then title."""
    return (p.venue, -(p.year or 0), p.title.lower())
