"""Fusing ranked lists of papers from the dense and the lexical side.

``rrf``: weighted reciprocal rank fusion, ``sum_i w_i / (k + rank_i)``.
``score``: a convex combination of the two sides' scores, each min-max normalised over its own
candidate list (a paper missing from one side gets 0 there).
Parameters live in settings; the defaults were fitted on SciFact's train split
(bench/tune_fusion.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def rrf(rankings: Sequence[Sequence[str]], weights: Sequence[float], *, k: float = 60.0
        ) -> dict[str, float]:
    fused: dict[str, float] = {}
    for ranking, w in zip(rankings, weights, strict=True):
        for rank, pid in enumerate(ranking, 1):
            fused[pid] = fused.get(pid, 0.0) + w / (k + rank)
    return fused


def _minmax(scores: dict[str, float]) -> dict[str, float]:
    if not scores:
        return {}
    lo, hi = min(scores.values()), max(scores.values())
    span = hi - lo
    return {p: (s - lo) / span if span > 0 else 1.0 for p, s in scores.items()}


def convex(score_maps: Sequence[dict[str, float]], weights: Sequence[float]) -> dict[str, float]:
    fused: dict[str, float] = {}
    for scores, w in zip(score_maps, weights, strict=True):
        for pid, s in _minmax(scores).items():
            fused[pid] = fused.get(pid, 0.0) + w * s
    return fused


def mmr(order: Sequence[tuple[str, float]], vectors: Any, *, lam: float, k: int
        ) -> list[tuple[str, float]]:
    """Maximal marginal relevance: trade the fused score against similarity to papers already
    picked. ``vectors`` has one L2-normalised row per entry of ``order``."""
    import numpy as np

    if not order:
        return []
    scores = np.array([s for _, s in order], dtype=np.float32)
    span = float(scores.max() - scores.min()) or 1.0
    rel = (scores - scores.min()) / span
    sims = vectors @ vectors.T
    picked: list[int] = []
    left = list(range(len(order)))
    while left and len(picked) < k:
        redundancy = (sims[np.ix_(left, picked)].max(axis=1) if picked
                      else np.zeros(len(left)))
        value = lam * rel[left] - (1 - lam) * redundancy
        best = left[int(np.argmax(value))]
        picked.append(best)
        left.remove(best)
    return [order[i] for i in picked]


def ranked(fused: dict[str, float]) -> list[tuple[str, float]]:
    return sorted(fused.items(), key=lambda x: (-x[1], x[0]))
