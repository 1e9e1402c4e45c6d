"""An abstract's sentences by facet: its background, its method, its result.

"Papers like this one" can mean the same problem, the same approach or the same finding. An
abstract says each in its own sentences, and says them in a common order with common cues:
background first ("X is important ... however ..."), then the contribution ("we propose",
"our method", "called X"), then the evidence ("we show", "experiments", "outperforms", a
bound, a percentage). A rule reads those cues and positions; every sentence gets one facet.
"""

from __future__ import annotations

import re

from assistant.textutil import section_label, split_sentences

FACETS = ("background", "method", "result")
_METHOD = re.compile(
    r"\b(?:we|this (?:paper|work)|the authors|in this (?:paper|work),? we)\s+"
    r"(?:propose|introduce|present|develop|design|formulate|describe|devise|construct|give|"
    r"provide|study|consider|analy[sz]e|investigate|extend|adapt|generali[sz]e|leverage|use|"
    r"employ|cast|frame|model|learn|train)\w*\b|\bour (?:method|approach|model|framework|"
    r"algorithm|technique|system|architecture|analysis)\b|\b(?:called|named|dubbed)\b",
    re.IGNORECASE)
_RESULT = re.compile(
    r"\bwe (?:show|demonstrate|prove|find|establish|obtain|observe|report|achieve|derive)\w*\b|"
    r"\b(?:results?|experiments?|empirical\w*|evaluations?|outperform\w*|achiev\w*|improv\w*|"
    r"state-of-the-art|surpass\w*|bounds?|regret|guarantee\w*|converge\w*|accuracy|speed-?up|"
    r"reduc\w*)\b|\d+(?:\.\d+)?\s*(?:%|x|×)", re.IGNORECASE)


# a structured abstract says each sentence's facet itself: its section labels ("BACKGROUND",
# "MATERIALS AND METHODS", "RESULTS", "CONCLUSIONS"), each holding until the next
_LABEL_FACET = (
    (re.compile(r"RESULT|FINDING|OBSERVATION|CONCLUSION|INTERPRETATION|SIGNIFICANCE|"
                r"RELEVANCE|DISCUSSION|SUMMARY"), "result"),
    (re.compile(r"METHOD|MATERIAL|DESIGN|SETTING|PARTICIPANT|PATIENT|SUBJECT|POPULATION|"
                r"INTERVENTION|EXPOSURE|MEASURE|SEARCH|SELECTION|DATA"), "method"),
    (re.compile(r"BACKGROUND|INTRODUCTION|CONTEXT|OBJECTIVE|AIM|PURPOSE|RATIONALE|IMPORTANCE|"
                r"HYPOTHESIS"), "background"),
)


def _labelled(sents: list[str]) -> list[str] | None:
    """Each sentence's facet by the labels of a structured abstract (None when it has fewer
    than two labels, or its first sentence has none)."""
    labels = [section_label(s) for s in sents]
    if sum(1 for lab in labels if lab) < 2 or not labels[0]:
        return None
    kind: list[str] = []
    for lab in labels:
        if lab:  # "METHODS AND RESULTS": the first word's
            first = next((f for rx, f in _LABEL_FACET if rx.match(lab)), None)
            kind.append(first or (kind[-1] if kind else "background"))
        else:
            kind.append(kind[-1])
    return kind


def facets_of(abstract: str) -> dict[str, list[str]]:
    """Each facet's sentences, in the abstract's order (every facet gets at least one when the
    abstract has three sentences)."""
    sents = split_sentences(abstract)
    n = len(sents)
    if not n:
        return {f: [] for f in FACETS}
    kind = _labelled(sents) or _by_cues(sents)
    out = {f: [s for s, k in zip(sents, kind, strict=True) if k == f] for f in FACETS}
    for f, where in (("background", 0), ("method", n // 2), ("result", n - 1)):
        if not out[f]:  # a facet neither labels nor cues found: the sentence where it usually sits
            out[f] = [sents[where]]
    return out


def _by_cues(sents: list[str]) -> list[str]:
    """Each sentence's facet by its cues and its position."""
    n = len(sents)
    first_method = next((i for i, s in enumerate(sents) if _METHOD.search(s)), None)
    kind: list[str] = []
    for i, s in enumerate(sents):
        if (first_method is not None and i < first_method) or (first_method is None and i < n / 3):
            kind.append("background")
        elif _METHOD.search(s) and not (i > 0 and _RESULT.search(s) and i >= 2 * n / 3):
            kind.append("method")
        elif _RESULT.search(s) or i >= 2 * n / 3:
            kind.append("result")
        else:
            kind.append("method")
    kind[0] = "background" if first_method != 0 else kind[0]
    return kind
