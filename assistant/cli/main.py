"""The command line: a thin shell over the core. ``main`` parses, dispatches to the handler of
the command and turns errors into one line: a user error exits 2 (``assistant.errors``), a
damaged store says so, anything else is one line too unless --verbose."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from assistant.cli.ask import cmd_ask, cmd_search
from assistant.cli.config import cmd_config
from assistant.cli.eval import cmd_eval
from assistant.cli.ingest import cmd_ingest
from assistant.cli.papers import cmd_papers, paper_json
from assistant.cli.parser import build_parser
from assistant.cli.similar import cmd_similar
from assistant.cli.trend import cmd_trend
from assistant.errors import AssistantError, InputError

__all__ = ["COMMANDS", "build_parser", "damaged_store_message", "main", "paper_json"]


COMMANDS = {"ingest": cmd_ingest, "eval": cmd_eval, "ask": cmd_ask, "search": cmd_search,
            "papers": cmd_papers, "similar": cmd_similar, "trend": cmd_trend,
            "config": cmd_config}


def _lower_level(record: logging.LogRecord) -> bool:
    record.levelname_lc = record.levelname.lower()
    return True


def _setup_logging(verbose: bool) -> None:
    # a warning reads like the other lines the CLI prints ("warning: ..."); -v names the module
    logging.basicConfig(level=logging.DEBUG if verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s" if verbose
                        else "%(levelname_lc)s: %(message)s")
    if not verbose:
        for handler in logging.getLogger().handlers:
            handler.addFilter(_lower_level)
    for noisy in ("openai", "httpx", "httpcore", "chromadb", "urllib3", "bm25s"):
        logging.getLogger(noisy).setLevel(logging.DEBUG if verbose else logging.ERROR)
    from assistant.settings import RedactingFilter

    for handler in logging.getLogger().handlers:  # httpx logs each request's URL, credentials
        handler.addFilter(RedactingFilter())       # in it; openai's debug log the headers


def main(argv: Sequence[str] | None = None) -> int:
    from assistant.cli import terminal
    from assistant.settings import redact

    terminal.install()
    parser = build_parser()
    args = parser.parse_args(argv)
    _setup_logging(getattr(args, "verbose", False))
    try:
        if getattr(args, "k", None) is not None and not 1 <= args.k <= 50:
            raise InputError("--k must be between 1 and 50")
        from assistant.cli import chat as cli_chat
        from assistant.cli import collections as cli_collections
        return {**COMMANDS, **cli_chat.COMMANDS, **cli_collections.COMMANDS}[args.command](args)
    except AssistantError as exc:
        print(f"error: {redact(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        if getattr(args, "verbose", False):
            raise
        if type(exc).__module__.startswith("chromadb"):  # Chroma failed reading the store
            print(f"error: {damaged_store_message(args)} ({type(exc).__name__}: "
                  f"{redact(str(exc))[:120]})", file=sys.stderr)
            return 2
        print(f"error: unexpected {type(exc).__name__}: {redact(str(exc))} (run with --verbose "
              "for details)",
              file=sys.stderr)
        return 1
    except BaseException as exc:  # a Rust panic inside Chroma (pyo3 PanicException)
        if type(exc).__name__ != "PanicException" or getattr(args, "verbose", False):
            raise
        print(f"error: {damaged_store_message(args)}", file=sys.stderr)
        return 2


def damaged_store_message(args: argparse.Namespace) -> str:
    where = getattr(args, "store", None) or "the store"
    return (f"Chroma could not read {where}: its chroma.sqlite3 looks damaged. Restore it from "
            "a backup, or re-ingest into a new --store (or --collection)")
