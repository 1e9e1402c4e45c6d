"""Comparison questions: "A vs B", "how does A differ from B", "what distinguishes A from B",
and three to six things named in one ("Compare PPO, SAC and TD3", "PPO vs SAC vs TD3").

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

Researchers more often describe the two papers than name them, in a question about two ("each",
"both", "these two", "differently"): one after the other ("One work argues ...; the other ...",
"<A> in one and <B> in the other"), or side by side after what is asked ("What does each
target: <A>, or <B>?", "<topic> is the aim of both <A> and <B>", "a common thread between <A>
and <B>", "I'm comparing <A>, and <B>", "... differently in the work that <A>, and in the work
<B>"), or told apart by what each does ("Which of these two gives <A>, and which <B>?"). The
join read between two descriptions is the one most like a seam (a comma before it,
"the"/"a"/"in the" after it, the second opening as the first does), and a side ends where the
question moves on ("?", a new sentence, ", and which ..."). Two descriptions of a handful of
words ("both the treatment and the outcome") are things, not papers: each needs three content
words.
"""

from __future__ import annotations

import re

from assistant.sources.titles import is_name, names_written
from assistant.textutil import content_words

_AUX = r"(?:does|do|did|is|are|was|were)"
_HOW = r"(?:how|in what ways?|in which ways?|in what respects?|in what sense)"
# a shared opening clause: "Both use ski rental:", "For label-efficient learning,"
_CONTEXT = re.compile(r"^(?P<ctx>(?:both|for|in|within|on|among|regarding|when|if|given|under)\b"
                      r"[^:;,?.]{3,160}?)\s*[:;,.]\s+(?P<rest>(?:how|what|in|compare|contrast)\b.*)$",
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
               r"contrast)\b(?!\w* between\b).*$", re.IGNORECASE),
    # what is the difference / relation between A and B
    re.compile(r"^(?:what(?:'s| is| are)? )?(?:the )?(?:main |key |core |real )?(?:differences?|"
               r"distinctions?|relations?|relationship|contrast) between (?P<a>.+?) and "
               r"(?P<b>.+)$", re.IGNORECASE),
    # compare / contrast / pair A with B
    re.compile(r"^(?:compare|contrast|pair) (?P<a>.+?) (?:and|with|to|against|versus|vs\.?) "
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
                    r"neither|either|these|those|two|their|they|compare|comparing|contrast|explain|"
                    r"describe|share|i'm|i|me|give|remember|recall|trying|looking|there)"
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


# a sentence's end inside a side: the pattern read across two sentences ("How do the objective
# changes differ between <A> and <B>? Which ..., and how does it relate to VAEs and AAEs?" was
# read as "<A> and <B>? Which ..." against "VAEs and AAEs")
_SENTENCE_END = re.compile(r"[?!]\s|[.]\s+(?-i:[A-Z])")


def _pair(q: str) -> tuple[str, str] | None:
    for pattern in _PATTERNS:
        masked, first = q, None
        while (m := pattern.match(masked)) is not None:
            if _SENTENCE_END.search(m.group("a")) or (
                    m.end("b") < len(masked) and _SENTENCE_END.search(m.group("b"))):
                break
            a, b = (m.group(s).replace(_MASK, "from") for s in ("a", "b"))
            first = first or (a, b)
            if masked[m.end("a"):m.start("b")].strip() != "from" or not _INNER_FROM.search(a):
                return _reopened(q, a, b) if pattern is _PATTERNS[-1] else (a, b)
            # "what distinguishes switching from X to Y from Z": that "from" is the side's own
            at = m.end("a") + 1
            masked = masked[:at] + _MASK + masked[at + 4:]
        if first:  # no other reading: the first one
            return _reopened(q, *first) if pattern is _PATTERNS[-1] else first
    m = _BARE.match(q)
    if m and not _ASKS.match(q) and all(
            len(m.group(s).split()) <= _BARE_WORDS for s in ("a", "b")):
        return m.group("a"), m.group("b")
    return _titles_versus(q)


# two titles, each in title case, with nothing asked around them: "Don't Decay the Learning
# Rate, Increase the Batch Size vs Regret Bounds for Robust Adaptive Control of the Linear
# Quadratic Regulator": a title's length, comma, colon or opening "How"/"Do" is its own
_TITLES_VERSUS = re.compile(r"^(?P<a>[^?]{3,300}?)\s+(?:vs\.?|versus)\s+(?P<b>[^?]{3,300}?)\s*$",
                            re.IGNORECASE)
_VS = re.compile(r"\s(?:vs\.?|versus)\s", re.IGNORECASE)
_TITLE_WORD = re.compile(r"[^\W\d_][\w'’\-]{3,}")  # a word of four letters or more
_TITLE_CASE = 0.75  # the share of a title's longer words that open with a capital, at least


def _titled(side: str) -> bool:
    """Written as a title is: two or more longer words, nearly all capitalised."""
    words = _TITLE_WORD.findall(side)
    return len(words) >= 2 and sum(w[0].isupper() for w in words) >= _TITLE_CASE * len(words)


def _titles_versus(q: str) -> tuple[str, str] | None:
    m = _TITLES_VERSUS.match(q)
    if m is None or _LOOKUP.match(q) or len(_VS.findall(q)) != 1 or \
            not all(_titled(m.group(s)) for s in ("a", "b")):
        return None
    return m.group("a"), m.group("b")


_COMPARE_JOIN = re.compile(r"\s+(?:and|with|to|against|versus|vs\.?)\s+", re.IGNORECASE)


def _reopened(q: str, a: str, b: str) -> tuple[str, str]:
    """"Contrast <A> with <B>": of the joins in ``a`` and ``b``, the first that a description
    opens after ("contrast the method for classifiers with few attributes *against the* deep
    approach"); the first join when none is."""
    start = q.find(a)
    if _opening(b) or start < 0:
        return a, b
    for m in _COMPARE_JOIN.finditer(q, start + 1):
        if _opening(q[m.end():]):
            return q[start:m.start()], q[m.end():]
    return a, b


# a question that asks for one paper, whatever contrast it mentions
_LOOKUP = re.compile(r"^(?:which (?:paper|work|study|article|method|approach|analysis)|"
                     r"is there(?! (?:a|any) (?:common |shared )?(?:thread|connection|link|"
                     r"relation\w*|overlap|difference)s? between)|"
                     r"are there|any\b|has anyone|have people|looking for|how (?:can|should|"
                     r"would|could|might|to)\b|how do (?:i|we|one|you)\b|if i\b|what (?:neural |"
                     r"new )?(?:paper|work|approach|method|technique)|can (?:a|an|one|we|i)\b|"
                     r"i need|i'm looking for|i want|i'd like|i would like|we want|find|show me|"
                     r"is it|does (?:a|an|the)\b|do (?:i|we)\b)",
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
_VERSUS = re.compile(r"(?:^|[:;,?.]\s+|\(\s*|\bbetween\s+)(?P<a>[^:;,?.()]{8,}?)\s*,?\s+"
                     r"(?:versus|vs\.?)\s+(?P<b>[^:;?.()]{8,}?)(?=[,;:?.)]|\s+(?:and|or) "
                     r"(?:how|what|which|why|does|do|is)\b|$)", re.IGNORECASE)


# "<A> in one and <B> in the other"
_IN_ONE = re.compile(r"(?P<ctx>^.*?[:;,.]\s+)(?P<a>[^:;,.?]{8,}?)\s+in (?:one|the first)"
                     r"(?: of them)?,?\s+(?:and|while|whereas|but)\s+(?P<b>[^:;,.?]{8,}?)\s+"
                     r"in the (?:other|second)\b", re.IGNORECASE)


def _one_other(q: str) -> tuple[tuple[str, str], str] | None:
    """Two papers described in turn ("One work argues ...; another builds ..."), with the
    clause before them; never a question that asks for one paper."""
    if _LOOKUP.match(q):
        return None
    m = _ONE_OTHER.search(q) or _IN_ONE.search(q)
    return ((m.group("a"), m.group("b")), m.group("ctx")) if m else None


def _versus(q: str) -> tuple[tuple[str, str], str] | None:
    """"<A> versus <B>" in a question about two papers ("each", "both", "these two"), each
    side of at least ``_VERSUS_WORDS`` words."""
    if _LOOKUP.match(q) or not _TWO.search(q):
        return None
    m = _VERSUS.search(q)
    if m and all(len(_clean(m.group(s)).split()) >= _VERSUS_WORDS for s in ("a", "b")):
        return (m.group("a"), m.group("b")), q[:m.start("a")]
    return None


# Two papers described side by side, after what the question asks of them: "What does each
# target: <A>, or <B>?", "<topic> is the aim of both <A> and <B>", "a common thread between
# <A> and <B>", "... differently in the work that <A>, and in the work <B>". The two
# descriptions are joined by "and", "or", "versus" (or "while", "whereas"): the join read is
# the one most like a seam between two descriptions (a comma before it, "the"/"a"/"in the"
# after it, the second description opening as the first does).
_TWO_PAPERS = re.compile(r"(?<![\w-])(?:each|both|these two|the two|these|two|which of "
                         r"(?:these|them|the two)|neither|either|differently|differ|compare|"
                         r"comparing|contrast|in common|share|common thread)(?![\w-])",
                         re.IGNORECASE)
_JOIN = re.compile(r"(?P<comma>[,;])?\s+(?P<conj>and|or|versus|vs\.?|while|whereas)\s+",
                   re.IGNORECASE)
_DET = re.compile(r"^(?:(?P<prep>in|for|of|on|to|from|with|by|under|at) )?(?P<det>the|a|an|one|"
                  r"another|its|which)\b", re.IGNORECASE)
# where the two descriptions begin, each with the least score (``_seam``) its join must have
_LIST_SPAN = [
    (re.compile(r":\s+"), 2),  # after a colon that ends what is asked ("... does each target: ")
    (re.compile(r"(?<![\w-])both\s+(?=(?:(?:in|for|of|on|to|from|with|by|under) )?(?:the|a|an)"
                r"\b)", re.IGNORECASE), 2),
    (re.compile(r"\b(?:differ|compare|contrast|common|share|relation|link)\w*\s+between\s+",
                re.IGNORECASE), 0),  # "differ between A and B": any "and" may be the join
    (re.compile(r"(?<![\w-])between\s+(?=(?:the|a|an)\b)", re.IGNORECASE), 2),
    (re.compile(r"\b(?:i'm|i am|we're|we are) comparing\s+|\b(?:i|we) (?:remember|recall)\s+"
                r"|\btrying to recall\s+", re.IGNORECASE), 2),
]
# where the second description ends: the question mark, a new sentence, or what is asked next
_LIST_END = re.compile(r"\?|[.!]\s+(?=(?-i:[A-Z]))|\s+\u2014\s|(?:,\s+(?:and|or|but)|:)\s+"
                       r"(?:how|what|which|why|where|does|do|is|are|can)\b|[.!]$", re.IGNORECASE)
_SEAM = 5  # a join read with no colon, "both" or "between" before it must look this much like one
_LIST_WORDS = 3  # content words each description holds at least (2 when both open alike)


def _opening(text: str, words: int = 1) -> str:
    """How a description opens ("in the", "the", "a", "which"), lower-cased; with ``words``
    2, a bare "the"/"a" with the word after it ("the analysis")."""
    m = _DET.match(text)
    if not m:
        return ""
    if words > 1 and not m.group("prep") and m.group("det").lower() in ("the", "a", "an"):
        m = re.match(rf"{re.escape(m.group(0))}\s+\S+", text)
    return m.group(0).lower() if m else ""


def _seam(span: str, least: int = 2) -> tuple[int, int, int] | None:
    """The join between two descriptions in ``span`` most like one (start and end of the join,
    its score), or None when none scores ``least``."""
    first = _opening(span)
    best = None
    for m in _JOIN.finditer(span):
        opening = _opening(span[m.end():])
        score = (2 if m.group("comma") else 0) + (2 if opening else 0) + \
            (3 if opening and opening == first else 0) + \
            (1 if m.group("conj").lower() in ("versus", "vs", "vs.", "whereas", "while") else 0)
        if best is None or score > best[2]:
            best = (m.start(), m.end(), score)
    return best if best and best[2] >= least else None


def _listed(q: str) -> tuple[tuple[str, str], str] | None:
    """Two papers described side by side in a question about two (``_TWO_PAPERS``): after a
    colon, "both", "between" or "I'm comparing", or wherever the second description opens as
    the first one does ("in the work that ..., and in the work ..."); with the clause before
    them. Never a question that asks for one paper."""
    if _LOOKUP.match(q) or not _TWO_PAPERS.search(q):
        return None
    found = []
    for span, least in _LIST_SPAN:
        for m in span.finditer(q):
            end = _LIST_END.search(q, m.end())
            text = q[m.end():end.start() if end else len(q)]
            if (seam := _seam(text, least)) is not None:
                found.append((m.end(), text, seam, _LIST_WORDS))
    if not found:  # none of those: only a join whose second description opens as an earlier one
        end = _LIST_END.search(q)
        text = q[:end.start() if end else len(q)]
        seam = _seam(text, 0)
        opening = _opening(text[seam[1]:], 2) if seam else ""
        start = f" {text.lower()}".rfind(f" {opening} ", 0, seam[0]) if seam and opening else -1
        if seam is None or start < 0 or seam[2] + 3 < _SEAM:
            return None
        found.append((start, text[start:], (seam[0] - start, seam[1] - start, seam[2] + 3),
                      _LIST_WORDS - 1))
    # the join most like one; of equals, the earliest start (a colon inside a title)
    at, text, (cut, resume, _), least_words = max(found, key=lambda f: (f[2][2], -f[0]))
    a, b = text[:cut], text[resume:]
    if not all(len(content_words(_clean(s))) >= least_words for s in (a, b)):
        return None
    return (a, b), q[:at]


# "How does performance differ between MaskAQ and VGS?": two things named, each in a few words
# (described ones are read by ``_listed``, whose seam finds the join among several "and"s)
_NAMED_BETWEEN = re.compile(rf"^(?:{_HOW} {_AUX} [^?]{{1,80}}?|what) (?P<verb>differ|differs|"
                            r"vary|varies) between (?P<a>[^?]+?) and (?P<b>[^?]+)", re.IGNORECASE)
# a side that ends in a preposition or a hyphen shares the other's words ("with and without
# prior surgery", "pre- and post-stroke states"): one thing, not two
_SHARES_WORDS = re.compile(r"(?:-|\b(?:with|without|of|for|in|on|to|from|by|at))\s*$",
                           re.IGNORECASE)


# "How does its accuracy differ between CIFAR-10 and ImageNet?" asks about one paper's results
_ITS = re.compile(r"(?<![\w-])(?:it|its|their|they|this|these|that)(?![\w-])", re.IGNORECASE)


def _named_between(q: str) -> tuple[tuple[str, str], str] | None:
    """Two methods named after "differ between", what differs as the point compared on
    ("performance"); never a question about one paper ("its accuracy")."""
    m = _NAMED_BETWEEN.match(q)
    if m is None:
        return None
    end = _LIST_END.search(m.group("b"))
    a, b = m.group("a"), m.group("b")[:end.start() if end else None]
    before = q[:m.start("verb")]
    if not all(0 < len(_clean(s).split()) <= _BARE_WORDS and _a_method(_clean(s))
               for s in (a, b)) or _SHARES_WORDS.search(a) or _ITS.search(before):
        return None
    # what differs is the point they are compared on ("sample efficiency"), read as "on ..."
    point = " ".join(_ASKED.sub(" ", _clean(before)).split())
    return (a, f"{b} on {point}" if point and " on " not in f" {b} " else b), ""


# Two methods set against each other by name, the way researchers ask it: "Is PPO better than
# SAC?", "Which works better for continuous control, PPO or SAC?", "PPO or SAC for locomotion?",
# "Should I use PPO or SAC?", "PPO compared to SAC?", "the pros and cons of PPO versus SAC",
# "How is PPO related to TRPO?", "What do PPO and SAC have in common?", "How are PPO and SAC
# similar?", "PPO and SAC: how do they differ?". Each side must be names alone (``_just_names``):
# "Is pretraining better than training from scratch?" asks for papers on that question
_THAN = (r"(?:better|worse|faster|slower|stronger|weaker|cheaper|simpler|(?:more|less) "
         r"(?:[\w-]+ ){0,2}?[\w-]+|"
         r"\w+er)")
_NAMED_FORMS = [
    re.compile(rf"^(?:is|are|was|were|does|do) (?P<a>[^?]+?) (?:any |much |really |actually )?"
               rf"{_THAN} than (?P<b>[^?]+)", re.IGNORECASE),
    re.compile(r"^(?:which|what)(?: one| method| approach| of the two| of them)? (?:is|works|"
               r"performs|does|scales|generali[sz]es|should i use|would you use|to use)"
               r"(?: \w+)?(?P<point> (?:for|on|at|in|with) [^,?]+?)?,? (?P<a>[^,?]+?),? or "
               r"(?P<b>[^,?]+)", re.IGNORECASE),
    re.compile(r"^(?:should|would|could|do|can) (?:i|we|one) (?:use|pick|choose|prefer|go with|"
               r"try) (?P<a>[^?]+?),? or (?P<b>[^?]+)", re.IGNORECASE),
    re.compile(r"^(?P<a>[^?,:]+?),? (?:or|compared (?:to|with)|as opposed to) (?P<b>[^?]+)",
               re.IGNORECASE),
    re.compile(r"^(?:what are )?(?:the )?(?:pros and cons|trade-?offs|strengths and weaknesses|"
               r"advantages and disadvantages) (?:of|between) (?P<a>[^?]+?) (?:versus|vs\.?|and|or|"
               r"compared (?:to|with)) (?P<b>[^?]+)", re.IGNORECASE),
    re.compile(r"^how (?:is|are|was|were) (?P<a>[^?]+?) (?:related|similar|connected|different|"
               r"linked) (?:to|from|with) (?P<b>[^?]+)", re.IGNORECASE),
    re.compile(r"^what do (?P<a>[^?]+?) and (?P<b>[^?]+?) have in common", re.IGNORECASE),
    re.compile(r"^how (?:are|were) (?P<a>[^?]+?) and (?P<b>[^?]+?) (?:similar|alike|related|"
               r"different|connected|linked)", re.IGNORECASE),
    re.compile(r"^(?P<a>[^?:,]+?) and (?P<b>[^?:,]+?)\s*[:,]\s*(?:how|what|which|where|why) "
               r"(?:do|does|are|is|did) (?:they|the two|these|both)\b", re.IGNORECASE),
]
_NAMES_AT_MOST = 4  # words of a side that is names alone ("Soft Actor-Critic")


def _just_names(side: str) -> bool:
    """A side that is a method's name and nothing else ("PPO", "Soft Actor-Critic", "Adam"):
    every word capitalised or a name, never a plural kind ("CNNs")."""
    words = side.split()
    return 0 < len(words) <= _NAMES_AT_MOST and _a_method(side) and \
        all(w[:1].isupper() or w[:1].isdigit() or is_name(w) for w in words)


def _named_pair(q: str) -> tuple[tuple[str, str], str] | None:
    """Two methods set against each other by name (``_NAMED_FORMS``), with the point the
    question weighs them on, if any, after the second ("... for locomotion")."""
    for form in _NAMED_FORMS:
        m = form.match(q)
        if m is None:
            continue
        a, b = m.group("a").strip(" ,"), m.group("b")
        end = _LIST_END.search(b)
        b = b[:end.start() if end else None].strip(" ,.")
        point = (m.groupdict().get("point") or "").strip()
        tail = _ASPECT_AFTER.match(b)
        if not (_just_names(a) and (_just_names(b) or (tail is not None and _just_names(
                tail.group("name"))))):
            return None
        return (a, f"{b} {point}" if point and tail is None else b), ""
    return None


# "Which of these two gives <A>, and which <B>?", "Which one learns <A>, which one freezes <B>?",
# opening a sentence (after a colon it asks which of the papers named before has a property)
_WHICH_WHICH = re.compile(r"(?:^|[.!]\s+)which(?: one| of (?:these|them|the two)(?: two)?)?\s+"
                          r"(?P<a>[^?]+?),?\s+(?:and |while |whereas )?which(?: one)?\s+"
                          r"(?P<b>[^?]+)", re.IGNORECASE)


def _which_which(q: str) -> tuple[tuple[str, str], str] | None:
    """Two papers told apart by what each does ("which ..., and which ..."), each side of at
    least ``_LIST_WORDS`` content words; never a question that asks for one paper."""
    m = _WHICH_WHICH.search(q)
    if m is None or _LOOKUP.match(q[m.start():].lstrip(".! ")):
        return None
    a, b = m.group("a"), m.group("b")
    end = _LIST_END.search(b)
    b = b[:end.start()] if end else b
    if not all(len(content_words(_clean(s))) >= _LIST_WORDS for s in (a, b)):
        return None
    return (a, b), q[:m.start()]


# "central and effector memory T cells", "L1 and L2 regularization", "model-based and
# model-free RL": the first side names only what sets it apart, and the words after the
# second's are its own too (searched alone, "central" found a glaucoma paper's "central
# visual field"). Read so only when the first side is a modifier: a lower-case adjective
# ("central", "linear", "supervised", "model-based") or a label that differs from the
# second's only by a number ("L1"/"L2", "CD4"/"CD8", "type 1"/"type 2"); never a name
# ("Adam and stochastic gradient descent") or a noun ("dropout and batch normalization").
_ADJECTIVE = re.compile(r"^[a-z][a-z-]*(?:al|ive|ed|ic|ous|ar|ary|ent|ant|ible|able|less|ful|"
                        r"ian|-based|-free|-wise|-level|-order|-policy|-shot|-scale)$")
_NUMBERED = re.compile(r"^(?P<stem>\D*?)\d+[a-z]?$", re.IGNORECASE)
_HEAD_OPENS = re.compile(r"^(?:of|for|on|in|with|to|from|by|at|that|which|who|whose|when|"
                         r"where|versus|vs\.?|and|or|the|a|an)$", re.IGNORECASE)


def _shared_head(a: str, b: str) -> str:
    """Side ``a`` with side ``b``'s head words after it when they are both sides' (above)."""
    wa, wb = a.split(), b.split()
    if not 1 <= len(wa) <= 2 or len(wb) <= len(wa) or _HEAD_OPENS.match(wb[len(wa)]):
        return a
    last, twin = wa[-1], wb[len(wa) - 1]
    numbered = (m := _NUMBERED.match(last)) is not None and (
        (n := _NUMBERED.match(twin)) is not None and n.group("stem").lower()
        == m.group("stem").lower() and [w.lower() for w in wa[:-1]]
        == [w.lower() for w in wb[:len(wa) - 1]])
    modifier = bool(_ADJECTIVE.match(last)) and (twin.islower()
                                                 or bool(_ADJECTIVE.match(twin.lower())))
    if not (numbered or modifier):
        return a
    return " ".join(wa + wb[len(wa):])


# two titles in quotes compared ("“A” vs “B”", "compare “A” and “B”", "how does “A” differ
# from “B”?", typed quotes too): a paper named by its number is quoted by its title
# (query/numbered.py), and a title's own colon or length is no seam the readers below can tell
_QUOTED_PAIR = re.compile(r'^(?P<pre>[^“”"]*)[“"](?P<a>[^“”"]{3,})[”"]\s*(?P<mid>[^“”"]{1,12}?)'
                          r'\s*[“"](?P<b>[^“”"]{3,})[”"](?P<post>[^“”"]*)$')
_QUOTED_JOIN = re.compile(r"^(?:vs\.?|versus|and|or|with|to|from|,)$", re.IGNORECASE)
_COMPARED = re.compile(r"\b(?:vs\.?|versus|compar\w*|differ\w*|contrast\w*|between|better|"
                       r"worse)\b", re.IGNORECASE)


def _quoted_pair(q: str) -> list[str] | None:
    m = _QUOTED_PAIR.match(q)
    if not m or not _QUOTED_JOIN.match(m.group("mid").strip()):
        return None
    said = f"{m.group('pre')} {m.group('mid')} {m.group('post')}"
    return [m.group("a").strip(), m.group("b").strip()] if _COMPARED.search(said) else None


# three to six things compared by name ("Compare PPO, SAC and TD3", "PPO vs SAC vs TD3",
# "How do PPO, SAC, and TD3 differ?", "the difference between PPO, SAC and TD3"): each is
# searched on its own, as a pair's sides are. A list of descriptions ("a method for ...", "one
# that ...") or of clauses that ask ("which ...") is no list of names: not read so
_SEVERAL_FORMS = [
    re.compile(r"^(?:compare|contrast)\s+(?P<list>.+)$", re.IGNORECASE),
    re.compile(rf"^{_HOW} {_AUX} (?P<list>.+?) (?:differ|compare|relate|contrast)\b.*$",
               re.IGNORECASE),
    re.compile(r"^(?:what(?:'s| is| are)? )?(?:the )?(?:main |key |core |real )?differences? "
               r"(?:between|among) (?P<list>.+)$", re.IGNORECASE),
]
_LIST_SEP = re.compile(r"\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+", re.IGNORECASE)
MAX_SIDES = 6  # things one comparison compares at most (a paper each, DECIDE_OVER's six)
_DESCRIBES = re.compile(r"^(?:a|an|one|some|any)\b", re.IGNORECASE)
_ASKED_AFTER = re.compile(r"\s*[:;,?]\s*(?:which|what|how)\b.*$", re.IGNORECASE)


_QUOTED = re.compile(r"[“\"][^“”\"]{2,300}[”\"]")


def _a_name(item: str) -> bool:
    """Names a thing a comparison can search on its own: a few words or a title, never a
    description ("a method for ..."), a pointer back ("their ...") or words that ask."""
    if _titled(item) or _QUOTED.fullmatch(item.strip()):  # a title, or anything in quotes
        return True
    return bool(content_words(item)) and len(item.split()) <= _BARE_WORDS and \
        not _DESCRIBES.match(item) and not _POINTS_BACK.match(item) and \
        not _ASKED.search(item)


def _several(q: str) -> list[str] | None:
    """The three or more things a question compares by name, as written; None for any other
    (two things are ``_pair``'s)."""
    found = None
    bare = _ASKED_AFTER.sub("", q)  # "PPO vs SAC vs TD3: which is best?"
    if len(_VS.findall(f" {bare} ")) >= 2 and not _ASKS.match(bare):  # "PPO vs SAC vs TD3"
        found = _VS.split(f" {bare} ")
    else:
        m = next((m for form in _SEVERAL_FORMS if (m := form.match(q)) is not None), None)
        if m is not None and "," in m.group("list"):
            found = _LIST_SEP.split(m.group("list"))
    items = [item.strip(" ,.;:?") for item in found or []]
    return items if len(items) >= 3 and all(map(_a_name, items)) else None


# the point every side is compared on, said once: after the last side ("Compare PPO, SAC and TD3
# on sample efficiency") or before the first ("the robustness of CNNs and ViTs to shifts"); it
# was searched with that side only. Read so only when the other sides are bare names, so
# "training on CIFAR and training on ImageNet" keeps each side's own words
_AFTER = (r"(?:on|in terms of|with respect to|w\.r\.t\.?|regarding|for|in|under|against|"
          r"across)")
_ASPECT_AFTER = re.compile(rf"^(?P<name>.+?)\s+(?P<via>{_AFTER})\s+(?P<aspect>.+)$",
                           re.IGNORECASE)
# "to" goes on a point begun before the first side ("the robustness of CNNs and ViTs to
# shifts"); elsewhere it is a side's own ("learning to rank", "Learning to Teach")
_ASPECT_AFTER_TO = re.compile(rf"^(?P<name>.+?)\s+(?P<via>{_AFTER}|to)\s+(?P<aspect>.+)$",
                              re.IGNORECASE)
_ASPECT_BEFORE = re.compile(r"^(?:the\s+)?(?P<aspect>.+?)\s+of\s+(?P<name>.+)$", re.IGNORECASE)
_NAME_WORDS = 3
_RELATES = re.compile(r"(?<![\w\x02-])(?:on|in|of|for|to|with|from|by|under|against|across|"
                      r"regarding|that|which)(?![\w\x02-])", re.IGNORECASE)  # \x02: _HELD


def _bare(side: str, words: int = _NAME_WORDS) -> bool:
    return len(side.split()) <= words and not _RELATES.search(side)


_POINT_WORDS = 4  # a point compared on is short ("sample efficiency"), no clause of a title


def _point(m: re.Match[str] | None) -> re.Match[str] | None:
    """``m`` when it splits a side into a bare name and a short point (never "the paper on
    protein folding": a side described, no name), else None."""
    if m is None or not (_bare(m.group("name")) and _clean(m.group("name"))
                         and _bare(m.group("aspect"), _POINT_WORDS)):
        return None
    return m


def _shared_aspect(named: list[str]) -> tuple[list[str], str, str]:
    """(the sides without the point they are compared on, that point as searched, as said:
    "robustness distribution shift", "robustness to distribution shift"), or (``named``, "",
    ""). Never inside a title ("Learning to Teach")."""
    head = _point(None if _titled(named[0]) else _ASPECT_BEFORE.match(named[0]))
    tail = _point(None if _titled(named[-1]) else (_ASPECT_AFTER_TO if head
                                                    else _ASPECT_AFTER).match(named[-1]))
    if not ((head or _bare(named[0])) and (tail or _bare(named[-1]))
            and all(map(_bare, named[1:-1])) and (head or tail)):
        return named, "", ""
    out, aspect = list(named), []
    if head:
        out[0] = head.group("name")
        aspect.append(head.group("aspect"))
    if tail:
        out[-1] = tail.group("name")
        aspect.append(tail.group("aspect"))
    said = " ".join(filter(None, [head and head.group("aspect"),
                                  tail and (f"{tail.group('via')} " if head else "")
                                  + tail.group("aspect")]))
    return out, _clean(" ".join(aspect)), _clean(said)


# a name's plural: "CNNs", "GANs", "MLP-Mixers", "ResNets"; never a name that ends in "s" of
# its own ("CPMöbius")
_PLURAL = re.compile(r"(?:[A-Z0-9]|er|or|et|el|le|ne)s$")


def _a_method(side: str) -> bool:
    """Names one method ("PPO", "FixMatch", "Mean Teacher", "Paleo"), not a kind of model
    ("CNNs", "MLP-Mixers") or a topic ("dropout")."""
    words = side.split()
    if any(_PLURAL.search(w) and is_name(w[:-1]) for w in words):
        return False
    return bool(names_written(side)) or all(w[:1].isupper() for w in words)


def _with(side: str, aspect: str, context: str) -> str:
    """A side as searched: with the point compared on unless it names a method (over ml-large,
    "Compare A, B and C on sample efficiency" found each named paper in order 85 times in 90
    searched by the names alone, 80 with the point beside each: the point pulled in papers on
    sample efficiency), then with the shared clause."""
    return " ".join(f"{side} {'' if _a_method(side) else aspect} {context}".split())


# a side that names a paper of an earlier answer by its place or by pointing at it ("the second
# one", "[2]", "#3", "the method above", "the former", "that"; "第二篇", "前者", "上面的方法",
# "它"): the comparison leans on that answer
_NAMES_EARLIER = re.compile(
    r"^(?:the\s+)?(?:first|second|third|fourth|fifth|sixth|last|former|latter|previous|"
    r"earlier|other)\b|\[\d+\]|#\d+|\b(?:above|previous|earlier|aforementioned)\b|"
    r"^(?:that|this|it|they|them|these|those|its|their)$|"
    r"第\s*[一二三四五六七八九十\d]+|前者|后者|上面|前面|上述|之前|刚才|^(?:这|那|它|其|该|此)",
    re.IGNORECASE)


def of_its_own(reading: tuple[list[str], str] | None) -> bool:
    """Does a comparison (``read_comparison``'s reading) compare things of its own, none a
    paper of an earlier answer ("Compare Hyperband and successive halving", not "How does that
    compare to GPTQ?" or "Compare the first one and the second one")? Asked in a chat after
    another answer, it is a question of its own, not a follow-up."""
    return reading is not None and not any(_NAMES_EARLIER.search(side) for side in reading[0])


def sides(question: str) -> list[str] | None:
    """The things a comparison question compares (two, or three to ``MAX_SIDES`` named in a
    list), or None for any other question. A shared opening clause is added to each side; the
    point they are compared on ("... on sample efficiency") to each side but a method's name."""
    found = read_comparison(question)
    return found[0] if found is not None else None


# a name with a join word inside it: "learning to rank", "Learning with Noisy Labels" where the
# name opens a side, "sequence to sequence", "sim to real". "Compare learning to rank and
# Hyperband" was read as "learning" against "rank and Hyperband". Its spaces are held (``_HELD``)
# while the question is read, so no join is read there
_OPENS_SIDE = (r"(?:^|[,:;(]\s*|\b(?:compare|contrast|between|and|or|vs\.?|versus|with|to|"
               r"against|from|does|do|did|is|are|the)\s+)")
_JOIN_NAMES = re.compile(
    rf"(?P<open>{_OPENS_SIDE})(?P<name>learn(?:ing)?\s+(?:to|with)\s+(?!\w+ing\b)[a-z][\w-]*)|"
    r"(?P<same>(?<![\w-])(?P<x>[a-z]+)\s+to\s+(?P=x)(?![\w-]))|"
    r"(?P<modal>(?<![\w-])(?:sim|real|text|image|speech|video|audio|coarse|peer|point)\s+to\s+"
    r"(?:sim|real|text|image|speech|video|audio|fine|peer|point)(?![\w-]))", re.IGNORECASE)
_HELD = "\x02"


def _hold(m: re.Match[str]) -> str:
    name = m.group("name") or m.group("same") or m.group("modal")
    return (m.group("open") or "") + name.replace(" ", _HELD)


def read_comparison(question: str) -> tuple[list[str], str] | None:
    """(``sides``, the point they are compared on as said: "sample efficiency" of "Compare PPO,
    SAC and TD3 on sample efficiency", "" when none is), or None for any other question."""
    q = _JOIN_NAMES.sub(_hold, " ".join(question.split()).rstrip(" ?"))
    found = _read(q)
    if found is None:
        return None
    return [side.replace(_HELD, " ") for side in found[0]], found[1].replace(_HELD, " ")


def _read(q: str) -> tuple[list[str], str] | None:
    if (quoted := _quoted_pair(q)) is not None:
        return quoted, ""
    several, context = _several(q), ""
    if several is None and (m := _CONTEXT.match(q)) is not None:
        several = _several(m.group("rest"))
        context = _clean(_BOTH.sub("", m.group("ctx")))
    if several is not None:  # three or more things, each a side (more than a comparison
        # lines up: no comparison, never two sides of which one is a list)
        several, aspect, said = _shared_aspect(several)
        named = [_clean(item) for item in several]
        return None if len(named) > MAX_SIDES or not all(named) or \
            len({n.lower() for n in named}) < len(named) \
            else ([_with(n, aspect, context) for n in named], said)
    context = ""
    found = _pair(q)
    if found is None:
        m = _CONTEXT.match(q)
        if m:
            found = _pair(m.group("rest"))
            context = _clean(_BOTH.sub("", m.group("ctx")))
    if found is None and (told := _one_other(q) or _listed(q) or _versus(q)
                                  or _which_which(q) or _named_between(q)
                                  or _named_pair(q)) is not None:
        found, before = told
        context = (" ".join(_ASKED.sub(" ", _clean(before)).split())
                   if len(before.split()) <= _CONTEXT_WORDS else "")
    if found is None:
        return None
    a_end, b_end = _LIST_END.search(found[0]), _LIST_END.search(found[1])
    raw_a, raw_b = (s[:m.start() if m else len(s)].strip(" ,.;:?")
                    for s, m in zip(found, (a_end, b_end), strict=True))
    if _POINTS_BACK.match(raw_a) or _POINTS_BACK.match(raw_b):
        return None
    if (three := _listed_after(raw_a, raw_b)) is not None:  # "Compare PPO to SAC and TD3"
        named, aspect, said = three
        return [_with(_clean(side), aspect, context) for side in named], said
    (raw_a, raw_b), aspect, said = _shared_aspect([raw_a, raw_b])
    a, b = _clean(raw_a), _clean(raw_b)
    if not a or not b or a.lower() == b.lower():
        return None
    a = _shared_head(a, b)
    return [_with(side, aspect, context) for side in (a, b)], said


def _listed_after(a: str, b: str) -> tuple[list[str], str, str] | None:
    """"Compare PPO to SAC and TD3": a pair whose second side is two names joined by "and"
    ("SAC and TD3") compares three things, each searched on its own: (the three sides, the
    point as searched, as said: ``_shared_aspect``'s), or None when ``b`` is one thing."""
    items = _LIST_SEP.split(b)
    if len(items) != 2 or "," in b:
        return None
    named, aspect, said = _shared_aspect([a, *items])
    cleaned = [_clean(side) for side in named]
    if not all(cleaned) or len({c.lower() for c in cleaned}) < 3 or \
            not all(_bare(side) and _a_name(side) for side in named):
        return None
    return named, aspect, said


# A comparison asked in Chinese: "比较 A 与 B", "A 和 B 有什么区别？", "A 与 B 相比如何？", "A 和 B
# 哪个更好？". Its sides are searched in their English translation, each on its own, as an
# English comparison's are (answer/pipeline.py). The first "和/与/跟/同" is the join: a side of
# its own "和" is read short, as one English "and" would be. A side that points back ("它", "这个
# 方法") compares the previous answer's paper: a follow-up, not two papers.
_ZH_JOIN = r"\s*(?:和|与|跟|同|以及|及|对比|vs\.?|VS\.?)\s*"
_ZH_DIFF = r"(?:区别|不同|差别|差异|异同|优劣|优缺点|联系|关系)"
_ZH_PATTERNS = [
    re.compile(rf"^(?:请)?(?:比较|对比)(?:一下)?\s*(?P<a>.+?){_ZH_JOIN}(?P<b>.+?)"
               rf"(?:(?:之间)?的{_ZH_DIFF}(?:是什么|在哪里|在哪儿|有哪些)?)?$"),
    re.compile(rf"^(?P<a>.+?){_ZH_JOIN}(?P<b>.+?)\s*(?:之间)?(?:有什么|有何|有哪些|的)\s*"
               rf"{_ZH_DIFF}(?:是什么|在哪里|在哪儿|有哪些)?$"),
    re.compile(rf"^(?P<a>.+?){_ZH_JOIN}(?P<b>.+?)\s*相比(?:之下)?[，,]?\s*(?:如何|怎么样|怎样|"
               rf"有何不同|有什么不同|有什么区别|有何区别|有何优劣|哪个更\S+|谁更\S+)?$"),
    re.compile(r"^(?P<a>.+?)" + _ZH_JOIN + r"(?P<b>.+?)\s*(?:哪个|哪一个|哪种|谁)(?:更|比较)\S+$"),
]
_ZH_LIST = re.compile(r"\s*、\s*")  # "A、B 和 C": the things listed before the join
_ZH_POINTS_BACK = re.compile(r"^(?:它|它们|这个|这种|这篇|该|此|上面|前面|上述|他们)")
# asks for papers that compare ("哪些论文比较了 A 和 B 的区别？", "有没有工作研究 A 和 B 有
# 什么区别"): a list or a lookup, not two papers compared
_ZH_ASKS_FOR = re.compile(r"^(?:哪些|哪篇|哪几篇|哪项|哪个工作|有没有|有哪些|是否有|"
                          r"有什么(?:论文|工作|研究)|有(?:论文|工作|研究)|什么(?:论文|工作|研究))")
_ZH_POLITE = re.compile(r"^(?:请问|请|我想知道|想问一下|想问|能否说明|能不能说说)[，,\s]*")
_ZH_END = re.compile(r"[\s？?。.！!]+$")
# a side that holds a sentence's end: the comparison is a clause of a longer question about one
# paper ("... 需要多少神经元？两层和三层网络的界有何区别？")
_ZH_SENTENCE = re.compile(r"[？?。！!；;]")
_ZH_FILLER = re.compile(r"^(?:那篇|这篇|关于)|"
                        r"(?:的论文|这篇论文|论文|的工作|那篇|的研究|相比(?:之下)?)$")


def _unfilled(side: str) -> str:
    """A Chinese side without the words around what it names ("关于 X 的论文相比" -> "X")."""
    while (left := _ZH_FILLER.sub("", side.strip(" ，,：:")).strip()) != side:
        side = left
    return side


def sides_zh(question: str) -> list[str] | None:
    """The two (to ``MAX_SIDES``) things a comparison asked in Chinese compares, as written
    ("PPO、SAC 和 TD3 有什么区别？" compares three; each side at least
    two characters once its "的论文", "关于" are dropped, and no sentence of its own), or None
    for any other question."""
    q = _ZH_POLITE.sub("", _ZH_END.sub("", question.strip()))
    if _ZH_ASKS_FOR.match(q):
        return None
    for pattern in _ZH_PATTERNS:
        m = pattern.match(q)
        if m is None:
            continue
        # "PPO、SAC 和 TD3": the things listed before the join are sides too
        pair = [_unfilled(s) for s in [*_ZH_LIST.split(m.group("a")), m.group("b")]]
        if any(_ZH_POINTS_BACK.match(s) or _ZH_SENTENCE.search(s) or len(s) < 2
               for s in pair) or len({s.lower() for s in pair}) < len(pair) or \
                len(pair) > MAX_SIDES:
            return None
        return pair
    return None
