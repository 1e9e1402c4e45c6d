"""Two papers the evidence cannot tell apart (a tie, ``decision.TIED``) are told apart by the
conversation: the one the previous answer was about is named first ("Which PIN protein's
polarity was shown to rearrange dynamically?", after an answer about PIN-driven auxin gradients,
tied that paper with another and named the other first). Generated over the bundled list: the
order changes only for a tie whose other paper is the one talked of; both stay named."""

from __future__ import annotations

import random

from assistant.answer.pipeline import talked_of_first
from assistant.judge.decision import TIED, tied
from assistant.search.retrieval import RetrievedPaper, Retriever
from assistant.sources.corpus import bundled_papers


def test_the_paper_talked_of_leads_a_tie_and_nothing_else_moves(bundled_store):
    retriever = Retriever(store=bundled_store)
    papers = bundled_papers()
    rng = random.Random(11)
    moved = kept = 0
    for _ in range(60):
        n = rng.randint(2, 6)
        picked = rng.sample(papers, n)
        estimates = [rng.choice([0.97, 0.93, 0.6, 0.2]) for _ in range(n)]
        sources = [RetrievedPaper(p, 1.0 / i, i, verified=v)
                   for i, (p, v) in enumerate(zip(picked, estimates, strict=True), 1)]
        talked = rng.choice(papers)
        opening = rng.choice(["The most relevant paper is", "The closest match is"])
        history = [("an earlier question", f"{opening} **{talked.display_title}** (ICML 2026) "
                                           "[1]. It does this. [1]")]
        got = talked_of_first(sources, history, retriever=retriever)
        assert sorted(rp.paper.paper_id for rp in got) == sorted(p.paper_id for p in picked)
        twin = tied(estimates)
        if twin is not None and picked[twin].paper_id == talked.paper_id:
            moved += 1
            assert got[0].paper.paper_id == talked.paper_id
            assert got[1].paper.paper_id == picked[0].paper_id  # the other of the two, next
            assert tied([rp.verified for rp in got]) is not None  # still a tie, both named
        else:
            kept += 1
            assert got == sources
    assert moved >= 3 and kept >= 30, (moved, kept)


def test_after_a_list_or_a_near_miss_a_tie_keeps_its_order(bundled_store):
    retriever = Retriever(store=bundled_store)
    a, b = bundled_papers()[:2]
    sources = [RetrievedPaper(a, 1.0, 1, verified=0.96), RetrievedPaper(b, 0.5, 2, verified=0.95)]
    assert TIED <= 0.95
    for said in (f"2 papers in the collection bear on this, best first:\n\n- **{b.display_title}**"
                 " [1]: ...\n- **Other** [2]: ...",
                 f"Nothing in this collection is about “x”. The closest papers, none of which "
                 f"answers it:\n\n- **{b.display_title}** [1]: ..."):
        assert talked_of_first(sources, [("q", said)], retriever=retriever) == sources
