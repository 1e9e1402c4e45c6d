"""A topic over the years (answer/trend.py, judge/membership.py, answer/listing.py), on real
Chroma stores: invariants checked on many generated topics, against counts made another way
(the store's own paper list, not the index the trend reads)."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from topics import multi_year_slice, topics_of

from assistant.answer.listing import chart_lines, trend_answer
from assistant.answer.trend import FEW, trend
from assistant.index.store import PaperStore
from assistant.judge.membership import T_MEMBER, T_TOPIC, membership, scores
from assistant.query import trend_ask
from assistant.search.retrieval import Retriever
from assistant.sources.corpus import bundled_papers

SHARED = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "ml-abstracts.jsonl"
OFF_TOPIC = ["medieval French poetry", "coral reef bleaching", "cheese ripening cultures"]


@pytest.fixture(scope="module")
def years_store(tmp_path_factory, embedder) -> PaperStore:
    """The bundled papers, dated 2020-2026 in turn and at two venues (a multi-year collection
    of 19)."""
    papers = [replace(p, year=2020 + i % 7, venue=("ICML", "COLT")[i % 2])
              for i, p in enumerate(bundled_papers())]
    path = tmp_path_factory.mktemp("years") / "store"
    store = PaperStore(collection="years", embedder=embedder, path=path, create=True)
    store.ingest(papers, source="test:years")
    return store



def check(store: PaperStore, topic: str, start: int | None = None, end: int | None = None
          ) -> int:
    """Every invariant of one trend; returns its member count."""
    retr = Retriever(store=store)
    index = retr.index()
    t = trend(topic, index=index, embedder=store.embedder, start=start, end=end)
    everything = store.papers()  # the store's own list: the totals, counted another way
    dated = [p for p in everything if p.year and (start is None or p.year >= start)
             and (end is None or p.year <= end)]
    years = Counter(p.year for p in dated)
    assert [y.year for y in t.years] == list(range(min(years), max(years) + 1))
    assert {y.year: y.total for y in t.years if y.total} == dict(years)  # never the hits
    assert t.papers == len(dated)
    # members: exactly the dated papers whose chance reaches the cut-off, best first
    ids = index.all_paper_ids
    p = membership(scores(topic, index=index, embedder=store.embedder))
    chance = dict(zip(ids, p.tolist(), strict=True))
    held = max(chance[x.paper_id] for x in dated) >= T_TOPIC  # the topic is here at all
    want = {x.paper_id for x in dated if held and chance[x.paper_id] >= T_MEMBER}
    assert {m.paper_id for m in t.members} == want
    assert [m.score for m in t.members] == sorted((m.score for m in t.members), reverse=True)
    by_year = Counter(x.year for x in dated if x.paper_id in want)
    for y in t.years:
        assert y.members == by_year.get(y.year, 0)
        lo, hi = y.interval
        assert 0 <= lo <= y.share <= hi <= 1
        assert y.few == (y.total < FEW)
    # periods: the span, consecutive, no overlap; first papers are the earliest members
    if t.periods:
        assert t.periods[0].start == t.years[0].year and t.periods[-1].end == t.years[-1].year
        for a, b in zip(t.periods, t.periods[1:], strict=False):
            assert b.start == a.end + 1
        assert sum(q.members for q in t.periods) == len(want)
        for q in t.periods:
            inside = {m.paper_id: m.year for m in t.members if q.start <= m.year <= q.end}
            if inside:
                assert {f.paper_id for f in q.first} <= set(inside)
                assert {f.year for f in q.first} == {min(inside.values())}
                assert {c.paper_id for c in q.central} <= set(inside)
                assert not {c.paper_id for c in q.central} & {f.paper_id for f in q.first}
    # the answer: every [n] one paper, each cited paper a member (or, with none, a closest)
    answer = trend_answer(t, papers=lambda ids: store.papers(ids), question=topic)
    numbers = {int(n) for n in re.findall(r"\[(\d+)\]", answer.text)}
    assert numbers == {c.n for c in answer.citations}
    assert len({c.paper.paper_id for c in answer.citations}) == len(answer.citations)
    allowed = want or {m.paper_id for m in t.closest}
    assert {c.paper.paper_id for c in answer.citations} <= allowed
    assert answer.outcome == ("listed" if want else "near_miss")
    assert all(len(line) <= 80 for line in chart_lines(t))
    assert len(chart_lines(t)) == len(t.years)
    # the peak: the year(s) with the most members, counted from the store's list; the largest
    # share of a year's papers (years of few papers aside) said when it is another year
    peaks = [line for line in answer.text.splitlines() if line.startswith("The most papers")]
    if len(by_year) > 1:
        most = max(by_year.values())
        tops = sorted(y for y, n in by_year.items() if n == most)
        assert len(peaks) == 1 and peaks[0].startswith(
            f"The most papers on it in one year: {most} ("), peaks[0]
        if len(tops) <= 3:
            assert f"({' and '.join(map(str, tops))})." in peaks[0]
        steady = {y: n / years[y] for y, n in by_year.items() if years[y] >= FEW} or \
            {y: n / years[y] for y, n in by_year.items()}
        widest = max(steady.values())
        if not set(tops) & {y for y, v in steady.items() if v == widest}:
            assert f"{100 * widest:.1f}%" in peaks[0], peaks[0]
        else:
            assert "largest share" not in peaks[0]
    else:
        assert not peaks
    return len(want)


def test_trends_count_every_paper_of_each_year(years_store):
    papers = years_store.papers()
    for topic in topics_of(papers, 19):
        check(years_store, topic)
    assert [check(years_store, topic) for topic in OFF_TOPIC] == [0, 0, 0]
    index = Retriever(store=years_store).index()
    for topic, title in (("watermarking", "IPMark"), ("differential privacy", "The computational"),
                         ("quantization", "Q2D2")):  # the paper a topic is about comes first
        t = trend(topic, index=index, embedder=years_store.embedder)
        assert t.closest[0].paper_id == next(p.paper_id for p in papers
                                             if p.title.startswith(title)), topic
    check(years_store, topics_of(papers, 1)[0], start=2022, end=2024)


def test_a_topic_nothing_is_about_names_the_closest(years_store):
    t = trend("coral reef bleaching", index=Retriever(store=years_store).index(),
              embedder=years_store.embedder)
    assert not t.members and len(t.closest) == 3
    answer = trend_answer(t, papers=years_store.papers)
    assert answer.text.startswith("Nothing here is about “coral reef bleaching”")
    assert [c.paper.paper_id for c in answer.citations] == [m.paper_id for m in t.closest]


@pytest.mark.shared
def test_trend_invariants_over_a_multi_year_slice_of_the_corpus(tmp_path, embedder):
    """300 dev-part papers of the multi-year fit venues (COLT 2011-24, ACML 2010-24), twenty
    topics made from their titles, three off the field."""
    store, read = multi_year_slice(SHARED, tmp_path, embedder)
    from assistant.evaluation.splits import corpus_part  # each a dev paper of a fit venue

    assert all(corpus_part({"uid": p.paper_id, "venue": p.venue, "year": p.year}) == "dev"
               for p in store.papers())
    papers = store.papers()
    assert len(papers) == read and len({p.year for p in papers}) >= 14
    found = [check(store, topic) for topic in topics_of(papers[::9], 20)]
    assert sum(n > 0 for n in found) >= 10
    assert [check(store, topic) for topic in OFF_TOPIC] == [0, 0, 0]


QUESTIONS = {
    "How has work on bandits changed since 2011?": ("bandits", 2011, None),
    "How has research into differential privacy evolved from 2015 to 2020?":
        ("differential privacy", 2015, 2020),
    "trends in graph neural networks": ("graph neural networks", None, None),
    "How many papers on causal inference per year?": ("causal inference", None, None),
    "Gaussian processes over time": ("Gaussian processes", None, None),
    "When did large language models take off?": ("large language models", None, None),
    "How have papers about robot grasping changed between 2021 and 2024?":
        ("robot grasping", 2021, 2024),
    "How many papers on Gaussian processes are there?": ("Gaussian processes", None, None),
    "How many papers study differential privacy?": ("differential privacy", None, None),
    "How much work is there on imitation learning in the collection?":
        ("imitation learning", None, None),
    "how many papers about sim-to-real transfer does the collection have": (
        "sim-to-real transfer", None, None),
    "How many papers here are about GANs?": ("GANs", None, None),
    "How many papers are about federated learning?": ("federated learning", None, None),
    "How many of the papers in this collection discuss meta-learning?": (
        "meta-learning", None, None),
    "How many papers mention dropout since 2015?": ("dropout", 2015, None),
    "Which year had the most papers on meta-learning?": ("meta-learning", None, None),
    "In what year were the most papers on bandits published?": ("bandits", None, None),
    "When were most papers about Gaussian processes written?": ("Gaussian processes", None,
                                                                None),
    "When was imitation learning most popular?": ("imitation learning", None, None),
}
ORDERED = {
    "What is the most recent paper on diffusion policies?": ("diffusion policies", "newest"),
    "latest work about Gaussian processes": ("Gaussian processes", "newest"),
    "What's new in Gaussian processes?": ("Gaussian processes", "newest"),
    "Which were the earliest papers on bandits?": ("bandits", "oldest"),
    "Which was the first paper to use transformers for robot manipulation?":
        ("transformers for robot manipulation", "oldest"),
}
NOT_ORDERED = ["What did the latest paper on diffusion policies find?",
               "What does the first paper propose?",
               "What results does the latest paper on diffusion policies report?",
               "Which paper was first to beat humans at Go?"]
NOT_TRENDS = [
    "How has the regret bound changed compared to prior work?",
    "Which paper proposes a new bandit algorithm?", "What datasets did they use?",
    "How did the method change the results?", "What are the latest trends?",
    "Has anyone shown near-linear sample complexity for active regression with a single-index "
    "model, improving a d^2 bound from 2023?",
    "How many papers on diffusion models use the ImageNet benchmark?",
    "How many papers does the collection hold?", "How many parameters does the model have?",
    "How many papers on this are there?", "Which year had the most papers?",
    "When was the paper on bandits published?", "How many papers are about it?",
    "How many papers discuss the limitations of this method?",
]


def test_questions_about_a_topic_over_the_years_are_read_and_others_are_not():
    for question, (topic, start, end) in QUESTIONS.items():
        counted = question.lower().startswith(("how many", "how much"))  # a count asked for
        assert trend_ask.read(question) == trend_ask.TrendAsk(topic, start, end,
                                                              count=counted), question
    for question in NOT_TRENDS:
        assert trend_ask.read(question) is None, question


def test_the_command_and_ask_route_a_topic_over_the_years(years_store, capsys, monkeypatch):
    from assistant.cli.main import main

    monkeypatch.setenv("ASSISTANT_STORE", str(years_store.location))
    monkeypatch.setenv("ASSISTANT_COLLECTION", "years")
    assert main(["trend", "work on watermarking", "--from", "2021", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["topic"] == "watermarking" and got["from"] == 2021 and got["to"] == 2026
    assert [y["year"] for y in got["years"]] == list(range(2021, 2027))
    assert sum(y["total"] for y in got["years"]) == got["papers"] == sum(
        1 for p in years_store.papers() if p.year >= 2021)
    assert set(got["years"][0]) == {"year", "members", "total", "share", "low", "high",
                                    "few_papers"}
    assert {c["n"] for c in got["citations"]} == {
        int(n) for n in re.findall(r"\[(\d+)\]", got["text"])}
    assert main(["trend", "watermarking"]) == 0  # the chart as text, bars within 80 columns
    out = capsys.readouterr().out
    assert "```" not in out and "**" not in out
    chart = [line for line in out.splitlines() if re.match(r"^20\d\d ", line)]
    assert [line[:4] for line in chart] == [str(y) for y in range(2020, 2027)]
    assert all(len(line) <= 80 for line in chart)
    # ask routes the question to the same trend; a question about papers it does not
    assert main(["ask", "How has work on watermarking changed since 2021?", "--json"]) == 0
    asked = json.loads(capsys.readouterr().out)
    assert asked["trend"]["topic"] == "watermarking" and asked["trend"]["from"] == 2021
    assert asked["trend"]["years"] == got["years"]
    assert main(["ask", "Which paper watermarks personalized images?", "--json"]) == 0
    assert "trend" not in json.loads(capsys.readouterr().out)


def test_bad_trend_input_is_one_line_and_exit_2(years_store, capsys, monkeypatch):
    from assistant.cli.main import main

    monkeypatch.setenv("ASSISTANT_STORE", str(years_store.location))
    monkeypatch.setenv("ASSISTANT_COLLECTION", "years")
    for argv in (["trend", "bandits", "--from", "2025", "--to", "2021"], ["trend", "  ?  "],
                 ["trend", "bandits", "--collection", "nosuch"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "Traceback" not in err, err


def test_the_chat_shows_the_chart_and_the_periods_papers(years_store, monkeypatch, embedder):
    from textual.widgets import Sparkline
    from tui_helpers import RecordingApp, ask, asyncio_test, ready

    from assistant.settings import load_settings
    from assistant.tui.widgets.answer_view import CELLS

    monkeypatch.setenv("ASSISTANT_STORE", str(years_store.location))

    @asyncio_test
    async def run() -> None:
        app = RecordingApp(load_settings(collection="years"), embedder=embedder)
        async with app.run_test(size=(80, 40)) as pilot:
            await ready(pilot)
            await ask(pilot, "How has work on watermarking changed over the years?")
            view = app.chat.views[-1]
            answer = view.answer
            assert answer.trend is not None and answer.trend["topic"] == "watermarking"
            chart = view.query_one(".chart", Sparkline)
            years = answer.trend["years"]
            assert chart.display and chart.data == [y["share"] for y in years
                                                    for _ in range(CELLS)]
            assert chart.size.width == len(years) * CELLS <= 80
            # the sources pane: the cited papers, in citation order, with their chances
            shown = app.chat.sources.sources
            assert answer.trend["members"] >= 1 and shown
            assert [(s.paper.paper_id, s.n) for s in shown] == [
                (c.paper.paper_id, c.n) for c in answer.citations]
            on_topic = {p["paper_id"]: p["score"] for p in answer.trend["papers_on_topic"]}
            assert all(round(s.score, 3) == on_topic[s.paper.paper_id] for s in shown)
            # saved with its chart and scores: a resumed conversation draws them again
            from assistant.conversations.history import History

            cid = app.chat.conversation_id
            saved = History(app.settings.history).get(cid).turns[0].answer
            assert saved.trend == answer.trend
            assert [rp.verified for rp in saved.papers] == [rp.verified for rp in answer.papers]
            await app.chat.show_conversation(cid, [saved])
            await pilot.pause()
            again = app.chat.views[-1]
            assert again.query_one(".chart", Sparkline).display
            assert [s.score for s in app.chat.sources.sources] == [s.score for s in shown]

    run()


def test_years_the_collection_does_not_hold_are_said_so(years_store):
    t = trend("watermarking", index=Retriever(store=years_store).index(),
              embedder=years_store.embedder, start=2030)
    assert t.years == [] and t.members == [] and t.held == (2020, 2026)
    answer = trend_answer(t, papers=years_store.papers)
    assert answer.text == ("No paper of this collection is from the years asked: it holds "
                           "2020 to 2026.")
    assert answer.citations == [] and answer.outcome == "near_miss"


def test_a_venue_counts_its_own_papers_only(years_store, capsys, monkeypatch):
    from assistant.cli.main import main

    index = Retriever(store=years_store).index()
    colt = [p for p in years_store.papers() if p.venue == "COLT"]
    for topic in [*topics_of(colt, 9), "watermarking"]:
        t = trend(topic, index=index, embedder=years_store.embedder, venue="COLT")
        assert {y.year: y.total for y in t.years if y.total} == dict(Counter(p.year for p in colt))
        assert {m.paper_id for m in t.members} <= {p.paper_id for p in colt}
        assert t.papers == len(colt) and t.venue == "COLT"
    monkeypatch.setenv("ASSISTANT_STORE", str(years_store.location))
    monkeypatch.setenv("ASSISTANT_COLLECTION", "years")
    # a venue named in the question: that venue's papers, and a topic without it
    assert main(["ask", "How has work on watermarking at COLT changed since 2021?",
                 "--json"]) == 0
    got = json.loads(capsys.readouterr().out)["trend"]
    assert got["topic"] == "watermarking" and got["venue"].lower() == "colt"
    assert sum(y["total"] for y in got["years"]) == sum(1 for p in colt if p.year >= 2021)
    assert main(["trend", "watermarking", "--venue", "NeurIPS"]) == 2
    err = capsys.readouterr().err
    assert "venues colt, icml" in err and len(err.strip().splitlines()) == 1


def test_questions_asking_for_the_newest_or_first_papers_on_a_topic_are_read():
    for question, (topic, order) in ORDERED.items():
        assert trend_ask.read(question) == trend_ask.TrendAsk(topic, order=order), question
    for question in NOT_ORDERED:
        found = trend_ask.read(question)
        assert found is None or not found.order, question
    # "what is new in X since Y": its newest papers from Y on (a hedged one-paper answer before)
    assert trend_ask.read("What is new in imitation learning since 2023?") == trend_ask.TrendAsk(
        "imitation learning", 2023, order="newest")
    assert trend_ask.read("What is new in this paper?") is None


@pytest.mark.parametrize("order", ["newest", "oldest"])
def test_the_newest_or_first_papers_on_a_topic_are_its_members_by_year(years_store, embedder,
                                                                      order):
    """Every paper named is a member of the topic's trend, named in year order (newest or
    oldest first), of the surest members when there are any; the count is the trend's."""
    from assistant.answer.listing import ORDER_SURE, ORDERED, ordered_answer

    retr = Retriever(store=years_store)
    checked = 0
    for topic in topics_of(years_store.papers(), 19):
        t = trend(topic, index=retr.index(), embedder=embedder)
        if not t.members:
            continue
        result = ordered_answer(t, order, papers=retr.papers)
        by_id = {m.paper_id: m for m in t.members}
        named = [by_id[c.paper.paper_id] for c in result.citations]
        pool = [m for m in t.members if m.score >= ORDER_SURE] or t.members
        assert len(named) == min(ORDERED, len(pool))
        years = [m.year for m in named]
        assert years == sorted(years, reverse=order == "newest")
        others = [m.year for m in pool if m not in named]
        if others:  # none left out is newer (or older) than one named
            assert (min(years) >= max(others)) if order == "newest" else \
                (max(years) <= min(others))
        assert f"**{t.total_members:,}** papers on “{topic}”" in result.text
        if not checked:  # asked as a researcher would, ``ask`` answers the same
            from assistant.answer.extractive import ExtractiveAnswerer
            from assistant.answer.pipeline import answer

            said = {"newest": "What is the most recent paper on", "oldest":
                    "Which was the first paper on"}[order]
            asked = answer(f"{said} {topic}?", retriever=retr,
                           answerer=ExtractiveAnswerer(embedder=embedder))
            assert [c.paper.paper_id for c in asked.citations] == \
                [c.paper.paper_id for c in result.citations]
        checked += 1
    assert checked >= 5


