"""Question -> ranked papers, by hybrid retrieval.

Dense (Chroma, cosine over chunk vectors) and lexical (BM25 over chunk text) candidates are
each aggregated from chunks to papers (a paper scores as its best chunk), then fused
(fusion.py). Filters (venue, year, author, status, paper ids) act inside candidate
generation on both sides, through the chunk index's mask (or Chroma's ``where`` when the index
holds no vectors), so a filtered search ranks every paper that passes, not just those among the
unfiltered top. The answerer only sees ``RetrievedPaper`` lists.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from assistant.paper import Paper, require_status, venue_names
from assistant.search import fusion, versions
from assistant.sources.titles import title_name

if TYPE_CHECKING:
    import numpy as np

    from assistant.index.chunk_index import ChunkIndex, IndexHit
    from assistant.index.protocol import ChunkHit, Store
    from assistant.search.multilingual import PaperVectors
    from assistant.search.translate import Translation
    from assistant.settings import Settings

log = logging.getLogger(__name__)

Mode = Literal["hybrid", "dense", "lexical"]


def _words(text: str | None) -> str:
    return " ".join((text or "").lower().split())


@dataclass
class Filters:
    """What a search or a paper list is limited to; every field is optional.

    ``author`` matches a case-insensitive part of any author's name ("bengio"). ``status``
    matches "accepted" (in the proceedings: not rejected or withdrawn), "rejected",
    "withdrawn", "unpublished" (either, or marked not accepted), or the list's own status
    ("Oral", "Workshop"), case-insensitively; see ``assistant.paper.tags_for``.
    """

    venue: str | None = None
    year: int | None = None
    author: str | None = None
    status: str | None = None
    paper_ids: list[str] | None = None
    since: int | None = None  # papers of this year or later
    until: int | None = None  # papers of this year or earlier

    def any(self) -> bool:
        """Is any filter set?"""
        return bool(self.venue or self.year or self.author or self.status or self.paper_ids
                    or self.since or self.until)

    def where(self) -> dict[str, Any] | None:
        """Chroma's share of the filters: venue, year and paper ids. Author (a substring) and
        status (read from the paper record) are no Chroma metadata filters; the retriever
        resolves them to paper ids through the chunk index (``chroma_where``)."""
        clauses: list[dict[str, Any]] = []
        if self.venue:  # by any of its names ("NeurIPS" finds a list's "nips")
            clauses.append({"venue_lc": {"$in": list(venue_names(self.venue))}})
        if self.year:
            clauses.append({"year": int(self.year)})
        if self.since:
            clauses.append({"year": {"$gte": int(self.since)}})
        if self.until:
            clauses.append({"year": {"$lte": int(self.until)}})
        if self.paper_ids:
            clauses.append({"paper_id": {"$in": list(self.paper_ids)}})
        if not clauses:
            return None
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}

    def accepts(self, paper: Paper) -> bool:
        """The chunk index's test, for papers in hand (``assistant papers``); retrieval never
        filters its ranked candidates with it."""
        if self.venue and paper.venue.lower() not in venue_names(self.venue):
            return False
        if self.year and paper.year != int(self.year):
            return False
        if (self.since and (paper.year or 0) < int(self.since)) or \
                (self.until and not 0 < (paper.year or 0) <= int(self.until)):
            return False
        if self.author and not any(_words(self.author) in a.strip().lower()
                                   for a in paper.authors):
            return False
        if _words(self.status) and _words(self.status) not in paper.status_tags:
            return False
        return not self.paper_ids or paper.paper_id in self.paper_ids


def chroma_where(filters: Filters, index: ChunkIndex) -> dict[str, Any] | None:
    """Filters as a Chroma ``where``: Chroma's own clauses, plus the paper ids the chunk index
    lets through an author or status filter (``$in`` those, or ``$nin`` the rest, whichever
    list is shorter). The caller checks first that some paper passes."""
    where = filters.where()
    if not (filters.author or filters.status):
        return where
    keep = index.paper_mask(author=filters.author, status=filters.status)
    if keep.all():
        return where
    ids_in, ids_out = index.paper_ids_of(keep), index.paper_ids_of(~keep)
    clause = ({"paper_id": {"$in": ids_in}} if len(ids_in) <= len(ids_out)
              else {"paper_id": {"$nin": ids_out}})
    if where is None:
        return clause
    return {"$and": [*where.get("$and", [where]), clause]}


@dataclass
class RetrievedPaper:
    paper: Paper
    score: float
    rank: int
    dense: float | None = None
    lexical: float | None = None
    chunk_ids: list[str] = field(default_factory=list)  # matched chunks, best first
    # the decision's 0-1 estimate that this is the paper the question asks about (retrieval
    # and the verifier weighed together: judge/evidence.py), set by judge.decision.weighed;
    # None when it did not weigh the paper (or the question is in a language it does not read)
    verified: float | None = None
    verifier: float | None = None  # the verifier's own 0-1 score, one of the estimate's inputs
    # other entries of this paper in the collection, ranked below it and left out of the list
    # (a submission and its publication: search/versions.py)
    versions: list[Paper] = field(default_factory=list)


# an estimate is shown, and ranks, to this many decimals: the int8 verifier's kernels differ
# between CPUs below it, and two papers that tie as shown keep retrieval's order
SHOWN_DECIMALS = 2
# a word typed alone that a title's name before its colon is asks for that paper when at most
# this many papers use it ("IPMark"); a word more use names a topic ("Masking: ...")
NAME_PAPERS = 5


def shown(estimate: float) -> float:
    return round(estimate, SHOWN_DECIMALS)


def _english_words() -> frozenset[str]:
    from assistant.errors import EmbeddingError
    from assistant.index.embeddings import english_words

    try:
        return english_words()
    except EmbeddingError:  # no local model installed: no word list, only the collection's
        return frozenset()


def _listed(word: str) -> bool:
    """Does an English dictionary list the word: Webster's Second (the ``english-words``
    package's web2 list, 234k words) or CC-CEDICT's English glosses? Loaded only when a word
    none of the collection's chunks holds has a respelling (a few questions in a thousand)."""
    return word in _dictionary()


