import itertools

import pytest

from assistant import tokens
from assistant.index.chunking import chunk_paper, chunk_text, embed_text
from assistant.sources.corpus import bundled_papers
from assistant.textutil import split_sentences


@pytest.mark.parametrize(("max_tokens", "overlap"), [(40, 0), (64, 16), (120, 30), (200, 40)])
def test_chunks_respect_the_token_bound_and_sentence_boundaries(max_tokens, overlap):
    for paper in bundled_papers():
        sentences = split_sentences(paper.abstract)
        chunks = chunk_text(paper.abstract, max_tokens=max_tokens, overlap=overlap)
        assert chunks
        for chunk in chunks:
            assert tokens.count(chunk) <= max_tokens
            # every chunk starts at a sentence start (or inside one split for being too long)
            has_long = max(tokens.count(s) for s in sentences) > max_tokens
            assert any(chunk.startswith(s[:20]) for s in sentences) or has_long
        covered = " ".join(chunks)
        for s in sentences:
            assert s[:30] in covered


def test_overlap_repeats_the_previous_tail():
    text = " ".join(f"Sentence number {i} talks about topic {i} in some detail." for i in range(30))
    chunks = chunk_text(text, max_tokens=60, overlap=20)
    assert len(chunks) > 3
    for prev, nxt in itertools.pairwise(chunks):
        assert split_sentences(nxt)[0] in prev
    no_overlap = chunk_text(text, max_tokens=60, overlap=0)
    assert not any(split_sentences(n)[0] in p for p, n in itertools.pairwise(no_overlap))


def test_a_sentence_longer_than_the_bound_is_split():
    text = "word " * 300 + "."
    chunks = chunk_text(text, max_tokens=50, overlap=0)
    assert len(chunks) >= 6 and all(tokens.count(c) <= 50 for c in chunks)


def test_chunk_ids_and_embedded_text_carry_the_title():
    paper = bundled_papers()[0]
    chunks = chunk_paper(paper, max_tokens=100, overlap=20)
    assert [c.chunk_id for c in chunks] == [f"{paper.paper_id}::{i}" for i in range(len(chunks))]
    assert embed_text(paper.title, chunks[0].text).startswith(paper.title + ". ")