def test_the_newest_papers_on_a_topic_the_judge_puts_none_on_are_searched(years_store,
                                                                          embedder):
    """ "Any recent work on X?" where the trend's judge puts no paper on X said only "Nothing
    here is about X ... below the 0.80 a topic needs" (over ml-theory, with papers on X it
    rated 0.63): it is answered as any question is, by search and the decision."""
    from assistant.answer.extractive import ExtractiveAnswerer
    from assistant.answer.pipeline import answer

    retr = Retriever(store=years_store)
    tried = 0
    for topic in [*topics_of(years_store.papers(), 19), *OFF_TOPIC]:
        if trend(topic, index=retr.index(), embedder=embedder).members:
            continue
        tried += 1
        for asked in (f"What is the most recent paper on {topic}?",
                      f"How many papers here are about {topic}?"):
            said = answer(asked, retriever=retr, answerer=ExtractiveAnswerer(embedder=embedder))
            assert said.trend is None and "a topic needs" not in said.text, (asked, said.text)
            if said.outcome == "answered" and "How many" in asked:  # the papers on it, a list
                # (or the one it comes down to)
                assert re.match(r"\d+ papers? in the collection bear|The most relevant paper",
                                said.text), said.text
        chart = answer(f"How has work on {topic} changed over the years?", retriever=retr,
                       answerer=ExtractiveAnswerer(embedder=embedder))
        assert chart.trend is not None  # a chart asked for is drawn, zeros and all
    assert tried >= len(OFF_TOPIC)