@functools.cache
def _dictionary() -> frozenset[str]:
    from english_words import get_english_words_set

    from assistant.search.translate import lexicon

    return frozenset(get_english_words_set(["web2"], lower=True, alpha=True)) | \
        lexicon().english


def best_first(papers: Sequence[RetrievedPaper]) -> list[RetrievedPaper]:
    """Papers as they are shown (``search``, ``ask --json`` ``papers``): by the decision's 0-1
    estimate as shown (``SHOWN_DECIMALS``), best first, a tie in retrieval order; those it did
    not weigh after them, in retrieval order."""
    return sorted(papers, key=lambda rp: (rp.verified is None, -shown(rp.verified or 0.0),
                                          rp.rank))


@dataclass
class Retrieval:
    query: str
    papers: list[RetrievedPaper]
    timings: dict[str, float] = field(default_factory=dict)
    filters: Filters | None = None
    multilingual: bool = False  # the dense side was multilingual-e5 (a non-English question)


def aggregate(hits: Sequence[ChunkHit | IndexHit]) -> dict[str, tuple[float, list[str]]]:
    """Chunks -> papers: best chunk score, and the chunk ids in score order."""
    best: dict[str, tuple[float, list[str]]] = {}
    for h in sorted(hits, key=lambda h: -h.score):
        if h.paper_id in best:
            best[h.paper_id][1].append(h.chunk_id)
        else:
            best[h.paper_id] = (h.score, [h.chunk_id])
    return best


@dataclass
class Sides:
    """Each retrieval side's per-paper (best chunk score, chunk ids)."""

    dense: dict[str, tuple[float, list[str]]] = field(default_factory=dict)
    lexical: dict[str, tuple[float, list[str]]] = field(default_factory=dict)
    vector: np.ndarray | None = None
    multilingual: bool = False


@dataclass
class FusionParams:
    """The fusion settings' defaults (assistant/settings.py), for a Retriever made without
    settings (tests, benchmarks)."""
    method: Literal["rrf", "score"] = "score"
    w_dense: float = 1.0
    w_lexical: float = 1.2
    rrf_k: float = 60.0


