"""Does the store hold anything that answers the question?

The decision combines two pieces of evidence about the best-ranked papers: the dense cosine
similarity of the best chunk, and how much of the question's content vocabulary the paper's
text covers. The weights and cut-off were fitted on in-corpus versus out-of-corpus questions
(see evals/); the reported ``confidence`` is the logistic of the margin.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from assistant.search.retrieval import shown
from assistant.sources.titles import names_in
from assistant.textutil import content_words, stem

if TYPE_CHECKING:
    from assistant.search.retrieval import RetrievedPaper

# fitted by bench/calibrate_relevance.py on dev questions only (class-balanced logistic
# regression over three stores of the fit venues and SciFact, no unseen venue; the dense
# weight is fixed at 10 to set the scale); make report scores the test split
# (bench/results/calibrate_relevance.json). W_NAMED is hand-set.
W_DENSE = 10.0
W_OVERLAP = 3.78
BIAS = -5.67
# A question that names a method ("MaskAQ", "Q2D2", "DyPE") which a paper's title carries is
# asking about that paper, however short or unlike the abstract the question is: a fixed bonus.
W_NAMED = 3.0
RELATIVE_KEEP = 0.80  # "also related" in a one-paper answer: evidence this close to the best
# Once the best paper is relevant, others join the list with weaker evidence (confidence > 0.27):
# "which papers are about X" wants the second and third paper, not only the clearest one.
LIST_MARGIN = -1.0
# With the decision's estimates (0-1, evidence.py): a list holds the papers estimated at least
# V_LIST; a one-paper answer's "also related" those at least V_CLOSE and RELATIVE_KEEP of the
# best.
# V_LIST: on the dev natural surveys (complete labels of 40-paper pools, bench/decision_fit.py
# fit) the cut-off with the best recall at precision >= 0.7 among 20 candidates (0.673 at 0.718).
V_LIST = 0.2
V_CLOSE = 0.5
# A list then names, as "less sure", the other candidates estimated at least V_MAYBE (at most
# MAYBE_MAX, best first), so a list shows as many on-topic papers as `search --k 10` finds.
# On the dev natural surveys (29, `bench/decision_fit.py fit`): the highest cut-off whose list
# and less sure papers together find more than search --k 10 (recall 0.849 against 0.827;
# 8.4 papers in all; the list itself as before, 0.673 at precision 0.709).
V_MAYBE = 0.04
MAYBE_MAX = 10


def coverage(question: str, text: str) -> float:
    """Share of the question's content words (prefix-stemmed) that occur in ``text``."""
    q = {stem(w) for w in content_words(question)}
    if not q:
        return 0.0
    t = {stem(w) for w in content_words(text)}
    return len(q & t) / len(q)


@dataclass
class Relevance:
    relevant: bool
    confidence: float
    dense: float
    coverage: float
    relevant_ids: list[str]  # when relevant: papers with evidence above LIST_MARGIN, best first
    close_ids: list[str]  # those whose evidence is near the best one's
    evidence: dict[str, float] = field(default_factory=dict)  # per paper id; > 0 is relevant
    maybe_ids: list[str] = field(default_factory=list)  # a list's "less sure" papers (V_MAYBE)

    def to_dict(self) -> dict[str, object]:
        return {"relevant": self.relevant, "confidence": round(self.confidence, 3),
                "dense": round(self.dense, 4), "coverage": round(self.coverage, 3),
                "relevant_papers": len(self.relevant_ids),
                "close_papers": len(self.close_ids)}

    def scoped(self, paper_ids: Sequence[str]) -> Relevance:
        """The user picked these papers: they are relevant whatever the evidence says."""
        evidence = {pid: max(self.evidence.get(pid, 0.0), 1e-3) for pid in paper_ids}
        return replace(self, relevant=True, relevant_ids=list(paper_ids),
                       evidence={**self.evidence, **evidence})

    def at_most(self, n: int) -> Relevance:
        """A list of at most ``n`` papers, as asked ("Give me three papers on X"): its best
        ``n``, then as many less sure ones as leave room."""
        keep = self.relevant_ids[:n]
        return replace(self, relevant_ids=keep, close_ids=[c for c in self.close_ids if c in keep],
                       maybe_ids=self.maybe_ids[:max(0, n - len(keep))])

    def only(self, paper_id: str) -> Relevance:
        """Cite this paper alone (a question the English evidence cannot weigh, such as a
        Chinese one searched by the multilingual side: its best paper, nothing "also related")."""
        return replace(self, relevant=True, relevant_ids=[paper_id], close_ids=[paper_id])


def _by_verifier(rel: Relevance, papers: Sequence[RetrievedPaper],
                 verified: Mapping[str, float], v_list: float = V_LIST) -> Relevance:
    if not rel.relevant:
        return rel
    scored = sorted(((verified.get(rp.paper.paper_id, 0.0), rp.paper.paper_id)
                     for rp in papers), key=lambda x: -shown(x[0]))  # best as shown (stable)
    best_v = scored[0][0]
    keep = [pid for v, pid in scored if v >= v_list]
    close = [pid for v, pid in scored if v >= V_CLOSE and v >= best_v * RELATIVE_KEEP]
    top = scored[0][1]  # the paper with the highest estimate is always listed, first
    if top not in keep:
        keep.insert(0, top)
    if top not in close:
        close.insert(0, top)
    maybe = [pid for v, pid in scored if v >= V_MAYBE and pid not in keep][:MAYBE_MAX]
    return replace(rel, relevant_ids=keep, close_ids=close, maybe_ids=maybe)


def names_title(question: str, title: str) -> bool:
    names = names_in(question)
    if not names:
        return False
    title_tokens = {t.strip("()[]{}.,;:!?'\"").lower() for t in title.replace(":", " ").split()}
    return bool(names & title_tokens)


def evidence(question: str, dense: float, paper_text: str, title: str = "") -> tuple[float, float]:
    cov = coverage(question, paper_text)
    named = W_NAMED if title and names_title(question, title) else 0.0
    return W_DENSE * dense + W_OVERLAP * cov + BIAS + named, cov


def judge(question: str, papers: Sequence[RetrievedPaper],
          verified: Mapping[str, float] | None = None, *, v_list: float = V_LIST) -> Relevance:
    """Is anything in ``papers`` about ``question``? Pure: the papers are left as they were.

    ``verified``: the decision's estimate of papers by id (decision.py, evidence.py). When
    given, it decides which papers are listed, best estimate first: those estimated at least
    ``v_list`` (the best one always), "close" those at least ``V_CLOSE`` and near the best
    estimate; the evidence above still says whether anything is relevant at all."""
    if not papers:
        return Relevance(False, 0.0, 0.0, 0.0, [], [])
    if verified:
        return _by_verifier(judge(question, papers), papers, verified, v_list)
    scored = []
    for rp in papers:
        e, cov = evidence(question, rp.dense or 0.0, f"{rp.paper.title} {rp.paper.abstract}",
                          rp.paper.title)
        scored.append((e, cov, rp))
    best_e, best_cov, best = max(scored, key=lambda x: x[0])
    relevant = best_e > 0
    confidence = 1.0 / (1.0 + math.exp(-best_e))
    ranked = sorted(scored, key=lambda x: -x[0])
    keep = [rp.paper.paper_id for e, _, rp in ranked if relevant and e > LIST_MARGIN]
    close = [rp.paper.paper_id for e, _, rp in ranked
             if relevant and e > 0 and e >= best_e * RELATIVE_KEEP]
    return Relevance(relevant, confidence, best.dense or 0.0, best_cov, keep, close,
                     {rp.paper.paper_id: e for e, _, rp in scored})
