"""The one decision: does this collection answer the question, and which papers bear on it?

``ask``, ``search``, the chat and the evaluations all call ``decide`` and nothing else, so they
never disagree. It returns a ``Verdict``:

- ``outcome``: ``answered``, ``near_miss`` (the collection is on the field but nothing here is
  about this: the answer names the closest papers as such) or ``refused`` (off-domain), from
  the fitted answerability model (``answerability``; the multilingual one for a question the
  e5 side searched). A comparison is answered when each side is, on its own search (the
  weakest side decides); each side's state (``answerability.SIDE_STATES``, found only when
  its paper leads its own estimates) is kept for the near miss to say which side is here.
  Papers the user picked are answered. A question asking which paper introduces a named
  method is answered by the paper that introduces it, and is a near miss (the method is not
  here) when no paper read does (introduces.py).
- ``relevance``: which papers are on topic (``relevance.judge``'s per-paper evidence and the
  verifier's score), made to agree with the outcome: nothing is relevant unless the outcome
  is ``answered``, and an answered question always has its best paper relevant.
- ``scores``: each paper's 0-1 estimate that it is what the question asks about (evidence.py:
  retrieval and the verifier weighed together), by paper id. Answers show it beside each source,
  and the paper with the highest is named first.
- ``confident``: an answered question whose best estimate is high enough to name its paper as
  the answer; below ``answerability.T_SURE`` it is named as "the closest match".

The outcome reads the first ``DECIDE_OVER`` ranked papers, so it does not change with how many
papers a command lists (``search --k 20`` and ``ask`` decide alike).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from assistant.judge import answerability, evidence, introduces
from assistant.judge.relevance import Relevance, judge
from assistant.judge.verifier import Remembered, Scorer, passage, shared
from assistant.search.retrieval import shown

if TYPE_CHECKING:
    from assistant.query.form import Form
    from assistant.search.retrieval import RetrievedPaper

DECIDE_OVER = 6  # ranked papers the outcome reads (ask's default k)
VERIFY_OVER = 20  # ranked papers the verifier scores at most (a survey lists from these)
# a hedged answer (not ``confident``) whose second paper is estimated at least this too is hedged
# for a tie, not for doubt that the first is on it: it names both as matching. On the dev rows of
# bench/decision_fit.py (ml-large and ml-theory), 4 of 607 lookups were hedged with two papers
# at 0.9 or more, the asked one among the two each time; 0 of 89 absent questions and 1 of 607
# with the paper dropped (at 0.85: 10 lookups, 1 absent, 1 dropped)
TIED = 0.9
_ORDER = ("refused", "near_miss", "answered")


def tied(estimates: Sequence[float | None]) -> int | None:
    """The place (0-based) of the paper tied with the first of ``estimates`` (papers in an
    answer's order; None for a paper not weighed): the highest other estimated at least
    ``TIED``, when the first is too; None when there is no tie."""
    known = [e if e is not None else 0.0 for e in estimates]
    if len(known) < 2 or known[0] < TIED:
        return None
    other = max(range(1, len(known)), key=known.__getitem__)
    return other if known[other] >= TIED else None


@dataclass
class Verdict:
    outcome: answerability.Outcome
    decision: answerability.Decision
    relevance: Relevance
    scores: dict[str, float] = field(default_factory=dict)  # evidence.py's estimate, by id
    verifier: dict[str, float] = field(default_factory=dict)  # the verifier's own 0-1 score
    confident: bool = False

    @property
    def best(self) -> str | None:
        """The paper a one-paper answer names first: the highest estimate among the first
        ``DECIDE_OVER`` (``scores`` keeps retrieval's order); None when nothing was weighed."""
        return best_of(list(self.scores), self.scores)

    @property
    def answered(self) -> bool:
        return self.outcome == "answered"

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "answerability": self.decision.to_dict(),
                "relevance": self.relevance.to_dict(), "confident": self.confident,
                "estimate": {pid: round(v, 3) for pid, v in self.scores.items()},
                "verifier": {pid: round(v, 3) for pid, v in self.verifier.items()}}


def decide(form: Form, papers: Sequence[RetrievedPaper], *, index: Any,
           sides: Sequence[tuple[str, Sequence[RetrievedPaper]]] = (),
           multilingual: bool = False, picked: bool = False,
           verifier: Scorer | None = None) -> Verdict:
    """The verdict on ``papers`` (ranked, best first) for the question of ``form`` (its
    searched query is what is weighed; its listing, introduced names and language are read
    from the form, never parsed again).

    ``index``: the chunk index searched (its term statistics weigh the question's words);
    ``sides``: a comparison's per-side queries and search results; ``multilingual``: the
    dense side was multilingual-e5 (a question in another language); ``picked``: the user
    chose these papers (the chat's "ask about this paper"); ``verifier``: the cross-encoder
    (default: the shipped one, loaded once)."""
    question = form.query or form.question
    # a Chinese question searched in its English translation has cut-offs of its own
    cut = answerability.TRANSLATED if form.cjk else answerability.ENGLISH
    if form.listing:
        cut = replace(cut, answer=cut.list_answer)
    scores: dict[str, float] = {}
    raw: dict[str, float] = {}
    sure = 0.0  # the weakest side's chance that its first paper is the one asked about
    led: list[bool] = []  # a comparison's: each side's paper (its first) is the one its own
    # estimate puts first
    if multilingual:  # the verifier reads English: a question in another language goes by
        decision = answerability.decide_multilingual(papers[:DECIDE_OVER])  # the e5 cosines
        sure = decision.p_answer
    else:
        ver = verifier or shared()
        stats = answerability.stats_for(index)
        read = list(papers[:VERIFY_OVER])
        raw = dict(zip([rp.paper.paper_id for rp in read],
                       ver.score(question, [passage(rp.paper, question) for rp in read]),
                       strict=True))
        scores = estimates(question, read, raw, stats)
        decisions = []
        for q, found in list(sides) or [(question, papers)]:
            top = list(found[:DECIDE_OVER])
            if q == question:
                side = scores
            else:
                side = estimates(q, top, dict(zip(
                    [rp.paper.paper_id for rp in top],
                    ver.score(q, [passage(rp.paper, q) for rp in top]), strict=True)), stats)
            decisions.append(answerability.decide(q, top, stats,
                                                  [side[rp.paper.paper_id] for rp in top],
                                                  cut=cut))
            if sides:
                led.append(bool(top) and best_of([rp.paper.paper_id for rp in top], side)
                           == top[0].paper.paper_id)
        decision = min(decisions, key=lambda d: _ORDER.index(d.outcome))
        sure = min(d.p_answer for d in decisions)
        if len(decisions) > 1:  # which side the collection holds (its paper leads it), which
            # it may not
            decision = replace(decision, sides=tuple(
                answerability.side_state(d, cut) if first else "not_found"
                for d, first in zip(decisions, led, strict=True)))
        if decision.outcome == "refused" and len(decisions) > 1 and any(
                d.outcome != "refused" for d in decisions):
            # a comparison one of whose sides the collection holds is no off-domain question:
            # a near miss, naming the closest paper to each side
            decision = replace(decision, outcome="near_miss")
    if form.sifts and decision.outcome == "refused" and papers:
        # "which of them ...?" asks about papers listed before: none may be on it, but the
        # question is about them, never off-domain (the closest of them are named)
        decision = replace(decision, outcome="near_miss")
    if form.asks_nothing or (not (multilingual or picked or form.cjk) and form.contentless):
        # "the", "what is it?", "word word word": nothing to search for. The verifier, trained
        # on real questions, scores such input high (0.9+) against any paper: never answered
        decision.outcome = "refused"
    # a list weighs every paper searched; a one-paper question the first DECIDE_OVER, as the
    # outcome does (so `search --k 20` and `ask` cite alike)
    rel = judge(question, papers if form.listing else papers[:DECIDE_OVER],
                verified=scores or None, v_list=cut.v_list)
    if form.both and form.listing and not (multilingual or sides) and \
            decision.outcome == "answered":
        # "both differential privacy and bandits": every paper listed is about each part
        rel = _on_both(rel, form.both, papers, answerability.stats_for(index))
        if not rel.relevant_ids:
            decision.outcome = "near_miss"
    introduced = False
    if not multilingual and not sides and form.introduces:
        # "which paper introduces Adam?": the paper that does, else the method is not here
        candidates = [rp.paper for rp in papers[:DECIDE_OVER]]
        intro = introduces.introducer(form.introduces, candidates)
        if intro is not None:
            decision.outcome = "answered"
            introduced = True
            rel = replace(rel.only(intro.paper_id), confidence=max(rel.confidence, 0.5))
        elif decision.outcome == "answered":
            decision.missing = introduces.missing(form.introduces, candidates)
            decision.outcome = "near_miss"
    if decision.outcome != "refused" and not decision.missing and sides:
        # "Compare PPO and SAC": a side that names a method no paper of its results introduces
        # stands for the closest paper (one that uses it, mentions it, or neither), never the
        # method's own (side_leads led with one that introduces it, if any); in a near miss
        # that side is one the collection may not hold ("How does sample efficiency differ
        # between PPO and TRPO?" named Q-Prop "the closest match to the second side")
        gone_of = [[name for name in names if not introduces.introduces(found[0].paper, name)]
                   if found else [] for (_, found), names in
                   zip(sides, form.named_sides, strict=False)]  # by side
        gone = [name for names in gone_of for name in names]
        decision.missing = " and ".join(filter(None, [", ".join(gone[:-1]), *gone[-1:]]))
        if decision.outcome == "near_miss" and decision.sides:
            decision.sides = tuple("not_found" if i < len(gone_of) and gone_of[i] else state
                                   for i, state in enumerate(decision.sides))
    if multilingual and papers:
        rel = rel.only(papers[0].paper.paper_id)
    if picked and papers:
        decision.outcome = "answered"
        if not rel.relevant:
            rel = rel.scoped([rp.paper.paper_id for rp in papers])
    # named as the answer, not as "the closest match": a sure estimate (for a comparison, each
    # side's: dev comparisons with a side cited to another paper are said sure 2 of 8 times,
    # with both right 21 of 41), the paper that introduces the method asked about, a list of
    # papers each judged on topic, the user's pick. A list that comes down to one paper is
    # answered as one paper, and is sure only as one is ("Which methods make LLM quantization
    # robust to outliers?" over the 19 bundled papers named an audio codec's quantizer, at an
    # estimate of 0.55, as "the most relevant paper")
    rel = _agreeing(rel, decision.outcome, papers, scores)
    if form.count and form.listing and not sides:  # "Give me three papers on X"
        rel = rel.at_most(form.count)
    listed = form.listing and len(rel.relevant_ids) > 1
    # a comparison side whose paper is not the one its own estimate puts first (that one leads
    # the other side, or retrieval ranked another first) is no sure side: "Compare Revisiting
    # Multi-Task Learning with ROCK and ..." named another multi-task paper, sure
    confident = decision.outcome == "answered" and (
        picked or introduced or listed or sure >= cut.sure) and not (sides and decision.missing) \
        and all(led)
    return Verdict(decision.outcome, decision, rel, scores, raw, confident)


def _on_both(rel: Relevance, parts: Sequence[str], papers: Sequence[RetrievedPaper],
             stats: answerability.TermStats) -> Relevance:
    """The list's papers that are about each of ``parts`` (evidence.holds_each), its less
    sure ones too; none relevant when no paper is."""
    holds = dict(zip([rp.paper.paper_id for rp in papers],
                     evidence.holds_each(parts, [rp.paper for rp in papers], stats), strict=True))
    kept = [pid for pid in rel.relevant_ids if holds.get(pid)]
    return replace(rel, relevant=bool(kept), relevant_ids=kept,
                   close_ids=[pid for pid in rel.close_ids if holds.get(pid)],
                   maybe_ids=[pid for pid in rel.maybe_ids if holds.get(pid)])


def best_of(ids: Sequence[str], scores: dict[str, float]) -> str | None:
    """The highest estimate among the first ``DECIDE_OVER`` of ``ids`` (in retrieval order; a
    tie as shown, to ``SHOWN_DECIMALS``, or no estimates at all, goes to the better-ranked
    paper: estimates that differ below what is shown differ between CPUs)."""
    first = list(ids)[:DECIDE_OVER]
    return max(first, key=lambda pid: shown(scores.get(pid, 0.0))) if first else None


def weighed(papers: Sequence[RetrievedPaper], verdict: Verdict) -> list[RetrievedPaper]:
    """The papers as the verdict weighed them: copies carrying its estimate (``verified``) and
    the verifier's own score, in retrieval order."""
    return [replace(rp, verified=verdict.scores.get(rp.paper.paper_id),
                    verifier=verdict.verifier.get(rp.paper.paper_id)) for rp in papers]


def asks_llm(verdict: Verdict, *, reads_near_misses: bool) -> bool:
    """A near miss goes to an LLM answerer too: it may find the answer among the closest
    papers, or say NONE (the offline answerer composes it)."""
    return verdict.outcome == "near_miss" and reads_near_misses


@dataclass(frozen=True)
class Settled:
    """The outcome once the answerer has spoken (``settle``)."""
    outcome: answerability.Outcome
    confident: bool
    llm: str = ""  # "none": the model said no source answers; "answered": it answered a near miss
    relevant: bool | None = None  # what relevance now says (None: as decided)


def settle(verdict: Verdict, *, near_miss_sent: bool, said_none: bool, cited: int,
           cut: bool) -> Settled:
    """The last word on a generated answer: a model that reads the sources and says none
    answers makes it a near miss; a near miss the model answered from the closest papers, with
    citations, is answered (named as the closest match: the decision was not sure); an answer
    that cites nothing (and was not cut off) answered nothing."""
    if said_none:
        return Settled("near_miss", False, "none", False)
    if near_miss_sent and cited:
        return Settled("answered", False, "answered", True)
    if not cited and not cut:
        return Settled("near_miss", False)
    return Settled(verdict.outcome, verdict.confident)


def side_leads(*, index: Any, verifier: Scorer | None = None
               ) -> Callable[[str, Sequence[RetrievedPaper]], RetrievedPaper | None]:
    """The paper each side of a comparison stands for, picked as a one-paper question's is:
    the one that introduces a method the side names (introduces.side_lead), else the highest
    estimate among the side's first ``DECIDE_OVER`` results (retrieval's first on a tie).
    Retrieval's first alone named, for "Learning to Discern", a paper on world models for
    robots that its own estimate put below the paper of that title. ``verifier``: the scorer
    (default: the shared verifier; the pipeline passes the ``verifier.Remembered`` that
    ``decide`` reads too, so a side's papers are scored once a question)."""
    ver = verifier or Remembered()
    stats = answerability.stats_for(index)

    def best(side: str) -> Callable[[Sequence[RetrievedPaper]], RetrievedPaper | None]:
        def pick(found: Sequence[RetrievedPaper]) -> RetrievedPaper | None:
            top = list(found[:DECIDE_OVER])
            ids = [rp.paper.paper_id for rp in top]
            read = ver.score(side, [passage(rp.paper, side) for rp in top])
            chosen = best_of(ids, estimates(side, top, dict(zip(ids, read, strict=True)),
                                            stats))
            return top[ids.index(chosen)] if chosen is not None else None
        return pick

    return lambda side, found: introduces.side_lead(side, found, otherwise=best(side))


def estimates(question: str, papers: Sequence[RetrievedPaper], verified: dict[str, float],
              stats: answerability.TermStats) -> dict[str, float]:
    """evidence.py's estimate for each of ``papers`` (in retrieval order), by paper id."""
    terms = evidence.term_features(question, [rp.paper for rp in papers], stats)
    rows = [{"fused": rp.score, "rank": float(i), "dense": rp.dense or 0.0,
             "ver": verified[rp.paper.paper_id], **tf}
            for i, (rp, tf) in enumerate(zip(papers, terms, strict=True), 1)]
    return dict(zip([rp.paper.paper_id for rp in papers], evidence.probabilities(rows),
                    strict=True))


def _agreeing(rel: Relevance, outcome: str, papers: Sequence[RetrievedPaper],
              scores: dict[str, float]) -> Relevance:
    """Per-paper relevance that never contradicts the outcome."""
    if outcome != "answered":
        return replace(rel, relevant=False, relevant_ids=[], close_ids=[])
    if not rel.relevant_ids and papers:  # answerable by the model, weak per-paper evidence:
        ids = [rp.paper.paper_id for rp in papers]
        best = best_of(ids, scores) or ids[0]  # the best estimate is what it answers from
        return replace(rel, relevant=True, relevant_ids=[best], close_ids=[best])
    return replace(rel, relevant=True)
