"""Papers like this one: those that share its problem, its method or its result.

A paper (one of the collection's, or an abstract that is not: a draft of one's own) is searched
like a question, its whole abstract and, for a facet (facets.py: background, method, result),
that facet's sentences too, the two rankings weighed together; each paper found is tied to the
query by a sentence pair of that facet (the two that share the most rare words), shown beside
it, and scored 0-1 by the dense cosine of the two texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from assistant.errors import InputError
from assistant.search.facets import FACETS, facets_of
from assistant.search.versions import entry_of, same_paper
from assistant.textutil import strip_section_label

if TYPE_CHECKING:
    from assistant.paper import Paper
    from assistant.search.retrieval import Retriever

DRAFT_WORDS = 12  # a PAPER of at least this many words that names no paper is an abstract


def resolve(given: str, retriever: Retriever) -> tuple[Paper | None, str]:
    """The paper PAPER names (by id, else by title, any case), or None and the text itself
    when it is an abstract of a paper not in the collection."""
    given = given.strip()
    found = retriever.index().papers([given])
    if found:
        return found[0], found[0].abstract
    named = retriever.paper_titled(given, start=True)  # its title, or a name it starts with
    if named is not None:
        return named, named.abstract
    if len(given.split()) >= DRAFT_WORDS:
        return None, given
    raise InputError(f"no paper with the id or title {given!r} in collection "
                     f"{retriever.store.name!r}: give a paper id (`assistant papers` or the "
                     "chat's papers screen lists them), its title, or a quoted abstract of at "
                     f"least {DRAFT_WORDS} words")


SEARCHED = 200  # papers of each search weighed
VERSIONS_SLACK = 3  # papers read beyond k, for entries of one paper listed once
# the facet's own search against the whole abstract's: chosen on the dev queries of
# evals/similar (bench/similar_eval.py; NDCG@20 at 0 / 0.3 / 0.5 / 1: background 0.792 / 0.807 /
# 0.806 / 0.736, method 0.657 / 0.652 / 0.587 / 0.42, result 0.664 / 0.654 / 0.631 / 0.44)
FACET_WEIGHT = 0.3


@dataclass(frozen=True)
class Similar:
    paper: Paper
    score: float  # 0-1: the cosine of the sentence pair that ties the two papers
    rank: int  # retrieval's order of the facet's search
    pair: tuple[str, str]  # (the query's sentence, this paper's sentence)
    versions: tuple[Paper, ...] = ()  # its other entries in the collection, not listed again

    def to_dict(self) -> dict[str, object]:
        p = self.paper
        return {"paper_id": p.paper_id, "title": p.display_title, "venue": p.venue,
                "year": p.year, "score": round(self.score, 3), "rank": self.rank,
                "query_sentence": self.pair[0], "sentence": self.pair[1],
                "versions": [v.paper_id for v in self.versions]}


@dataclass(frozen=True)
class Neighbours:
    """The papers like the query, best first, and the query paper's own other entries in the
    collection (its submission or its publication), which are no neighbours of it."""

    papers: list[Similar] = field(default_factory=list)
    versions: list[Paper] = field(default_factory=list)


def sentences_of(abstract: str, facet: str | None) -> list[str]:
    """The abstract's sentences of ``facet`` (None: all), without a structured abstract's
    section labels (searched and shown: "METHODS" is no part of the method)."""
    found = facets_of(abstract)
    return [strip_section_label(s) for s in
            (found[facet] if facet else [s for f in FACETS for s in found[f]])]


def similar(abstract: str, *, retriever: Retriever, facet: str | None = None, k: int = 10,
            exclude: Sequence[str] = (), paper: Paper | None = None) -> Neighbours:
    """The ``k`` papers most like ``abstract`` on ``facet`` (None: the whole abstract), best
    first, each with the sentence pair that ties it to the query: of the query's facet
    sentences and the paper's, the two that share the most rare words. The ranking: the whole
    abstract searched (dense + BM25, fused), and for a facet its sentences searched too, the
    two weighed ``1 - FACET_WEIGHT`` and ``FACET_WEIGHT`` (each min-max scaled). ``score``: the
    dense cosine of the query's text and the paper's nearest chunk (the facet's, when asked).
    ``exclude``: paper ids left out (the query paper itself). ``paper``: the query paper, when
    it is one of the collection's: its title, authors and status with its abstract tell its
    other entries (``Neighbours.versions``; for a draft, its abstract alone); a paper listed
    keeps its own other entries in ``Similar.versions``."""
    from assistant.paper import Paper

    mine = sentences_of(abstract, facet)
    if not mine:
        return Neighbours()
    skip = set(exclude)
    whole, sides = retriever.rank(abstract)
    scores = _scaled(whole, skip)
    dense = {p: v for p, (v, _) in sides.dense.items()}
    if facet:
        order, fsides = retriever.rank(" ".join(mine))
        part = _scaled(order, skip)
        scores = {p: (1 - FACET_WEIGHT) * scores.get(p, 0.0) + FACET_WEIGHT * part.get(p, 0.0)
                  for p in set(scores) | set(part)}
        dense = {**dense, **{p: v for p, (v, _) in fsides.dense.items()}}
    query = paper or Paper("", "", abstract)
    ranked = sorted(scores, key=lambda p: -scores[p])
    out: list[Similar] = []
    own: list[Paper] = []
    # read k + VERSIONS_SLACK papers at a time: an entry folded into another leaves a place
    for start in range(0, len(ranked), k + VERSIONS_SLACK):
        batch = ranked[start:start + k + VERSIONS_SLACK]
        found = {p.paper_id: p for p in retriever.papers(batch)}
        for pid in batch:
            other = found.get(pid)
            if other is None:
                continue
            if same_paper(query, other):
                own.append(other)
                continue
            listed = entry_of(other, [s.paper for s in out])
            if listed is not None:
                out[listed] = replace(out[listed], versions=(*out[listed].versions, other))
                continue
            if len(out) == k:
                return Neighbours(out, own)
            theirs = sentences_of(other.abstract, facet) or [other.title]
            out.append(Similar(other, max(0.0, min(1.0, dense.get(pid, 0.0))), len(out) + 1,
                               _pair(mine, theirs)))
    return Neighbours(out, own)


def _scaled(order: Sequence[tuple[str, float]], skip: set[str]) -> dict[str, float]:
    """A fused ranking's scores scaled to 0-1 (the best 1), papers in ``skip`` left out."""
    kept = [(p, v) for p, v in order[:SEARCHED] if p not in skip]
    if not kept:
        return {}
    hi, lo = kept[0][1], kept[-1][1]
    return {p: (v - lo) / (hi - lo) if hi > lo else 1.0 for p, v in kept}


def _pair(mine: Sequence[str], theirs: Sequence[str]) -> tuple[str, str]:
    """The query sentence and the paper's sentence that share the most words (each weighed by
    its length: long words are the rare ones)."""
    from assistant.textutil import content_words

    def words(text: str) -> set[str]:
        return {w for w in content_words(text) if len(w) > 3}

    theirs_words = [words(t) for t in theirs]
    best = max(((len(mw & tw) and sum(map(len, mw & tw)), i, j)
                for i, mw in enumerate(map(words, mine))
                for j, tw in enumerate(theirs_words)), default=(0, 0, 0))
    return mine[best[1]], theirs[best[2]]
