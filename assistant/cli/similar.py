"""``assistant similar PAPER``: the papers most like one paper, on one facet or on the whole."""

from __future__ import annotations

import argparse

from assistant.cli.shared import open_store, print_json, settings_from
from assistant.textutil import clip


def cmd_similar(args: argparse.Namespace) -> int:
    from assistant.search.retrieval import Retriever
    from assistant.search.similar import resolve, similar

    settings = settings_from(args)
    store = open_store(settings)
    retriever = Retriever.from_settings(settings, store=store)
    paper, text = resolve(args.paper, retriever)
    k = args.k or 10
    found = similar(text, retriever=retriever, facet=args.facet, k=k,
                    exclude=[paper.paper_id] if paper else [])
    facet = args.facet or "whole abstract"
    if args.json:
        print_json({"query": {"paper_id": paper.paper_id if paper else None,
                              "title": paper.display_title if paper else None,
                              "facet": args.facet},
                    "papers": [s.to_dict() for s in found]})
        return 0
    name = f"“{paper.display_title}”" if paper else "the abstract given"
    print(f"Papers like {name} ({facet}), best first:\n")
    for n, s in enumerate(found, 1):
        where = f"  ({s.paper.venue_year})" if s.paper.venue_year else ""
        print(f"{n:>3}. {s.score:.2f}  {s.paper.display_title}{where}  [{s.paper.paper_id}]")
        print(f"       this:  {clip(s.pair[0], 220)}")
        print(f"       that:  {clip(s.pair[1], 220)}")
    if not found:
        print("(no other paper in this collection)")
    return 0
