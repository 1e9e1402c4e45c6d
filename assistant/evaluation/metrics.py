"""Ranking metrics over (ranked ids, graded relevance) pairs, as BEIR/pytrec_eval define them."""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from typing import Any


def ndcg_at(ranked: Sequence[str], rels: Mapping[str, int], k: int = 10) -> float:
    dcg = sum((rels.get(d, 0)) / math.log2(i + 2) for i, d in enumerate(ranked[:k])
              if rels.get(d, 0) > 0)
    ideal = sorted((r for r in rels.values() if r > 0), reverse=True)[:k]
    idcg = sum(r / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: Sequence[str], rels: Mapping[str, int], k: int) -> float:
    relevant = {d for d, r in rels.items() if r > 0}
    if not relevant:
        return 0.0
    return len(relevant & set(ranked[:k])) / len(relevant)


def mrr_at(ranked: Sequence[str], rels: Mapping[str, int], k: int = 10) -> float:
    for i, d in enumerate(ranked[:k]):
        if rels.get(d, 0) > 0:
            return 1.0 / (i + 1)
    return 0.0


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def mean(values: Sequence[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def fit_logistic(x: Any, y: Any, *, steps: int = 4000, lr: float = 0.5, l2: float = 0.0) -> Any:
    """Class-balanced logistic regression by gradient descent: weights per column, bias last.
    (The calibration benches fit their decision rules with it.)"""
    import numpy as np

    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(xb.shape[1])
    weight = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
    for _ in range(steps):
        p = 1 / (1 + np.exp(-xb @ w))
        w -= lr * (xb.T @ ((p - y) * weight) / len(y) + l2 * np.r_[w[:-1], 0])
    return w
