"""A comparison searched side by side: "A vs B" searches each side on its own, and each side's
best paper leads the results (one query for both finds the side whose words dominate it and
misses the other; ``query.compare`` reads the sides)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from assistant.search.retrieval import Filters, Retrieval, RetrievedPaper, Retriever

Side = tuple[str, list[RetrievedPaper]]
Lead = Callable[[str, Sequence[RetrievedPaper]], RetrievedPaper | None]


def first(side: str, found: Sequence[RetrievedPaper]) -> RetrievedPaper | None:
    return found[0] if found else None


def lead_with_sides(pair: Sequence[str] | None, retrieval: Retrieval, *, retriever: Retriever,
                    filters: Filters | None, k: int, lead: Lead = first
                    ) -> tuple[Retrieval, list[Side]]:
    """(the results with each side's paper first, re-ranked; each side's query and its own
    results, its paper first). ``lead`` picks a side's paper from its results (the pipeline
    passes ``judge.introduces.side_lead``: the paper that introduces a named method); when
    both sides find the same paper first, the second side's lead is its best other paper, and
    its own decision judges it. Unchanged, with no sides, when the question compares nothing
    or the user picked the papers. Returns new records: the ``retrieval`` given is left as it
    was."""
    if not pair or (filters and filters.paper_ids):
        return retrieval, []
    leads: list[RetrievedPaper] = []
    searched: list[Side] = []
    for side in pair:
        found = retriever.search(side, k=k, filters=filters).papers
        taken = {rp.paper.paper_id for rp in leads}  # a paper leads one side only
        best = lead(side, [rp for rp in found if rp.paper.paper_id not in taken])
        if best is not None:
            leads.append(best)
            searched.append((side, [best, *(rp for rp in found if rp is not best)]))
    if len(leads) < 2:
        return retrieval, []
    ids = {rp.paper.paper_id for rp in leads}
    rest = [rp for rp in retrieval.papers if rp.paper.paper_id not in ids]
    papers = [replace(rp, rank=rank) for rank, rp in enumerate((leads + rest)[: max(k, 2)], 1)]
    return replace(retrieval, papers=papers), searched
