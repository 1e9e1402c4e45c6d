"""One question in, one cited answer out. The CLI, the TUI and the evaluations all call this.

    retrieval (Retriever.search) -> the one decision (judge.decision: answer, near miss or
    refuse; which papers are on topic)
    -> answerer.select: the numbered sources, in the order [1], [2], ... refer to them
    -> answerer.stream_answer over exactly those sources
    -> CitationFilter (checked, renumbered citations) -> Answer with its reference list
    -> grounding: each answer sentence checked against the abstract it cites

The numbering has one owner: ``select`` returns the list, the answerer cites positions in it,
and the references are built from the same list. Nothing reorders it in between.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from assistant.answer import no_citations
from assistant.answer.extractive import LIST_K, near_miss_text
from assistant.answer.framing import Framing, for_form
from assistant.answer.listing import (
    collection_answer,
    ordered_answer,
    records_answer,
    similar_answer,
    status_answer,
    trend_answer,
)
from assistant.answer.llm_answerer import LLMAnswerer
from assistant.answer.outcome_gate import OutcomeGate
from assistant.answer.topic_authors import authors_answer
from assistant.answer.types import Answer, Answerer, Delta, Event, Finished, Phase, Retrieved, Turn
from assistant.citations import Citation, CitationFilter, tidy
from assistant.errors import InputError, LLMStreamCut
from assistant.judge import answerability, evidence, grounding
from assistant.judge.decision import (
    DECIDE_OVER,
    Verdict,
    asks_llm,
    decide,
    settle,
    side_leads,
    tied,
    weighed,
)
from assistant.judge.relevance import Relevance
from assistant.judge.review import is_review
from assistant.judge.uses import uses
from assistant.judge.verifier import Remembered
from assistant.paper import Paper
from assistant.query import (
    aspects,
    cites_ask,
    collection_ask,
    exclusion,
    field_ask,
    numbered,
    review_ask,
    similar_ask,
    trend_ask,
)
from assistant.query.counted import as_asked, without_count
from assistant.query.followup import LEANS, probability
from assistant.query.form import Form, asking, parse
from assistant.query.imperative import as_question, cites_listed
from assistant.query.rewrite import answered_paper, needs_llm, numbered_paper, previous_paper
from assistant.search import query_filters
from assistant.search.compared import lead_with_sides
from assistant.search.retrieval import Filters, Retrieval, RetrievedPaper, Retriever, best_first
from assistant.sources.bibtex import bibtex_block
from assistant.textutil import (
    asks_nothing,
    has_cjk,
    is_chinese,
    printable,
    quoted,
    quoted_topic,
)

log = logging.getLogger(__name__)


NEAR_MISS_PAPERS = 3
# "which papers ..." searches this many and lists those the verifier scores at least V_LIST:
# on the dev keyword questions (bench/survey_recall.py --sweep) 20 candidates at 0.4 list 7 papers
# a question with the recall `search` has at k 10 (0.215 vs 0.210); 10 candidates never reach it
SURVEY_K = 20
AUTHOR_LIST = 50  # an author's papers listed at most (the newest)
SIMILAR_K = 10  # papers listed for "papers similar to X" (as `assistant similar`)
# what "Summarize each of these papers" asks of each: the sentence that says what it does
SUMMED_UP = "What does each paper propose and show?"
# "papers on X that do not use Y": the papers on X searched, those using Y left out of them
EXCLUSION_POOL = 2 * SURVEY_K
NO_PAPER = "\x00none"  # a paper id no paper has: every paper on X uses Y
NAMESAKES_SHOWN = 4  # authors named when a surname asked about is several authors'
# what a question that asks only for an author's papers says besides the name (stems):
# "What did X publish?", "Which papers by X are in the collection?", "X's publications"
_ONLY_THEIRS = frozenset(["did", "doe", "has", "have", "had", "were", "was", "me", "all", "els",
                          "other", "collect", "here", "public", "co", "list", "show", "wrote",
                          "work", "written", "write", "publish", "author", "store", "index"])
# what a question counting or listing papers says besides what it counts ("How many papers
# were rejected?", "List the withdrawn submissions")
_COUNTING = frozenset(["mani", "much", "number", "submiss", "count", "total"])  # (stems)
# asks what an author has published (on something): their papers, not one paper
_WHAT_THEY_PUBLISHED = re.compile(r"\b(?:publish(?:ed|es)?|wr(?:ite|ote|itten|ites)|"
                                  r"(?:has|have|had)\s+(?:done|worked)|work(?:ed|s)?\s+on|"
                                  r"papers)\b", re.IGNORECASE)
_PUBLISHED_ON = re.compile(r"\b(?:publish\w*|wr(?:ite|ote|itten|ites)|done|work(?:ed|s)?)\s+"
                           r"(?:on|about|in|regarding|concerning)\s+(.+?)[\s?.!]*$",
                           re.IGNORECASE)
LLM_TRANSLATION_SHARE = 0.3  # of the offline translation's IDF mass an LLM's English must hold


@dataclass
class Searched:
    """What a question found and the one decision on it (``searched``)."""
    retrieval: Retrieval
    filters: Filters | None
    leads: int  # a comparison's sides, first in ``retrieval.papers``
    verdict: Verdict
    form: Form | None = None  # as searched: its query the question made standalone, in English
    applied: dict[str, Any] = field(default_factory=dict)  # filters read from the question
    dropped: dict[str, Any] = field(default_factory=dict)  # ... and dropped: nothing passed
    # the user's own words with their misspelt ones respelt, and what was changed
    respelt: tuple[str, dict[str, str]] = ("", {})
    # what was searched and judged: the query without the filters, the count, the request or
    # the instruction read from it ("Summarize the DyPE paper" -> "Which paper is about DyPE?")
    judged: str = ""
    # "papers on X that do not use Y": Y, and the papers on X left out for using it
    left_out: tuple[str, int] | None = None
    # "Papers by Smith" where several authors here are Smiths: the surname and their names
    namesakes: tuple[str, list[str]] | None = None
    # "Are there any surveys on X?": X, and how many of its papers found present themselves as
    # one (those listed; none: its papers)
    reviews: tuple[str, int] | None = None
    # a venue the question names that the collection does not hold ("papers from AISTATS")
    absent_venue: str | None = None


def asked(question: str) -> str:
    """The question as one printable line; an empty one is an error that asks for one."""
    question = " ".join(printable(question).split())
    if not re.search(r"\w", question):  # empty, or "???", "？？？": no word of any script
        said = f"{question!r} has no words" if question else "is empty"
        raise InputError(f"the question {said}: ask one, e.g. "
                         "\"Which papers study diffusion models?\"")
    return question


def searched(question: str, search_query: str, *, retriever: Retriever, k: int = 6,
             filters: Filters | None = None, infer_filters: bool = True,
             form: Form | None = None) -> Searched:
    """Search as ``ask`` does and decide: venue/year read from the question, a survey searched
    wider and more diverse, each side of a comparison searched on its own. ``ask``, ``search``
    and the chat call this, so they rank and decide alike. ``form``: the question's form as
    ``astream`` read it (read here when not given: ``search``, one question on its own)."""
    question, search_query = asked(question), asked(search_query)
    if form is None:
        form = parse(question)
    if (form.topic or "?" not in question) and not (form.follow_up or form.cjk or (
            filters and filters.paper_ids)):
        titled = retriever.paper_titled(question.rstrip("? "), named=True)
        if titled is not None:  # "Locally Private Hypothesis Selection", "IPMark": a paper's
            # title, or the name it starts with, asks for that paper, not the papers on it
            form = replace(form, listing=False, survey=False, topic=False)
            filters = replace(filters or Filters(), paper_ids=[titled.paper_id])
    respelt = (question, {}) if form.cjk else retriever.respelt(question)
    if respelt[1] and form.aspect is None:  # "what datsets did they use?": what it asks of a
        form = replace(form, aspect=aspects.asked(respelt[0]))  # paper, read respelt
    english, terms = _in_english(question, search_query, form, retriever)
    if form.query != english:
        form = form.searched_as(english)
    if form.asked_sides and not form.sides:  # "IPMark 和 VGS 有什么区别？": each side in English
        form = form.with_sides([retriever.english(side)[0] for side in form.asked_sides])
    if terms != english:
        form = replace(form, terms=terms)
    if form.cjk and form.follow_up and search_query != question:  # the title rides along
        form = replace(form, own=retriever.english(question)[0])
    if (ask := asking(question)) and not form.ask:
        form = replace(form, ask=retriever.english(ask)[0] if form.cjk else ask)
    retriever.check_filters(filters)  # the user's own filters; inferred ones always match
    explicit = filters
    absent = None
    if infer_filters:
        venues, years = retriever.facets()
        filters = query_filters.infer(question, venues=venues, years=years, explicit=filters,
                                      authors=retriever.author_names,
                                      statuses=lambda: retriever.index().status_tags())
        absent = None if filters.venue or form.cjk else query_filters.absent_venue(question,
                                                                                   venues)
    applied = query_filters.read(explicit, filters)
    unsaid = {**applied, "venue": absent} if absent else applied  # "papers from AISTATS on
    # bandits" over a list without AISTATS: its papers on bandits, and that said
    asked_form = replace(form, query=query_filters.stripped(form.query, unsaid),
                         terms=form.terms and query_filters.stripped(form.terms, unsaid))
    if form.count:  # "the top 5 papers on X": the number is no topic word
        asked_form = replace(asked_form, query=without_count(asked_form.query),
                             terms=asked_form.terms and without_count(asked_form.terms))
    if not (form.cjk or form.sides or form.follow_up):  # "Give me papers on X", "Summarize
        # the neural ODE paper": judged as the question it asks
        asked_form = replace(asked_form, query=as_asked(as_question(asked_form.query)))
    if filters is not None and applied.get("author") and not form.sides \
            and not set(answerability.query_terms(query_filters.leftover(question, applied))) \
            - _ONLY_THEIRS:
        # "What did Nicholas Roy publish?": nothing asked but the author's papers, every one
        # (the user's own words: a follow-up's query also carries the previous paper's title)
        index = retriever.index()
        mine = index.paper_ids_of(index.paper_mask(author=filters.author),
                                  newest_first=True)[:AUTHOR_LIST]
        filters = replace(filters, paper_ids=mine)
        asked_form = replace(asked_form, listing=True, by_author=str(filters.author))
        k = max(k, len(mine))
    elif filters is not None and applied.get("author") and not form.sides \
            and _WHAT_THEY_PUBLISHED.search(question):
        # "What has Sébastien Bubeck published on bandits?": their papers on it, a list (it
        # was answered with one of his ten bandit papers), judged on the topic alone (the
        # words that ask, "has published", are no abstract's)
        on = _PUBLISHED_ON.search(query_filters.leftover(asked_form.query, applied))
        asked_form = replace(asked_form, listing=True, survey=True,
                             query=f"Which papers are about {on.group(1)}?" if on
                             else asked_form.query)
    left_out = None
    if not (form.sides or form.follow_up or asked_form.by_author) and (
            ex := _exclusion(question, form, applied, retriever=retriever)) is not None:
        asked_form, filters, left_out = _without(ex, asked_form, retriever=retriever,
                                                 filters=filters)
    reviews, unsifted = None, filters
    if left_out is None and not (form.cjk or form.sides or form.follow_up or
                                 asked_form.by_author) and (
            topic := review_ask.read(query_filters.stripped(form.query, applied))) is not None:
        asked_form, filters, reviews = _reviews(topic, asked_form, retriever=retriever,
                                                filters=filters, k=k)
    namesakes = None if applied.get("author") or (explicit and explicit.author) or \
        not infer_filters else _namesakes(question, retriever=retriever)
    found = _search_and_decide(asked_form, retriever=retriever, k=k, filters=filters,
                               sifted=left_out is not None or bool(reviews and reviews[1]))
    if reviews and reviews[1] and found.verdict.outcome != "answered":  # the surveys found
        # are on other topics: none on this one, so its papers
        filters, reviews = unsifted, (reviews[0], 0)
        found = _search_and_decide(asked_form, retriever=retriever, k=k, filters=filters)
    found.left_out, found.namesakes, found.reviews = left_out, namesakes, reviews
    if applied and found.verdict.outcome != "answered" and left_out is None and \
            reviews is None:
        # a filter read from the question must never hide the answer ("trained on CoNLL
        # 2003" is no year filter): without it, does the collection answer?
        wider = _search_and_decide(form, retriever=retriever, k=k, filters=explicit)
        if wider.verdict.outcome == "answered":
            wider.dropped, wider.form, wider.respelt = applied, form, respelt
            wider.namesakes = namesakes
            wider.judged = form.query
            return wider
    found.applied, found.respelt, found.judged = applied, respelt, asked_form.query
    found.absent_venue = absent
    found.form = replace(form, listing=asked_form.listing, by_author=asked_form.by_author,
                         survey=form.survey or reviews is not None)  # "Are there any surveys
    # on X?" asks for papers as "Which papers ...?" does: its less sure ones said too
    return found


def _in_english(question: str, search_query: str, form: Form, retriever: Retriever
                ) -> tuple[str, str]:
    """What is judged and what is searched, in the collection's English: a Chinese query is
    translated offline; an LLM's English for a standalone Chinese question is kept unless it
    holds less than ``LLM_TRANSLATION_SHARE`` of the offline translation's words, weighed by
    their rarity here (a small model's reply about something else: "The conversation about
    research papers is ..."; a faithful one holds the rare words: "watermark")."""
    english, terms = retriever.english(search_query)
    if form.cjk and not form.follow_up and not has_cjk(search_query) and has_cjk(question):
        own, own_terms = retriever.english(question)
        mine = answerability.query_terms(own_terms)
        idf = answerability.stats_for(retriever.index()).idf(mine)
        said = set(answerability.query_terms(english))
        if own != question and sum(idf[t] for t in mine if t in said) < \
                LLM_TRANSLATION_SHARE * sum(idf.values()):
            return own, own_terms
    return english, terms


def _exclusion(question: str, form: Form, applied: dict[str, Any], *, retriever: Retriever
               ) -> exclusion.Exclusion | None:
    """A request for papers on a topic that do not use something, its topic and thing in
    English: as written, or translated where asked in Chinese ("关于强化学习但不使用模拟器的论文
    有哪些？"; a word no dictionary reads: None, the question searched as any other)."""
    if not form.cjk:
        return exclusion.read(query_filters.stripped(form.query, applied))
    asked = exclusion.read_chinese(question)
    if asked is None:
        return None
    topic, thing = (retriever.english(asked.topic)[0], retriever.english(asked.excluded)[0])
    return exclusion.Exclusion(topic, thing) if topic and thing and not (
        has_cjk(topic) or has_cjk(thing)) else None


def _without(ex: exclusion.Exclusion, form: Form, *, retriever: Retriever,
             filters: Filters | None) -> tuple[Form, Filters, tuple[str, int]]:
    """ "Which papers on robot grasping do not use reinforcement learning?": the form judged
    (the topic's papers, a list), the filters to the topic's papers that do not use the
    excluded thing (listed first as asked, those answered the opposite of the question), and
    (the thing, how many papers were left out)."""
    pool = retriever.search(ex.asked, k=EXCLUSION_POOL, filters=filters).papers
    kept = [rp.paper.paper_id for rp in pool if not uses(rp.paper, ex.excluded)]
    return (replace(form, listing=True, survey=True, query=ex.asked),
            replace(filters or Filters(), paper_ids=kept or [NO_PAPER]),
            (ex.excluded, len(pool) - len(kept)))


def _reviews(topic: str, form: Form, *, retriever: Retriever, filters: Filters | None, k: int
             ) -> tuple[Form, Filters | None, tuple[str, int]]:
    """ "Are there any surveys on graph neural networks?": the form judged (the topic's
    papers, a list), the filters to those of the papers the decision puts on the topic that
    present themselves as a survey, review or tutorial (none: the topic's papers, unfiltered;
    a survey of another topic is none of them), and (the topic, how many such papers)."""
    asked = replace(form, listing=True, survey=True, query=f"Which papers are about {topic}?")
    plain = _search_and_decide(asked, retriever=retriever, k=k, filters=filters)
    on = plain.verdict.relevance.relevant_ids if plain.verdict.outcome == "answered" else []
    papers = {rp.paper.paper_id: rp.paper for rp in plain.retrieval.papers}
    kept = [pid for pid in on if pid in papers and is_review(papers[pid])]
    if kept:
        filters = replace(filters or Filters(), paper_ids=kept)
    return asked, filters, (topic, len(kept))


def _namesakes(question: str, *, retriever: Retriever) -> tuple[str, list[str]] | None:
    """ "Papers by Smith" where several authors here are Smiths (no one filter): the surname
    and their names, to say who they are; None for any other question."""
    people = query_filters.surname_asked(question, retriever.author_names)
    if people is None or len(people[1]) < 2:
        return None
    return people[0], [spellings[0] for spellings in people[1]]


def _search_and_decide(form: Form, *, retriever: Retriever, k: int,
                       filters: Filters | None, sifted: bool = False) -> Searched:
    """``sifted``: ``filters.paper_ids`` are papers the question is judged among, not papers
    the user picked (which are answered): a sifting turn's ("which of them ...?"), or the
    topic's papers left after an exclusion ("papers on X that do not use Y")."""
    diversity = retriever.mmr_lambda if form.listing else None
    if form.listing:  # a survey lists every paper the decision calls on topic among more
        k = max(k, SURVEY_K)
    # a translated question: BM25 reads several glosses a word, MiniLM the best ones (what
    # the decision judges: its dense cosines must be the judged query's)
    retrieval = retriever.search(form.terms or form.query, k=k, filters=filters,
                                 diversity=diversity,
                                 dense_query=form.query if form.terms else None)
    if form.by_author:  # an author's papers: the newest first
        retrieval = replace(retrieval, papers=sorted(
            retrieval.papers, key=lambda rp: -(rp.paper.year or 0)))
    read = Remembered()  # a comparison's side papers: scored to pick its paper, judged once
    retrieval, sides = lead_with_sides(form.sides, retrieval, retriever=retriever,
                                       filters=filters, k=k,
                                       lead=side_leads(index=retriever.index(), verifier=read))
    verdict = decide(form, retrieval.papers, index=retriever.index(), sides=sides,
                     multilingual=retrieval.multilingual,
                     picked=bool(filters and filters.paper_ids) and not (form.sifts or sifted),
                     verifier=read)
    if form.by_author:  # every one of the author's papers, newest first, whatever it matched
        verdict = replace(verdict, relevance=verdict.relevance.scoped(
            [rp.paper.paper_id for rp in retrieval.papers]))
    retrieval = replace(retrieval, papers=weighed(retrieval.papers, verdict))
    return Searched(retrieval, filters, len(sides), verdict)


def _made_from_collection(question: str, said: Form, history: Sequence[Turn], *,
                          retriever: Retriever, filters: Filters | None, k: int,
                          field: field_ask.FieldAsk | None = None,
                          cites: cites_ask.CitesAsk | None = None) -> Answer | None:
    """An answer made from the collection rather than searched for the question: what it
    holds ("How many papers are there?"), a topic over the years ("how has work on X changed
    since 2011?") and who works on it (``field``, read from the question, asking that: its
    authors with the most of its papers), the papers like one paper ("papers similar to
    Gaitor", "more like [2]", "more like this"), the BibTeX entries of a recent answer's
    papers ("How do I cite these papers?"), and what it cannot say of citations (``cites``:
    "Which papers cite X?" gets that said, then the papers most like X when X is here); None
    for any other question."""
    if cites is not None:
        return _of_citations(cites, question, history, retriever=retriever, k=k,
                             chinese=said.cjk)
    if history and cites_listed(question):  # "How do I cite these papers?" after a list:
        # each listed paper's BibTeX entry, nothing searched
        listed = [p for t in numbered.listed(history)
                  if (p := retriever.paper_titled(t, named=True)) is not None]
        if listed:
            return records_answer(question, listed)
    if not said.follow_up and collection_ask.read(question):
        return collection_answer(question, venue_years=retriever.index().venue_years(),
                                 chinese=is_chinese(question))
    status = None if said.follow_up or said.cjk or (filters and filters.any()) else \
        query_filters.status_asked(question, retriever.index().status_tags)
    if status and not set(answerability.query_terms(query_filters.leftover(
            question, {"status": status}))) - _ONLY_THEIRS - _COUNTING:
        # "Which papers were rejected?", "How many papers were withdrawn?": nothing asked but
        # the status, counted (searched, it was a refusal: no abstract says "rejected")
        index = retriever.index()
        marked = index.paper_mask(status=status)
        pairs = Counter(zip(index.paper_venues()[marked].tolist(),
                            index.paper_years()[marked].tolist(), strict=True))
        return status_answer(question, status, venue_years=dict(pairs))
    picked = bool(filters and filters.paper_ids)
    over_years = None if said.follow_up or picked else \
        trend_ask.read_chinese(question) if said.cjk else trend_ask.read(question)
    if over_years is None and field is not None and field.who:  # "Who works on bandits?"
        # over the topic's papers, every one judged (none judged on it: the list of the
        # papers search finds, with their authors)
        over_years = trend_ask.TrendAsk(field.topic, *trend_ask.years_of(question),
                                        order="authors")
    asked = ""
    if over_years is not None and said.cjk:  # "有多少篇论文是关于强化学习的？": its topic in
        # the collection's English; one the dictionaries cannot read is searched as any question
        asked, english = over_years.topic, retriever.english(over_years.topic)[0]
        over_years = replace(over_years, topic=english) if english and not has_cjk(
            english) else None
    charted = None if over_years is None else over_the_years(
        question, over_years, retriever=retriever, filters=filters, asked=asked)
    if charted is not None:
        return charted
    like = None if said.cjk or picked else similar_ask.read(question)
    paper = None
    if like:  # a paper named by its title or its name (or its number in the previous answer)
        paper = retriever.paper_titled(numbered_paper(like, history) or like, named=True,
                                       prefix=True)
    elif like == "" and history:  # "more like this": the previous answer's paper
        paper = retriever.paper_titled(answered_paper(history) or "")
    return None if paper is None else like_this(paper, question, retriever=retriever,
                                                k=max(k, SIMILAR_K))


async def astream(question: str, *, retriever: Retriever, answerer: Answerer, k: int = 6,
                  filters: Filters | None = None, history: Sequence[Turn] = (),
                  infer_filters: bool = True, ground: bool = True) -> AsyncIterator[Event]:
    """Stream the events of one answer: Retrieved, then Deltas, then Finished.

    ``ground`` checks every answer sentence against the abstract it cites (``Answer.grounding``).
    """
    t0 = time.perf_counter()
    question = asked(question)
    # a turn that asked nothing ("thanks") is no part of what a follow-up refers back to
    history = [turn for turn in history if not asks_nothing(turn[0])]
    said = parse(question, history)  # the question's form: read once, handed down
    cites = None if filters and filters.paper_ids else cites_ask.read(question)
    if cites is not None and cites.kind == "most" and cites.what:  # "the most cited papers
        # on bandits": no citation counts here, said; then the topic's papers
        note = no_citations.ranking_note(cites.what, chinese=said.cjk) + "\n\n"
        instead = f"关于{cites.what}的论文有哪些？" if said.cjk else \
            f"Which papers are about {cites.what}?"
        said_note = False
        async for event in astream(instead, retriever=retriever, answerer=answerer, k=k,
                                   filters=filters, history=history,
                                   infer_filters=infer_filters, ground=False):  # (once, below)
            if isinstance(event, Delta) and not said_note:
                event, said_note = Delta(note + event.text), True
            elif isinstance(event, Finished):
                event.answer.text, event.answer.question = note + event.answer.text, question
                if ground:
                    _ground(event.answer, retriever)
            yield event
        return
    field = None if said.follow_up or said.cjk or (filters and filters.paper_ids) \
        else field_ask.read(question)
    made = _made_from_collection(question, said, history, retriever=retriever,
                                 filters=filters, k=k, field=field, cites=cites)
    if made is not None:  # what the collection holds, a topic over the years, papers like one
        made.timings["total_ms"] = (time.perf_counter() - t0) * 1000
        yield Delta(made.text)
        yield Finished(made)
        return
    sift = None if filters and filters.paper_ids else numbered.among(question, history)
    sifted = [p.paper_id for t in (sift[1] if sift else [])
              if (p := retriever.paper_titled(t, named=True)) is not None]
    each = [] if sift or (filters and filters.paper_ids) else [
        p.paper_id for t in numbered.summed_up(question, history)
        if (p := retriever.paper_titled(t, named=True)) is not None]
    pinned = None
    if len(each) >= 2:  # "Summarize each of these papers": the previous answer's papers,
        # every one, each with the sentence that says what it does
        search_query = SUMMED_UP
        form = replace(parse(search_query).searched_as(search_query), listing=True,
                       each=len(each), question=question, cjk=said.cjk)  # (its language)
        filters = replace(filters or Filters(), paper_ids=each)
        k = max(k, len(each))
    elif sift and len(sifted) >= 2:  # "which of them use X?": the previous answer's papers,
        # each judged on X, listed when on it (none may be)
        search_query = sift[0]
        form = replace(parse(search_query).searched_as(search_query), listing=True,
                       survey=True, sifts=len(sifted))
        filters = replace(filters or Filters(), paper_ids=sifted)
        k = max(k, len(sifted))
    elif field is not None:  # "What are the open problems in X?": the papers on X, searched
        # and judged on X alone, each quoted on what is asked of it (below)
        search_query = field.topic
        form = parse(field.topic).searched_as(field.topic)
    else:
        waits = isinstance(answerer, LLMAnswerer) and needs_llm(said)
        if waits:  # a follow-up (or another language) is rewritten by the LLM first: say so,
            yield Phase("asking the LLM to make the question standalone…")  # not a slow search
        search_query = asked(await answerer.rewrite(said, history))
        if waits:
            yield Phase("retrieving…")
        form = said.searched_as(search_query)
        pinned = previous_paper(said, history)  # "what data did they use?": that paper's
        if pinned and not (filters and filters.paper_ids):  # answer
            paper = retriever.paper_titled(pinned)
            if paper is not None:
                filters = replace(filters or Filters(), paper_ids=[paper.paper_id])
    found = searched(field.topic if field else search_query if form.sifts or form.each
                     else question,
                     search_query, retriever=retriever, k=k, filters=filters,
                     infer_filters=infer_filters, form=form)
    back = None if pinned or field or form.sifts or form.each else read_back(
        said, found, history, retriever=retriever)
    if back is not None:  # "What's the solver called?" after an answer about a SAT solver
        found = searched(question, search_query, retriever=retriever, k=k,
                         filters=replace(filters or Filters(), paper_ids=[back]),
                         infer_filters=infer_filters, form=form)
    retrieval, filters, leads, verdict = found.retrieval, found.filters, found.leads, found.verdict
    form = found.form or form  # a Chinese question offline: searched in English
    if field is not None and form.listing:  # its sentences read against the whole question
        form = replace(form, question=question, aspect=field.aspect, who=field.who)
    yield Retrieved(retrieval)
    timings = dict(retrieval.timings)
    rel, decision = verdict.relevance, verdict.decision
    extra: dict[str, Any] = {"search_query": found.judged or form.query,
             "outcome": verdict.outcome,
             "confident": verdict.confident,
             "answerability": decision.to_dict(),
             "filters": {k: v for k, v in asdict(filters).items() if v} if filters else {},
             "filters_read": {**found.applied, **found.dropped},
             "filters_dropped": found.dropped}
    note = query_filters.notice(found.applied, found.dropped, chinese=is_chinese(question))
    if form.sifts:  # "which of them ...?": said before any answer, one paper's too
        note = " ".join(filter(None, [for_form(form).sifted_note.format(m=form.sifts), note]))
    if found.namesakes is not None:  # "Papers by Smith": several Smiths, none read
        surname, people = found.namesakes
        note = " ".join(filter(None, [note, for_form(form).namesakes.format(
            n=len(people), surname=surname, first=people[0],
            names=", ".join(people[:NAMESAKES_SHOWN]) + (", ..." if len(people) >
                                                         NAMESAKES_SHOWN else ""))]))
    if found.left_out is not None and decision.outcome != "refused":  # "papers on X that do
        # not use Y": how many were left out (nothing to say when nothing here is on X)
        thing, n = found.left_out
        told = for_form(form).left_out if n else for_form(form).left_none
        note = " ".join(filter(None, [note, told.format(
            n=n, thing=thing, papers="paper" if n == 1 else "papers")]))
    if found.absent_venue:  # "papers from AISTATS on bandits" over a list without AISTATS
        venues = sorted(v.upper() if v.islower() else v for v in retriever.facets()[0] if v)
        told = for_form(form).venue_absent if venues else for_form(form).venue_none
        note = " ".join(filter(None, [told.format(venue=found.absent_venue,
                                                  venues=", ".join(venues)), note]))
    if found.reviews is not None and decision.outcome != "refused":  # "Are there any surveys
        # on X?": which papers are listed, its surveys or (none here) its papers
        topic, n = found.reviews
        told = for_form(form).reviews_found if n else for_form(form).reviews_none
        note = " ".join(filter(None, [note, told.format(topic=topic)]))
    if leads and decision.missing and decision.outcome != "refused":  # "Compare PPO and SAC"
        say = for_form(form)  # one name, or several ("PPO, SAC and TD3")
        told = say.sides_not_introduced if " and " in decision.missing else \
            say.side_not_introduced
        note = " ".join(filter(None, [note, told.format(missing=decision.missing)]))
    # "reinforcment lerning": say how the user's own words were read (search/spelling.py;
    # a follow-up's search query also carries the previous paper's title)
    read_as, respelt = found.respelt
    if respelt:
        extra["respelt"] = respelt
        note = " ".join(filter(None, [f"(Read as “{read_as}”.)", note]))
    lead = f"{note}\n\n" if note else ""
    llm_near = asks_llm(verdict, reads_near_misses=answerer.reads_near_misses) and bool(
        retrieval.papers)
    if decision.outcome != "answered" and not llm_near:
        result = _unanswered(form, retrieval, question=question, retriever=retriever,
                             answerer=answerer, timings=timings, relevance=rel.to_dict(),
                             leads=leads, **extra)
        result.text = lead + result.text
        yield Delta(result.text)
        timings["total_ms"] = (time.perf_counter() - t0) * 1000
        if ground:
            _ground(result, retriever)
        yield Finished(result)
        return
    t_s = time.perf_counter()
    if llm_near:
        sources = list(retrieval.papers[:DECIDE_OVER])
    else:
        sources = await answerer.select(form, retrieval.papers, rel, leads=leads)
        if not verdict.confident and history:
            sources = talked_of_first(sources, history, retriever=retriever)
    timings["select_ms"] = (time.perf_counter() - t_s) * 1000
    filt = CitationFilter(len(sources))
    gate = OutcomeGate()
    parts: list[str] = []
    t1 = time.perf_counter()
    first: float | None = None
    cut_reason = ""
    if lead:
        yield Delta(lead)
    try:
        async for raw in answerer.stream_answer(form, sources, history, near_miss=llm_near,
                                                hedged=not (llm_near or verdict.confident)):
            if first is None:
                first = (time.perf_counter() - t1) * 1000
            shown = filt.feed(gate.feed(printable(raw)))  # an endpoint's escapes never show
            if shown:
                parts.append(shown)
                yield Delta(shown)
    except LLMStreamCut as exc:  # keep what arrived, marked as cut, with the reason
        cut_reason = str(exc)
    tail = filt.feed(gate.flush()) + filt.flush()
    if tail:
        parts.append(tail)
        yield Delta(tail)
    timings["first_token_ms"] = first or 0.0
    timings["generate_ms"] = (time.perf_counter() - t1) * 1000
    citations = [Citation(filt.mapping[n], sources[n - 1].paper) for n in filt.order]
    surveys = form.survey and form.listing and form.sides is None
    less = ([] if llm_near or cut_reason or gate.none or not citations or not surveys
            else _less_sure(rel, retrieval.papers, cited=citations))
    if less:  # a list: the papers the decision is less sure of, after it
        more = [Citation(n, rp.paper, less_sure=True)
                for n, rp in enumerate(less, len(citations) + 1)]
        line = less_sure_line(for_form(form), listed=len(citations), more=more)
        parts.append(line)
        yield Delta(line)
    text = lead + tidy("".join(parts)).strip()
    settled = settle(verdict, near_miss_sent=llm_near, said_none=bool(gate.none),
                     cited=len(citations), cut=bool(cut_reason))
    extra["outcome"], extra["confident"] = settled.outcome, settled.confident
    relevance = rel.to_dict()
    if settled.llm:
        extra["answerability"] = {**extra["answerability"], "llm": settled.llm,
                                  **({"llm_reason": gate.reason} if gate.none else {})}
    if settled.relevant is not None:
        relevance = {**relevance, "relevant": settled.relevant,
                     **({"relevant_papers": len(citations)} if settled.relevant else {})}
    if settled.llm == "none":  # the model read the sources and says none answers
        result = _unanswered(form, retrieval, question=question, retriever=retriever,
                             answerer=answerer, timings=timings, relevance=relevance,
                             leads=leads, **extra)
        yield Delta(result.text)  # the notice was streamed before the model's answer
        result.text = lead + result.text
        if ground:
            _ground(result, retriever)
        timings["total_ms"] = (time.perf_counter() - t0) * 1000
        yield Finished(result)
        return
    refused = not citations and not cut_reason  # an answer cites the sources it answers from
    if less:
        citations += more
    result = Answer(question, text, answerer.backend, answerer.model, citations,
                    retrieval.papers, refused, dict(answerer.usage), timings, filt.dropped,
                    relevance, cut=bool(cut_reason), cut_reason=cut_reason, **extra)
    if ground:
        _ground(result, retriever)
    if form.record and citations and not (refused or cut_reason):  # "Was X accepted?",
        # "Give me the BibTeX for X": what the list says of the paper answered, after its
        # answer (the list's record, no claim of its abstract: never grounded against it)
        told = "\n\n" + (bibtex_block([c.paper for c in citations if not c.less_sure])
                          if form.record == "bibtex_all" else
                          record_of(citations[0].paper, form.record, say=for_form(form),
                                    hedged=not settled.confident))
        result.text += told
        yield Delta(told)
    timings["total_ms"] = (time.perf_counter() - t0) * 1000
    yield Finished(result)


def record_of(paper: Paper, record: str, *, say: Framing, hedged: bool = False) -> str:
    """The paper's BibTeX entry (``record`` "bibtex") or what the list says of where it
    appeared and how it fared ("status", a sentence naming the paper). After a ``hedged``
    answer (the closest match, not surely the paper asked for) an entry is said to be that
    paper's, to be copied only if it is the one meant."""
    title = f"**{paper.display_title}**"
    if record == "bibtex":
        return (say.record_if_meant.format(title=title) + "\n\n" if hedged else "") + \
            bibtex_block([paper])
    if paper.is_unpublished:
        return say.record_unpublished.format(title=title, where=paper.venue_year or "?",
                                             outcome=paper.outcome)
    if not paper.venue_year:
        return say.record_none.format(title=title)
    status = f" ({paper.status})" if paper.status else ""
    return say.record_published.format(title=title, where=paper.venue_year, status=status)


def talked_of_first(sources: list[RetrievedPaper], history: Sequence[Turn], *,
                    retriever: Retriever) -> list[RetrievedPaper]:
    """``sources`` with the previous answer's paper first when it is one of two the evidence
    cannot tell apart (``decision.tied``): the conversation tells them apart ("Which PIN
    protein's polarity was shown to rearrange dynamically?", after an answer about PIN-driven
    auxin gradients, found that paper and another as likely, the other first). Both are still
    named as equally likely; only their order changes."""
    twin = tied([rp.verified for rp in sources])
    title = answered_paper(history) if twin is not None else None
    if twin is None or title is None:
        return sources
    paper = retriever.paper_titled(title)
    if paper is None or sources[twin].paper.paper_id != paper.paper_id:
        return sources
    order = [twin, *(i for i in range(len(sources)) if i != twin)]
    return [sources[i] for i in order]


def less_sure_line(say: Framing, *, listed: int, more: Sequence[Citation]) -> str:
    """A list's less sure papers, after its ``listed`` sure ones; saying more may be found when
    with them the list is as long as one that may have been cut by k, and its head did not say
    so ("bandits": 6 sure, 10 less sure, of some 300 papers on bandits in the collection)."""
    hint = listed < LIST_K <= listed + len(more)
    return (say.less_sure_more if hint else say.less_sure).format(papers=say.list_sep.join(
        f"**{c.paper.display_title}** [{c.n}]" for c in more))


def _less_sure(rel: Relevance, papers: Sequence[RetrievedPaper], *,
               cited: Sequence[Citation]) -> list[RetrievedPaper]:
    """A list's "less sure" papers: those the decision estimates at least ``V_MAYBE`` but
    below the list's cut-off (``Relevance.maybe_ids``, best first), not cited already."""
    by_id = {rp.paper.paper_id: rp for rp in papers}
    named = {c.paper.paper_id for c in cited}
    return [by_id[pid] for pid in rel.maybe_ids if pid in by_id and pid not in named]


def read_back(said: Form, found: Searched, history: Sequence[Turn], *,
              retriever: Retriever) -> str | None:
    """The previous answer's paper (its id), when a question that reads as standalone is
    about it after all: it may lean on the previous turn (``LEANS``, below the follow-up
    threshold), its own search found nothing sure, and its words point at that paper
    (``evidence.points_to``; searched as a follow-up, the query would carry the paper's title
    and point there by construction). None otherwise: a list, a comparison, papers the user
    picked, a new topic."""
    form = found.form or said
    if (not history or said.follow_up or found.verdict.confident or said.listing
            or form.sides or (found.filters and found.filters.paper_ids)
            or probability(said.question, history[-1][0]) < LEANS):
        return None
    title = answered_paper(history)
    paper = retriever.paper_titled(title) if title else None
    if paper is None:
        return None
    weighed = [rp.paper for rp in found.retrieval.papers[:DECIDE_OVER]]
    stats = answerability.stats_for(retriever.index())
    return paper.paper_id if evidence.points_to(form.query or form.question, paper, weighed,
                                                stats) else None


def _unanswered(form: Form, retrieval: Retrieval, *, question: str, retriever: Retriever,
                answerer: Answerer, leads: int = 0, **fields: Any) -> Answer:
    """A near miss (``fields["outcome"]``) names the closest papers, cited like any claim (a
    comparison's: the closest to each side first, its ``leads``); a refusal says what to do.
    Neither calls an LLM (``near_miss_text`` composes offline). ``question``: as the user
    asked it (the answer's, kept in the chat's history); what is said to be missing is the
    form's (a field's topic, what a sifting turn asks)."""
    # a Chinese query left untranslated (nothing in it the dictionaries know) reads no
    # English sentence: say so rather than name unrelated papers
    unreadable = has_cjk(form.query) and not (answerer.multilingual or retrieval.multilingual)
    if fields.get("outcome") == "near_miss" and not unreadable:
        closest = (retrieval.papers[:leads] + best_first(
            retrieval.papers[leads:DECIDE_OVER]))[:max(NEAR_MISS_PAPERS, leads)]
        judged = fields.get("answerability", {})
        # a comparison's named sides no paper introduces are said before it (the sides' head
        # says which side is here)
        missing = "" if leads else str(judged.get("missing_method") or "")
        text = near_miss_text(form, closest, embedder=retriever.store.embedder,
                              missing=missing, across_languages=retrieval.multilingual,
                              judged=str(fields.get("search_query") or ""),
                              sides=tuple(judged.get("sides") or ("not_found",) * leads)
                              if leads else ())
        citations = [Citation(n, rp.paper) for n, rp in enumerate(closest, 1)]
    else:
        n = retriever.index().paper_count if retrieval.papers else 0
        say = for_form(form)
        text = (say.nothing_asked.format(asked=quoted(form.question)) if form.asks_nothing
                else say.unreadable if unreadable
                else say.refusal.format(n=n, asked=quoted_topic(
                    form.question, judged=str(fields.get("search_query") or ""))))
        citations = []
    return Answer(question, text, answerer.backend, answerer.model, citations,
                  retrieval.papers, True, **fields)


def _ground(result: Answer, retriever: Retriever) -> None:
    """Check every cited sentence against the abstract it cites (grounding.py)."""
    if not result.citations:
        return
    t = time.perf_counter()
    result.grounding = grounding.ground(result.text, result.citations, result.papers,
                                        embedder=retriever.store.embedder)
    result.timings["ground_ms"] = (time.perf_counter() - t) * 1000


_POINTED = frozenset(("it", "this", "that", "this one", "that one", "this work", "that work"))


def _of_citations(cites: cites_ask.CitesAsk, question: str, history: Sequence[Turn], *,
                  retriever: Retriever, k: int, chinese: bool) -> Answer:
    """ "Which papers cite X?", "How many citations does X have?", "Which papers are the most
    cited?": the collection holds no reference lists or citation counts, said; for the papers
    citing one it holds, the papers most like it follow."""
    named = cites.what
    if named.lower() in _POINTED or named in ("它", "这篇", "这篇论文"):  # "Which papers cite
        named = answered_paper(history) or ""  # it?": the previous answer's paper
    paper = retriever.paper_titled(numbered_paper(named, history) or named, named=True,
                                   prefix=True) if named and cites.kind != "most" else None
    if cites.kind == "citing" and paper is not None:
        made = like_this(paper, question, retriever=retriever, k=max(k, SIMILAR_K))
        made.text = no_citations.citing_note(paper, chinese=chinese) + "\n\n" + made.text
        return made
    return no_citations.unanswerable(cites, question, paper=paper, chinese=chinese)


def like_this(paper: Paper, question: str, *, retriever: Retriever, k: int) -> Answer:
    """The papers most like ``paper`` (search/similar.py, as ``assistant similar`` lists them),
    as an answer (answer/listing.py)."""
    from assistant.search.similar import similar

    found = similar(paper.abstract, retriever=retriever, k=k, exclude=[paper.paper_id],
                    paper=paper)
    result = similar_answer(found, title=paper.display_title, facet=None)
    result.question, result.search_query = question, paper.display_title
    return result


def over_the_years(question: str, ask: trend_ask.TrendAsk, *, retriever: Retriever,
                   filters: Filters | None = None, asked: str = "") -> Answer | None:
    """A question about a topic over the years, answered by ``answer.trend``: the chart and
    the periods' papers (answer/listing.py). A venue the collection holds, named in the topic
    ("bandits at COLT") or given as a filter, counts that venue's papers only. None for the
    newest, the first or the count of papers on a topic the trend's judge puts no paper on
    (its chart, all zeros, is still drawn): such a question is answered as any other, by
    search and the decision ("Any recent work on online learning with delayed feedback?" said
    nothing here was on it, over the papers on it, judged 0.63 against the 0.80 a topic needs;
    "How many papers here are about quantization?" over the bundled list, with Q2D2 at 0.78).
    ``asked``: the topic as a Chinese question named it (``ask.topic`` its English): the
    answer is in Chinese."""
    from assistant.answer.trend import trend

    venues, _ = retriever.facets()
    inferred = query_filters.infer(ask.topic, venues=venues, years=[], explicit=filters)
    venue = inferred.venue
    topic = trend_ask.topic_of(query_filters.stripped(ask.topic, {"venue": venue})) \
        if venue else ask.topic
    found = trend(topic or ask.topic, index=retriever.index(), embedder=retriever.store.embedder,
                  start=ask.start, end=ask.end, venue=venue)
    if not found.members and any(y.total for y in found.years) and (
            ask.order or ask.count):
        return None
    if ask.order == "authors":
        result = authors_answer(found, question=question, papers=retriever.papers, asked=asked)
    elif ask.order:
        result = ordered_answer(found, ask.order, question=question, papers=retriever.papers)
    else:
        result = trend_answer(found, question=question, papers=retriever.papers, asked=asked)
    result.search_query = found.topic
    if venue:
        result.filters = {"venue": venue}
    return result


def answer(question: str, *, retriever: Retriever, answerer: Answerer, k: int = 6,
           filters: Filters | None = None, history: Sequence[Turn] = (),
           on_delta: Callable[[str], None] | None = None, infer_filters: bool = True,
           ground: bool = True) -> Answer:
    """The synchronous form of ``astream``: returns the finished Answer."""

    async def run() -> Answer:
        result: Answer | None = None
        async for event in astream(question, retriever=retriever, answerer=answerer, k=k,
                                   filters=filters, history=history,
                                   infer_filters=infer_filters, ground=ground):
            if isinstance(event, Delta) and on_delta:
                on_delta(event.text)
            elif isinstance(event, Finished):
                result = event.answer
        assert result is not None
        return result

    return asyncio.run(run())