def multilingual_side(settings: Settings, *, store: Store) -> PaperVectors | None:
    """The e5 paper vectors for non-English questions, when offline, installed and enabled
    (with an LLM endpoint the question is translated by the rewrite prompt instead)."""
    from assistant.index.chunk_index import index_dir
    from assistant.search import multilingual

    if settings.uses_llm or settings.multilingual_max_papers <= 0 or \
            not multilingual.available():
        return None
    where = index_dir(store)
    return multilingual.PaperVectors(where.with_name(where.name + ".e5.npz"),
                                     max_new=settings.multilingual_max_papers)


class Retriever:
    def __init__(self, *, store: Store, candidates: int = 200, mode: Mode = "hybrid",
                 params: FusionParams | None = None, bm25_k1: float = 0.9,
                 bm25_b: float = 0.4, mmr_lambda: float = 0.7,
                 multilingual: PaperVectors | None = None) -> None:
        self.mmr_lambda = mmr_lambda
        self.multilingual = multilingual  # e5 paper vectors, for a non-English question
        self.store = store
        self.candidates = candidates
        self.mode = mode
        self.params = params or FusionParams()
        self.bm25_k1, self.bm25_b = bm25_k1, bm25_b
        self._index: ChunkIndex | None = None
        self._index_rev: str | None = None
        self._pinned: ChunkIndex | None = None  # the index one search reads throughout

    @contextlib.contextmanager
    def _pin(self) -> Iterator[None]:
        """One search, one index: the collection's revision is read once, not at each step."""
        if self._pinned is not None:
            yield
            return
        self._pinned = self.index()
        try:
            yield
        finally:
            self._pinned = None

    @classmethod
    def from_settings(cls, settings: Settings, *, store: Store) -> Retriever:
        return cls(store=store, candidates=settings.candidates, mode=settings.retrieval_mode,
                   params=FusionParams(settings.fusion, settings.w_dense, settings.w_lexical,
                                       settings.rrf_k),
                   bm25_k1=settings.bm25_k1, bm25_b=settings.bm25_b,
                   mmr_lambda=settings.mmr_lambda,
                   multilingual=multilingual_side(settings, store=store))

    def index(self) -> ChunkIndex:
        """The derived chunk index (BM25 + vectors), reloaded when the collection changed (the
        revision is read once a search: ``_pinned``)."""
        from assistant.index.chunk_index import ensure_index

        if self._pinned is not None:
            return self._pinned
        revision = self.store.revision()
        if self._index is None or self._index_rev != revision:
            self._index = ensure_index(self.store, k1=self.bm25_k1, b=self.bm25_b)
            self._index_rev = revision
        return self._index

    def english(self, query: str) -> tuple[str, str]:
        """A query with Chinese in it, in this collection's English words (translate.py): the
        best gloss a word (judged, shown) and several a word (searched); one no word of which
        the dictionaries know as it is, twice. Offline, this is how a Chinese question is
        searched and judged. An English query, twice, with its misspelt words respelt as the
        collection's (``respelt``)."""
        from assistant.textutil import has_cjk

        if not has_cjk(query):
            respelt = self.respelt(query)[0]
            return respelt, respelt
        found = self.translation(query)
        return (found.query, found.searched) if found.query else (query, query)

    def respelt(self, query: str) -> tuple[str, dict[str, str]]:
        """The query with the words this collection never uses, one edit from one it does,
        respelt ("reinforcment" -> "reinforcement"); and what was changed."""
        from assistant.index.chunk_index import tokenize
        from assistant.search.spelling import respelt

        index = self.index()

        def chunks_with(stems: Sequence[str]) -> int:
            rows = index.postings(stems)
            return 0 if rows is None else len(rows)

        return respelt(query, stems=lambda word: tokenize([word])[0], chunks_with=chunks_with,
                       writes=index.writes, words=_english_words(), listed=_listed)

    def papers(self, ids: list[str]) -> list[Paper]:
        """The paper records of these ids, in that order: read from the index, or from the
        store when the index keeps no records (an older one)."""
        kept = self.index().papers(ids)
        return kept if kept is not None else self.store.papers(ids)

    def paper_titled(self, title: str, *, start: bool = False, named: bool = False,
                     prefix: bool = False) -> Paper | None:
        """The paper whose title (as written or as shown) is ``title``, if this collection has
        it; ``start``: or whose title starts with it, a word at a time ("IPMark", "dype");
        ``named``: or the whole title is, in any case ("locally private hypothesis
        selection"), or it is one word, the title's name (before a colon or a bracket), and
        few papers use it ("IPMark", "DyPE"; not "Masking: ...", "Semi-Supervised Learning:
        ...""); ``prefix``: or it is the title's part before a colon or a bracket, of any
        length (a paper asked about as a paper: "papers like Streaming Flow Policy")."""
        def norm(text: str) -> str:
            return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())

        want = norm(title)
        if not want:
            return None
        with self._pin():
            found = self._search(title, k=5, filters=None, mode="lexical", diversity=None)
        # a paper listed as another's version (search/versions.py) is found by its own title
        for paper in (p for rp in found.papers for p in (rp.paper, *rp.versions)):
            if title in (paper.title, paper.display_title):
                return paper
            name = norm(paper.title)
            if start and (name == want or name.startswith(want + " ")):
                return paper
            before = norm(title_name(paper.title))
            if named and (want == name or (" " not in want and want == before
                                           and self._rare(want))):
                return paper
            if prefix and want == before:
                return paper
        return None

    def named_by(self, name: str) -> Paper | None:
        """The one paper whose title opens with ``name`` as written, before a colon ("ROAD:
        ..." for "ROAD", "Post: Device Placement ..." for "Post"); None when none does, or
        several. A name that is a common word ("ROAD", "SCALE", "Post") is used by many papers,
        and a search for it alone ranks its own paper low."""
        if not name.strip() or ":" in name:
            return None
        ids = self.index().titled(name)
        found = self.papers(ids) if len(ids) == 1 else []
        return found[0] if found else None

    def _rare(self, word: str) -> bool:
        """Do at most ``NAME_PAPERS`` papers here use this word (a name, not a topic)?"""
        from assistant.index.chunk_index import tokenize

        index = self.index()
        return all(int(index.papers_holding(stem).sum()) <= NAME_PAPERS
                   for stem in tokenize([word])[0])

    def translation(self, query: str) -> Translation:
        from assistant.index.chunk_index import tokenize
        from assistant.search import translate

        index = self.index()
        return translate.translate(query, stems=lambda gloss: tokenize([gloss])[0],
                                   postings=index.postings, chunks=index.chunk_count)

    def facets(self) -> tuple[set[str], set[int]]:
        """Venues and years in the store (for filters read from a question)."""
        return self.index().facets()

    def author_names(self) -> dict[str, str]:
        """The store's authors as a question may name them (for a filter read from it)."""
        return self.index().author_names()

    def _mask(self, filters: Filters) -> np.ndarray | None:
        return self.index().mask(venue=filters.venue, year=filters.year, author=filters.author,
                                 status=filters.status, paper_ids=filters.paper_ids,
                                 since=filters.since, until=filters.until)

    def _dense(self, vector: np.ndarray, filters: Filters, depth: int
               ) -> dict[str, tuple[float, list[str]]]:
        index = self.index()
        if index.has_vectors:  # exact search over the derived index's vectors
            if index.width != len(vector):
                from assistant.errors import EmbeddingMismatch

                raise EmbeddingMismatch(
                    f"the embedding model {self.store.embedder.name!r} gave the question a "
                    f"vector of width {len(vector)}, and collection {self.store.name!r} holds "
                    f"width {index.width}: use the model it was built with, or re-ingest")
            return aggregate(index.dense(vector, n=depth, mask=self._mask(filters)))
        if (filters.author or filters.status) and not index.paper_mask(
                author=filters.author, status=filters.status).any():
            return {}  # no paper passes
        hits: list[ChunkHit] = self.store.dense(vector, n=depth,
                                                where=chroma_where(filters, index))
        return aggregate(hits)

    def _lexical_side(self, query: str, filters: Filters, depth: int
                      ) -> dict[str, tuple[float, list[str]]]:
        return aggregate(self.index().search(query, n=depth, mask=self._mask(filters)))

    def _cross_lingual(self, query: str, filters: Filters
                       ) -> dict[str, tuple[float, list[str]]] | None:
        """The multilingual side's per-paper cosines for a non-English question (None: an
        English question, no multilingual side, or too many papers without its vectors)."""
        from assistant.search import multilingual
        from assistant.textutil import has_cjk

        if self.multilingual is None or not has_cjk(query):
            return None
        try:
            ids, matrix = self.multilingual.matrix(self.store.revision(), self.store.papers)
        except multilingual.TooMany as exc:
            log.info("no multilingual vectors: %d papers lack them", exc.missing)
            return None
        sims = matrix @ multilingual.embed_query(query)
        levels: dict[str, tuple[float, list[str]]] | None = self.index().paper_level(
            dict(zip(ids, map(float, sims), strict=True)), self._mask(filters))
        return levels

    def check_status(self, filters: Filters) -> None:
        """A status no paper here has is a typo, not an empty result: say which ones exist."""
        if filters.status:
            require_status(filters.status, self.index().status_tags())

    def check_filters(self, filters: Filters | None) -> None:
        """Filters the user set that let no paper through are an error naming them and what
        there is (not "nothing here is relevant", which blames the question's words)."""
        if filters is None or not filters.any():
            return
        self.check_status(filters)
        index = self.index()
        mask = self._mask(filters)
        if mask is None or mask.any():
            return
        from assistant.errors import InputError

        venues, years = index.facets()
        ids = ", ".join(filters.paper_ids or [])
        set_ = [f"{k} {v!r}" if isinstance(v, str) else f"{k} {v}"
                for k, v in (("venue", filters.venue), ("year", filters.year),
                             ("since", filters.since), ("until", filters.until),
                             ("author", filters.author), ("status", filters.status),
                             ("paper", ids)) if v]
        there = [f"venues {', '.join(sorted(venues)[:8]) or 'none'}"
                 + (" …" if len(venues) > 8 else ""),
                 f"years {', '.join(map(str, sorted(years)[-8:])) or 'none'}"]
        raise InputError(f"no paper here matches the filter {' and '.join(set_)} (this "
                         f"collection has {'; '.join(there)}): change or drop the filter")

    def rank(self, query: str, *, filters: Filters | None = None, mode: Mode | None = None,
             timings: dict[str, float] | None = None, dense_query: str | None = None
             ) -> tuple[list[tuple[str, float]], Sides]:
        """Fused (paper id, score) ranking, plus each side's per-paper scores. ``dense_query``:
        what the dense side embeds when it is not ``query`` (a translated question: its best
        glosses, while BM25 reads several a word)."""
        with self._pin():
            return self._rank(query, filters=filters, mode=mode, timings=timings,
                              dense_query=dense_query)

    def _rank(self, query: str, *, filters: Filters | None, mode: Mode | None,
              timings: dict[str, float] | None, dense_query: str | None = None
              ) -> tuple[list[tuple[str, float]], Sides]:
        filters = filters or Filters()
        self.check_status(filters)
        mode = mode or self.mode
        timings = timings if timings is not None else {}
        depth = self.candidates
        sides = Sides()
        t0 = time.perf_counter()
        cross = self._cross_lingual(query, filters) if mode != "lexical" else None
        if cross is not None:  # a Chinese question: MiniLM reads English only
            sides.dense = cross
            sides.multilingual = True
            timings["dense_ms"] = (time.perf_counter() - t0) * 1000
        elif mode in ("dense", "hybrid"):
            sides.vector = self.store.embedder.embed_query(dense_query or query)
            timings["embed_ms"] = (time.perf_counter() - t0) * 1000
            t1 = time.perf_counter()
            sides.dense = self._dense(sides.vector, filters, depth)
            timings["dense_ms"] = (time.perf_counter() - t1) * 1000
        if mode in ("lexical", "hybrid"):
            t2 = time.perf_counter()
            sides.lexical = self._lexical_side(query, filters, depth)
            timings["lexical_ms"] = (time.perf_counter() - t2) * 1000
        return self._fuse(sides.dense, sides.lexical, mode), sides

    def _diversify(self, order: list[tuple[str, float]], sides: Sides, k: int, lam: float
                   ) -> list[tuple[str, float]]:
        head = order[: k * 3]
        best_chunk = [(sides.dense.get(p) or sides.lexical.get(p) or (0.0, [""]))[1][0]
                      for p, _ in head]
        vectors = self.index().vectors_of(best_chunk) if all(best_chunk) else None
        if vectors is None:
            return order
        return fusion.mmr(head, vectors, lam=lam, k=k) + order[k * 3:]

    def search(self, query: str, *, k: int = 10, filters: Filters | None = None,
               mode: Mode | None = None, diversity: float | None = None,
               dense_query: str | None = None) -> Retrieval:
        """Top-k papers. ``diversity`` (MMR lambda, e.g. 0.7) spreads a list over topics."""
        with self._pin():
            return self._search(query, k=k, filters=filters, mode=mode, diversity=diversity,
                                dense_query=dense_query)

    def _search(self, query: str, *, k: int, filters: Filters | None, mode: Mode | None,
                diversity: float | None, dense_query: str | None = None) -> Retrieval:
        filters = filters or Filters()
        timings: dict[str, float] = {}
        t0 = time.perf_counter()
        order, sides = self.rank(query, filters=filters, mode=mode, timings=timings,
                                 dense_query=dense_query)
        if diversity is not None and 0 < diversity < 1 and len(order) > 2:
            order = self._diversify(order, sides, k, diversity)
        dense, lexical = sides.dense, sides.lexical
        t3 = time.perf_counter()
        head = [pid for pid, _ in order[: k + 2]]
        papers = {p.paper_id: p for p in self.papers(head)}
        out: list[RetrievedPaper] = []
        for pid, score in order:
            paper = papers.get(pid)
            if paper is None:
                if len(papers) >= len(head):
                    break
                continue
            # another entry of a paper listed above: named as its version, not listed again
            # (unless the user picked the papers: then each is asked about as picked)
            kept = None if filters.paper_ids else versions.entry_of(
                paper, [rp.paper for rp in out])
            if kept is not None:
                out[kept].versions.append(paper)
                continue
            d, lx = dense.get(pid), lexical.get(pid)
            chunk_ids = (d[1] if d else []) + [c for c in (lx[1] if lx else [])
                                               if not d or c not in d[1]]
            out.append(RetrievedPaper(paper, score, len(out) + 1, dense=d[0] if d else None,
                                      lexical=lx[0] if lx else None, chunk_ids=chunk_ids))
            if len(out) >= k:
                break
        if out and any(rp.dense is None for rp in out):
            vector = sides.vector
            if vector is None:
                vector = self.store.embedder.embed_query(dense_query or query)
            missing = [rp for rp in out if rp.dense is None]
            sims = self._dense(vector, Filters(paper_ids=[rp.paper.paper_id for rp in missing]),
                               self.candidates)
            for rp in missing:
                rp.dense = sims[rp.paper.paper_id][0] if rp.paper.paper_id in sims else 0.0
        timings["papers_ms"] = (time.perf_counter() - t3) * 1000
        timings["retrieve_ms"] = (time.perf_counter() - t0) * 1000
        return Retrieval(query=query, papers=out, timings=timings,
                         filters=filters, multilingual=sides.multilingual)

    def _fuse(self, dense: dict[str, tuple[float, list[str]]],
              lexical: dict[str, tuple[float, list[str]]], mode: Mode) -> list[tuple[str, float]]:
        if mode == "dense" or not lexical:
            return fusion.ranked({p: s for p, (s, _) in dense.items()})
        if mode == "lexical" or not dense:
            return fusion.ranked({p: s for p, (s, _) in lexical.items()})
        p = self.params
        if p.method == "score":
            return fusion.ranked(fusion.convex(
                [{q: s for q, (s, _) in dense.items()}, {q: s for q, (s, _) in lexical.items()}],
                [p.w_dense, p.w_lexical]))
        d_rank = [q for q, _ in fusion.ranked({q: s for q, (s, _) in dense.items()})]
        l_rank = [q for q, _ in fusion.ranked({q: s for q, (s, _) in lexical.items()})]
        return fusion.ranked(fusion.rrf([d_rank, l_rank], [p.w_dense, p.w_lexical], k=p.rrf_k))
