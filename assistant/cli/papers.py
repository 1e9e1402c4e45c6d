"""``assistant papers``: the papers in the store, all or those the filters pass."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from assistant.cli.shared import filters_from, open_store, print_json, settings_from

if TYPE_CHECKING:
    from assistant.paper import Paper


def paper_json(p: Paper) -> dict[str, Any]:
    """One paper as `papers --json` prints it."""
    return {"paper_id": p.paper_id, "title": p.title, "title_derived": p.title_derived,
            "venue": p.venue, "year": p.year, "authors": p.authors, "url": p.url,
            "code_url": p.code_url, "status": p.status, "tldr": p.tldr,
            "keywords": p.keywords, "abstract": p.abstract}


def cmd_papers(args: argparse.Namespace) -> int:
    from assistant.index.chunk_index import ensure_index

    settings = settings_from(args)
    store = open_store(settings)
    filters = filters_from(args)
    # read from the search index when it is current: no Chroma client (a read-only store
    # lists too), and quicker; Chroma when the index keeps no records
    every = ensure_index(store, k1=settings.bm25_k1, b=settings.bm25_b).all_papers()
    if every is None:
        every = store.papers()
    if filters.status:
        from assistant.paper import require_status

        require_status(filters.status, (p.status_tags for p in every))
    papers = [p for p in every if filters.accepts(p)]
    if args.json:
        print_json([paper_json(p) for p in papers])
        return 0
    for p in papers:
        print(f"{p.paper_id}  {p.venue_year:<10}  {p.display_title}")
    matched = f"{len(papers)} of {len(every)}" if len(papers) < len(every) else str(len(papers))
    print(f"{matched} papers in collection {store.name!r}", file=sys.stderr)
    return 0
