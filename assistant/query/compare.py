"""Comparison questions: "A vs B", "how does A differ from B", "what distinguishes A from B".

One query for both sides finds the side whose words dominate it and misses the other (on ICLR
2017, "How do the Gumbel-Softmax and the Concrete distribution papers differ?" ranked the
Concrete paper 7th). So each side is searched on its own and its best paper leads the sources;
the answer then cites each side's paper for what that paper says.

A comparison is read only where the question is built as one, from its start: an opening
("how does", "what distinguishes", "compare", "what is the difference between") and a
connector ("differ from", "compare with", "relate to", "and", "vs"). A question that asks for
one paper and mentions a contrast inside it ("Which study compares recurrent versus
convolutional ...", "how much do we lose versus one-at-a-time selection") is a lookup: split,
its halves were searched as two papers. A shared opening clause ("Both use ski rental: how does
A differ from B?", "For label-efficient learning, how does A compare with B?") is searched with
each side. A side that points back into the other ("... compare against *their*
linearizations") makes a comparison within one paper, not two.
"""

from __future__ import annotations

import re

_AUX = r"(?:does|do|did|is|are|was|were)"
_HOW = r"(?:how|in what ways?|in which ways?|in what respects?|in what sense)"
# a shared opening clause: "Both use ski rental:", "For label-efficient learning,"
_CONTEXT = re.compile(r"^(?P<ctx>(?:both|for|in|within|on|among|regarding)\b[^:;,?]{3,160}?)"
                      r"\s*[:;,]\s+(?P<rest>(?:how|what|in|compare|contrast)\b.*)$",
                      re.IGNORECASE)
_PATTERNS = [
    # how does A differ (in its goals) from B / how is A different from B
    re.compile(rf"^{_HOW} {_AUX} (?P<a>.+?) (?:differ|differs|diverge|diverges|different|depart"
               rf"|departs)(?: \S+){{0,3}}? (?:from|than) (?P<b>.+)$", re.IGNORECASE),
    # what distinguishes / separates / sets apart A from B
    re.compile(r"^what (?:distinguishes|separates|differentiates|sets apart) (?P<a>.+?) "
               r"(?:apart )?from (?P<b>.+)$", re.IGNORECASE),
    # how does A compare with / relate to / stack up against B
    re.compile(rf"^{_HOW} {_AUX} (?P<a>.+?) (?:compare|compares|relate|relates|stack up|stacks "
               r"up|measure up|contrast)(?: in \S+(?: \S+)?)? (?:with|to|against|versus|vs\.?) "
               r"(?P<b>.+)$", re.IGNORECASE),
    # how do A and B differ / compare
    re.compile(rf"^{_HOW} {_AUX} (?P<a>.+?) (?:and|&) (?P<b>.+?) (?:differ|compare|relate|"
               r"contrast)\b.*$", re.IGNORECASE),
    # what is the difference / relation between A and B
    re.compile(r"^(?:what(?:'s| is| are)? )?(?:the )?(?:main |key |core |real )?(?:differences?|"
               r"distinctions?|relations?|relationship|contrast) between (?P<a>.+?) and "
               r"(?P<b>.+)$", re.IGNORECASE),
    # compare / contrast A with B
    re.compile(r"^(?:compare|contrast) (?P<a>.+?) (?:and|with|to|against|versus|vs\.?) "
               r"(?P<b>.+)$", re.IGNORECASE),
]
# "A vs B", "A versus B: which is better?": two short names, nothing asked around them
_BARE = re.compile(r"^(?P<a>[^?:;,]{2,80}?) (?:vs\.?|versus) (?P<b>[^?:;,]{2,80}?)"
                   r"(?:\s*[:;,?]\s*(?:which|what|how)\b.*)?\??$", re.IGNORECASE)
_ASKS = re.compile(r"^(?:how|what|which|who|why|when|where|is|are|does|do|did|can|could|"
                   r"should|would|will|has|have|any|looking|find|show|list|give|i|we|my|our|"
                   r"early|empirically)\b", re.IGNORECASE)
_BARE_WORDS = 8  # words a side of a bare "A vs B" holds at most
# a side that points into the other: "how do LeNet and AlexNet compare against *their* ..."
_POINTS_BACK = re.compile(r"^(?:it|its|their|them|they|those|these|this|that one|each other|"
                          r"one another)\b", re.IGNORECASE)
# how a side names a paper, not what the paper is about: "the work that", "the one where"
_OPENING = re.compile(r"^(?:(?:the|a|an)\s+)?(?:(?:paper|papers|work|works|study|studies|result|"
                      r"results|framework|approach|method|technique|analysis|line of work|one|"
                      r"ones|proposal)\s+)?(?:(?:on|of|that|which|where|about|for|in which|whose)"
                      r"\s+)?", re.IGNORECASE)
# filler words on their own, never inside a hyphenated name ("follow-the-leader")
_FILLER = re.compile(r"(?<![\w-])(?:the|a|an|paper|papers|work|works|method|methods|approach|"
                     r"approaches|proposed|in|of|on)(?![\w-])", re.IGNORECASE)
_BOTH = re.compile(r"^both\s+", re.IGNORECASE)
_VERSUS_WORDS = 3  # "fixed confidence versus fixed budget" is a setting, not two papers
_ASKED = re.compile(r"(?<![\w-])(?:how|what|which|where|when|why|does|do|did|is|are|each|both|"
                    r"neither|these|those|two|their|they|compare|contrast|explain|describe)"
                    r"(?![\w-])", re.IGNORECASE)