def test_a_count_the_judge_puts_no_paper_in_lists_the_papers_search_finds(bundled_store,
                                                                          embedder):
    """ "How many papers here are about quantization?" over the bundled list said "Nothing here
    is about “quantization”" (Q2D2 judged 0.78, below the 0.80 a topic needs): the two papers on
    it are listed, counted, as "Which papers are about quantization?" lists them."""
    from assistant.answer.extractive import ExtractiveAnswerer
    from assistant.answer.pipeline import answer

    retr = Retriever(store=bundled_store)
    assert not trend("quantization", index=retr.index(), embedder=embedder).members
    said = answer("How many papers here are about quantization?", retriever=retr,
                  answerer=ExtractiveAnswerer(embedder=embedder))
    listed = answer("Which papers are about quantization?", retriever=retr,
                    answerer=ExtractiveAnswerer(embedder=embedder))
    assert said.outcome == "answered" and said.trend is None
    assert [c.paper.paper_id for c in said.citations] == \
        [c.paper.paper_id for c in listed.citations]
    assert said.text.startswith(f"{len([c for c in said.citations if not c.less_sure])} papers")


@pytest.fixture(scope="module")
def yearless_store(tmp_path_factory, embedder) -> PaperStore:
    """The bundled papers with no year (a list exported without dates, as bio's)."""
    papers = [replace(p, year=None) for p in bundled_papers()]
    path = tmp_path_factory.mktemp("yearless") / "store"
    store = PaperStore(collection="yearless", embedder=embedder, path=path, create=True)
    store.ingest(papers, source="test:yearless")
    return store


