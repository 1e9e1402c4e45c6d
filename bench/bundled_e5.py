"""Write assistant/data/icml2026-e5.npz: the bundled list's multilingual-e5 paper vectors.

    python bench/bundled_e5.py

Shipped so that a Chinese question over the bundled list needs no embedding on first use
(assistant/multilingual.py reuses a shipped vector while the paper's text hash matches).
Re-run when the bundled list changes; a test checks the hashes match.
"""

from __future__ import annotations

import time

from assistant.search import multilingual
from assistant.sources.corpus import bundled_papers


def main() -> None:
    papers = bundled_papers()
    t = time.perf_counter()
    vectors = multilingual.embed_passages([multilingual.text_of(p) for p in papers])
    known = {p.paper_id: (multilingual.digest(p), v) for p, v in zip(papers, vectors, strict=True)}
    multilingual.save(multilingual.BUNDLED, known)
    print(f"{len(papers)} papers embedded in {time.perf_counter() - t:.1f} s -> "
          f"{multilingual.BUNDLED}")


if __name__ == "__main__":
    main()