_CONTEXT_WORDS = 25  # a longer opening is a question of its own, not a shared clause


def _clean(side: str) -> str:
    side = re.sub(r"^(?:what is|what are|how is|how are)\s+", "", side.strip(" ,.;:?"),
                  flags=re.IGNORECASE)
    side = _OPENING.sub("", side, count=1)
    words = _FILLER.sub(" ", side)
    return " ".join(words.split())


# "from" that belongs to its side, not to "differ ... from": "switching from X", "learned from"
_INNER_FROM = re.compile(r"(?:\w+ing|away|apart|derived|learned|learnt|drawn|sampled|recovered|"
                         r"transferred|distilled|generated|estimated|inferred)$", re.IGNORECASE)
_MASK = "\x00" * 4


def _pair(q: str) -> tuple[str, str] | None:
    for pattern in _PATTERNS:
        masked, first = q, None
        while (m := pattern.match(masked)) is not None:
            a, b = (m.group(s).replace(_MASK, "from") for s in ("a", "b"))
            first = first or (a, b)
            if masked[m.end("a"):m.start("b")].strip() != "from" or not _INNER_FROM.search(a):
                return a, b
            # "what distinguishes switching from X to Y from Z": that "from" is the side's own
            at = m.end("a") + 1
            masked = masked[:at] + _MASK + masked[at + 4:]
        if first:  # no other reading: the first one
            return first
    m = _BARE.match(q)
    if m and not _ASKS.match(q) and all(
            len(m.group(s).split()) <= _BARE_WORDS for s in ("a", "b")):
        return m.group("a"), m.group("b")
    return None


# a question that asks for one paper, whatever contrast it mentions
_LOOKUP = re.compile(r"^(?:which (?:paper|work|study|article|method|approach|analysis)|is there|"
                     r"are there|any\b|has anyone|have people|looking for|how (?:can|should|"
                     r"would|could|might|to)\b|how do (?:i|we|one|you)\b|if i\b|what (?:neural |"
                     r"new )?(?:paper|work|approach|method|technique)|can (?:a|an|one|we|i)\b|"
                     r"i need|i'm looking|find|show me|is it|does (?:a|an|the)\b|do (?:i|we)\b)",
                     re.IGNORECASE)
# the two papers described in turn, each at the start of a clause: "one <A>, the other <B>",
# "One work argues <A>; another <B>" ("where one arm holds ... while the other cuts" is one
# paper's robot)
_ONE_OTHER = re.compile(r"^(?P<ctx>(?:.*?[:;,.\u2014]\s+)?)(?:one|the first)\b(?P<a>[^?]{8,}?)"
                        r"(?:[,;:]\s+(?:and |while |whereas |but )?|\s+(?:and|while|whereas|but) )"
                        r"(?:the other|another|the second)"
                        r"\b(?P<b>[^?]{8,}?)(?:[.?]\s|[.?]?$|\?)", re.IGNORECASE)
# "<A> versus <B>" inside a question that is about two papers ("each", "both", "these two")
_TWO = re.compile(r"\b(?:each|both|these two|the two|these|two (?:works|papers|approaches|"
                  r"methods)|compare|contrast|differ|which of)\b", re.IGNORECASE)
_VERSUS = re.compile(r"(?:^|[:;,?.]\s+|\bbetween\s+)(?P<a>[^:;,?.]{8,}?)\s*,?\s+(?:versus|vs\.?)\s+"
                     r"(?P<b>[^:;?.]{8,}?)(?=[,;:?.]|\s+(?:and|or) (?:how|what|which|why|does|do|"
                     r"is)\b|$)", re.IGNORECASE)


def _described(q: str) -> tuple[tuple[str, str], str] | None:
    """Two papers described in turn by a question built around them ("One work argues ...;
    another builds ...", "..., versus ... ?"), with the clause before them; never a question
    that asks for one paper."""
    if _LOOKUP.match(q):
        return None
    m = _ONE_OTHER.search(q)
    if m:
        return (m.group("a"), m.group("b")), m.group("ctx")
    if _TWO.search(q):
        m = _VERSUS.search(q)
        if m and all(len(_clean(m.group(s)).split()) >= _VERSUS_WORDS for s in ("a", "b")):
            return (m.group("a"), m.group("b")), q[:m.start("a")]
    return None


def sides(question: str) -> list[str] | None:
    """The two things a comparison question compares, or None for any other question. A
    shared opening clause is added to both sides."""
    q = " ".join(question.split()).rstrip(" ?")
    context = ""
    found = _pair(q)
    if found is None:
        m = _CONTEXT.match(q)
        if m:
            found = _pair(m.group("rest"))
            context = _clean(_BOTH.sub("", m.group("ctx")))
    if found is None and (told := _described(q)) is not None:
        found, before = told
        context = (" ".join(_ASKED.sub(" ", _clean(before)).split())
                   if len(before.split()) <= _CONTEXT_WORDS else "")
    if found is None:
        return None
    raw_a, raw_b = (s.strip(" ,.;:?") for s in found)
    if _POINTS_BACK.match(raw_a) or _POINTS_BACK.match(raw_b):
        return None
    a, b = _clean(raw_a), _clean(raw_b)
    if not a or not b or a.lower() == b.lower():
        return None
    if context:
        a, b = f"{a} {context}", f"{b} {context}"
    return [a, b]
