"""The sentence-vector cache (judge/grounding.sentence_vectors) is bounded: when it is full, a
call that holds cached sentences among new ones gets every vector right, with no KeyError (a
full cache dropped the call's own cached sentences to make room, then looked them up)."""

from __future__ import annotations

import numpy as np

from assistant.judge import grounding

SENTENCES = [f"Sentence number {i} is about topic {i % 7} and nothing else." for i in range(12)]


def test_a_full_cache_keeps_every_vector_right(embedder, monkeypatch):
    monkeypatch.setattr(grounding, "_CACHE_SIZE", 5)
    monkeypatch.setattr(grounding, "_cache", type(grounding._cache)())
    want = {s: v for s, v in zip(SENTENCES, embedder.embed(SENTENCES), strict=True)}
    grounding.sentence_vectors(embedder, SENTENCES[:5])  # the cache is full
    # the oldest cached sentence with more new ones than the cache has room for
    texts = [SENTENCES[0], *SENTENCES[5:], SENTENCES[0], SENTENCES[4]]
    got = grounding.sentence_vectors(embedder, texts)
    assert got.shape == (len(texts), len(want[SENTENCES[0]]))
    for row, text in zip(got, texts, strict=True):
        assert np.allclose(row, want[text], atol=1e-5), text
    assert len(grounding._cache) <= 5
