"""Deterministic display titles for abstracts that come without one.

Preference order: the method's name where the abstract introduces one ("we propose X, a ...",
"named X") with a few words of what it is; the object of "we study ..." or of a stated aim
("This study examined whether X", "To assess X"); the object of "we present/develop ...";
the claim of "we show that ..."; the trimmed first clause. A structured abstract's section
label ("BACKGROUND", "[Purpose]") is never part of a title.
"""

from __future__ import annotations

import re

from assistant.textutil import clean_markup, split_sentences

_VERBS = r"(?:propose|introduce|present|develop|design|build|devise|offer|put forward)"
_INTRO = re.compile(rf"\b[Ww]e\s+(?:also\s+|further\s+)?{_VERBS}\s+(?P<rest>.+)")
_BOLD = re.compile(rf"\b[Ww]e\s+(?:also\s+)?{_VERBS}\s+\*\*(?P<name>[^*]{{2,40}})\*\*")
_NAMED = re.compile(r",?\s*\b(?:named|called|dubbed|termed|coined)\s+(?P<name>[^\s,.;:()]+)")
_STUDY = re.compile(
    r"^(?:In this (?:paper|work),?\s+)?[Ww]e\s+(?:study|consider|investigate|examine|analyze|"
    r"analyse|revisit|explore|address|tackle)\s+(?P<rest>.+)"
)
# a structured abstract's section label ("BACKGROUND", "[Purpose]", "OBJECTIVE:"): no title
_LABEL = re.compile(r"^\W*(?:background|context|purpose|aims?|objectives?|introduction|"
                    r"importance|rationale|summary|abstract|motivation|problem)\b\W*",
                    re.IGNORECASE)
# the object of a study that states its aim: "This study examined whether X", "To assess X",
# "The aim of this study was to determine X" (abstracts in medicine and biology, mostly)
_AIM_VERBS = (r"(?:examine|investigate|evaluate|assess|determine|compare|explore|test|"
              r"characteri[sz]e|identify|describe|quantify|estimate|measure|elucidate|clarify|"
              r"establish|understand)")
_AIM = re.compile(
    rf"^(?:(?:the\s+)?(?:present|current|this|our)\s+(?:study|trial|review|analysis|work|"
    rf"research|paper)\s+(?:was\s+designed\s+to\s+|aim(?:s|ed)\s+to\s+|sought\s+to\s+|"
    rf"(?:was|is)\s+to\s+)?{_AIM_VERBS}[sd]?(?:es|ed)?|"
    rf"(?:to|we\s+(?:aimed|sought|wanted)\s+to|the\s+(?:aim|objective|purpose|goal)\s+of\s+"
    rf"(?:this|the\s+present|our)\s+(?:study|work|trial)\s+(?:was|is)\s+to|the\s+(?:aim|"
    rf"objective|purpose|goal)\s+(?:was|is)\s+to)\s+{_AIM_VERBS})\s+(?P<rest>.+)",
    re.IGNORECASE)
# how a study's data were gathered ("We retrospectively identified 84 consecutive patients"):
# a method, not what the study is about
_COHORT = re.compile(r"^(?:we|the authors)\s+(?:\w+ly\s+)?(?:identified|reviewed|enrolled|"
                     r"recruited|included|analy[sz]ed|collected|followed|surveyed|randomi[sz]ed|"
                     r"conducted|performed|used)\b", re.IGNORECASE)
_SHOW = re.compile(r"\b[Ww]e\s+(?:show|demonstrate|find|prove)\s+that\s+(?P<rest>.+)")
_CAPWORD = r"[A-Z][\w\-–]*"
_SMALL = r"(?:of|for|and|in|with|to|on|the|via|as)"
_EXPANSION = (rf"(?P<long>{_CAPWORD}(?:\s+(?:{_CAPWORD}|{_SMALL}))*?)"
              rf"\s*\((?P<abbr>[^()\s]{{2,15}})\)")
_ABBR_FIRST = re.compile(rf"^{_EXPANSION}")
_ABBR_INNER = re.compile(_EXPANSION)
_NAME_PAREN = re.compile(r"^(?P<name>\S+)\s+\((?P<long>[^()]{3,60})\)")
_ADJ = re.compile(r"\b(?:novel|new|simple|first|general|unified)\b,?\s*", re.IGNORECASE)
_CLAUSE_END = re.compile(r"(?:;|:|\s—\s|\.\s|,\s+(?=(?:which|that|where|while|and we|we|by|"
                         r"thereby|enabling|allowing)\b))")
_TRAILING = {"a", "an", "the", "of", "for", "and", "to", "in", "with", "on", "by", "from",
             "via", "that", "its", "which", "is", "are", "their", "as", "when", "can", "during",
             "over", "into", "between", "while", "where"}


def is_name(token: str) -> bool:
    """CPMöbius, IPMark, UniR, Q2D2, PICACO, NonZero: capitals past the first letter, or digits."""
    core = token.strip("*()[]{}.,;:'\"")
    if len(core) < 2 or not core[0].isalpha():
        return False
    caps_inside = any(c.isupper() for c in core[1:])
    return caps_inside or (core[0].isupper() and any(c.isdigit() for c in core))


_BREAKS = {"between", "with", "for", "in", "on", "by", "from", "via", "using", "under", "over",
           "across", "through", "and", "that", "which", "while", "to", "when", "where"}