def test_a_collection_without_years_still_counts_a_topics_papers(yearless_store):
    """ "How many papers here are about X?" over papers without years said only "No paper of
    this collection has a year: there is nothing to chart": the count, no chart, the surest
    members cited; a topic nothing is on names the closest, as a dated collection does."""
    index = Retriever(store=yearless_store).index()
    counted = 0
    for topic in [*topics_of(yearless_store.papers(), 19), *OFF_TOPIC]:
        t = trend(topic, index=index, embedder=yearless_store.embedder)
        p = membership(scores(topic, index=index, embedder=yearless_store.embedder))
        held = p.max() >= T_TOPIC
        want = {pid for pid, x in zip(index.all_paper_ids, p.tolist(), strict=True)
                if held and x >= T_MEMBER}
        assert {m.paper_id for m in t.members} == want and t.total_members == len(want)
        assert t.years == [] and t.papers == 19
        answer = trend_answer(t, papers=yearless_store.papers, question=topic)
        numbers = {int(n) for n in re.findall(r"\[(\d+)\]", answer.text)}
        assert numbers == {c.n for c in answer.citations} and answer.citations
        if want:
            counted += 1
            assert answer.text.startswith(f"**{len(want)}** of the 19 papers here "), answer.text
            assert "no chart" in answer.text and answer.outcome == "listed"
            assert {c.paper.paper_id for c in answer.citations} <= want
        else:
            assert answer.text.startswith(f"Nothing here is about “{topic}”"), answer.text
            assert answer.outcome == "near_miss"
            assert [c.paper.paper_id for c in answer.citations] == [
                m.paper_id for m in t.closest]
    assert counted >= 8  # 9 of the 19 title topics are on some paper


