"""Topics made from papers' titles, as a user might type them, and a multi-year slice of the
corpus to ask them over (generated cases for the tests of the trend and of who works on a
topic)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.paper import Paper
from assistant.textutil import content_words

if TYPE_CHECKING:
    from assistant.index.store import PaperStore


def topics_of(papers: Sequence[Paper], n: int) -> list[str]:
    """A topic a paper of the first ``n``: two content words of its title."""
    out = []
    for p in papers[:n]:
        words = [w for w in content_words(p.title) if len(w) > 3][:2]
        if words:
            out.append(" ".join(words))
    return out


def multi_year_slice(shared: Path, tmp_path: Path, embedder: Any, *, per_year: int = 12
                     ) -> tuple[PaperStore, int]:
    """A store of dev-part papers of the multi-year fit venues (COLT 2011-24, ACML 2010-24),
    at most ``per_year`` a year, their real authors and years; and how many lines were read."""
    from assistant.evaluation.splits import corpus_part
    from assistant.index.store import PaperStore
    from assistant.sources.corpus import load_papers

    lines, seen = [], Counter()
    with shared.open() as fh:
        for line in fh:
            rec = json.loads(line)
            if rec["venue"] in ("colt", "acml") and corpus_part(rec) == "dev" \
                    and seen[rec["year"]] < per_year:
                seen[rec["year"]] += 1
                lines.append(line)
    src = tmp_path / "slice.jsonl"
    src.write_text("".join(lines))
    store = PaperStore(collection="slice", embedder=embedder, path=tmp_path / "store",
                       create=True)
    store.ingest(list(load_papers(str(src))), source="test:slice")
    return store, len(lines)
