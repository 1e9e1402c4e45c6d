"""Two entries of one paper in a collection: a submission and its later publication (an ICLR
submission that NeurIPS accepted, under its title or another), or a withdrawn entry that kept
its abstract.

A collection gathered from several venues holds such pairs (ml-large: 20 in 2,757 papers).
Listed apart, one paper would fill two of a list's places, and in a lookup the two would split
the evidence, so that the paper asked about is named only as "the closest match". Search keeps
the better ranked entry and names the other as its version (``RetrievedPaper.versions``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.paper import Paper

# one paper when the titles are the same (of at least TITLE_WORDS words, so "Introduction" or
# "Withdrawn" is no title to go by) and the abstracts share SAME_TITLE_WORDS of their words
# (a resubmission's rewritten abstract: 0.27-0.98 over ml-large's same-title pairs), or when
# the abstracts alone share SAME_WORDS (a retitled version: 0.86, a withdrawn entry: 1.0;
# the nearest two different papers there: 0.63, different years' proceedings front matter of
# ml-theory: 0.72); the abstracts alone only when each is long enough (ALONE_WORDS distinct
# words; ml-large's two such pairs: 90 and 93) that sharing 80% is no template ("We train
# Wasserstein GANs on faces. ..." against "... on medical scans": 26 words, 0.86)
TITLE_WORDS = 4
SAME_TITLE_WORDS = 0.2
SAME_WORDS = 0.8
MIN_ABSTRACT_WORDS = 20
ALONE_WORDS = 40
# ... or a retitled version of a submission: an entry that was not published (rejected,
# withdrawn) or only as a workshop paper, by at least SAME_AUTHORS of the same authors, with
# abstracts sharing SAME_AUTHORS_WORDS, and the other entry of the same year or later
# (ml-large: nine pairs found so and by no other rule, 0.35-0.74, e.g. an ICLR 2018 workshop
# paper and its retitled NeurIPS 2018 version; the same group's different papers there and in
# ml-theory, each published: 0.30-0.56)
SAME_AUTHORS = 2
SAME_AUTHORS_WORDS = 0.35

_WORD = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=4096)  # a paper is compared with each paper listed above it
def _words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.lower()))


def _title(title: str) -> str | None:
    words = _WORD.findall(title.lower())
    return " ".join(words) if len(words) >= TITLE_WORDS else None


def same_paper(a: Paper, b: Paper) -> bool:
    """Are these two entries one paper (see the module's docstring)?"""
    if a.paper_id == b.paper_id:
        return True
    wa, wb = _words(a.abstract), _words(b.abstract)
    if len(wa) < MIN_ABSTRACT_WORDS or len(wb) < MIN_ABSTRACT_WORDS:
        return False
    shared = len(wa & wb) / len(wa | wb)
    if shared >= SAME_WORDS and min(len(wa), len(wb)) >= ALONE_WORDS:
        return True
    title = _title(a.title)
    if title is not None and title == _title(b.title) and shared >= SAME_TITLE_WORDS:
        return True
    return shared >= SAME_AUTHORS_WORDS and (_draft_of(a, b) or _draft_of(b, a))


def entry_of(paper: Paper, listed: Sequence[Paper]) -> int | None:
    """The place in ``listed`` of the paper ``paper`` is another entry of, if any (a list
    keeps the first entry of each paper and names the later ones as its versions)."""
    return next((i for i, other in enumerate(listed) if same_paper(other, paper)), None)


def _draft_of(draft: Paper, paper: Paper) -> bool:
    """Is ``draft`` an earlier, unpublished or workshop, entry of ``paper``'s authors' work (the
    abstracts' overlap is weighed by the caller)?"""
    if not (draft.is_unpublished or "workshop" in draft.status.lower()):
        return False
    if draft.year and paper.year and draft.year > paper.year:
        return False
    mine = {" ".join(n.lower().split()) for n in draft.authors if n.strip()}
    return len(mine & {" ".join(n.lower().split()) for n in paper.authors}) >= SAME_AUTHORS