ZH_ASKED = {
    "有多少篇论文是关于水印的？": ("水印", None, None, True),
    "这里有多少关于扩散模型的论文？": ("扩散模型", None, None, True),
    "量化的论文有多少篇？": ("量化", None, None, True),
    "水印的研究这些年有什么变化？": ("水印", None, None, False),
    "扩散模型的发展趋势如何？": ("扩散模型", None, None, False),
    "2021年以来水印的论文每年有多少？": ("水印", 2021, None, False),
    "从2021年到2024年，水印的研究有什么变化？": ("水印", 2021, 2024, False),
    "本文集中有多少篇关于 differential privacy 的论文？": ("differential privacy", None, None,
                                                          True),
}
ZH_NOT = ["这篇论文用了多少数据？", "这个方法有多少参数？", "它的研究这些年有什么变化？",
          "水印的研究有什么变化？", "有没有关于大语言模型水印的论文？"]


def test_a_topic_over_the_years_asked_in_chinese_is_read():
    for question, (topic, start, end, count) in ZH_ASKED.items():
        assert trend_ask.read_chinese(question) == trend_ask.TrendAsk(
            topic, start, end, count=count), question
    for question in ZH_NOT:
        assert trend_ask.read_chinese(question) is None, question


def test_a_chinese_asker_gets_the_trend_in_chinese(years_store, embedder):
    """ "水印的研究这些年有什么变化？" (how has work on watermarking changed?) was answered with one
    paper: now the trend of its English topic, as "How has work on watermark changed over the
    years?" gets it, its own sentences in Chinese, the chart and the papers as they are."""
    from assistant.answer.extractive import ExtractiveAnswerer
    from assistant.answer.pipeline import answer

    retr = Retriever(store=years_store)
    answerer = ExtractiveAnswerer(embedder=embedder)
    zh = answer("水印的研究这些年有什么变化？", retriever=retr, answerer=answerer, ground=False)
    en = answer("How has work on watermark changed over the years?", retriever=retr,
                answerer=answerer, ground=False)
    assert zh.trend is not None and en.trend is not None, zh.text
    assert zh.trend["topic"] == en.trend["topic"] == "watermark"  # 水印, in this collection
    assert zh.trend["years"] == en.trend["years"]
    assert [c.paper.paper_id for c in zh.citations] == [c.paper.paper_id for c in en.citations]
    members = zh.trend["members"]
    assert zh.text.startswith(f"2020–2026 年的 {len(years_store.papers())} 篇论文中，有 "
                              f"**{members}** 篇是关于“水印”（watermark）的"), zh.text
    assert "```text" in zh.text and "The most papers" not in zh.text
    assert {int(n) for n in re.findall(r"\[(\d+)\]", zh.text)} == {c.n for c in zh.citations}
    # a topic the dictionaries cannot read is searched as any question, not charted
    assert answer("齉龘的研究这些年有什么变化？", retriever=retr, answerer=answerer,
                  ground=False).trend is None


