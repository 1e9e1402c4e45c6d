"""Topics made from papers' titles, as a user might type them (generated cases for the tests
of the trend and of who works on a topic)."""

from __future__ import annotations

from collections.abc import Sequence

from assistant.paper import Paper
from assistant.textutil import content_words


def topics_of(papers: Sequence[Paper], n: int) -> list[str]:
    """A topic a paper of the first ``n``: two content words of its title."""
    out = []
    for p in papers[:n]:
        words = [w for w in content_words(p.title) if len(w) > 3][:2]
        if words:
            out.append(" ".join(words))
    return out
