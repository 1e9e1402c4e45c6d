"""The built-in offline answerer: picks the abstract sentences that answer the question.

``select`` decides which relevant papers the answer cites and in which order (the best-supported
paper first for a one-paper question, retrieval order for a list); ``compose`` then cites them
as ``[1]``, ``[2]``, ... in exactly that order and never reorders them, so the reference list
that ``answer.astream`` builds from the same list names the paper each sentence came from.
Each paper's sentences are scored by embedding similarity to the question, vocabulary coverage,
and a cue that fits the question's kind (results for "what does X find", the method sentence for
"which paper does X", a figure or a name for a question that asks one: query/answer_type.py).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from assistant.answer.framing import CHINESE, Framing, for_form
from assistant.judge.decision import tied
from assistant.judge.grounding import sentence_vectors
from assistant.judge.injection import instructions_in
from assistant.judge.relevance import Relevance
from assistant.query import answer_type, aspects
from assistant.query.form import Form, Turn
from assistant.textutil import (
    clean_markup,
    clip,
    content_words,
    defang_refs,
    has_cjk,
    quoted,
    quoted_topic,
    split_sentences,
    stem,
    strip_section_label,
)

if TYPE_CHECKING:
    from assistant.index.embeddings import Embedder
    from assistant.search.retrieval import RetrievedPaper

_RESULT_Q = re.compile(r"\b(?:find|found|finding|result|achiev\w*|improv\w*|outperform\w*|"
                       r"show\w*|accura\w*|how (?:much|many|well|robust|good|fast)|perform\w*|"
                       r"gain\w*|conclu\w*|effect\w*|better|score|regret|bound|speed\w*|"
                       r"experiment\w*|evaluat\w*|tested|empiric\w*|demonstrat\w*)\b",
                       re.IGNORECASE)
_RESULT_S = re.compile(r"\b(?:outperform\w*|achiev\w*|improv\w*|surpass\w*|show|shows|"
                       r"demonstrat\w*|find|found|results?|state-of-the-art|SOTA|reduc\w*|"
                       r"experiments?|empirical\w*|evaluat\w*|"
                       r"speedup|accuracy|gains?|bound|regret)\b|\d+(?:\.\d+)?\s*(?:%|x|×)|"
                       r"[+-]\d", re.IGNORECASE)
_METHOD_S = re.compile(r"\bwe (?:propose|introduce|present|develop|design)\b|\b(?:named|called)\b",
                       re.IGNORECASE)
_WHICH = re.compile(r"\b(?:which|what) (?:papers?|works?|methods?|approach(?:es)?|stud(?:y|ies))\b"
                    r"|\bis there a paper\b|\blist\b", re.IGNORECASE)


_LINK = re.compile(r"https?://|github\.com", re.IGNORECASE)
_ASKS_LINK = re.compile(r"\b(?:code|github|implementation|repo\w*|link|url|available)\b",
                        re.IGNORECASE)
_OWN_WORK = re.compile(r"\b(?:we|our|this (?:paper|work))\b", re.IGNORECASE)
BACKGROUND_PENALTY = 0.1
# a sentence holding the kind of answer asked for (a figure, a name: query/answer_type.py).
# Chosen on the dev fact questions whose paper is found first (127, three collections): the
# expected figure or name quoted 111 -> 119 times at 0.3 (0.1-0.2: 115; 0.4-0.5: 119)
HOLDS_ANSWER = 0.3
# the question's words its paper's title lacks, found in a sentence: what is asked of the paper
# ("What does the streaming flow policy sample from instead of pure noise?" quoted the
# sentences that name the policy, not the one that says "instead of starting from pure
# noise"). Chosen on the dev fact questions (three collections): the expected figure or name
# quoted, ML 0.827 -> 0.856 at 0.4 (0.2: 0.846, 0.6-0.8: 0.846), biomedical 0.917 -> 0.944,
# Chinese 0.655 -> 0.673; follow-ups unchanged
FOCUS = 0.4
# the words of the sentence that asks, in a question that first describes its paper in
# sentences of its own (``Form.ask``): "有篇论文 ...。找出这些候选中心需要多少时间？" quoted the
# sentences matching the description and not "Finding the candidate centers takes O(ndk) time".
# Chosen on the dev Chinese fact questions (55): the expected figure or name quoted 0.673 ->
# 0.745 at 0.2, 0.782 at 0.4, 0.836 at 0.8, 0.873 from 1.2 to 2.5; no other dev figure moved
# (the English ones ask in one sentence)
ASK = 1.2
_PROBLEM_S = re.compile(r"\b(?:challeng\w*|problem\w*|difficult\w*|costly|expensive|limited|"
                        r"limitations?|lack\w*|remains?|suffer\w*|bottleneck|however|unclear|"
                        r"open question|hinder\w*|fail\w*)\b", re.IGNORECASE)
LIST_K = 10  # "which papers ..." searches at least this many (answer.astream)


@dataclass
class _Scored:
    index: int
    text: str
    score: float


# a comparison's points, in order: each takes its paper's best sentence not taken before
_COMPARED: tuple[tuple[str, Callable[[_Scored], bool]], ...] = (
    ("problem", lambda x: (x.index == 0 or bool(_PROBLEM_S.search(x.text)))
     and not _METHOD_S.search(x.text)),
    ("method", lambda x: bool(_METHOD_S.search(x.text) or _OWN_WORK.search(x.text))),
    ("result", lambda x: bool(_RESULT_S.search(x.text))),
    ("data", lambda x: aspects.stated(aspects.ASPECTS[0], [x.text])),
)
_SHOWN = ("problem", "method", "data", "result")  # the order a reader compares them in


def _first_kind(label: str, found: list[_Scored]) -> list[_Scored]:
    """The sentences a side-by-side line chooses among: for the method, those that say what
    the authors propose ("we propose ..."), else those of their own work that state no result,
    else any of their own ("Our results show improved performance on most domains" was quoted
    as a paper's method, its "we derive a novel algorithm" passed over)."""
    if label != "method":
        return found
    proposes = [x for x in found if _METHOD_S.search(x.text)]
    plain = [x for x in found if not _RESULT_S.search(x.text)]
    return proposes or plain or found


QUOTE_CHARS = 600  # one quoted sentence: an abstract's longest real ones run ~500 characters


def _quote(sentence: str) -> str:
    """An abstract sentence as an answer quotes it: third person, its own [n] references as
    "(ref. n)", and at most ``QUOTE_CHARS`` (a list that runs one "sentence" for pages, or
    holds thousands of markers, is cut, marked "…"), without a structured abstract's section
    label ("RESULTS ...")."""
    return clip(defang_refs(third_person(strip_section_label(sentence))), QUOTE_CHARS)


def third_person(sentence: str) -> str:
    """'We propose X; our method ...' -> 'The authors propose X; their method ...'."""
    s = re.sub(r"^(?:In this (?:paper|work),?\s*)?[Ww]e\b", "The authors", sentence)
    s = re.sub(r"(?<=[,;:] )we\b", "the authors", s)
    s = re.sub(r"\bwe\b", "they", s)
    s = re.sub(r"\bWe\b", "They", s)
    s = re.sub(r"\bour\b", "their", s)
    s = re.sub(r"\bOur\b", "Their", s)
    s = re.sub(r"\bours\b", "theirs", s)
    s = re.sub(r"\bus\b", "them", s)
    return s


def score_sentences(form: Form, papers: Sequence[RetrievedPaper], *, embedder: Embedder
                    ) -> list[list[_Scored]]:
    """Each paper's abstract sentences, scored for the question (see the module docstring)."""
    question = form.read_as
    wants_result = bool(_RESULT_Q.search(question))
    asks_link = bool(_ASKS_LINK.search(question))
    # "which paper ..." and a comparison want each paper's contribution sentence
    wants_method = (bool(_WHICH.search(question)) or form.sides is not None
                    or bool(form.by_author)) and not wants_result
    # "what percentage ...?", "what is it called?": the sentence that holds a figure, a name
    wants = answer_type.expects(form.question) or answer_type.expects(question)
    per_paper = [split_sentences(clean_markup(p.paper.abstract)) for p in papers]
    planted = [instructions_in(clean_markup(p.paper.abstract)) for p in papers]
    flat = [s for sents in per_paper for s in sents]
    if not flat:
        return [[] for _ in papers]
    if has_cjk(question):  # English sentences, a question MiniLM cannot read: what each
        wants_method = True  # paper does (its contribution sentence) answers best
        sims = np.zeros(len(flat), dtype=np.float32)
    else:
        sims = sentence_vectors(embedder, flat) @ embedder.embed_query(question)
    out: list[list[_Scored]] = []
    k = 0
    asked = {stem(w) for w in content_words(question)}
    ask = {stem(w) for w in content_words(form.ask)}
    for rp, sents, is_planted in zip(papers, per_paper, planted, strict=True):
        scored = []
        # what the question asks beyond naming the paper: its words the title lacks
        focus = asked - {stem(w) for w in content_words(rp.paper.title)}
        for i, s in enumerate(sents):
            words = {stem(w) for w in content_words(s)}
            score = float(sims[k])
            if asked:  # the share of the question's words the sentence holds (``coverage``)
                score += 0.4 * len(asked & words) / len(asked)
            if focus:
                score += FOCUS * len(focus & words) / len(focus)
            if ask:
                score += ASK * len(ask & words) / len(ask)
            if wants_result and _RESULT_S.search(s):
                score += 0.15
            if wants_method and _METHOD_S.search(s):
                score += 0.15
            if wants and answer_type.holds(wants, s, question):
                score += HOLDS_ANSWER
            if len(s) < 40:
                score -= 0.2
            if not asks_link and _LINK.search(s):  # "Code is at URL" says nothing found
                score -= 0.3
            if i == 0 and not _OWN_WORK.search(s):  # an abstract opens with background
                score -= BACKGROUND_PENALTY
            if is_planted(s):  # planted for an assistant: never quoted (injection.py)
                score = -10.0
            scored.append(_Scored(i, s, score))
            k += 1
        out.append(scored)
    return out


def choose(scored: list[list[_Scored]], *, plural: bool, max_sentences: int
           ) -> list[list[_Scored]]:
    """The sentences to quote per paper, in abstract order: ``max_sentences`` of the first paper
    of a one-paper answer, one of every other."""
    chosen = []
    for rank, sents in enumerate(scored):
        limit = max_sentences if rank == 0 and not plural else 1
        usable = [s for s in sents if s.score > -5.0]  # never a planted sentence
        best = sorted(usable, key=lambda s: -s.score)[:limit]
        chosen.append(sorted(best, key=lambda s: s.index))
    return chosen


def _aspect_name(aspect: aspects.Aspect, say: Framing) -> str:
    return aspect.name_zh if say is CHINESE and aspect.name_zh else aspect.name


WHO_NAMED = 8  # authors named at most as being on several of a list's papers


def _on_several(sources: Sequence[RetrievedPaper], say: Framing) -> list[str]:
    """The authors on more than one listed paper, most papers first, each on a line with those
    papers ("- A. One: **T1** [1]; **T4** [4]": checked, as any claim, against each paper's
    title line, which names its authors), or a line saying none is."""
    on: dict[str, list[int]] = {}
    for n, rp in enumerate(sources, 1):
        for name in dict.fromkeys(" ".join(str(a).split()) for a in rp.paper.authors):
            if name:
                on.setdefault(name, []).append(n)
    together: dict[tuple[int, ...], list[str]] = {}  # co-authors of the same papers: one line
    for name, ns in on.items():
        if len(ns) > 1:
            together.setdefault(tuple(ns), []).append(name)
    several = sorted(together.items(), key=lambda x: (-len(x[0]), x[0]))[:WHO_NAMED]
    if not several:
        return ["", say.listing_who_none]
    title = {n: rp.paper.display_title for n, rp in enumerate(sources, 1)}
    return ["", say.listing_who, *(
        f"- {_names(names, say)}: " + say.list_sep.join(f"**{title[n]}** [{n}]" for n in ns)
        for ns, names in several)]


def _names(names: list[str], say: Framing) -> str:
    if len(names) == 1:
        return names[0]
    return "、".join(names) if say is CHINESE else ", ".join(names[:-1]) + " and " + names[-1]


def _on_aspect(aspect: aspects.Aspect, scored: list[_Scored]) -> _Scored | None:
    """A listed paper's sentence on what the question asks of each paper (one naming it
    outright first: "on CUB and miniImageNet"), or None when no sentence states it."""
    named = aspect.named
    return max((s for s in scored if s.score > -5.0 and aspects.stated(aspect, [s.text])),
               key=lambda s: (bool(named and named.search(s.text)), s.score), default=None)


def _stems(text: str) -> set[str]:
    """The stems of a text's content words and of their hyphenated parts ("sample-efficient":
    "sampl", "effici")."""
    words = content_words(text)
    return {stem(p) for w in words for p in (w, *w.split("-")) if p}


def _on_point(point: str, scored: list[_Scored]) -> _Scored | None:
    """The sentence that states the point a comparison is made on: it holds the point's words
    (all of a one- or two-word point, two thirds of a longer one: "an efficient solver" says
    nothing of sample efficiency), the best scored of those; None when none does."""
    wanted = _stems(point)
    need = max(1, -(-2 * len(wanted) // 3))
    holding = [s for s in scored if s.score > -5.0 and len(wanted & _stems(s.text)) >= need]
    return max(holding, key=lambda s: s.score) if wanted and holding else None


def near_miss_text(form: Form, sources: Sequence[RetrievedPaper], *, embedder: Embedder,
                   missing: str = "", across_languages: bool = False,
                   sides: Sequence[str] = (), judged: str = "") -> str:
    """Nothing here is about the question: say so, then the closest papers, each with the
    sentence of its abstract nearest the question, cited as [n] = ``sources[n - 1]``.
    ``missing``: the method the question asks about, which no paper here introduces;
    ``across_languages``: found by multilingual-e5, not by words; ``sides``: a comparison's
    side states (answerability.SIDE_STATES, in order), whose first sources are the closest to
    each side, in that order; ``judged``: the query judged in the question's place, whose
    topic is quoted when the question's own words are an instruction. Whichever answerer
    serves (the LLM one too), a near miss is composed offline, never generated."""
    chosen = choose(score_sentences(form, sources, embedder=embedder), plural=True,
                    max_sentences=1)
    say = for_form(form)
    asked = quoted(form.question)
    nothing = say.nothing_both if len(sides) == 2 else say.nothing_sides
    head = (_sides_head(say, sources, sides) or nothing.format(asked=asked)) if sides \
        else say.nothing_here.format(asked=quoted_topic(form.question, judged=judged))
    if form.sifts:  # "which of them use X?": none of the previous answer's papers is on X
        head = say.nothing_sifted.format(asked=asked)
    if form.both:  # "both differential privacy and bandits": no paper is about each
        head = say.nothing_on_both.format(a=form.both[0], b=form.both[1])
    if missing:
        head = say.not_introduced.format(missing=missing)
    if across_languages:  # matched by multilingual-e5: less sure than a match of words
        head = say.across_languages.format(asked=asked)
    lines = [head, ""]
    for n, (rp, sents) in enumerate(zip(sources, chosen, strict=True), 1):
        body = " ".join(_quote(s.text) for s in sents)
        lines.append(f"- **{rp.paper.display_title}** [{n}]: {body} [{n}]")
    return "\n".join(lines)


def _sides_head(say: Framing, sources: Sequence[RetrievedPaper], sides: Sequence[str]) -> str:
    """A comparison some of whose sides the collection holds: each side in turn, its paper
    (named as sure or as the closest match) or, for a side it may not hold, its closest paper,
    only that; empty when no side, or every side, is found."""
    found = [state != "not_found" for state in sides]
    if not any(found) or all(found) or len(sources) < len(sides):
        return ""
    said = {"sure": say.side_sure, "found": say.side_closest}
    return "".join(said.get(state, say.side_missing).format(
        which=say.ordinals[i], n=i + 1, title=sources[i].paper.display_title,
        closest=sources[i].paper.display_title) for i, state in enumerate(sides)) + say.sides_tail


class ExtractiveAnswerer:
    backend = "extractive"
    model = "extractive-v1"
    multilingual = False  # it matches English abstract sentences
    reads_near_misses = False  # a near miss is composed, never generated

    def __init__(self, *, embedder: Embedder, max_sentences: int = 3, max_papers: int = 5,
                 list_hint_at: int = LIST_K) -> None:
        self.list_hint_at = list_hint_at  # a list this long may have been cut by k
        self.embedder = embedder
        self.max_sentences = max_sentences
        self.max_papers = max_papers
        self.usage: dict[str, int] = {}

    def pick(self, form: Form, papers: Sequence[RetrievedPaper], *, plural: bool = False
             ) -> list[list[_Scored]]:
        """The sentences chosen per paper, in abstract order (also used to highlight)."""
        return choose(score_sentences(form, papers, embedder=self.embedder), plural=plural,
                      max_sentences=self.max_sentences)

    async def select(self, form: Form, papers: Sequence[RetrievedPaper],
                     relevance: Relevance, *, leads: int = 0) -> list[RetrievedPaper]:
        """The papers to cite, in citation order.

        A list question: the relevant papers. Otherwise the paper the decision names first
        (the highest estimate: retrieval and the verifier together) and those whose estimate is
        close to its own ("also related"). Either way in the decision's order (``relevant_ids``
        and ``close_ids`` are best first), so the first paper cited is the one it ranks first.
        """
        if leads:  # a comparison: each side's paper, in order
            return list(papers[:leads])
        if not relevance.relevant_ids:  # answerable by the decision, weak evidence
            return list(papers[:1])
        by_id = {rp.paper.paper_id: rp for rp in papers}
        if form.listing:  # every relevant paper retrieved, best first
            order = relevance.relevant_ids
        else:
            order = list(dict.fromkeys([relevance.relevant_ids[0], *relevance.close_ids]))
        chosen = [by_id[pid] for pid in order if pid in by_id]
        return chosen if form.listing else chosen[: self.max_papers]

    def compose(self, form: Form, sources: Sequence[RetrievedPaper], *,
                hedged: bool = False) -> str:
        """The answer, citing ``sources[n - 1]`` as ``[n]``: the order is the caller's.
        ``hedged``: name the first paper as the closest match, not as the answer."""
        sources = list(sources)
        say = for_form(form)
        if not sources:
            return say.no_sources
        plural = (len(sources) > 1 or bool(form.by_author)) and (form.listing
                                                                 or form.sides is not None)
        # scored once: a comparison and an aspect read it too
        scored = score_sentences(form, sources, embedder=self.embedder)
        chosen = choose(scored, plural=plural, max_sentences=self.max_sentences)
        if plural and form.sides is not None:
            return self._side_by_side(scored, sources, say, hedged=hedged,
                                      point=form.compared_on)
        if plural:
            if form.by_author:  # an author's papers, newest first: each with its year
                head = (say.listing_author if len(sources) > 1 else say.listing_author_one
                        ).format(n=len(sources), author=form.by_author)
            elif form.sifts:  # "which of them use X?": of the previous answer's papers
                head = say.listing_sifted.format(n=len(sources))
            elif form.each:  # "Summarize each of these papers": every one of them
                head = say.listing_each.format(n=len(sources))
            elif form.count and len(sources) >= form.count:  # "Give me three papers on X"
                head = say.listing_counted.format(n=len(sources))
            else:
                head = (say.listing_more if len(sources) >= self.list_hint_at
                        else say.listing).format(n=len(sources))
            aspect = None if form.by_author else form.aspect  # "the open problems in X"
            if aspect is not None:
                head += say.listing_aspect.format(aspect=_aspect_name(aspect, say))
            lines = [head, ""]
            for n, (rp, sents) in enumerate(zip(sources, chosen, strict=True), 1):
                lead = ""
                if aspect is not None:  # the sentence that states it, else say none was found
                    on = _on_aspect(aspect, scored[n - 1])
                    sents, lead = ([on], "") if on else (sents, say.listing_unstated)
                body = lead + " ".join(_quote(s.text) for s in sents)
                when = f" ({rp.paper.venue_year})" if form.by_author and rp.paper.venue_year \
                    else ""
                if form.who and rp.paper.authors:  # "who works on X?": checked against the
                    when = f", by {rp.paper.author_names()}"  # paper's title line, as a claim
                lines.append(f"- **{rp.paper.display_title}**{when} [{n}]: {body} [{n}]")
            if form.who:  # those on several of its papers, after the list (its numbers first)
                lines += _on_several(sources, say)
            return "\n".join(lines)
        top = sources[0]
        where = f" ({top.paper.venue_year})" if top.paper.venue_year else ""
        if answer_type.asks_authors(form.question) or answer_type.asks_authors(form.read_as):
            where += (say.by_authors.format(authors=top.paper.author_names())
                      if top.paper.authors else say.no_authors)
        aspect = form.aspect  # "what datasets did they use?"
        if aspect is not None and chosen[0]:
            usable = [s for s in scored[0] if s.score > -5.0]
            stating = [s for s in usable if aspects.stated(aspect, [s.text])]
            if not stating:  # the abstract names none: say so, and show the closest sentence
                closest = max(usable, key=lambda s: s.score)
                return self._also_related(say.not_stated.format(
                    title=top.paper.display_title, where=where,
                    aspect=_aspect_name(aspect, say), quote=_quote(closest.text)), sources, say)
            best = sorted(stating, key=lambda s: -s.score)[: self.max_sentences]
            chosen[0] = sorted(best, key=lambda s: s.index)  # the sentences that state it
        # hedged: the decision is not sure this paper is the one asked about
        opening = say.closest_match if hedged else say.one_sifted if form.sifts else \
            say.most_relevant  # "which of them use X?": one of the papers listed before
        twin = tied([rp.verified for rp in sources]) if hedged else None
        if twin is not None:  # hedged for a tie (judge/decision.py): both named, each quoted
            n, other = twin + 1, sources[twin]
            there = f" ({other.paper.venue_year})" if other.paper.venue_year else ""
            parts = [say.closest_tied.format(title=top.paper.display_title, where=where,
                                             other=other.paper.display_title, n=n,
                                             other_where=there)]
            parts += [f"{_quote(s.text)} [1]" for s in chosen[0]]
            parts += [f"{_quote(s.text)} [{n}]" for s in chosen[n - 1]]
            rest = [rp for i, rp in enumerate(sources, 1) if i != n]
            return self._also_related(" ".join(parts), rest, say, numbers=[
                i for i in range(1, len(sources) + 1) if i != n])
        parts = [opening.format(title=top.paper.display_title, where=where)]
        parts += [f"{_quote(s.text)} [1]" for s in chosen[0]]
        return self._also_related(" ".join(parts), sources, say)

    @staticmethod
    def _also_related(text: str, sources: Sequence[RetrievedPaper], say: Framing, *,
                      numbers: Sequence[int] = ()) -> str:
        """A one-paper answer, then the other papers cited as related (``numbers``: each
        source's [n], when not its place)."""
        numbers = list(numbers) or list(range(1, len(sources) + 1))
        if len(sources) > 1:
            others = [f"**{rp.paper.display_title}** [{n}]"
                      for n, rp in zip(numbers[1:], sources[1:], strict=True)]
            text += say.also_related.format(papers=say.list_sep.join(others))
        return text

    @staticmethod
    def _side_by_side(scored: list[list[_Scored]], sources: Sequence[RetrievedPaper],
                      say: Framing, *, hedged: bool = False, point: str = "") -> str:
        """A comparison: each paper's sentence on the same aspects (the problem, the method,
        the data, the result), so a reader sees where they differ; an aspect its abstract does
        not state is said to be missing, not filled with another sentence. ``point``: the one
        the question compares them on ("sample efficiency"), said first, from the sentence
        that holds its words (``_on_point``). ``hedged``: a side's paper is only the closest
        match, and the heading says so."""
        lines = [say.side_by_side_closest if hedged else say.side_by_side, ""]
        for n, (rp, sents) in enumerate(zip(sources, scored, strict=True), 1):
            lines.append(f"- **{rp.paper.display_title}** [{n}]")
            used: set[int] = set()
            said: dict[str, str] = {}
            if point:
                on = _on_point(point, sents)
                if on is not None:
                    used.add(on.index)
                lines.append(f"  - {say.point_asked.format(point=point)}: "
                             + (f"{_quote(on.text)} [{n}]" if on else say.point_missing))
            for label, matches in _COMPARED:
                found = _first_kind(label, [x for x in sents if x.score > -5.0
                                            and x.index not in used and matches(x)])
                if found:
                    best = max(found, key=lambda x: x.score)
                    used.add(best.index)
                    said[label] = f"{_quote(best.text)} [{n}]"
            lines += [f"  - {say.points[label]}: {said.get(label, say.point_missing)}"
                      for label in _SHOWN]
        return "\n".join(lines)

    async def rewrite(self, form: Form, history: Sequence[Turn]) -> str:
        from assistant.query.rewrite import heuristic

        return heuristic(form, history)

    async def stream_answer(self, form: Form, sources: Sequence[RetrievedPaper],
                            history: Sequence[Turn] = (), *,
                            near_miss: bool = False, hedged: bool = False
                            ) -> AsyncIterator[str]:
        text = self.compose(form, sources, hedged=hedged)
        self.usage = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
        for piece in re.split(r"(?<=\s)", text):
            yield piece
