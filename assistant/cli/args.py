"""The pieces every subcommand's arguments share: the store and collection options, the help
texts of --backend and --k, and subcommands whose --help ends with examples."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

BACKEND_HELP = ("auto (the default): the LLM when OPENAI_BASE_URL or a model is configured, "
                "else offline; llm; extractive: offline, quoting the abstracts")
K_HELP = "how many papers the answer may draw on, 1-50 (default 6; ASSISTANT_K)"


def subcommand(sub: Any, name: str, help: str, example: str) -> argparse.ArgumentParser:
    """A subcommand whose --help ends with examples."""
    p: argparse.ArgumentParser = sub.add_parser(
        name, help=help, description=help[0].upper() + help[1:] + ".",
        epilog="example:\n  " + example.replace("\n", "\n  "),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    return p


def version() -> str:
    """The installed package's version (``assistant --version``)."""
    from importlib import metadata

    try:
        return metadata.version("paper-assistant")
    except metadata.PackageNotFoundError:
        return "unknown (not installed: run `make install`)"


def store_args(p: argparse.ArgumentParser) -> None:
    """Where the store is (every command); ``common`` adds the collection."""
    p.add_argument("--store", type=Path, help="Chroma store directory (ASSISTANT_STORE)")
    p.add_argument("--chroma-url", help="use a Chroma server, e.g. http://127.0.0.1:8000")
    p.add_argument("-v", "--verbose", action="store_true", help="debug logging")


def common(p: argparse.ArgumentParser) -> None:
    store_args(p)
    p.add_argument("--collection", help="collection name (ASSISTANT_COLLECTION, default "
                   "icml2026); several, comma-separated, are read as one")
