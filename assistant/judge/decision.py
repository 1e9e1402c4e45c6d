"""The one decision: does this collection answer the question, and which papers bear on it?

``ask``, ``search``, the chat and the evaluations all call ``decide`` and nothing else, so they
never disagree. It returns a ``Verdict``:

- ``outcome``: ``answered``, ``near_miss`` (the collection is on the field but nothing here is
  about this: the answer names the closest papers as such) or ``refused`` (off-domain), from
  the fitted answerability model (``answerability``; the multilingual one for a question the
  e5 side searched). A comparison is answered when each side is, on its own search (the
  weakest side decides). Papers the user picked are answered.
- ``relevance``: which papers are on topic (``relevance.judge``'s per-paper evidence), made to
  agree with the outcome: nothing is relevant unless the outcome is ``answered``, and an
  answered question always has its best paper relevant.

The outcome reads the first ``DECIDE_OVER`` ranked papers, so it does not change with how many
papers a command lists (``search --k 20`` and ``ask`` decide alike).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from assistant.judge import answerability
from assistant.judge.relevance import Relevance, judge

if TYPE_CHECKING:
    from assistant.search.retrieval import RetrievedPaper

DECIDE_OVER = 6  # ranked papers the outcome reads (ask's default k)
_ORDER = ("refused", "near_miss", "answered")


@dataclass
class Verdict:
    outcome: answerability.Outcome
    decision: answerability.Decision
    relevance: Relevance

    @property
    def answered(self) -> bool:
        return self.outcome == "answered"

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "answerability": self.decision.to_dict(),
                "relevance": self.relevance.to_dict()}


def decide(question: str, papers: Sequence[RetrievedPaper], *, index: Any,
           sides: Sequence[tuple[str, Sequence[RetrievedPaper]]] = (),
           multilingual: bool = False, picked: bool = False) -> Verdict:
    """The verdict on ``papers`` (ranked, best first) for ``question``.

    ``index``: the chunk index searched (its term statistics weigh the question's words);
    ``sides``: a comparison's per-side queries and search results; ``multilingual``: the
    dense side was multilingual-e5 (a question in another language); ``picked``: the user
    chose these papers (the chat's "ask about this paper")."""
    if multilingual:
        decision = answerability.decide_multilingual(papers[:DECIDE_OVER])
    else:
        stats = answerability.stats_for(index)
        searches = list(sides) or [(question, papers)]
        decision = min((answerability.decide(q, found[:DECIDE_OVER], stats)
                        for q, found in searches),
                       key=lambda d: _ORDER.index(d.outcome))
    rel = judge(question, papers)
    if multilingual and papers:
        rel = rel.only(papers[0].paper.paper_id)
    if picked and papers:
        decision.outcome = "answered"
        if not rel.relevant:
            rel = rel.scoped([rp.paper.paper_id for rp in papers])
    return Verdict(decision.outcome, decision, _agreeing(rel, decision.outcome, papers))


def _agreeing(rel: Relevance, outcome: str, papers: Sequence[RetrievedPaper]) -> Relevance:
    """Per-paper relevance that never contradicts the outcome."""
    if outcome != "answered":
        return replace(rel, relevant=False, relevant_ids=[], close_ids=[])
    if not rel.relevant_ids and papers:  # answerable by the model, weak per-paper evidence:
        best = papers[0].paper.paper_id  # the best-ranked paper is what it answers from
        return replace(rel, relevant=True, relevant_ids=[best], close_ids=[best])
    return replace(rel, relevant=True)
