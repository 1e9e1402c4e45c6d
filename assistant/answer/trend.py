"""A topic over the years: its members, its share of each year's papers, its periods.

judge/membership.py judges every paper of the collection on the topic. A year's share is its
members over *all* its papers in the collection (never over the hits), with a 90% Wilson
interval; a year with fewer than ``FEW`` papers is marked. Periods split the span into at
most ``PERIODS`` runs of years; each names its first papers (the earliest members, the surest
first) and its most central ones (closest to the mean of its members' vectors, the first ones
left out). answer/listing.py writes it as an answer; ``assistant trend`` and ``ask`` use it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from assistant.judge.membership import members as member_mask
from assistant.judge.membership import membership, scores
from assistant.paper import venue_names

if TYPE_CHECKING:
    from assistant.index.chunk_index import ChunkIndex
    from assistant.index.embeddings import Embedder
    from assistant.paper import Paper

FEW = 30  # a year with fewer papers than this: its share is marked uncertain
PERIODS = 4
NAMED = 2  # first and central papers named per period
Z90 = 1.645


@dataclass(frozen=True)
class Year:
    year: int
    members: int
    total: int  # the year's papers in the collection

    @property
    def share(self) -> float:
        return self.members / self.total if self.total else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """90% Wilson interval of the share."""
        n, p = self.total, self.share
        if not n:
            return 0.0, 0.0
        d = 1 + Z90 ** 2 / n
        centre = (p + Z90 ** 2 / (2 * n)) / d
        half = Z90 * math.sqrt(p * (1 - p) / n + Z90 ** 2 / (4 * n * n)) / d
        return max(0.0, centre - half), min(1.0, centre + half)

    @property
    def few(self) -> bool:
        return self.total < FEW

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {"year": self.year, "members": self.members, "total": self.total,
                "share": round(self.share, 4), "low": round(lo, 4), "high": round(hi, 4),
                "few_papers": self.few}


@dataclass(frozen=True)
class Member:
    paper_id: str
    year: int
    score: float  # 0-1: the calibrated chance that it is on the topic


@dataclass
class Period:
    start: int
    end: int
    members: int
    first: list[Paper] = field(default_factory=list)
    central: list[Paper] = field(default_factory=list)


@dataclass
class Trend:
    topic: str
    years: list[Year]
    members: list[Member]  # best first
    periods: list[Period]
    papers: int  # the collection's papers in the span (of the venue, when one is given)
    closest: list[Member] = field(default_factory=list)  # the best scored, members or not
    held: tuple[int, int] | None = None  # the collection's first and last year (None: no year)
    venue: str = ""  # the one venue counted ("": every venue)

    @property
    def total_members(self) -> int:
        return sum(y.members for y in self.years) if self.years else len(self.members)


def trend(topic: str, *, index: ChunkIndex, embedder: Embedder, start: int | None = None,
          end: int | None = None, venue: str | None = None) -> Trend:
    """The topic's members and yearly shares over the collection's years (``start``-``end``
    when given), and its periods with their first and central papers; with ``venue``, only
    that venue's papers count, members and totals alike."""
    import numpy as np

    ids = index.all_paper_ids
    years = index.paper_years()
    if venue:  # another venue's papers are outside the span, as another year's are
        years = np.where(np.isin(index.paper_venues(), venue_names(venue)), years, 0)
    p = membership(scores(topic, index=index, embedder=embedder))
    known = years > 0
    if not known.any() and venue:  # no paper of that venue has a year: nothing to chart
        return Trend(topic, [], [], [], 0, venue=venue)
    held: tuple[int, int] | None = None
    if known.any():
        held = int(years[known].min()), int(years[known].max())
        lo, hi = max(held[0], start or held[0]), min(held[1], end or held[1])
        span = known & (years >= lo) & (years <= hi)
    else:  # no paper has a year: no chart, but the count ("How many papers here are about
        # malaria?" over a collection without years)
        span = np.ones(len(ids), dtype=bool)
    member = span & member_mask(np.where(span, p, 0.0))
    rows: list[Year] = []
    for y in range(lo, hi + 1) if held else ():
        in_year = years == y
        rows.append(Year(y, int((member & in_year).sum()), int((span & in_year).sum())))
    order = np.flatnonzero(member)[np.argsort(-p[member], kind="stable")]
    members = [Member(ids[i], int(years[i]), float(p[i])) for i in order]
    periods = _periods(members, [r for r in rows if r.total], index=index)
    nearest = np.argsort(-np.where(span, p, -1.0), kind="stable")[:NAMED + 1]
    closest = [Member(ids[i], int(years[i]), float(p[i])) for i in nearest if span[i]]
    return Trend(topic, rows, members, periods, int(span.sum()), closest, held, venue or "")


def _periods(members: list[Member], years: list[Year], *, index: ChunkIndex) -> list[Period]:
    """At most ``PERIODS`` runs of consecutive years, of as equal lengths as they split into
    (14 years: 4, 4, 3, 3), each with its first and its most central papers."""
    import numpy as np

    if not years:
        return []
    span = list(range(years[0].year, years[-1].year + 1))
    out: list[Period] = []
    for run in np.array_split(np.asarray(span), min(PERIODS, len(span))):
        start, end = int(run[0]), int(run[-1])
        inside = [m for m in members if start <= m.year <= end]
        period = Period(start, end, len(inside))
        if inside:
            earliest = min(m.year for m in inside)
            firsts = [m for m in inside if m.year == earliest][:NAMED]  # best first already
            vectors = index.paper_vectors([m.paper_id for m in inside])
            order = (np.argsort(-(vectors @ vectors.mean(axis=0)), kind="stable")
                     if vectors is not None else range(len(inside)))
            central = [inside[i] for i in order if inside[i] not in firsts][:NAMED]
            found = {p.paper_id: p for p in index.papers(
                [m.paper_id for m in firsts + central]) or []}
            period.first = [found[m.paper_id] for m in firsts if m.paper_id in found]
            period.central = [found[m.paper_id] for m in central if m.paper_id in found]
        out.append(period)
    return out
