"""Answers that are lists, not prose: the papers like one paper, a topic over the years.

The chat shows such a list as one more turn (saved, copied and exported like an answer), each
paper cited as ``[n]`` with its 0-1 score in the sources pane. Nothing here is generated: the
text is made of the papers' own titles and sentences.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from assistant.answer.types import Answer
from assistant.citations import Citation
from assistant.search.retrieval import RetrievedPaper
from assistant.textutil import clip

if TYPE_CHECKING:
    from assistant.answer.trend import Trend, Year
    from assistant.paper import Paper
    from assistant.search.similar import Neighbours

LISTED = "listed"  # an Answer's outcome when it is such a list: its order is the listing's
FACET_NAMES = {None: "the whole abstract", "background": "its problem",
               "method": "its method", "result": "its result"}


def similar_answer(neighbours: Neighbours, *, title: str, facet: str | None) -> Answer:
    """``neighbours`` (best first) as an answer: a numbered list citing each paper as ``[n]``,
    with the sentence of each abstract that ties the two papers; the query paper's own other
    entries named above it, not listed."""
    found = neighbours.papers
    question = f"Papers like “{title}” ({FACET_NAMES.get(facet, facet)})"
    lines = [f"Papers like **{title}**, on {FACET_NAMES.get(facet, facet)}, best first "
             "(score: 0-1, how close the two sentences below are):", ""]
    if neighbours.versions:
        lines[-1:-1] = ["", "It is also in this collection as " + "; ".join(
            f"{v.display_title} ({v.venue_year or v.paper_id})" for v in neighbours.versions)
            + ": the same paper, not listed."]
    for n, s in enumerate(found, 1):
        p = s.paper
        where = f" ({p.venue_year})" if p.venue_year else ""
        lines.append(f"{n}. **{p.display_title}**{where} [{n}] · {s.score:.2f}")
        lines.append(f"   - this: “{clip(s.pair[0], 240)}”")
        lines.append(f"   - [{n}]: “{clip(s.pair[1], 240)}”")
    if not found:
        lines.append("No other paper in this collection shares it.")
    papers = [RetrievedPaper(s.paper, s.score, s.rank, dense=s.score, verified=s.score,
                             versions=list(s.versions)) for s in found]
    return Answer(question, "\n".join(lines), "extractive", "similar-v1",
                  [Citation(n, s.paper) for n, s in enumerate(found, 1)], papers,
                  refused=False, outcome=LISTED)


def records_answer(question: str, papers: Sequence[Paper]) -> Answer:
    """The BibTeX entries of the papers a recent answer listed ("How do I cite these
    papers?"), each named and cited as [n] above one block of entries."""
    from assistant.sources.bibtex import bibtex_block

    lines = [f"The BibTeX entries of the {len(papers)} papers listed before:", ""]
    lines += [f"- **{p.display_title}**" + (f" ({p.venue_year})" if p.venue_year else "")
              + f" [{n}]" for n, p in enumerate(papers, 1)]
    lines += ["", bibtex_block(papers)]
    return Answer(question, "\n".join(lines), "extractive", "records-v1",
                  [Citation(n, p) for n, p in enumerate(papers, 1)],
                  [RetrievedPaper(p, 0.0, n) for n, p in enumerate(papers, 1)], refused=False,
                  outcome=LISTED)


# -- a topic over the years (search/trend.py) -------------------------------------------------
BLOCKS = " ▏▎▍▌▋▊▉"
BAR = 30  # cells of the longest bar: a chart line fits 80 columns


def bar(value: float, top: float, width: int = BAR) -> str:
    """``value`` as a bar of Unicode blocks, ``top`` filling ``width`` cells (eighths)."""
    eighths = round(value / top * width * 8) if top > 0 else 0
    full, part = divmod(min(eighths, width * 8), 8)
    return ("█" * full + (BLOCKS[part] if part else "")).ljust(width)


def chart_lines(t: Trend) -> list[str]:
    """A line a year: its bar, members over the year's papers, the share and its 90% interval,
    and "few papers" where the year has fewer than ``FEW``."""
    top = max((y.share for y in t.years), default=0.0)
    lines = []
    for y in t.years:
        if not y.total:
            lines.append(f"{y.year} {' ' * BAR}    – no papers that year")
            continue
        lo, hi = y.interval
        few = "  few papers" if y.few else ""
        lines.append(f"{y.year} {bar(y.share, top)} {y.members:>4}/{y.total:<5}"
                     f"{100 * y.share:5.1f}%  {100 * lo:.0f}–{100 * hi:.0f}%{few}")
    return lines


def _venue(venue: str) -> str:
    return venue.upper() if venue.islower() and len(venue) <= 8 else venue


def _papers(t: Trend) -> str:
    """"4,482 papers", or "1,128 UAI papers" when one venue is counted."""
    return f"{t.papers:,} {_venue(t.venue)} papers" if t.venue else f"{t.papers:,} papers"


def _span(start: int, end: int) -> str:
    """A period's years: "2015–2018", or "2020" when it is one year."""
    return f"{start}–{end}" if end > start else f"{start}"


def _years(known: Sequence[Year]) -> str:
    first, last = known[0].year, known[-1].year
    return f"from {first} to {last}" if last > first else f"of {first}"


def _share(t: Trend, start: int, end: int) -> float:
    years = [y for y in t.years if start <= y.year <= end]
    total = sum(y.total for y in years)
    return sum(y.members for y in years) / total if total else 0.0


YEARLESS_NAMED = 5  # the surest papers named of a topic in a collection without years


@dataclass(frozen=True)
class _TrendWords:
    """A trend answer's own sentences in one language (``str.format`` templates; each is given
    every field, and uses those it names)."""
    over_the_years: str  # the question, when none was asked: {topic}
    cite: str  # {title} {score} {where} {n}
    where: str  # {venue_year}
    sep: str
    end: str
    yearless: str  # {members} {total} {verb} {topic} {t_member} {cited}
    nothing_yearless: str  # {topic} {total} {best} {t_topic} {cited}
    no_year: str  # {no_paper} {venue}
    not_years: str  # {no_paper} {venue} {first} {last}
    nothing: str  # {topic} {papers} {years} {best} {t_topic}
    closest: str  # {cited}
    one_year: str  # {papers} {first}
    counted: str  # {members} {papers} {years} {verb} {topic} {t_member}
    legend: str  # {top} {few}
    share_went: str  # {was} {a} {now} {b}
    period: str  # {span} {n} {first}
    central: str  # {central}
    peak: str  # {most} {said}: the year(s) with the most papers on it
    peak_share: str  # {share} {year} {members} {total}: its largest share, another year's
    peak_and: str  # between two or three years of the peak
    peak_years: str  # {n}: more years than that tie


_TREND_EN = _TrendWords(
    over_the_years="{topic} over the years",
    cite="**{title}** ({score:.2f}{where}) [{n}]", where=", {venue_year}", sep="; ", end=".",
    yearless=("**{members:,}** of the {total:,} papers here {verb} on {topic}, each paper judged "
              "on its own (its 0-1 chance of being on it is shown beside it; {t_member:.2f} or "
              "more counts). No paper of this collection has a year, so there is no chart. The "
              "surest of them: {cited}."),
    nothing_yearless=("Nothing here is about {topic}: of the {total:,} papers here (none with a "
                      "year), the likeliest to be on it has a chance of {best:.2f}, below the "
                      "{t_topic:.2f} a topic needs. The closest: {cited}."),
    no_year="{no_paper} of this collection has a year: there is nothing to chart.",
    not_years=("{no_paper} of this collection is from the years asked: it holds {first} to "
               "{last}."),
    nothing=("Nothing here is about {topic}: of the {papers} {years}, the likeliest to be on it "
             "has a chance of {best:.2f}, below the {t_topic:.2f} a topic needs."),
    closest=" The closest: {cited}.",
    one_year="All {papers} here are from {first}: a trend needs papers from several years.\n",
    counted=("**{members:,}** of the {papers} {years} {verb} on {topic}, each paper judged on its "
             "own (its 0-1 chance of being on it is shown beside it; {t_member:.2f} or more "
             "counts)."),
    legend=("\nA bar a year: the topic's share of that year's papers (the longest {top:.1f}%), "
            "the papers on it over the year's, the share and its 90% interval; \"few papers\": "
            "under {few} that year."),
    share_went="\nIts share went from {was:.1f}% in {a} to {now:.1f}% in {b}.",
    period="- **{span}**: {n} on it. First: {first}", central=". Most central: {central}",
    peak="The most papers on it in one year: {most} ({said}).",
    peak_share=(" Its largest share of a year's papers: {share:.1f}% ({year}, {members} of "
                "{total})."),
    peak_and=" and ", peak_years="{n} years",
)
_TREND_ZH = _TrendWords(
    over_the_years="{topic}的变化",
    cite="**{title}**（{score:.2f}{where}）[{n}]", where="，{venue_year}", sep="；", end="。",
    yearless=("本文集的 {total:,} 篇论文中，有 **{members:,}** 篇是关于{topic}的"
              "（逐篇判断：每篇旁边是它属于该主题的 0-1 概率，{t_member:.2f} 及以上计入）。"
              "本文集的论文没有年份，因此没有图表。最确定的几篇：{cited}。"),
    nothing_yearless=("本文集中没有论文是关于{topic}的：{total:,} 篇论文（都没有年份）中，"
                      "最可能相关的一篇概率为 {best:.2f}，低于一个主题所需的 {t_topic:.2f}。"
                      "最接近的：{cited}。"),
    no_year="本文集的{venue}论文没有年份：没有可画的图。",
    not_years="本文集没有所问年份的{venue}论文：它收录 {first} 到 {last} 年的论文。",
    nothing=("本文集中没有论文是关于{topic}的：{years}的 {papers}中，最可能相关的一篇概率为 "
             "{best:.2f}，低于一个主题所需的 {t_topic:.2f}。"),
    closest="最接近的：{cited}。",
    one_year="这里的 {papers}都来自 {first} 年：趋势需要多个年份的论文。\n",
    counted=("{years}的 {papers}中，有 **{members:,}** 篇是关于{topic}的"
             "（逐篇判断：每篇旁边是它属于该主题的 0-1 概率，{t_member:.2f} 及以上计入）。"),
    legend=("\n每年一条：该主题在当年论文中的占比（最长的一条 {top:.1f}%）、"
            "主题论文数/当年论文数、占比及其 90% 区间；“few papers”：当年少于 {few} 篇。"),
    share_went="\n其占比从 {a} 年的 {was:.1f}% 变为 {b} 年的 {now:.1f}%。",
    period="- **{span}**：{n} 篇。最早的：{first}", central="。最核心的：{central}",
    peak="单年论文最多：{most} 篇（{said}）。",
    peak_share="占当年论文的比例最高：{share:.1f}%（{year}，{total} 篇中的 {members} 篇）。",
    peak_and="、", peak_years="{n} 个年份",
)


def peak(known: Sequence[Year], *, say: _TrendWords = _TREND_EN) -> str:
    """The year (or years) with the most papers on the topic, and the year of its largest
    share when that is another ("which year had the most papers on X?"); a year of few papers
    has no say in the share."""
    most = max(y.members for y in known)
    tops = [y.year for y in known if y.members == most]
    said = say.peak_and.join(map(str, tops)) if len(tops) <= 3 else \
        say.peak_years.format(n=len(tops))
    line = say.peak.format(most=most, said=said)
    steady = [y for y in known if not y.few] or list(known)
    widest = max(steady, key=lambda y: (y.share, y.members))
    if widest.year not in tops:
        line += say.peak_share.format(share=100 * widest.share, year=widest.year,
                                      members=widest.members, total=widest.total)
    return line


def trend_answer(t: Trend, *, papers: Callable[[list[str]], list[Paper]],
                 question: str = "", asked: str = "") -> Answer:
    """``t`` as an answer: what was counted, the chart (a code block of bars), then each
    period's first and most central papers cited as [n]; or, when no paper is on the topic,
    that, with the closest ones. ``papers``: the records of paper ids (the index's). ``asked``:
    the topic as a Chinese question named it (``t.topic`` is its English): the answer's own
    sentences are then Chinese, the papers' titles as written."""
    from assistant.answer.trend import FEW
    from assistant.judge.membership import T_MEMBER, T_TOPIC

    say = _TREND_ZH if asked else _TREND_EN
    score = {m.paper_id: m.score for m in [*t.members, *t.closest]}
    cited: dict[str, int] = {}
    by_id: dict[str, Paper] = {}

    def cite(paper: Paper) -> str:
        by_id[paper.paper_id] = paper
        n = cited.setdefault(paper.paper_id, len(cited) + 1)
        where = say.where.format(venue_year=paper.venue_year) if paper.venue_year else ""
        return say.cite.format(title=paper.display_title, score=score.get(paper.paper_id, 0),
                               where=where, n=n)

    def cites(listed: Sequence[Paper]) -> str:
        return say.sep.join(map(cite, listed))

    known = [y for y in t.years if y.total]
    venue = _venue(t.venue) if t.venue else ""
    fields: dict[str, Any] = {
        "topic": f"“{asked}”（{t.topic}）" if asked and asked != t.topic else f"“{t.topic}”",
        "members": t.total_members, "total": t.papers,
        "verb": "is" if t.total_members == 1 else "are", "t_member": T_MEMBER,
        "t_topic": T_TOPIC, "venue": f" {venue} " if venue else "",
        "no_paper": f"No {venue} paper" if venue else "No paper"}
    if known:
        first, last = known[0].year, known[-1].year
        fields.update(first=first, last=last, papers=(
            f"{t.papers:,} 篇{fields['venue']}论文" if asked else _papers(t)),
            years=(f"{_span(first, last)} 年" if asked else _years(known)))
    question = question or say.over_the_years.format(**fields)
    lines: list[str] = []
    outcome = LISTED
    if not known and t.members:  # a collection without years: the count, no chart
        surest = papers([m.paper_id for m in t.members[:YEARLESS_NAMED]])
        lines.append(say.yearless.format(**fields, cited=cites(surest)))
    elif not known and t.held is None and not t.venue and t.closest:  # nor any on the topic
        closest = papers([m.paper_id for m in t.closest])
        lines.append(say.nothing_yearless.format(
            **fields, best=max(m.score for m in t.closest), cited=cites(closest)))
        outcome = "near_miss"
    elif not known:
        lines.append(say.no_year.format(**fields) if t.held is None else
                     say.not_years.format(**{**fields, "first": t.held[0], "last": t.held[1]}))
        outcome = "near_miss"
    elif not t.members:
        closest = papers([m.paper_id for m in t.closest])
        best = max((m.score for m in t.closest), default=0.0)
        lines.append(say.nothing.format(**fields, best=best) + (
            say.closest.format(cited=cites(closest)) if closest else ""))
        outcome = "near_miss"
    else:
        if fields["first"] == fields["last"]:
            lines.append(say.one_year.format(**fields))
        lines.append(say.counted.format(**fields))
        lines.append(say.legend.format(top=100 * max(y.share for y in known), few=FEW))
        if len(known) > 1 and len(t.periods) > 1:
            a, b = t.periods[0], t.periods[-1]
            lines.append(say.share_went.format(
                was=100 * _share(t, a.start, a.end), a=_span(a.start, a.end),
                now=100 * _share(t, b.start, b.end), b=_span(b.start, b.end)))
        if len([y for y in known if y.members]) > 1:
            lines.append("\n" + peak(known, say=say))
        lines += ["", "```text", *chart_lines(t), "```", ""]
        for period in t.periods:
            if not period.members:
                continue
            text = say.period.format(span=_span(period.start, period.end), n=period.members,
                                     first=cites(period.first))
            if period.central:
                text += say.central.format(central=cites(period.central))
            lines.append(text + say.end)
    citations = [Citation(n, by_id[pid]) for pid, n in cited.items()]
    retrieved = [RetrievedPaper(c.paper, score.get(c.paper.paper_id, 0.0), c.n,
                                verified=score.get(c.paper.paper_id)) for c in citations]
    return Answer(question, "\n".join(lines), "extractive", "trend-v1", citations, retrieved,
                  refused=False, outcome=outcome, trend=trend_dict(t))


ORDERED = 5  # papers named by "the most recent papers on X", "the first paper on X"
# ... taken from the members at least this sure of the topic when there are any: which paper
# comes first is read off one paper, so a loose member must not be it
ORDER_SURE = 0.6


def ordered_answer(t: Trend, order: str, *, papers: Callable[[list[str]], list[Paper]],
                   question: str = "") -> Answer:
    """The newest (``order`` "newest") or the earliest ("oldest") of a topic's papers, at most
    ``ORDERED``, of those at least ``ORDER_SURE`` on it (all members when none is), each with
    its year and its 0-1 chance of being on the topic; ties of a year go to the surer. The
    topic not in the collection: the trend's own answer says so."""
    from assistant.judge.membership import T_MEMBER

    if not t.members or not any(y.total for y in t.years):
        return trend_answer(t, papers=papers, question=question)
    newest = order == "newest"
    pool = [m for m in t.members if m.score >= ORDER_SURE] or t.members
    chosen = sorted(pool, key=lambda m: (-m.year if newest else m.year, -m.score))[:ORDERED]
    records = {p.paper_id: p for p in papers([m.paper_id for m in chosen])}
    chosen = [m for m in chosen if m.paper_id in records]
    which = "most recent" if newest else "earliest"
    lines = [f"The {which} of the **{t.total_members:,}** papers on “{t.topic}” in this "
             f"collection, each judged on its own (its 0-1 chance of being on it beside it; "
             f"{T_MEMBER:.2f} or more counts):", ""]
    for n, m in enumerate(chosen, 1):
        paper = records[m.paper_id]
        where = f", {paper.venue_year}" if paper.venue_year else ""
        lines.append(f"- **{paper.display_title}** ({m.score:.2f}{where}) [{n}]")
    citations = [Citation(n, records[m.paper_id]) for n, m in enumerate(chosen, 1)]
    retrieved = [RetrievedPaper(c.paper, m.score, c.n, verified=m.score)
                 for c, m in zip(citations, chosen, strict=True)]
    return Answer(question or f"the {which} papers on “{t.topic}”", "\n".join(lines),
                  "extractive", "trend-v1", citations, retrieved, refused=False,
                  outcome=LISTED, trend=trend_dict(t))


def trend_dict(t: Trend) -> dict[str, Any]:
    """What ``trend --json`` prints (and an answer keeps for the chat's chart)."""
    known = [y for y in t.years if y.total]
    return {"topic": t.topic, "venue": t.venue or None, "from": known[0].year if known else None,
            "to": known[-1].year if known else None, "papers": t.papers,
            "members": t.total_members, "years": [y.to_dict() for y in t.years],
            "periods": [{"from": p.start, "to": p.end, "members": p.members,
                         "share": round(_share(t, p.start, p.end), 4),
                         "first": [_named(q) for q in p.first],
                         "central": [_named(q) for q in p.central]} for p in t.periods],
            "papers_on_topic": [{"paper_id": m.paper_id, "year": m.year,
                                 "score": round(m.score, 3)} for m in t.members],
            "closest": [{"paper_id": m.paper_id, "year": m.year, "score": round(m.score, 3)}
                        for m in t.closest]}


def _named(paper: Paper) -> dict[str, Any]:
    return {"paper_id": paper.paper_id, "title": paper.display_title, "year": paper.year,
            "venue": paper.venue}


def _spans(years: Sequence[int]) -> str:
    """Years as runs: 2011, 2013–2015."""
    runs: list[list[int]] = []
    for y in sorted(set(years)):
        if runs and runs[-1][1] == y - 1:
            runs[-1][1] = y
        else:
            runs.append([y, y])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def _by_venue(venue_years: dict[tuple[str, int], int]) -> dict[str, dict[int, int]]:
    """Papers per (venue, year) as each venue's counts by year, the venue with most first."""
    by_venue: dict[str, dict[int, int]] = {}
    for (venue, year), n in venue_years.items():
        by_venue.setdefault(venue, {})[year] = n
    return dict(sorted(by_venue.items(), key=lambda kv: -sum(kv[1].values())))


def collection_answer(question: str, *, venue_years: dict[tuple[str, int], int],
                      chinese: bool = False) -> Answer:
    """What the collection holds, from its index: its papers, by venue with their years, and
    what to ask of them ("How many papers are there?", "Which venues does it cover?")."""
    total = sum(venue_years.values())
    by_venue = _by_venue(venue_years)
    years = [y for (_, y) in venue_years if y]
    span = (f"{min(years)}–{max(years)}" if min(years) < max(years) else str(years[0])) \
        if years else ""
    if chinese:
        lines = [f"本文集共有 **{total:,}** 篇论文" + (f"，年份 {span}" if span else "") + "："]
    else:
        when = (f", from {span.replace('–', ' to ')}" if "–" in span else f", all from {span}") \
            if span else ""
        lines = [f"This collection holds **{total:,}** papers{when}:"]
    lines.append("")
    unnamed = set(by_venue) == {""} and not years  # a list that names no venue or year (bio)
    if unnamed:
        lines.append("- 论文列表没有给出会议或年份" if chinese else
                     "- the paper list gives no venue or year")
    for venue, counts in [] if unnamed else by_venue.items():
        n = sum(counts.values())
        known = [y for y in counts if y]
        name = venue.upper() if venue else ("未注明会议" if chinese else "no venue given")
        when = f" {_spans(known)}" if known else ""
        lines.append(f"- {name}{when}: {n:,}" + (" 篇" if chinese else
                                                  f" paper{'s' * (n != 1)}"))
    lines.append("")
    lines.append("可以问某个主题（“哪些论文研究……？”）、某篇论文或某位作者；`assistant papers`"
                 "（对话中按 ctrl+l）列出全部论文，`assistant trend 主题` 按年份显示一个主题。"
                 if chinese else
                 "Ask about a topic (“Which papers study ...?”), a paper by its title, or an "
                 "author; `assistant papers` (ctrl+l in the chat) lists them all, and `assistant "
                 "trend TOPIC` shows a topic year by year.")
    return Answer(question, "\n".join(lines), "extractive", "collection-v1", [], [],
                  refused=False, outcome=LISTED)


def status_answer(question: str, status: str, *, venue_years: dict[tuple[str, int], int]
                  ) -> Answer:
    """How many papers here fared so ("Which papers were rejected?", "How many papers were
    withdrawn?"), by venue with their years, and how to ask for those on a topic: a status
    asked with nothing else, searched, was a refusal ("none of the papers is about “Which
    papers were rejected”")."""
    total = sum(venue_years.values())
    by_venue = _by_venue(venue_years)
    lines = [f"This collection holds **{total:,}** paper{'s' * (total != 1)} marked {status}:",
             ""]
    for venue, counts in by_venue.items():
        name = venue.upper() if venue else "no venue given"
        lines.append(f"- {name}: " + ", ".join(f"{y}: {n:,}" if y else f"no year: {n:,}"
                                               for y, n in sorted(counts.items())))
    lines += ["", f"For those on a topic, ask “Which {status} papers are about ...?”; `assistant "
              f"papers --status {status}` lists them all, and in the chat `/filter "
              f"status={status}` asks about them alone."]
    return Answer(question, "\n".join(lines), "extractive", "collection-v1", [], [],
                  refused=False, outcome=LISTED, filters={"status": status},
                  filters_read={"status": status})
