"""``assistant similar PAPER``: the papers most like one paper, on one facet or on the whole."""

from __future__ import annotations

import argparse

from assistant.cli.shared import also_as, open_store, print_json, settings_from
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
                    exclude=[paper.paper_id] if paper else [], paper=paper)
    facet = args.facet or "whole abstract"
    if args.json:
        print_json({"query": {"paper_id": paper.paper_id if paper else None,
                              "title": paper.display_title if paper else None,
                              "facet": args.facet,
                              "versions": [v.paper_id for v in found.versions]},
                    "papers": [s.to_dict() for s in found.papers]})
        return 0
    name = f"“{paper.display_title}”" if paper else "the abstract given"
    print(f"Papers like {name} ({facet}), best first:")
    for v in found.versions:  # the query paper's own other entries: no neighbours of it
        print(f"  (also in this collection as {also_as(v)}: not listed)")
    print()
    for n, s in enumerate(found.papers, 1):
        where = f"  ({s.paper.venue_year})" if s.paper.venue_year else ""
        print(f"{n:>3}. {s.score:.2f}  {s.paper.display_title}{where}  [{s.paper.paper_id}]")
        for v in s.versions:
            print(f"           also here as {also_as(v)}")
        print(f"       this:  {clip(s.pair[0], 220)}")
        print(f"       that:  {clip(s.pair[1], 220)}")
    if not found.papers:
        print("(no other paper in this collection)")
    return 0
