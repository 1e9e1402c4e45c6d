"""Answers that are lists asked for by a key, not by a question: the papers like one paper.

The chat shows such a list as one more turn (saved, copied and exported like an answer), each
paper cited as ``[n]`` with its 0-1 score in the sources pane. Nothing here is generated: the
text is made of the papers' own titles and sentences.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from assistant.answer.types import Answer
from assistant.citations import Citation
from assistant.search.retrieval import RetrievedPaper
from assistant.textutil import clip

if TYPE_CHECKING:
    from assistant.search.similar import Similar

LISTED = "listed"  # an Answer's outcome when it is such a list: its order is the listing's
FACET_NAMES = {None: "the whole abstract", "background": "its problem",
               "method": "its method", "result": "its result"}


def similar_answer(found: Sequence[Similar], *, title: str, facet: str | None) -> Answer:
    """``found`` (best first) as an answer: a numbered list citing each paper as ``[n]``, with
    the sentence of each abstract that ties the two papers."""
    question = f"Papers like “{title}” ({FACET_NAMES.get(facet, facet)})"
    lines = [f"Papers like **{title}**, on {FACET_NAMES.get(facet, facet)}, best first "
             "(score: 0-1, how close the two sentences below are):", ""]
    for n, s in enumerate(found, 1):
        p = s.paper
        where = f" ({p.venue_year})" if p.venue_year else ""
        lines.append(f"{n}. **{p.display_title}**{where} [{n}] · {s.score:.2f}")
        lines.append(f"   - this: “{clip(s.pair[0], 240)}”")
        lines.append(f"   - [{n}]: “{clip(s.pair[1], 240)}”")
    if not found:
        lines.append("No other paper in this collection shares it.")
    papers = [RetrievedPaper(s.paper, s.score, s.rank, dense=s.score, verified=s.score)
              for s in found]
    return Answer(question, "\n".join(lines), "extractive", "similar-v1",
                  [Citation(n, s.paper) for n, s in enumerate(found, 1)], papers,
                  refused=False, outcome=LISTED)
