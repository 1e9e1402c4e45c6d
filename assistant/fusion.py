"""Fusing ranked lists of papers from the dense and the lexical side.

``rrf``: weighted reciprocal rank fusion, ``sum_i w_i / (k + rank_i)``.
``score``: a convex combination of the two sides' scores, each min-max normalised over its own
candidate list (a paper missing from one side gets 0 there).
Parameters live in settings; the defaults were fitted on SciFact's train split
(bench/tune_fusion.py).
"""

from __future__ import annotations

from collections.abc import Sequence


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


def ranked(fused: dict[str, float]) -> list[tuple[str, float]]:
    return sorted(fused.items(), key=lambda x: (-x[1], x[0]))