def _cap(text: str, max_words: int) -> str:
    """At most ``max_words`` words; a cut phrase ends before its last dangling preposition."""
    words = text.strip().rstrip(".;:,").split()
    if len(words) > max_words:
        words = words[:max_words]
        tail = [i for i in range(len(words) - 4, len(words))
                if i > 3 and words[i].lower() in _BREAKS]
        if tail:
            words = words[: tail[-1]]
        while words and words[-1].lower().strip(",") in _TRAILING:
            words.pop()
    return " ".join(words).rstrip(",;:")


def _describe(rest: str, *, max_words: int = 12, keep_article: bool = True) -> str:
    """What the method is: the noun phrase after the name, up to the clause's end."""
    rest = rest.strip().lstrip(",—–- ").strip()
    rest = re.sub(r"^(?:which|that)\s+", "", rest)
    rest = _ADJ.sub("", rest, count=2)
    m = _CLAUSE_END.search(rest)
    head = rest[: m.start()] if m else rest
    if not keep_article or re.match(r"the\s", head, flags=re.IGNORECASE):
        head = re.sub(r"^(?:a|an|the)\s+", "", head, flags=re.IGNORECASE)
    return _cap(head, max_words)


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _join(name: str, desc: str) -> str:
    return f"{name}: {desc}" if desc else name


def _named_title(raw_sentence: str) -> str | None:
    bold = _BOLD.search(raw_sentence)
    sentence = clean_markup(raw_sentence)
    if bold:
        name = bold.group("name").strip()
        tail = sentence[sentence.find(name) + len(name):]
        return _join(name, _describe(tail))
    intro = _INTRO.search(sentence)
    if intro:
        rest = intro.group("rest").strip()
        abbr = _ABBR_FIRST.match(rest)
        if abbr:  # "Dynamic Position Extrapolation (DyPE), a training-free method that ..."
            head = f"{abbr.group('abbr')} ({abbr.group('long').strip()})"
            return _join(head, _describe(rest[abbr.end():], max_words=9))
        first = rest.split()[0] if rest.split() else ""
        if is_name(first):  # "CPMöbius, a collaborative ..." / "DEAR (Dissect and Prune), which"
            name = first.strip(",.;:()—")
            after = rest[len(first):]
            paren = _NAME_PAREN.match(f"{name} {after.strip()}")
            if paren:
                name = f"{name} ({paren.group('long')})"
                after = after.strip()[len(paren.group("long")) + 2:]
            return _join(name, _describe(after))
        inner = _ABBR_INNER.search(rest)
        named = _NAMED.search(rest)
        if named and is_name(named.group("name")):  # "a novel X approach for Y, named MaskAQ"
            return _join(named.group("name"), _describe(rest[: named.start()], keep_article=False))
        if inner and inner.start() < 40:  # "a Structured Prompt Refining (SPR) network that ..."
            desc = rest.replace(f" ({inner.group('abbr')})", "", 1)
            return _join(inner.group("abbr"), _describe(desc, keep_article=False))
    named = _NAMED.search(sentence)
    if named and is_name(named.group("name")):
        return named.group("name")
    return None


def _plain(rest: str, max_words: int = 12) -> str:
    rest = re.sub(r"^(?:a|an)\s+(?:novel\s+|new\s+)?", "", rest.strip(), flags=re.IGNORECASE)
    m = re.search(r"\s(?:that|which|where|whereby)\s|[;:]|\s—", rest)
    return _upper_first(_cap(rest[: m.start()] if m else rest, max_words))


def derive_title(abstract: str) -> str:
    raw_sentences = [_LABEL.sub("", s, count=1) for s in split_sentences(abstract)]
    raw_sentences = [s for s in raw_sentences if s.strip()]
    if not raw_sentences:
        return "Untitled"
    for raw in raw_sentences:
        title = _named_title(raw)
        if title:
            return title
    sentences = [clean_markup(s) for s in raw_sentences]
    for sentence in sentences[:3]:
        m = _STUDY.search(sentence) or _AIM.search(sentence)
        if m:
            return _plain(re.split(r",\s+(?:where|which|and|in which)\b", m.group("rest"))[0])
    for sentence in sentences:
        m = _INTRO.search(sentence)
        if m and not re.match(r"(?:an?\s+)?(?:\w+\s+)?(?:algorithm|method|approach)\s+that",
                              m.group("rest")):
            return _plain(m.group("rest"))
    for sentence in sentences:
        m = _SHOW.search(sentence)
        if m:
            return _plain(m.group("rest"))
    first = next((t for t in sentences if not _COHORT.search(t)), sentences[0])
    clauses = re.split(r",\s+", first)
    head = clauses[0]
    if len(head.split()) < 5 and len(clauses) > 1:
        head = f"{head}, {clauses[1]}"
    return _upper_first(_cap(head, 12))


def title_name(title: str) -> str:
    """The name a title opens with, before a colon or a bracket ("IPMark: IP-inspired ..." ->
    "IPMark", "DyPE (Dynamic Position Extrapolation): ..." -> "DyPE"); the whole title when it
    has neither."""
    return re.split(r":| \(", title)[0].strip()


def names_in(question: str) -> set[str]:
    """Method-like names in a question: capitals past the first letter, or letters and digits."""
    return {name.lower() for name in names_written(question)}


def names_written(question: str) -> list[str]:
    """``names_in``'s names as the question writes them ("SAC"), in its order."""
    return [t.strip("()[]{}.,;:!?'\"“”？，。") for t in question.split() if is_name(t)]
