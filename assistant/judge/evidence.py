"""Does this paper answer the question? Retrieval and the verifier weighed together, per paper.

The verifier (verifier.py) reads a question with a paper; retrieval ranks papers by the words
and the meaning they share with it. Each misleads alone: on a question in a researcher's own
words the verifier scores every paper near zero, the right one included, while retrieval has it
first by a wide margin; on a question made of an abstract's own words retrieval can rank a
paper that only mentions them first. So each paper's estimate reads both:

- the verifier's logit;
- its retrieval rank (as 1/rank) and its fused score relative to the best one;
- its lead: how far its fused score is above the best *other* paper's (a decisive margin is
  positive for the first paper only);
- its dense cosine;
- the share of the question's specific vocabulary it holds, each term weighted by its rarity
  in the store (as answerability.py weighs it), and the share of the method names it holds.

``W_PAPER`` is a logistic model fitted by ``bench/decision_fit.py`` on dev questions (natural
questions over two collections, SciFact claims; each with its paper in the store, dropped, or
held out, and questions from another field): its output is calibrated as the chance that this
paper is the one the question asks about. The decision (decision.py) names the paper with the
highest estimate first, and its estimate decides answered, hedged or near miss.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from assistant.judge.answerability import query_terms
from assistant.sources.titles import names_in

if TYPE_CHECKING:
    from assistant.paper import Paper

CANDIDATES = 6  # papers a one-paper question weighs (decision.DECIDE_OVER, ask's k)
FEATURES = ("ver_logit", "inv_rank", "fused_rel", "fused_lead", "dense", "wcov", "names")
# fitted by bench/decision_fit.py on dev, fit venues and SciFact only (feature order as
# FEATURES, bias last)
W_PAPER: tuple[float, ...] = (0.57, 2.889, -0.155, 1.707, 1.732, 1.707, 0.156, -2.454)


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def term_features(question: str, papers: Sequence[Paper], stats: Any) -> list[dict[str, float]]:
    """Each paper's share of the question's rare-term weight, and of its method names (the
    question's terms, their weights and its names are read once for all the papers)."""
    from assistant.index.chunk_index import tokenize

    terms = query_terms(question)
    idf = stats.idf(terms)
    total = sum(idf.values()) or 1.0
    names = names_in(question)
    out = []
    for paper in papers:
        text = f"{paper.title} {paper.abstract}"
        have = set(tokenize([text])[0])
        wcov = sum(w for t, w in idf.items() if t in have) / total if terms else 0.0
        low = text.lower()
        found = sum(1 for n in names if n in low) / len(names) if names else 0.0
        out.append({"wcov": wcov, "names": found})
    return out


# the share of each part's rare-term weight a paper of a list asking for two things at once
# holds ("both differential privacy and bandits", query/conjunction.py). Not fitted: no dev
# question but one asks for two things so; half, so a part's one rare word ("bandits") or most
# of a longer part's weight must be there
BOTH_SHARE = 0.5


def holds_each(parts: Sequence[str], papers: Sequence[Paper], stats: Any) -> list[bool]:
    """Does each of ``papers`` hold at least ``BOTH_SHARE`` of every part's rare-term weight?"""
    shares = [[tf["wcov"] for tf in term_features(part, papers, stats)] for part in parts]
    return [all(share[i] >= BOTH_SHARE for share in shares) for i in range(len(papers))]


# ... of the most weight a paper weighed holds: a follow-up's own words ("During which period
# did the number of infections grow?") are common in a field whose papers come in clusters, and
# another paper of the cluster may hold a little more of them than the one asked about. Chosen on
# dev: `bio` follow-ups 0.793 -> 0.862 at 0.5, 0.6 and 0.75 alike, ML ones unchanged, and no
# standalone second turn read back at any of them (bench/read_back.py, 0 of 593; at 1.0 before)
POINTS_SHARE = 0.75


def points_to(question: str, paper: Paper, papers: Sequence[Paper], stats: Any) -> bool:
    """Do the question's own words point at ``paper`` rather than elsewhere? Only if it holds
    some of the question's rare-term weight (a question from another field holds none, though
    over a few papers retrieval still ranks one first); then yes when retrieval ranks it first
    among ``papers`` (those weighed, best first), or when it holds at least ``POINTS_SHARE`` of
    the most any paper weighed holds. How a question that reads as standalone but finds nothing
    sure is told to be about the previous answer's paper ("What's the solver called?",
    answer/pipeline.py)."""
    shares = [f["wcov"] for f in term_features(question, [paper, *papers], stats)]
    if shares[0] <= 0:
        return False
    first = bool(papers) and papers[0].paper_id == paper.paper_id
    return first or shares[0] >= POINTS_SHARE * max(shares[1:], default=0.0)


def features(rows: Sequence[Mapping[str, float]]) -> list[list[float]]:
    """One feature vector per candidate (``rows`` in retrieval order: ``fused``, ``rank``,
    ``dense``, ``ver``, ``wcov``, ``names``)."""
    fused = [float(r["fused"]) for r in rows]
    top = max(fused, default=0.0) or 1.0
    out = []
    for i, r in enumerate(rows):
        other = max((f for j, f in enumerate(fused) if j != i), default=0.0)
        out.append([_logit(float(r["ver"])), 1.0 / float(r["rank"]), fused[i] / top,
                    (fused[i] - other) / top, float(r["dense"]), float(r["wcov"]),
                    float(r["names"])])
    return out


def probabilities(rows: Sequence[Mapping[str, float]], weights: Sequence[float] = W_PAPER
                  ) -> list[float]:
    """Each candidate's calibrated chance of being the paper asked about."""
    out = []
    for x in features(rows):
        z = sum(w * v for w, v in zip(weights, x, strict=False)) + weights[-1]
        out.append(1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z)))))
    return out
