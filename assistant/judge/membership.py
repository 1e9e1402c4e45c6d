"""Is this paper on the topic? Every paper of a collection judged at once, for a trend.

Each paper's features (``scores``): its best chunk's cosine to the topic (as is, and as a
z-score over the collection), to "a paper about" the topic, and to the mean vector of the
``SEEDS`` papers that dense and BM25 rank best together (the topic as this collection words it);
its BM25 score over the best paper's; the share of the topic's rare-term weight it holds; the
share of that weight in words the whole collection lacks (a topic from another field). No
search depth to miss a paper: at 23k papers this is a few matrix-vector products.

``W_MEMBER`` is a logistic model of those fitted on the dev topics of evals/trend
(bench/trend_eval.py --fit; helper-judged stratified samples, each paper weighed by its
stratum, with the papers nearest off-domain topics as noes): its output is calibrated as the
chance that the paper is on the topic. A paper is a member when that is at least ``T_MEMBER``,
and the topic is in the collection at all only when its best paper's reaches ``T_TOPIC``
(``members``). answer/trend.py counts the members by year.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from assistant.index.chunk_index import ChunkIndex
    from assistant.index.embeddings import Embedder

FEATURES = ("dense", "dense_z", "lex_rel", "wcov", "prf_z", "about_z", "oov")
# fitted by bench/trend_eval.py --fit on the five dev topics of evals/trend and the papers nearest
# its twelve dev off-domain topics (order as FEATURES, bias last)
W_MEMBER: tuple[float, ...] = (1.297, 1.851, 0.759, 3.807, 1.045, -1.181, -3.159, -8.912)
# the cut-off whose precision and recall clear 0.8 and 0.7 by the widest margin, each dev topic
# measured by a model fitted on the others (at 0.35 / 0.5 / 0.65: precision 0.839 / 0.874 /
# 0.900, recall 0.773 / 0.712 / 0.650)
T_MEMBER = 0.35
# the topic is in the collection when its best paper's chance reaches this: left out, every dev
# topic's best paper was at 1.0 and every dev off-domain topic's at 0.5 or less
T_TOPIC = 0.8
SEEDS = 20  # papers whose mean vector is the topic as the collection words it
SEED_SHARE = 50  # ... at most one paper in this many (200 papers: 4 seeds)
MIN_SEEDS = 3  # fewer: the topic's own vector stands in for the mean


def scores(topic: str, *, index: ChunkIndex, embedder: Embedder) -> dict[str, np.ndarray]:
    """Each paper's membership features (rows of ``index.all_paper_ids``): its best chunk's
    cosine to the topic (as is, and as a z-score over the collection), to "a paper about" the
    topic, and to the mean vector of the ``SEEDS`` papers that dense and BM25 rank best
    together (the topic as this collection words it); its BM25 score over the best paper's;
    the share of the topic's rare-term weight it holds; and, the same for every paper, the
    share of that weight in words the collection never uses (a topic from another field)."""
    import numpy as np

    from assistant.index.chunk_index import tokenize
    from assistant.judge.answerability import query_terms, stats_for

    def best(vector: Any) -> np.ndarray:
        got = index.paper_max(index.dense_scores(np.asarray(vector, dtype=np.float32)))
        return np.where(np.isfinite(got), got, 0.0)

    def z(values: np.ndarray) -> np.ndarray:
        out: np.ndarray = (values - float(values.mean())) / (float(values.std()) or 1.0)
        return out

    dense = best(embedder.embed_query(topic))
    about = best(embedder.embed_query(f"a paper about {topic}"))
    lex = np.maximum(index.paper_max(index.lexical_scores(topic)), 0.0)
    terms = query_terms(topic) or tokenize([topic])[0]
    stats = stats_for(index)
    idf = stats.idf(terms)
    total = sum(idf.values()) or 1.0
    wcov = np.zeros(len(dense), dtype=np.float32)
    oov = 0.0  # the share of the topic's weight in words this collection never uses
    for term, weight in idf.items():
        wcov += index.papers_holding(term).astype(np.float32) * (weight / total)
        oov += weight / total if not stats.doc_freq(term) else 0.0
    seeds = min(SEEDS, len(dense) // SEED_SHARE)  # a few dozen papers: no mean to read
    vectors = None
    if seeds >= MIN_SEEDS:
        ids = index.all_paper_ids
        fused = _rrf(dense) + _rrf(lex)
        vectors = index.paper_vectors([ids[i] for i in np.argsort(-fused, kind="stable")[:seeds]])
    centre = vectors.mean(axis=0) if vectors is not None else None
    prf = best(centre / (np.linalg.norm(centre) or 1.0)) if centre is not None else dense
    return {"dense": dense, "dense_z": z(dense), "lex_rel": lex / (float(lex.max()) or 1.0),
            "wcov": wcov, "prf_z": z(prf), "about_z": z(about),
            "oov": np.full(len(dense), oov, dtype=np.float32)}


def _rrf(values: np.ndarray, k: int = 60) -> np.ndarray:
    """Reciprocal-rank weights of a score per paper (the best 1/(k+1))."""
    import numpy as np

    ranks = np.empty(len(values), dtype=np.float32)
    ranks[np.argsort(-values, kind="stable")] = np.arange(1, len(values) + 1)
    out: np.ndarray = 1.0 / (k + ranks)
    return out


def membership(features: dict[str, np.ndarray], weights: tuple[float, ...] = W_MEMBER
               ) -> np.ndarray:
    import numpy as np

    z = np.zeros_like(features[FEATURES[0]]) + weights[-1]
    for w, f in zip(weights, FEATURES, strict=False):
        z += w * features[f]
    out: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))
    return out


def members(chance: np.ndarray, *, cut: float = T_MEMBER, topic_cut: float = T_TOPIC
            ) -> np.ndarray:
    """Which papers are on the topic: those whose chance reaches ``cut``, and none when no
    paper's reaches ``topic_cut`` (a topic the collection does not hold: its nearest papers
    are not on it)."""
    import numpy as np

    if not len(chance) or float(chance.max()) < topic_cut:
        return np.zeros(len(chance), dtype=bool)
    out: np.ndarray = chance >= cut
    return out
