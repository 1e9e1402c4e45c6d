"""A saved conversation (or one answer) as Markdown, JSON, BibTeX or an evaluation suite.

Markdown keeps each answer with its own reference list; JSON is the Answer's ``to_dict`` per
turn; BibTeX holds every paper the conversation cited, once, in order of first citation. A
rejected or withdrawn submission is a BibTeX ``@misc`` whose note says so (its reference line
says so too); a title the assistant derived from the abstract is marked in both. The
suite is one case for ``assistant eval`` (see ``assistant.evaluation.suite``): each turn's
question with the papers its answer cited, or ``refuse: true``, marked ``review: true`` because
those expectations come from the assistant itself until a person has checked them.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from assistant.errors import InputError
from assistant.sources.bibtex import DERIVED_TITLE, bib_key, bibtex_entry
from assistant.textutil import printable, readable, safe_json

if TYPE_CHECKING:
    from assistant.answer.types import Answer
    from assistant.conversations.history import Conversation
    from assistant.paper import Paper

FORMATS = ("md", "json", "bib", "suite")
_SUFFIX = {"suite": "yaml"}


def suffix(fmt: str) -> str:
    """The file extension of an export format: ``conversation-3.yaml`` for a suite."""
    return _SUFFIX.get(fmt, fmt)


def describe_backend(backend: str, model: str) -> str:
    """How an answer was made, in words a reader understands."""
    return "offline extractive" if backend == "extractive" else f"LLM {model}"


def _when(ts: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts)) if ts else ""


def answer_markdown(answer: Answer, *, heading: str = "") -> str:
    """One answer with its references: what copy and save put on the clipboard or disk."""
    lines = [heading or f"**Q:** {answer.question}", "", answer.text.strip() or "_(no text)_", ""]
    note = f"_answered by {describe_backend(answer.backend, answer.model)}_"
    if answer.cut:
        note += " · _cut short: stopped before the answer finished_"
    lines += [note, ""]
    if answer.citations:
        lines += ["**References**", ""]
        lines += [f"- [{c.n}] {answer.reference(c.paper)}"
                  + (f" _({DERIVED_TITLE})_" if c.paper.title_derived else "")
                  for c in answer.citations]
        lines.append("")
    return "\n".join(lines)


def to_markdown(conv: Conversation) -> str:
    head = [f"# {conv.title}", "",
            f"_Conversation {conv.id} · collection {conv.collection or '?'} · "
            f"{_when(conv.created)}_", ""]
    body = [answer_markdown(t.answer, heading=f"## {n}. {t.answer.question}")
            for n, t in enumerate(conv.turns, 1)]
    return "\n".join(head) + "\n" + "\n---\n\n".join(body)


def to_json(conv: Conversation) -> str:
    turns: list[dict[str, Any]] = []
    for t in conv.turns:
        turns.append({**t.answer.to_dict(), "cut": t.answer.cut, "filters": t.filters,
                      "created": _when(t.created)})
    doc = {"id": conv.id, "title": conv.title, "collection": conv.collection,
           "created": _when(conv.created), "updated": _when(conv.updated), "turns": turns}
    return safe_json(doc) + "\n"


def to_bibtex(conv: Conversation) -> str:
    seen: dict[str, Paper] = {}
    for t in conv.turns:
        for c in t.answer.citations:
            seen.setdefault(c.paper.paper_id, c.paper)
    taken: set[str] = set()
    return "\n".join(bibtex_entry(p, bib_key(p, taken)) for p in seen.values())


_SUITE_HEADER = """\
# An evaluation case kept from conversation {id} ({when}): {title}
# The expectations below (expect_papers, refuse) were taken from the assistant's own answers,
# right or wrong. A person must check each turn, correct what the assistant got wrong, and then
# remove `review: true`. Run it with: assistant eval FILE
"""
_FILTER_KEYS = ("venue", "year", "since", "until", "author", "status")


def _suite_filters(filters: dict[str, Any]) -> dict[str, Any]:
    """A turn's saved scope as suite filters; the chat's one ``paper_id`` becomes ``paper_ids``."""
    out = {k: filters[k] for k in _FILTER_KEYS if filters.get(k)}
    ids = filters.get("paper_ids") or filters.get("paper_id")
    if ids:
        out["paper_ids"] = [str(i) for i in ids] if isinstance(ids, list) else [str(ids)]
    return out


def to_suite(conv: Conversation) -> str:
    import yaml

    if not conv.turns:
        raise InputError(f"conversation {conv.id} has no answered question: nothing to keep "
                         "as a test case")
    turns: list[dict[str, Any]] = []
    for t in conv.turns:
        turn: dict[str, Any] = {"question": t.answer.question}
        cited = list(dict.fromkeys(c.paper.paper_id for c in t.answer.citations))
        if cited:
            turn["expect_papers"] = cited
        if t.answer.refused:
            turn["refuse"] = True
        if filters := _suite_filters(t.filters or {}):
            turn["filters"] = filters
        turns.append(turn)
    if not any("expect_papers" in turn or "refuse" in turn for turn in turns):
        # no answer cited or refused: that it answered at all is the only thing to score
        for turn in turns:
            turn["refuse"] = False
    doc: dict[str, Any] = {"name": f"conversation-{conv.id}", "k": 6}
    if conv.collection:
        doc["collection"] = conv.collection
    doc["cases"] = [{"id": f"conv-{conv.id}", "review": True, "turns": turns}]
    header = _SUITE_HEADER.format(id=conv.id, when=_when(conv.created) or "undated",
                                  title=" ".join(conv.title.split()))
    titles = {c.paper.paper_id: c.paper.title for t in conv.turns for c in t.answer.citations}
    if titles:  # the ids alone do not tell the reviewer which paper is which
        header += "# Cited papers:\n" + "".join(f"#   {pid}  {' '.join(title.split())}\n"
                                                for pid, title in titles.items())
    return header + str(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False))


def export(conv: Conversation, fmt: str = "md") -> str:
    """One conversation in ``fmt``, with no character a terminal acts on (an export is printed,
    or later read with ``cat``): stripped from text, escaped in JSON."""
    if fmt == "md":
        return printable(readable(to_markdown(conv)))  # LaTeX for a reader
    if fmt == "json":
        return to_json(conv)
    if fmt == "bib":
        return printable(to_bibtex(conv))
    if fmt == "suite":
        return printable(to_suite(conv))
    raise InputError(f"unknown export format {fmt!r}: use one of {', '.join(FORMATS)}")
