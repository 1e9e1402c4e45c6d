"""CLI commands of the chat side: `assistant chat` (the TUI) and `assistant history`.

Kept apart from cli.py so the TUI work can grow here. Textual is imported only inside the
`chat` handler.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from assistant.cli.args import BACKEND_HELP, common, subcommand
from assistant.conversations.export import FORMATS
from assistant.errors import InputError, StoreNotFound

if TYPE_CHECKING:
    from assistant.conversations.history import History
    from assistant.settings import Settings

_P = TypeVar("_P", bound=argparse.ArgumentParser)  # the main parser's class


def add_commands(sub: argparse._SubParsersAction[_P]) -> None:
    """Register the chat-side subcommands on the main parser's subparsers."""
    p = subcommand(sub, "chat", "the chat TUI (ingests the bundled list first if the store is "
                   "empty)", "assistant chat\nassistant chat --collection nips2017 --backend "
                   "extractive\nassistant chat --resume 3")
    p.add_argument("--backend", choices=["auto", "llm", "extractive"], help=BACKEND_HELP)
    p.add_argument("--model", help="chat model name (ASSISTANT_MODEL)")
    p.add_argument("--resume", type=int, metavar="ID", help="reopen a saved conversation "
                   "(`assistant history list` shows the ids)")
    common(p)

    h = subcommand(sub, "history", "saved conversations: list, show, export, delete",
                   "assistant history list --search diffusion\nassistant history show 3\n"
                   "assistant history export 3 --format bib -o refs.bib")
    hs = h.add_subparsers(dest="history_command", parser_class=type(h), metavar="ACTION")
    hs.required = True
    q = hs.add_parser("list", help="conversations, most recent first")
    q.add_argument("--search", metavar="TEXT", help="only those whose text holds every word")
    q.add_argument("--limit", type=int, default=50, help="at most this many (default 50)")
    q.add_argument("--json", action="store_true", help="print one JSON list")
    q = hs.add_parser("show", help="one conversation as Markdown")
    q.add_argument("id", type=int, metavar="ID", help="the conversation's number "
                   "(`history list` shows them)")
    q = hs.add_parser("export", help="one conversation as Markdown, JSON, BibTeX, or an "
                      "evaluation case (suite) for `assistant eval`")
    q.add_argument("id", type=int, metavar="ID", help="the conversation's number "
                   "(`history list` shows them)")
    q.add_argument("--format", choices=FORMATS, default="md", help="md (default), json, bib "
                   "(the cited papers as BibTeX) or suite (an evaluation case)")
    q.add_argument("--output", "-o", type=Path, metavar="FILE", help="write here, not stdout")
    q = hs.add_parser("delete", help="delete one conversation")
    q.add_argument("id", type=int, metavar="ID", help="the conversation's number "
                   "(`history list` shows them)")


def _settings(args: argparse.Namespace, **extra: Any) -> Settings:
    from assistant.settings import load_settings

    return load_settings(store=getattr(args, "store", None),
                         collection=getattr(args, "collection", None),
                         chroma_url=getattr(args, "chroma_url", None), **extra)


def _log_to_file(settings: Settings) -> Path:
    """While the chat is up, log lines go to a file: a handler writing to the terminal would
    draw over the Textual screen (a traceback across the chat)."""
    import logging

    path = Path(settings.history).parent / "chat.log"
    path.parent.mkdir(parents=True, exist_ok=True)
    root = logging.getLogger()
    for handler in list(root.handlers):
        if isinstance(handler, logging.StreamHandler) and not isinstance(
                handler, logging.FileHandler):
            root.removeHandler(handler)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    from assistant.settings import RedactingFilter

    handler.addFilter(RedactingFilter())
    root.addHandler(handler)
    return path


def cmd_chat(args: argparse.Namespace) -> int:
    settings = _settings(args, backend=args.backend, model=args.model)
    _require_collection(settings)
    _log_to_file(settings)
    from assistant.tui.app import AssistantApp

    app = AssistantApp(settings, resume=args.resume)
    app.run()
    return int(app.return_code or 0)


def _require_collection(settings: Settings) -> None:
    """A collection named on the command line that is not there is the one-line error `ask`
    gives, before the chat starts (only the default one is filled with the bundled list)."""
    from assistant.settings import BUNDLED_COLLECTION

    if settings.collection == BUNDLED_COLLECTION or settings.chroma_url:
        return  # the default is filled on first run; a server is checked by the chat
    from assistant.index.embeddings import make_embedder
    from assistant.index.factory import open_store

    if not (settings.store / "chroma.sqlite3").exists():
        raise StoreNotFound(f"no store at {settings.store}: `assistant ingest FILE --collection "
                            f"{settings.collection}` creates it")
    open_store(settings, embedder=make_embedder(settings)).revision()


def _history(args: argparse.Namespace) -> History:
    from assistant.conversations.history import History

    return History(_settings(args).history)


def cmd_history(args: argparse.Namespace) -> int:
    history = _history(args)
    action = args.history_command
    if action == "list":
        convs = history.search(args.search or "", limit=args.limit)
        if args.json:
            rows = [{"id": c.id, "title": c.title, "collection": c.collection,
                     "turns": c.n_turns, "updated": c.updated} for c in convs]
            sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
            return 0
        for c in convs:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(c.updated))
            print(f"{c.id:>5}  {when}  {c.n_turns:>3} turns  {c.title}")
        if not convs:
            print("no saved conversations" + (f" matching {args.search!r}" if args.search
                                               else ": start one with `assistant chat`"),
                  file=sys.stderr)
        return 0
    if action == "delete":
        history.delete(args.id)
        print(f"deleted conversation {args.id}", file=sys.stderr)
        return 0
    from assistant.conversations.export import export

    conv = history.get(args.id)
    text = export(conv, "md" if action == "show" else args.format)
    output = getattr(args, "output", None)
    if output is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return 0
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write {output}: {exc.strerror or exc}") from None
    print(f"wrote {output}", file=sys.stderr)
    if args.format == "suite":
        print("its expectations are the assistant's own answers: check them, remove "
              f"`review: true`, then run `assistant eval {output}`", file=sys.stderr)
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "chat": cmd_chat, "history": cmd_history}
