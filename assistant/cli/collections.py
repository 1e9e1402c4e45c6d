"""`assistant collections`: the corpora a store holds, and removing one."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from assistant.cli.args import store_args, subcommand

if TYPE_CHECKING:
    import numpy as np

_P = TypeVar("_P", bound=argparse.ArgumentParser)  # the main parser's class


def add_commands(sub: argparse._SubParsersAction[_P]) -> None:
    p = subcommand(sub, "collections", "the collections in the store: papers, venues and years, "
                   "embedding model, size; `collections remove NAME`",
                   "assistant collections\nassistant collections remove nips2017")
    p.add_argument("action", nargs="?", choices=["list", "remove"], default="list",
                   help="list (the default) or remove")
    p.add_argument("name", nargs="?", help="the collection to remove")
    p.add_argument("--json", action="store_true", help="print one JSON list")
    store_args(p)  # no --collection: the command is about all of them


def cmd_collections(args: argparse.Namespace) -> int:
    from assistant.errors import InputError, StoreError, StoreNotFound
    from assistant.index import collections
    from assistant.index.store import PaperStore
    from assistant.settings import load_settings

    settings = load_settings(store=args.store, chroma_url=args.chroma_url)
    store = PaperStore.from_settings(settings, embedder=_NoEmbedder())
    path = None if settings.chroma_url else settings.store
    try:
        client = store.client()
    except StoreNotFound:
        if args.action == "remove":
            raise
        print(f"no store at {settings.store} yet: `assistant ingest` creates it", file=sys.stderr)
        return 0
    except StoreError:
        if args.action == "remove" or path is None or os.access(path, os.W_OK):
            raise
        client = None  # a read-only store: listed from its SQLite file
    if args.action == "remove":
        if not args.name:
            raise InputError("name the collection to remove: assistant collections remove NAME")
        collections.remove(client, args.name, store_path=path)
        print(f"removed collection {args.name!r} from {store.location}")
        return 0
    if client is not None:
        infos = collections.describe(client, store_path=path)
    else:  # read-only: listed from its SQLite file (path is set: only a folder is read-only)
        assert path is not None
        infos = collections.describe_file(path)
    if args.json:
        from assistant.textutil import safe_json

        sys.stdout.write(safe_json([i.to_dict() for i in infos]) + "\n")
        return 0
    if not infos:
        print(f"no collections in {store.location}: `assistant ingest FILE --collection NAME`")
        return 0
    print(f"{'collection':<24} {'papers':>7} {'chunks':>8} {'size':>9}  model  venues")
    for info in infos:
        print(replace(info, venues=_readable_venues(info.venue_years)).line())
    if path is not None:
        print(f"(shared by all: chroma.sqlite3, {collections.shared_bytes(path) / 1e6:.1f} MB; "
              f"store {store.location})")
    return 0


def _readable_venues(venue_years: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """The venue column as a reader says it: a year without a venue (a paper list without
    venues) reads "unknown venue 2018", neither "unknown venue and year"."""
    out: dict[str, int] = {}
    for vy in venue_years:
        venue, year = vy["venue"], vy["year"]
        where = (" ".join(str(x) for x in (venue, year) if x) if venue else
                 f"unknown venue {year}" if year else "unknown venue and year")
        out[where] = out.get(where, 0) + vy["papers"]
    return out


class _NoEmbedder:
    """Listing and removing collections embed nothing: no model is loaded."""

    name = ""
    dim = 0

    def embed(self, texts: Sequence[str], *, progress: Callable[[int], None] | None = None
              ) -> np.ndarray:
        raise AssertionError("collections embed nothing")

    def embed_query(self, text: str) -> np.ndarray:
        raise AssertionError("collections embed nothing")

    def preload(self) -> None:
        pass


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {"collections": cmd_collections}