def test_a_chinese_count_or_trend_after_a_list_is_asked_on_its_own(years_store, embedder):
    """ "有多少篇论文是关于水印的？" asked in a chat after a list of quantization papers was read
    as leaning on it (0.72: searched "watermark Q2D2 ... MaskAQ ...", MaskAQ cited first); "这些年"
    (these years) was taken for "these" papers. A count or a trend names its own topic."""
    from assistant.answer.extractive import ExtractiveAnswerer
    from assistant.answer.pipeline import answer
    from assistant.query.followup import is_follow_up

    retr = Retriever(store=years_store)
    answerer = ExtractiveAnswerer(embedder=embedder)
    first = answer("Which papers are about quantization?", retriever=retr, answerer=answerer,
                   ground=False)
    history = [("Which papers are about quantization?", first.text)]
    for question in ("有多少篇论文是关于水印的？", "水印的研究这些年有什么变化？",
                     "扩散模型的发展趋势如何？"):
        assert not is_follow_up(question, history[0][0]), question
    said = answer("有多少篇论文是关于水印的？", retriever=retr, answerer=answerer, history=history,
                  ground=False)
    alone = answer("有多少篇论文是关于水印的？", retriever=retr, answerer=answerer, ground=False)
    assert said.text == alone.text and said.trend is not None and said.trend["topic"] == \
        "watermark"
    # "these papers", "these methods": they lean on it
    for question in ("这些论文有多少篇是2020年以后的？", "这些方法有什么区别？"):
        assert is_follow_up(question, history[0][0]), question


def test_when_a_topic_was_most_popular_names_its_own_topic():
    """ "When was reinforcement learning most popular?" after another question was read as
    leaning on it (0.64), so it was not charted; "When was it most popular?" leans."""
    from assistant.query.followup import is_follow_up

    for question in ("When was reinforcement learning most popular?", "When did GANs take off?",
                     "How many papers are about GANs?"):
        assert not is_follow_up(question, "Which papers are about quantization?"), question
    for question in ("When was it most popular?", "When did they take off?"):
        assert is_follow_up(question, "Which papers are about quantization?"), question
