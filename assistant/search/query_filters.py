"""Filters read from the question itself: "ICML 2019 papers on ...", "from NeurIPS", "in 2021",
"What did Leslie Kaelbling publish on planning?".

Only unambiguous mentions count: a venue that the store holds (as a whole word), and a year
that the store holds *where it qualifies the papers*: after a held venue ("NeurIPS 2018"),
after "from", "in", "of", "during", "year" ("papers from 2017"), or before "paper(s)", "work",
"submissions" ("2018 papers"). A span of years is read as one ("since 2020", "after 2019",
"before 2015", "between 2017 and 2019", "2017-2019": ``year_span``). A year inside a name
("trained on CoNLL 2003", "the ImageNet 2012 results") is part of the question, not a filter.
An author counts when the question names one of the store's authors in full (two words or more,
capitalised as a name is: "Nicholas Roy", "Leslie Kaelbling" for Leslie Pack Kaelbling); a
surname alone, or a name two authors share, does not. Explicit flags always win.

``infer`` returns the filters to search with; ``read`` says which of them came from the
question (``pipeline.searched`` drops those again when nothing passing them answers, and the
answer says what it did: ``notice``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from assistant.paper import venue_names
from assistant.search.retrieval import Filters
from assistant.textutil import folded

_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_BEFORE = frozenset(["from", "in", "of", "during", "year", "years", "published", "at",
                     "circa", "around"])
# a span of years the papers are asked from: "since 2020", "after 2019", "from 2018 on",
# "2018 or later", "before 2015", "until 2016", "between 2017 and 2019", "from 2017 to 2019",
# "2017-2019". Its bounds need not be years the store holds (some year inside must be)
_Y = r"((?:19|20)\d{2})"
_SPANS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], tuple[int | None, int | None]]]] = [
    (re.compile(rf"\b(?:between|from)\s+{_Y}\s*(?:and|to|through|until|-|–|—)\s*{_Y}(?!\d)",
                re.IGNORECASE), lambda m: (int(m.group(1)), int(m.group(2)))),
    # a bare "2017-2019" where it qualifies the papers ("in 2017-2019", "2017-2019 papers"),
    # not "the 2017-2018 season"
    (re.compile(rf"\b(?:in|from|during|of|published|papers?|works?|articles?|publications?),?"
                rf"\s+{_Y}\s*(?:-|–|—)\s*{_Y}(?!\d)|"
                rf"(?<![\w-]){_Y}\s*(?:-|–|—)\s*{_Y}(?=\s+(?:papers?|works?|submissions?|"
                r"articles?|publications?)\b)", re.IGNORECASE),
     lambda m: (int(m.group(1) or m.group(3)), int(m.group(2) or m.group(4)))),
    (re.compile(rf"\b(?:since|from|starting(?:\s+in)?|as\s+of)\s+{_Y}\s*(?:on(?:wards?)?(?=\s*(?:[,.;:?!)]|$))|"
                r"onwards?\b|and\s+later\b|or\s+later\b|and\s+after\b)", re.IGNORECASE),
     lambda m: (int(m.group(1)), None)),
    (re.compile(rf"\bsince\s+{_Y}(?!\d)", re.IGNORECASE), lambda m: (int(m.group(1)), None)),
    (re.compile(rf"(?<![\w-]){_Y}\s+(?:or|and)\s+(?:later|after|newer)\b", re.IGNORECASE),
     lambda m: (int(m.group(1)), None)),
    (re.compile(rf"\b(?:(?:after|later\s+than)\s+|post[- ]?){_Y}(?!\d)", re.IGNORECASE),
     lambda m: (int(m.group(1)) + 1, None)),
    (re.compile(rf"\b(?:(?:before|prior\s+to|earlier\s+than)\s+|pre[- ]?){_Y}(?!\d)",
                re.IGNORECASE), lambda m: (None, int(m.group(1)) - 1)),
    (re.compile(rf"\b(?:until|till|through|up\s+to)\s+{_Y}(?!\d)|(?<![\w-]){_Y}\s+(?:or|"
                r"and)\s+(?:earlier|before|older)\b", re.IGNORECASE),
     lambda m: (None, int(m.group(1) or m.group(2)))),
    # in Chinese: "2017 年到 2019 年", "2017—2019 年", "2020 年以来", "2018 年以后", "2015 年以前"
    (re.compile(rf"(?<!\d){_Y}\s*年?\s*(?:到|至|—|–|-|~)\s*{_Y}\s*年"),
     lambda m: (int(m.group(1)), int(m.group(2)))),
    (re.compile(rf"(?<!\d){_Y}\s*年\s*(?:以来|起|开始|及以后|之后|以后)"),
     lambda m: (int(m.group(1)) + (1 if m.group(0).endswith(("之后", "以后"))
                                   and not m.group(0).endswith("及以后") else 0), None)),
    (re.compile(rf"(?<!\d){_Y}\s*年\s*(?:以前|之前|前|及以前)"),
     lambda m: (None, int(m.group(1)) - (0 if m.group(0).endswith("及以前") else 1))),
]


# ... where the question is about papers: a span said of anything else is the topic's ("How did
# lifespan change after 1989?", "How many were projected to have glaucoma by 2040?")
_OF_PAPERS = re.compile(r"\b(?:papers?|works?|research|stud(?:y|ies)|articles?|publications?|"
                        r"published|appeared|literature|submissions?|proceedings|new|"
                        r"progress|advances?|developments?)\b|论文|工作|研究|文章|文献|发表|进展",
                        re.IGNORECASE)


def year_span(question: str, years: Iterable[int] = ()) -> tuple[int | None, int | None, str]:
    """(since, until, the words that said it) of the span of years the question asks papers
    from ("Which papers since 2020 ..." -> (2020, None, "since 2020"); "work between 2017 and
    2019" -> (2017, 2019, ...)), or (None, None, "") when it names none, is not about papers,
    or names one holding none of ``years`` (the store's; none given: any span counts)."""
    held = set(years)
    if not _OF_PAPERS.search(question):
        return None, None, ""
    for pattern, bounds in _SPANS:
        m = pattern.search(question)
        if m is None:
            continue
        since, until = bounds(m)
        if since and until and since > until:
            continue
        if held and not any((since or 0) <= y <= (until or 9999) for y in held):
            continue
        return since, until, _LEAD.sub("", m.group(0))  # "papers 2017-2019": the years
    return None, None, ""


_LEAD = re.compile(r"^(?:papers?|works?|articles?|publications?),?\s+", re.IGNORECASE)
_AFTER = frozenset(["paper", "papers", "work", "works", "submission", "submissions", "article",
                    "articles", "publication", "publications", "proceedings", "edition"])
_WORD = re.compile(r"[\w'’-]+")


def _qualifying_years(question: str, venues: set[str]) -> set[int]:
    """Years that qualify the papers asked about, as the module docstring says."""
    out: set[int] = set()
    for m in _YEAR.finditer(question):
        before = _WORD.findall(question[: m.start()])
        after = _WORD.findall(question[m.end():])
        prev = before[-1].lower().rstrip("'’") if before else ""
        nxt = after[0].lower() if after else ""
        if prev in _BEFORE or prev in venues or nxt in _AFTER:
            out.add(int(m.group(1)))
    return out


# a run of capitalised words (with the particles names carry: "van der", "de"), as a name is
# written; "Roy's" counts as "Roy"
_PARTICLES = frozenset(["van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "dos",
                        "le", "la", "bin", "al", "y"])
_TOKEN = re.compile(r"[^\W\d_][\w'’.-]*")
NAME_WORDS = 5  # the longest name read


def named_author(question: str, names: Callable[[], Mapping[str, str]]) -> str | None:
    """The one author of the store the question names in full (the list's spelling), or by
    surname alone where it asks for someone's papers (``by_surname``), or None. ``names`` (the
    store's, ``ChunkIndex.author_names``) is read only when the question holds two
    capitalised words in a row, or such a form."""
    tokens = [(m.group(0).rstrip(".").removesuffix("'s").removesuffix("’s"), m.start())
              for m in _TOKEN.finditer(question)]
    capital = [t[:1].isupper() or t.lower() in _PARTICLES for t, _ in tokens]
    if not any(a and b and t1[:1].isupper() and t2[:1].isupper() for a, b, (t1, _), (t2, _)
               in zip(capital, capital[1:], tokens, tokens[1:], strict=False)):
        return by_surname(question, names)
    known = names()
    found: dict[str, str] = {}
    i = 0
    while i < len(tokens):
        hit = None
        for n in range(min(NAME_WORDS, len(tokens) - i), 1, -1):  # the longest name first
            span = tokens[i:i + n]
            if not all(capital[i:i + n]) or not (span[0][0][:1].isupper()
                                                 and span[-1][0][:1].isupper()):
                continue
            key = " ".join(t.lower() for t, _ in span)
            if key in known:
                hit = (n, known[key])
                break
        if hit:
            found[hit[1].lower()] = hit[1]
            i += hit[0]
        else:
            i += 1
    if len(found) == 1:
        return next(iter(found.values()))
    return by_surname(question, names) if not found else None


# a surname alone names an author where the question asks for someone's papers ("Papers by
# Bubeck", "What did Srebro publish?", "Srebro's papers on SGD"): it was searched as a topic
_SURNAME = r"[^\W\d_][\w'’-]+"  # capitalised (checked: "Şimşekli" too, "hand" not)
_BY_SURNAME = re.compile(
    rf"\b(?i:papers?|works?|articles?|publications?|anything|something|written|published|"
    rf"authored|co-?authored)\s+(?i:by)\s+(?P<a>{_SURNAME})(?![\w'’-]|\s+[A-Z])"
    rf"|\b(?i:did|has|have|does)\s+(?P<b>{_SURNAME})\s+(?i:write|written|publish|published|"
    rf"author|authored|work\s+on|worked\s+on)\b"
    rf"|(?<![\w'’-])(?P<c>{_SURNAME})['’]s\s+(?i:papers?|works?|publications?|research)\b")


def by_surname(question: str, names: Callable[[], Mapping[str, str]]) -> str | None:
    """The one author of the store whose surname the question names as whose papers it asks
    for, or None (no such form, or no author or several authors here with that surname)."""
    asked = surname_asked(question, names)
    if asked is None or len(asked[1]) != 1:
        return None
    _, (person,) = asked
    # one author, perhaps spelt two ways ("Sébastien Bubeck", "Sebastien Bubeck"): the filter
    # (a part of a name) is the surname then, which both spellings hold
    return person[0] if len(person) == 1 else person[0].split()[-1]


def surname_asked(question: str, names: Callable[[], Mapping[str, str]]
                  ) -> tuple[str, list[list[str]]] | None:
    """The surname whose papers the question asks for ("Papers by Smith") and the authors here
    who have it, one list of spellings a person (accents aside), or None (no such form)."""
    named = (next(g for g in m.groups() if g) for m in _BY_SURNAME.finditer(question))
    surname = next((g for g in named if g[0].isupper()), None)
    if surname is None:
        return None
    surname = surname.removesuffix("'s").removesuffix("’s")
    people: dict[str, list[str]] = {}
    for said in sorted(set(names().values())):
        if said.lower().split()[-1] == surname.lower():
            people.setdefault(folded(said), []).append(said)
    return surname, list(people.values())


# how a submission fared, said of the papers asked for: "rejected ICLR 2018 papers on GANs",
# "Which papers on GANs were rejected?", "accepted papers on X", "oral papers", "papers
# withdrawn from ICLR" (not "rejection sampling", "a widely accepted view")
_FARED = r"(rejected|accepted|withdrawn|oral|spotlight)"
_PAPER_NOUN = r"(?:papers?|submissions?|works?|articles?)"
_STATUS = [
    re.compile(rf"\b{_FARED}\s+(?:(?:[A-Za-z][\w-]*|\d{{4}})\s+){{0,3}}?{_PAPER_NOUN}\b",
               re.IGNORECASE),
    # (the papers' own verb, not a clause's: "a paper showing the null hypothesis is rejected")
    re.compile(rf"\b{_PAPER_NOUN}\b(?:(?!\b(?:that|whether|if|when|where|shows?|showing|"
               r"proves?|argues?|finds?|demonstrates?|claims?|studies|study|asks?)\b)[^?.!])"
               r"{0,80}?\b(?:were|was|got|been|are|is|get)\s+"
               r"(?:(?:eventually|later|finally|all)\s+)?(rejected|accepted|withdrawn)\b",
               re.IGNORECASE),
    re.compile(rf"\b{_PAPER_NOUN}\s+(?:that\s+were\s+|which\s+were\s+)?(rejected|accepted|"
               r"withdrawn)\s+(?:at|by|from|to|in)\b", re.IGNORECASE),
]


def status_asked(question: str, tags: Callable[[], Iterable[frozenset[str]]]) -> str | None:
    """How the papers asked for fared ("rejected", "accepted", "withdrawn", "oral",
    "spotlight") where the question says it of them and it tells this collection's papers
    apart (some have it, some not: every paper of a list without statuses is "accepted")."""
    said = next((m.group(1).lower() for p in _STATUS if (m := p.search(question))), None)
    if said is None:
        return None
    every = list(tags())
    held = sum(said in t for t in every)
    return said if 0 < held < len(every) else None


# venues a question may name, written as their communities write them (a lower-case "acl" is a
# knee ligament, "alt" a key): one the store does not hold is said, not searched for
KNOWN_VENUES = ("NeurIPS", "NIPS", "ICML", "ICLR", "AISTATS", "COLT", "UAI", "ACML", "CoRL",
                "AutoML", "COLM", "ALT", "AAAI", "IJCAI", "CVPR", "ICCV", "ECCV", "ACL", "EMNLP",
                "NAACL", "KDD", "SIGIR", "ICRA", "IROS", "RSS", "JMLR", "TMLR", "TPAMI")


def absent_venue(question: str, venues: Iterable[str]) -> str | None:
    """A venue the question names as where papers appeared ("papers from AISTATS on bandits")
    that the store does not hold (by any of its names), or None."""
    held = {v.lower() for v in venues if v}
    held |= {a for v in held for a in venue_names(v)}
    for name in KNOWN_VENUES:
        if name.lower() not in held and re.search(
                rf"(?<![\w-]){re.escape(name)}(?:\s+(?:19|20)\d\d)?\s+(?:papers?|work|"
                rf"submissions?|articles?)\b|\b(?:from|at|in|published\s+(?:at|in)|appeared\s+"
                rf"(?:at|in)|accepted\s+(?:at|to))\s+{re.escape(name)}(?![\w-])", question):
            return name
    return None


def _venue_said(venue: str, question: str) -> str | None:
    """How the question names a venue the store holds (its name, or another name of it), or
    None."""
    for name in (venue, *venue_names(venue)[1:]):
        m = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", question, re.IGNORECASE)
        if m:
            return m.group(0)
    return None


def infer(question: str, *, venues: Iterable[str], years: Iterable[int],
          explicit: Filters | None = None,
          authors: Callable[[], Mapping[str, str]] | None = None,
          statuses: Callable[[], Iterable[frozenset[str]]] | None = None) -> Filters:
    explicit = explicit or Filters()
    venues = [v for v in venues if v]
    # the store's name of each venue the question names (in any case, or by another name)
    found_venues = sorted({v if said.lower() != v.lower() else said
                           for v in venues if (said := _venue_said(v, question))})
    year_set = set(years)
    since, until, said = (None, None, "") if explicit.year or explicit.since or \
        explicit.until else year_span(question, year_set)
    rest = question.replace(said, " ") if said else question  # "since 2020" is no one year
    found_years = sorted(_qualifying_years(rest, {v.lower() for v in venues}) & year_set)
    venue = explicit.venue or (found_venues[0] if len(found_venues) == 1 else None)
    year = explicit.year or (found_years[0] if len(found_years) == 1 and not said else None)
    author = explicit.author or (named_author(question, authors) if authors else None)
    status = explicit.status or (status_asked(question, statuses) if statuses else None)
    return dataclasses.replace(explicit, venue=venue, year=year, author=author, status=status,
                               since=explicit.since or since, until=explicit.until or until)


def read(explicit: Filters | None, inferred: Filters | None) -> dict[str, Any]:
    """The filters ``infer`` added to the user's own: {"venue": ..., "year": ...}."""
    if inferred is None:
        return {}
    explicit = explicit or Filters()
    return {k: getattr(inferred, k) for k in ("venue", "year", "since", "until", "author",
                                               "status")
            if getattr(inferred, k) and not getattr(explicit, k)}


def stripped(query: str, applied: dict[str, Any]) -> str:
    """The query without the venue and year the filters now carry ("Which NeurIPS 2019 papers
    cover transformers?" -> "Which papers cover transformers?"): they are no topic words, and
    no abstract holds them. A query of nothing else ("NeurIPS 2019") stays as it is."""
    out = leftover(query, applied)
    return out if any(ch.isalnum() for ch in out) else query


def leftover(query: str, applied: dict[str, Any]) -> str:
    """What the query says besides the filters read from it ("Nicholas Roy" -> "")."""
    out = query
    # the word that led to a filter goes with it ("Show me papers from COLT 2023 on bandits"
    # was searched as "Show me papers from on bandits", no request any more)
    lead = r"(?:\b(?:from|at|in|of|published\s+(?:at|in))\s+)?"
    if applied.get("venue"):  # as said: its name or another ("NeurIPS" for "nips")
        venue = str(applied["venue"])
        names = "|".join(re.escape(n) for n in (venue, *venue_names(venue)))
        out = re.sub(rf"{lead}(?<![\w-])(?:{names})(?![\w-])", " ", out, flags=re.IGNORECASE)
    if applied.get("year"):
        out = re.sub(rf"{lead}(?<!\d){int(applied['year'])}(?!\d)", " ", out,
                     flags=re.IGNORECASE)
    if applied.get("since") or applied.get("until"):  # the words that said the span, or
        # their translation ("2018 年以后" searched as "2018 year after")
        said = year_span(out)[2]
        bounds = [int(applied[k]) for k in ("since", "until") if applied.get(k)]
        years = "|".join(str(y + d) for y in bounds for d in (-1, 0, 1))
        out = out.replace(said, " ") if said else re.sub(
            rf"(?<!\d)(?:{years})(?!\d)(?:\s+years?)?(?:\s+(?:after|before|since|later|"
            r"earlier|onwards?|ago))?", " ", out, flags=re.IGNORECASE)
    if applied.get("status"):  # "Which papers on GANs were rejected?" -> "Which papers on
        # GANs?", "rejected papers on GANs" -> "papers on GANs"
        word = re.escape(str(applied["status"]))
        out = re.sub(rf"\s*\b(?:(?:that|which)\s+)?(?:were|was|got|been|are|is|get)\s+(?:(?:"
                     rf"eventually|later|finally|all)\s+)?{word}\b(?:\s+(?:at|by|from|to|in)\b)?"
                     rf"|\b{word}\s+", " ", out, flags=re.IGNORECASE)
    if applied.get("author"):  # as said: in full, its first and last word, or its last
        words = str(applied["author"]).split()
        middle = rf"(?:\s+\S+){{0,{max(0, len(words) - 2)}}}"
        out = re.sub(rf"(?:\bby\s+)?(?<![\w-])(?:{re.escape(words[0])}{middle}\s+)?"
                     rf"{re.escape(words[-1])}"
                     r"(?:'s|’s)?(?![\w-])", " ", out, flags=re.IGNORECASE)
    return re.sub(r"\s+([?.!,])", r"\1", " ".join(out.split()))


def _span(fields: dict[str, Any], said: tuple[str, str, str]) -> list[str]:
    """A span of years as ``said`` says one: both ends, from a year on, up to a year."""
    since, until = fields.get("since"), fields.get("until")
    form = said[0] if since and until else said[1] if since else said[2] if until else ""
    return [form.format(since=since, until=until)] if form else []


def described(fields: dict[str, Any]) -> str:
    """"papers from 2018 at NeurIPS" for the answer's notice."""
    parts = [f"{fields['status']} papers" if fields.get("status") else "papers"]
    if fields.get("author"):
        parts.append(f"by {fields['author']}")
    if fields.get("year"):
        parts.append(f"from {fields['year']}")
    parts += _span(fields, ("from {since} to {until}", "from {since} on", "up to {until}"))
    if fields.get("venue"):  # as the store names it: in capitals when that is lower case
        venue = str(fields["venue"])
        parts.append(f"at {venue.upper() if venue.islower() else venue}")
    return " ".join(parts)


def described_zh(fields: dict[str, Any]) -> str:
    """"Nicholas Roy 2018 年 NeurIPS 的论文" for a Chinese answer's notice."""
    parts = [str(fields["author"])] if fields.get("author") else []
    if fields.get("year"):
        parts.append(f"{fields['year']} 年")
    parts += _span(fields, ("{since}–{until} 年", "{since} 年以来", "{until} 年及以前"))
    if fields.get("venue"):
        venue = str(fields["venue"])
        parts.append(venue.upper() if venue.islower() else venue)
    fared = {"rejected": "被拒", "accepted": "被录用", "withdrawn": "被撤回", "oral": "口头报告",
             "spotlight": "spotlight"}
    if fields.get("status"):
        parts.append(fared.get(str(fields["status"]), str(fields["status"])))
    return " ".join(parts) + " 的论文"


def notice(applied: dict[str, Any], dropped: dict[str, Any], *, chinese: bool = False) -> str:
    """One line the answer opens with when the question itself set a filter (in Chinese for
    a question asked in Chinese)."""
    if chinese and dropped:
        return (f"（没有 {described_zh(dropped)}能回答这个问题，所以检索了全部论文；"
                "这个筛选条件是从问题中读出的。）")
    if chinese and applied:
        return (f"（只检索了 {described_zh(applied)}：这是从问题中读出的。"
                "换个说法即可检索全部论文。）")
    if dropped:
        return (f"(No {described(dropped)} answer this, so every paper was searched; the "
                "filter was read from the question.)")
    if applied:
        return (f"(Searched only {described(applied)}: read from the question. "
                "Reword it to search every paper.)")
    return ""
