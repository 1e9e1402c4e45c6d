"""``assistant ask`` (the answer, its references and what the support check flagged, or one
JSON object, or a table) and ``assistant search`` (retrieval only, best first)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from assistant.cli.shared import (
    also_as,
    filters_from,
    open_store,
    preload_verifier,
    print_json,
    require_papers,
    settings_from,
)
from assistant.textutil import readable


def cmd_ask(args: argparse.Namespace) -> int:
    from assistant.answer.factory import build_answerer
    from assistant.answer.pipeline import answer
    from assistant.search.retrieval import Retriever

    settings = settings_from(args, backend=args.backend, model=args.model, k=args.k)
    preload_verifier()
    store = open_store(settings)
    retriever = Retriever.from_settings(settings, store=store)
    require_papers(store, retriever)
    if retriever.multilingual is not None:  # first Chinese question over a new collection
        retriever.multilingual.on_progress = lambda done, total: print(
            f"\rmultilingual search, once for this collection: {done}/{total} papers embedded",
            end="\n" if done == total else "", file=sys.stderr, flush=True)
    answerer = build_answerer(settings, embedder=store.embedder)
    stream = not args.json and not args.table and sys.stdout.isatty()

    def show(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    result = answer(args.question, retriever=retriever, answerer=answerer, k=settings.k,
                    filters=filters_from(args), on_delta=show if stream else None)
    if args.json:
        print_json(result.to_dict())
        return 3 if result.cut else 0
    if args.table:
        from assistant.answer import survey

        if not result.citations:
            sys.stdout.write(result.text + "\n")
            return 0
        sys.stdout.write(readable(survey.render(survey.rows(result), args.table)))
        return 0
    g = result.grounding
    if not stream:  # LaTeX rendered for a reader (--json keeps the source)
        sys.stdout.write(readable(g.marked(result.text) if g else result.text))
    sys.stdout.write("\n")
    if result.citations:
        sys.stdout.write("\nReferences\n" + readable(result.references()) + "\n")
    if g and g.flagged():
        sys.stdout.write("\n" + "\n".join(_support_lines(result)) + "\n")
    note = f"{result.backend}:{result.model} · {result.timings.get('total_ms', 0):.0f} ms"
    if g:
        summary = g.summary()
        note += f" · {summary['supported']} of {summary['claims']} claims supported"
    if result.dropped_citations:
        note += f" · dropped citations of missing sources: {result.dropped_citations}"
    print(note, file=sys.stderr)
    if result.cut:
        print(f"warning: the answer is cut (kept what arrived): {result.cut_reason}",
              file=sys.stderr)
        return 3
    return 0


def _clip(text: str, n: int = 160) -> str:
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def _support_lines(result: Any) -> list[str]:
    """What the support check flagged, sentence by sentence, with the evidence it found."""
    from assistant.judge.grounding import mark_of

    titles = {rp.paper.paper_id: rp.paper.title for rp in result.papers}
    n_of = {c.paper.paper_id: c.n for c in result.citations}
    lines = ["Support check (each sentence against the abstract it cites):"]
    for s in result.grounding.flagged():
        w = s.weakest
        lines.append(f"  ⚠ {mark_of(s)}: “{_clip(s.text)}”")
        if any(c.misattributed for c in s.claims):
            c = next(c for c in s.claims if c.misattributed)
            where = (f"[{n_of[c.best_paper_id]}]" if c.best_paper_id in n_of
                     else f"“{titles.get(c.best_paper_id or '', '?')}”")
            lines.append(f"      best supported by {where}, not by {c.cites}")
        elif w is not None and w.evidence:
            lines.append(f"      closest in [{w.n}] (score {w.score:.2f}): “{_clip(w.evidence)}”")
            if w.missing_numbers:
                lines.append(f"      numbers the paper does not state: "
                             f"{', '.join(w.missing_numbers)}")
    return lines


def cmd_search(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from assistant.answer.pipeline import searched
    from assistant.search.retrieval import Retriever, best_first

    settings = settings_from(args, k=args.k)
    preload_verifier()
    store = open_store(settings)
    retriever = Retriever.from_settings(settings, store=store)
    require_papers(store, retriever)
    found = searched(args.query, args.query, retriever=retriever, k=args.k or 10,
                     filters=filters_from(args))
    retrieval, verdict = found.retrieval, found.verdict
    shown = best_first(retrieval.papers[: args.k or 10])
    read = {**({"left_out": {"thing": found.left_out[0], "papers": found.left_out[1]}}
               if found.left_out else {}),
            **({"surveys_of": {"topic": found.reviews[0], "papers": found.reviews[1]}}
               if found.reviews else {})}
    if args.json:
        print_json({"query": args.query, "outcome": verdict.outcome,
                     "relevance": verdict.relevance.to_dict(),
                     "filters": {k: v for k, v in asdict(found.filters).items() if v}
                     if found.filters else {},
                     "filters_read": {**found.applied, **found.dropped},
                     "filters_dropped": found.dropped, **read,
                     "timings": {k: round(v, 1) for k, v in retrieval.timings.items()},
                     "papers": [{"rank": rp.rank, "paper_id": rp.paper.paper_id,
                                 "title": rp.paper.title, "venue": rp.paper.venue,
                                 "year": rp.paper.year, "status": rp.paper.status,
                                 "score": round(rp.score, 4),
                                 "estimate": None if rp.verified is None
                                 else round(rp.verified, 3),
                                 "verifier": None if rp.verifier is None
                                 else round(rp.verifier, 3),
                                 "versions": [v.paper_id for v in rp.versions]}
                                for rp in shown]})
        return 0
    for line in _read_from_query(found):  # what the query itself set: said, as ``ask`` says it
        print(line, file=sys.stderr)
    for n, rp in enumerate(shown, 1):  # the estimate that it is what the query asks about
        score = "  - " if rp.verified is None else f"{rp.verified:.2f}"
        where = f"  ({rp.paper.venue_year})" if rp.paper.venue_year else ""
        print(f"{n:>3}. {score}  {rp.paper.display_title}{where}  [{rp.paper.paper_id}]")
        for v in rp.versions:  # the same paper's other entries (search/versions.py)
            print(f"           also here as {also_as(v)}")
    if verdict.outcome == "refused":
        print("(nothing here looks relevant to the query)", file=sys.stderr)
    elif verdict.outcome == "near_miss":
        print("(nothing here is clearly about the query: these are the closest papers)",
              file=sys.stderr)
    return 0


def _read_from_query(found: Any) -> list[str]:
    """The lines ``search`` says before its list when the query itself set what was searched:
    a filter ("Which ICLR 2018 papers on GANs were rejected?"), papers left out for using
    something ("... do not use reinforcement learning?"), a topic's surveys."""
    from assistant.answer.framing import ENGLISH
    from assistant.search import query_filters

    lines = [query_filters.notice(found.applied, found.dropped)]
    if found.absent_venue:  # "papers from AISTATS on bandits" over a list without AISTATS
        lines.append(f"(No paper here is from {found.absent_venue}: every paper was searched.)")
    if found.left_out is not None:
        thing, n = found.left_out
        lines.append((ENGLISH.left_out if n else ENGLISH.left_none).format(
            n=n, thing=thing, papers="paper" if n == 1 else "papers"))
    if found.reviews is not None:
        topic, n = found.reviews
        lines.append((ENGLISH.reviews_found if n else ENGLISH.reviews_none).format(topic=topic))
    return [line for line in lines if line]
