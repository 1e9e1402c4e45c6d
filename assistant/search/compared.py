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


NAMED_AT = 6  # a side's own named paper joins its results at this rank when ranked below it


def _with_named(side: str, found: list[RetrievedPaper], *, retriever: Retriever,
                filters: Filters | None) -> list[RetrievedPaper]:
    """A side's results, holding the paper whose title opens with the side as written ("ROAD"
    for "ROAD: ..."; ``Retriever.named_by``) within the first ``NAMED_AT``: a name that is a
    common word ranks its own paper below papers that use the word ("Compare ROAD and
    FractalNet" named a paper on road scenes, sure). It joins at ``NAMED_AT`` with that
    rank's fused score (its dense and lexical scores its own), so the side's decision weighs it
    among the others, ranked no higher than retrieval would; ``introduces.side_lead`` leads
    with it."""
    own = retriever.named_by(side)
    if own is None or any(rp.paper.paper_id == own.paper_id for rp in found[:NAMED_AT]):
        return found
    only = replace(filters or Filters(), paper_ids=[own.paper_id])
    hit = retriever.search(side, k=1, filters=only).papers
    if not hit:
        return found
    at = min(NAMED_AT, len(found) + 1) - 1
    rest = [rp for rp in found if rp.paper.paper_id != own.paper_id]
    score = rest[at].score if at < len(rest) else (rest[-1].score if rest else hit[0].score)
    joined = [*rest[:at], replace(hit[0], rank=at + 1, score=score), *rest[at:]]
    return [replace(rp, rank=i) for i, rp in enumerate(joined[:len(found)] or joined, 1)]


def lead_with_sides(pair: Sequence[str] | None, retrieval: Retrieval, *, retriever: Retriever,
                    filters: Filters | None, k: int, lead: Lead = first
                    ) -> tuple[Retrieval, list[Side]]:
    """(the results with each side's paper first, re-ranked; each side's query and its own
    results, its paper first). ``lead`` picks a side's paper from its results (the pipeline
    passes ``judge.decision.side_leads``: the paper that introduces a named method, else the
    highest estimate among its first results); when
    several sides find the same paper first, it leads the side whose query it is nearest, the
    others' leads are their best other papers, and each side's own decision judges its lead.
    Unchanged, with no sides, when the question compares nothing or the user picked the
    papers. Returns new records: the ``retrieval`` given is left as it was."""
    if not pair or (filters and filters.paper_ids):
        return retrieval, []
    results = [_with_named(side, retriever.search(side, k=k, filters=filters).papers,
                           retriever=retriever, filters=filters) for side in pair]
    # a paper leads one side only: the side it is nearest (its cosine to each side's query)
    # picks first ("How does <a paper not here> differ from CPMöbius?": the side not here
    # found CPMöbius first too, only less near, and took it from the side that names it)
    wanted = [lead(side, found) for side, found in zip(pair, results, strict=True)]
    order = list(range(len(pair)))
    firsts = [rp.paper.paper_id for rp in wanted if rp is not None]
    if len(set(firsts)) < len(firsts):  # contested: the nearest side picks first
        near = [-1.0 if rp is None else rp.dense or 0.0 for rp in wanted]
        order.sort(key=lambda i: -near[i])
    chosen: dict[int, RetrievedPaper] = {}
    for i in order:  # the first picks from all its results (``wanted``), the next from the rest
        taken = {rp.paper.paper_id for rp in chosen.values()}
        best = lead(pair[i], [rp for rp in results[i] if rp.paper.paper_id not in taken]) \
            if taken else wanted[i]
        if best is not None:
            chosen[i] = best
    leads = [chosen[i] for i in sorted(chosen)]
    searched: list[Side] = [(pair[i], [chosen[i], *(rp for rp in results[i]
                                                   if rp is not chosen[i])])
                            for i in sorted(chosen)]
    if len(leads) < len(pair):
        return retrieval, []
    ids = {rp.paper.paper_id for rp in leads}
    rest = [rp for rp in retrieval.papers if rp.paper.paper_id not in ids]
    papers = [replace(rp, rank=rank)
              for rank, rp in enumerate((leads + rest)[: max(k, len(leads))], 1)]
    return replace(retrieval, papers=papers), searched
