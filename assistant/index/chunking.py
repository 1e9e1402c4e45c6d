"""Sentence-aligned, token-bounded chunks with the title in front of the embedded text."""

from __future__ import annotations

from dataclasses import dataclass

from assistant import tokens
from assistant.paper import Paper
from assistant.textutil import split_sentences


@dataclass(frozen=True)
class Chunk:
    paper_id: str
    index: int
    text: str  # the abstract passage itself

    @property
    def chunk_id(self) -> str:
        return f"{self.paper_id}::{self.index}"


def embed_text(title: str, text: str) -> str:
    """What the embedder sees: the title, then the passage."""
    return f"{title}. {text}" if title else text


def _split_long(sentence: str, max_tokens: int) -> list[str]:
    """Cut a sentence longer than the bound into pieces of at most ``max_tokens`` tokens, on
    character boundaries (a token slice can end inside a multi-byte character, and decoding it
    would replace that character), preferring a space near the end of each piece."""
    pieces: list[str] = []
    rest = sentence
    while rest:
        if tokens.count(rest) <= max_tokens:
            pieces.append(rest)
            break
        lo, hi = 1, len(rest)  # the longest prefix within the bound
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if tokens.count(rest[:mid]) <= max_tokens:
                lo = mid
            else:
                hi = mid - 1
        cut = rest.rfind(" ", max(1, lo // 2), lo + 1)
        cut = cut if cut > 0 else lo
        pieces.append(rest[:cut].strip())
        rest = rest[cut:].lstrip()
    return [p for p in pieces if p]


def chunk_text(text: str, *, max_tokens: int, overlap: int) -> list[str]:
    """Pack whole sentences into chunks of at most ``max_tokens`` tokens.

    Each new chunk starts with the trailing sentences of the previous one, up to ``overlap``
    tokens. A single sentence longer than the bound is split on token boundaries.
    """
    if max_tokens < 8:
        raise ValueError("max_tokens must be at least 8")
    overlap = min(overlap, max_tokens // 2)
    pieces: list[tuple[str, int]] = []
    for sentence in split_sentences(text):
        n = tokens.count(sentence)
        if n > max_tokens:
            pieces.extend((p, tokens.count(p)) for p in _split_long(sentence, max_tokens))
        else:
            pieces.append((sentence, n))
    chunks: list[str] = []
    current: list[tuple[str, int]] = []
    size = 0
    for piece, n in pieces:
        # a joining space can add a token; keep a one-token margin per sentence
        if current and size + n + len(current) > max_tokens:
            chunks.append(" ".join(p for p, _ in current))
            carry: list[tuple[str, int]] = []
            carried = 0
            for prev, pn in reversed(current):
                if carried + pn > overlap or carried + pn + n + len(carry) + 1 > max_tokens:
                    break
                carry.insert(0, (prev, pn))
                carried += pn
            current, size = carry, carried
        current.append((piece, n))
        size += n
    if current:
        chunks.append(" ".join(p for p, _ in current))
    return chunks


def chunk_paper(paper: Paper, *, max_tokens: int, overlap: int) -> list[Chunk]:
    texts = chunk_text(paper.abstract, max_tokens=max_tokens, overlap=overlap) or [paper.title]
    return [Chunk(paper.paper_id, i, t) for i, t in enumerate(texts)]
