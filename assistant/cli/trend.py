"""``assistant trend "TOPIC"``: a topic's share of each year's papers, and its periods' papers."""

from __future__ import annotations

import argparse
import re

from assistant.cli.shared import open_store, print_json, settings_from
from assistant.errors import InputError


def plain(text: str) -> str:
    """An answer's Markdown as terminal text: no code fences, no bold marks."""
    lines = [line for line in text.splitlines() if not line.startswith("```")]
    return re.sub(r"\*\*(.+?)\*\*", r"\1", "\n".join(lines))


def cmd_trend(args: argparse.Namespace) -> int:
    from assistant.answer.listing import trend_answer
    from assistant.answer.trend import trend
    from assistant.query.trend_ask import topic_of
    from assistant.search.retrieval import Filters, Retriever

    topic = topic_of(args.topic)
    if not topic:
        raise InputError('give a topic in words, e.g. assistant trend "bandits"')
    start, end = getattr(args, "from_year", None), args.to
    if start and end and start > end:
        raise InputError(f"--from {start} is after --to {end}: give the earlier year first")
    settings = settings_from(args)
    store = open_store(settings)
    retriever = Retriever.from_settings(settings, store=store)
    index = retriever.index()
    retriever.check_filters(Filters(venue=args.venue))  # a venue it lacks: one line naming those
    found = trend(topic, index=index, embedder=store.embedder, start=start, end=end,
                  venue=args.venue)
    answer = trend_answer(found, papers=retriever.papers)
    if args.json:
        assert answer.trend is not None
        print_json({**answer.trend, "text": answer.text,
                    "citations": [c.to_dict() for c in answer.citations]})
        return 0
    print(plain(answer.text))
    if answer.citations:
        print("\nReferences")
        print(answer.references())
    return 0
