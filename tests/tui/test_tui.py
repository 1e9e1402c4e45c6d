"""The chat TUI driven with Textual's pilot over the real store, the real embedder and either a
queue-fed chat model or a real HTTP server speaking the OpenAI wire format."""

from __future__ import annotations

import socket

import pytest
from fakes import QueueModel
from tui_helpers import (
    QUESTION,
    RecordingApp,
    SlowModel,
    ask,
    asyncio_test,
    ready,
    shows_ready,
    text_of,
    until,
)

from assistant.answer.types import Answer
from assistant.conversations.history import History
from assistant.evaluation.suite import load_suite
from assistant.paper import Paper
from assistant.settings import load_settings
from assistant.tui.screens.abstract import AbstractModal
from assistant.tui.screens.conversations import ConversationsScreen
from assistant.tui.screens.help import HelpScreen
from assistant.tui.screens.papers import PapersScreen, matches
from assistant.tui.usage import Prices, TurnUsage, money, of_answer

WIDE = (120, 36)


@pytest.fixture
def make_app(bundled_store, embedder):
    def make(model=None, **overrides):
        return RecordingApp(load_settings(**overrides), embedder=embedder, model=model)

    return make


@asyncio_test
async def test_ask_stream_cite_sources_abstract_and_ask_about_it(make_app, monkeypatch):
    monkeypatch.setenv("ASSISTANT_PRICE_IN", "0.15")  # USD per million tokens
    monkeypatch.setenv("ASSISTANT_PRICE_OUT", "0.60")
    model = SlowModel(0.15).enqueue(
        ["DyPE ", "extrapolates positions ", "dynamically [1]", ", reaching 16 million ",
         "pixels [1].", " Another paper is about something else [2]."])
    model.enqueue("It reaches 16 million pixels [1].").enqueue("It reaches 16 million pixels [1].")
    app = make_app(model)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        chat = app.chat
        await ask(pilot, QUESTION, wait=False)
        # streaming: part of the text is on screen before the answer is finished
        await until(pilot, lambda: chat.views and "extrapolates" in chat.views[0].body.source,
                    what="the first chunks")
        view = chat.views[0]
        assert chat.streaming is view and view.answer is None
        assert "writing" in text_of(view.query_one(".meta"))
        await until(pilot, lambda: chat.streaming is None and view.answer is not None)
        answer = view.answer
        assert answer.text == ("DyPE extrapolates positions dynamically [1], reaching 16 "
                               "million pixels [1]. Another paper is about something else [2].")
        # the final, citation-checked text, with the sentence its cited paper does not
        # support marked for the reader
        assert view.body.source == answer.grounding.marked(answer.text)
        assert view.body.source.endswith("something else [2]. ⚠ _not supported by the cited "
                                         "abstract_")
        assert answer.grounding.sentences[1].verdict == "unsupported"
        assert "⚠ 1 flagged" in text_of(view.query_one(".meta")) or \
            "⚠ 2 flagged" in text_of(view.query_one(".meta"))
        refs = text_of(view.query_one(".references"))
        assert refs.startswith("References\n[1] DyPE (Dynamic Position Extrapolation)")
        assert f"\n[2] {view.retrieved[1].paper.title}" in refs  # [n] is the n-th source
        assert "LLM queue-model" in text_of(view.query_one(".meta"))
        status = text_of(chat.status)
        assert "LLM queue-model" in status and "icml2026 19 papers" in status
        assert "turn ~" in status and "session ~" in status  # estimated: no usage reported
        turn = of_answer(answer)
        assert turn.estimated and turn.prompt > 100 and turn.completion > 10
        cost = (turn.prompt * 0.15 + turn.completion * 0.60) / 1e6
        assert money(cost) in status  # the price of the turn, then of the session
        # the sources pane: cited first, with scores, then the rest retrieved
        sources = chat.sources.sources
        assert [s.n for s in sources[:2]] == [1, 2]
        assert sources[0].paper.title.startswith("DyPE") and sources[0].score > 0
        assert len(sources) > 2 and all(s.n is None for s in sources[2:])
        # Enter on a source opens its abstract with the relied-on sentences highlighted
        await pilot.press("ctrl+o")
        assert chat.sources.options.has_focus
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, AbstractModal))
        modal = app.screen
        assert modal.paper.title.startswith("DyPE") and modal.n == 1
        await until(pilot, lambda: modal.evidence.kind == "cited", what="highlights")
        marked = [modal.evidence.sentences[i] for i in modal.evidence.highlighted]
        assert any("16 million pixels" in s for s in marked)
        # exactly the evidence the support check found for the claims cited [1]
        assert modal.evidence.highlighted == answer.grounding.evidence_for(modal.paper.paper_id)
        # "ask about this paper" scopes the next question to it
        await pilot.press("a")
        await until(pilot, lambda: app.screen is chat)
        dype = sources[0].paper
        assert chat.scope.paper_id == dype.paper_id
        assert "DyPE" in text_of(chat.query_one("#scope"))
        await ask(pilot, "What resolution does it reach?")
        follow = chat.views[-1]
        assert follow.retrieved and {rp.paper.paper_id for rp in follow.retrieved} == {
            dype.paper_id}
        # the follow-up carried the conversation as history
        assert QUESTION in model.calls[-1][-1]["content"]
        saved = History(app.settings.history).get(chat.conversation_id)
        assert [t.answer.question for t in saved.turns] == [
            QUESTION, "What resolution does it reach?"]
        assert saved.turns[1].filters["paper_id"] == dype.paper_id


@asyncio_test
async def test_escape_cuts_a_streaming_answer_and_keeps_what_arrived(bundled_store, embedder,
                                                                      wire):
    wire.delay = 0.15
    wire.script(["DyPE ", "extrapolates ", "positions [1]"] + [" and more"] * 30 + ["."])
    app = RecordingApp(load_settings(base_url=wire.base_url, api_key="sk-test",
                                     model="wire-model"), embedder=embedder)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        chat = app.chat
        await ask(pilot, QUESTION, wait=False)
        await until(pilot, lambda: chat.views and "positions" in chat.views[0].body.source,
                    what="some text")
        await pilot.press("escape")
        await until(pilot, lambda: chat.streaming is None and chat.views[0].answer is not None,
                    timeout=3, what="the cut")
        view = chat.views[0]
        assert view.answer.cut is True
        assert view.answer.text.startswith("DyPE extrapolates positions [1]")
        assert not view.answer.text.endswith(".")  # the rest never arrived
        assert view.has_class("-cut") and "cut" in text_of(view.query_one(".meta"))
        assert view.retrieved  # its sources are still there
        assert chat.sources.sources and chat.sources.sources[0].n is None
        turn = History(app.settings.history).get(chat.conversation_id).turns[0]
        assert turn.answer.cut is True and turn.answer.text == view.answer.text
        assert chat.prompt.has_focus and chat.prompt.value == ""
        assert app.errors() == []


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("failure, says", [
    (401, "OPENAI_API_KEY"), (404, "ASSISTANT_MODEL"), ("unreachable", "OPENAI_BASE_URL"),
])
@asyncio_test
async def test_an_endpoint_error_is_a_notification_and_the_question_comes_back(
        bundled_store, embedder, wire, failure, says):
    if failure == "unreachable":
        base_url = f"http://127.0.0.1:{_closed_port()}/v1"
    else:
        base_url = wire.base_url
        wire.fail(failure)
    app = RecordingApp(load_settings(base_url=base_url, api_key="sk-test", model="wire-model",
                                     timeout=5), embedder=embedder)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        chat = app.chat
        await ask(pilot, QUESTION, wait=False)
        await until(pilot, lambda: app.errors(), what="the error notification")
        [message] = app.errors()
        assert says in message and "Traceback" not in message
        assert "back in the input" in message
        await until(pilot, lambda: chat.streaming is None)
        assert chat.prompt.value == QUESTION  # the question is back, ready to ask again
        assert chat.views == []  # no half answer left behind
        assert app.is_running


@asyncio_test
async def test_rate_limit_then_a_retry_works(bundled_store, embedder, wire):
    wire.fail(429)  # no silent retry: the user retries
    app = RecordingApp(load_settings(base_url=wire.base_url, api_key="sk-test",
                                     model="wire-model"), embedder=embedder)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        chat = app.chat
        await ask(pilot, QUESTION, wait=False)
        await until(pilot, lambda: app.errors(), what="the 429 notification")
        assert "rate-limiting (429)" in app.errors()[0]
        assert chat.prompt.value == QUESTION
        wire.script(["DyPE scales positions [1]."])
        await pilot.press("enter")  # ask the restored question again
        await until(pilot, lambda: chat.answers(), what="the retried answer")
        assert chat.answers()[0].citations[0].paper.title.startswith("DyPE")


@asyncio_test
async def test_resume_a_saved_conversation_and_follow_up(make_app):
    first = make_app()  # offline, extractive
    async with first.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await ask(pilot, QUESTION)
        cid = first.chat.conversation_id
        original = first.chat.answers()[0]
    assert original.backend == "extractive" and original.citations

    model = QueueModel().enqueue("DyPE again [1].").enqueue("DyPE again [1].")
    app = make_app(model)
    async with app.run_test(size=WIDE) as pilot:
        chat = app.chat
        await pilot.press("ctrl+r")
        await until(pilot, lambda: isinstance(app.screen, ConversationsScreen))
        screen = app.screen
        await until(pilot, lambda: screen.conversations, what="the list")
        assert [c.id for c in screen.conversations] == [cid]
        await pilot.press(*"ultra-high")  # search
        await until(pilot, lambda: [c.id for c in screen.conversations] == [cid])
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is chat and chat.views, what="the resume")
        assert chat.conversation_id == cid
        [view] = chat.views
        assert view.answer.text == original.text
        assert "offline extractive" in text_of(view.query_one(".meta"))
        refs = text_of(view.query_one(".references"))
        assert refs.startswith("References\n[1] DyPE")
        assert chat.sources.sources[0].paper.title.startswith("DyPE")  # sources come back too
        await pilot.press("up")  # the resumed questions are in the input history
        assert chat.prompt.value == QUESTION
        await ready(pilot)
        await ask(pilot, "How does it work?")
        assert QUESTION in model.calls[-1][-1]["content"]  # the saved turn went as history
        assert [t.answer.backend for t in History(app.settings.history).get(cid).turns] == [
            "extractive", "llm"]


@asyncio_test
async def test_papers_screen_filters_and_asks_about_a_paper(make_app, bundled_store):
    everything = bundled_store.papers()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+l")
        await until(pilot, lambda: isinstance(app.screen, PapersScreen))
        screen = app.screen
        table = screen.query_one("DataTable")
        assert table.row_count == len(everything) == 19
        await pilot.press(*"quantization")
        expected = [p for p in everything if "quantization" in
                    (p.title + " " + p.abstract).lower()]
        await until(pilot, lambda: table.row_count == len(expected))
        assert 0 < len(expected) < 19
        assert {p.paper_id for p in screen.shown} == {p.paper_id for p in expected}
        assert f"{len(expected)} of 19" in text_of(screen.query_one("#papers-count"))
        await pilot.press(*" nosuchword")
        await until(pilot, lambda: table.row_count == 0)
        assert "0 of 19" in text_of(screen.query_one("#papers-count"))
        await pilot.press(*["backspace"] * len(" nosuchword"))
        await until(pilot, lambda: table.row_count == len(expected))
        # the venue and year selects offer what the store holds
        year, venue = screen.query_one("#papers-year"), screen.query_one("#papers-venue")
        assert [v for _, v in year._options if v != year.NULL] == [2026]
        year.value, venue.value = 2026, "ICML"
        await pilot.pause()
        assert table.row_count == len(expected)
        await pilot.press("enter")  # from the filter to the table
        assert table.has_focus
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, AbstractModal))
        chosen = app.screen.paper
        assert chosen.paper_id == screen.shown[0].paper_id
        await pilot.press("a")
        await until(pilot, lambda: app.screen is app.chat)
        assert app.chat.scope.paper_id == chosen.paper_id


def test_token_usage_and_cost():
    reported = Answer("q", "a", "llm", "m", [], [], False,
                      usage={"prompt_tokens": 900, "completion_tokens": 100, "total_tokens": 1000})
    assert of_answer(reported) == TurnUsage(900, 100, False)
    assert of_answer(Answer("q", "a", "extractive", "x", [], [], False)) == TurnUsage()
    cut = of_answer(Answer("What is DyPE?", "DyPE is", "llm", "m", [], [], False, cut=True))
    assert cut.estimated and cut.prompt == 5 and cut.completion == 4  # tiktoken counts
    assert (TurnUsage(1, 2) + TurnUsage(3, 4, True)).label() == "~10"
    prices = Prices(per_m_in=2.0, per_m_out=8.0)
    assert prices.cost(TurnUsage(1_000_000, 500_000)) == pytest.approx(6.0)
    assert money(0.00042) == "$0.0004" and money(6.0) == "$6.00"


def test_the_papers_filter_matches_text_venue_and_year():
    a = Paper("a", "Sparse trees", "We prune trees.", authors=["Ada Lovelace"], venue="ICML",
              year=2026)
    b = Paper("b", "Dense nets", "We grow nets.", venue="NeurIPS", year=2025)
    assert matches(a, "", None, None) and matches(b, "", None, None)
    assert matches(a, "PRUNE trees", None, None) and not matches(b, "prune", None, None)
    assert matches(a, "lovelace", "ICML", 2026)  # authors count as text
    assert not matches(a, "", "NeurIPS", None) and not matches(b, "", None, 2026)
    assert matches(b, "nets", "NeurIPS", 2025)


@asyncio_test
async def test_slash_commands_keys_and_palette(make_app, tmp_path):
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        chat = app.chat
        await ask(pilot, "/filter venue=ICML year=2026", wait=False)
        assert (chat.scope.venue, chat.scope.year) == ("ICML", 2026)
        await ask(pilot, "/filter year=soon", wait=False)
        assert "year must be a number" in app.notes[-1][2] and chat.scope.year == 2026
        await ask(pilot, "/filter year= since=2025 until=2026", wait=False)
        assert (chat.scope.year, chat.scope.since, chat.scope.until) == (None, 2025, 2026)
        assert chat.scope.filters().since == 2025 and "years 2025–2026" in chat.scope.label()
        await ask(pilot, "/filter since=lately", wait=False)
        assert "since must be a number" in app.notes[-1][2] and chat.scope.since == 2025
        await ask(pilot, "/filter status=accepted", wait=False)
        assert chat.scope.status == "accepted" and "status accepted" in chat.scope.label()
        assert chat.scope.filters().status == "accepted"
        await ask(pilot, "/filter status=rejected", wait=False)  # no paper here is: said, and
        assert "no paper here matches the filter" in app.notes[-1][2]  # the scope kept
        assert "status 'rejected'" in app.notes[-1][2]
        assert chat.scope.status == "accepted"
        await ask(pilot, "/filter off", wait=False)
        assert chat.scope.empty
        await ask(pilot, "/bogus", wait=False)
        assert "unknown command /bogus" in app.notes[-1][2]
        await ask(pilot, "/help", wait=False)
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        body = text_of(app.screen.query_one("#help-body"))
        for binding in [*app.BINDINGS, *type(chat).BINDINGS]:
            assert binding.description in body
        for command in ("/help", "/new", "/papers", "/export", "/model", "/filter"):
            assert command in body
        await pilot.press("escape")
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        # the palette offers every action
        titles = {c.title for c in app.get_system_commands(chat)}
        assert {"New chat", "Papers", "Conversations", "Help", "Sources", "Stop the answer",
                "Copy answer", "Save answer", "Export conversation as Markdown",
                "Export conversation as JSON", "Export conversation as BibTeX",
                "Clear filter"} <= titles
        await ask(pilot, QUESTION)
        await pilot.press("ctrl+y")
        assert app.clipboard.startswith(f"**Q:** {QUESTION}")
        assert "**References**" in app.clipboard and "- [1] DyPE" in app.clipboard
        target = tmp_path / "out" / "refs.bib"
        await ask(pilot, f"/export bib {target}", wait=False)
        await until(pilot, lambda: target.exists())
        assert target.read_text().startswith("@inproceedings{")
        await ask(pilot, "/save", wait=False)
        saved = app.exports_dir() / f"answer-{chat.conversation_id}-1.md"
        assert saved.read_text() == app.clipboard
        await ask(pilot, "/model offline", wait=False)
        await until(pilot, lambda: "offline extractive" in app.notes[-1][2])
        await pilot.press("up")
        assert chat.prompt.value == "/model offline"
        await pilot.press("up", "up", "up")  # past /save and /export
        assert chat.prompt.value == QUESTION
        await pilot.press("down")
        assert chat.prompt.value.startswith("/export bib")
        await pilot.press("down", "down", "down")
        assert chat.prompt.value == ""  # back to the (empty) draft
        table = tmp_path / "papers.csv"
        await ask(pilot, f"/table csv {table}", wait=False)
        await until(pilot, lambda: table.exists())
        assert table.read_text().splitlines()[0] == "n,title,venue_year,proposes,main_result"
        assert "DyPE" in table.read_text().splitlines()[1]
        await ask(pilot, "/table", wait=False)  # the same table, shown in the chat
        await until(pilot, lambda: type(app.screen).__name__ == "TableModal")
        shown = app.screen.query_one("DataTable")
        assert shown.row_count == len(app.chat.answers()[0].citations)
        assert "DyPE" in str(shown.get_row_at(0)[1])
        await pilot.press("m")  # export from the view
        md = app.exports_dir() / f"papers-{chat.conversation_id}-1.md"
        await until(pilot, lambda: md.exists())
        assert md.read_text().startswith("| # | paper |")
        assert type(app.screen).__name__ != "TableModal"
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert chat.views == [] and chat.conversation_id is None


@asyncio_test
async def test_ctrl_t_keeps_the_conversation_as_a_test_case(make_app, tmp_path):
    app = make_app(backend="extractive")
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await ask(pilot, QUESTION)
        dype = app.chat.answers()[0].citations[0].paper
        assert dype.title.startswith("DyPE")
        assert "Keep as test case" in {c.title for c in app.get_system_commands(app.chat)}
        await pilot.press("ctrl+t")
        target = app.exports_dir() / f"conversation-{app.chat.conversation_id}.yaml"
        await until(pilot, target.exists, what="the suite file")
        assert f"Saved to {target}." in app.notes[-1][2]
        [case] = load_suite(target).cases
        assert case.review is True and case.turns[0].question == QUESTION
        assert dype.paper_id in case.turns[0].expect_papers
        named = tmp_path / "kept" / "dype.yaml"
        await ask(pilot, f"/export suite {named}", wait=False)
        await until(pilot, named.exists, what="the named suite file")
        assert load_suite(named).cases[0].id == f"conv-{app.chat.conversation_id}"


@asyncio_test
async def test_first_run_ingests_the_bundled_list(tmp_path, embedder):
    app = RecordingApp(load_settings(store=tmp_path / "empty-store"), embedder=embedder)
    phases: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: shows_ready(app) or phases.append(
            text_of(app.chat.query_one("#welcome-phase"))), 120, "the ingest")
        assert app.session.ingested and app.session.paper_count == 19
        assert any("ingesting the bundled ICML 2026 list" in p for p in phases)
        assert "19 papers" in text_of(app.chat.query_one("#welcome-phase"))
        await ask(pilot, QUESTION)
        assert app.chat.answers()[0].citations[0].paper.title.startswith("DyPE")


@asyncio_test
async def test_a_missing_store_server_is_a_notification_not_a_crash(tmp_path, embedder):
    url = f"http://127.0.0.1:{_closed_port()}"
    app = RecordingApp(load_settings(chroma_url=url), embedder=embedder)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.errors(), 30, "the store error")
        assert "cannot reach the Chroma server" in app.errors()[0]
        await ask(pilot, QUESTION, wait=False)
        await until(pilot, lambda: len(app.errors()) >= 2, 30, "the second error")
        assert app.chat.prompt.value == QUESTION and app.is_running


@asyncio_test
async def test_ctrl_k_asks_the_selected_question_over_more_papers(make_app):
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        chat = app.chat
        await ask(pilot, "How does quantization affect vision transformers?")
        first = chat.answers()[0]
        await pilot.press("ctrl+k")
        await until(pilot, lambda: len(chat.answers()) == 2 and chat.streaming is None,
                    what="the wider answer")
        second = chat.answers()[1]
        assert second.question == first.question
        assert len(second.papers) > len(first.papers)


@asyncio_test
async def test_a_follow_up_says_it_waits_for_the_llm_rewrite(bundled_store, embedder, wire):
    """A follow-up is rewritten by the LLM before anything is searched: while a slow endpoint
    holds that call, the answer says so (it said "retrieving…"), and Esc still stops it."""
    wire.script("DyPE extrapolates positions [1].")
    app = RecordingApp(load_settings(base_url=wire.base_url, api_key="sk-test",
                                     model="wire-model", timeout=30), embedder=embedder)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        chat = app.chat
        await ask(pilot, QUESTION)
        wire.chat_fault = "hang"  # the rewrite call gets no reply
        await ask(pilot, "How fast is it?", wait=False)
        await until(pilot, lambda: len(chat.views) == 2 and "LLM" in text_of(
            chat.views[1].query_one(".meta")), what="the rewrite phase")
        assert "standalone" in text_of(chat.views[1].query_one(".meta"))
        assert chat.views[1].retrieved == []  # nothing searched yet
        await pilot.press("escape")
        await until(pilot, lambda: chat.streaming is None, what="the cut")
        wire.chat_fault = ""
        wire.released.set()
        assert app.is_running and app.errors() == []


def test_a_hedged_answer_is_marked_under_it():
    """An answered question the decision is not sure of (``confident`` false) says so under the
    answer, whatever the answerer's text; a confident one, a near miss and a refusal do not."""
    from assistant.tui.widgets.answer_view import AnswerView

    def line(**kw: object) -> str:
        return AnswerView.describe(Answer("q", "a", "llm", "m", [], [], False, **kw)).plain

    assert "closest match" in line(outcome="answered", confident=False)
    assert "closest match" not in line(outcome="answered", confident=True)
    assert "closest match" not in line(outcome="near_miss", confident=False)


def test_a_hedged_answer_of_two_tied_papers_says_which_is_unsure():
    """Two cited papers estimated alike and high (decision.TIED): the answer names both, and the
    mark under it says it is not sure which is meant, not that the paper may be off; one high
    and one low, or a comparison's sides, keep the closest-match mark."""
    from assistant.citations import Citation
    from assistant.judge.decision import TIED
    from assistant.search.retrieval import RetrievedPaper
    from assistant.sources.corpus import bundled_papers
    from assistant.tui.widgets.answer_view import AnswerView

    a, b, c = bundled_papers()[:3]

    def line(estimates: list[float], sides: list[str] | None = None) -> str:
        papers = [RetrievedPaper(p, 1.0, i, verified=e)
                  for i, (p, e) in enumerate(zip((a, b, c), estimates, strict=True), 1)]
        judged = {"sides": sides} if sides else {}
        return AnswerView.describe(Answer(
            "q", "a", "extractive", "m", [Citation(i, p.paper) for i, p in enumerate(papers, 1)],
            papers, False, outcome="answered", confident=False, answerability=judged)).plain

    assert "two papers match about equally" in line([0.98, 0.2, TIED])
    assert "two papers match about equally" in line([TIED, 0.97, 0.1])
    for estimates in ([0.98, TIED - 0.01, 0.2], [TIED - 0.01, 0.99, 0.95]):
        said = line(estimates)
        assert "closest match" in said and "two papers" not in said
    assert "closest match" in line([0.98, 0.97, 0.1], sides=["found", "found"])


def test_a_comparison_one_side_of_which_is_here_is_not_said_to_be_unanswered():
    """A near miss says nothing in the store answers it, unless it is a comparison one side of
    which the store holds: then that the other side is not in the store."""
    from assistant.tui.widgets.answer_view import AnswerView

    def line(sides: list[str] | None) -> str:
        judged = {"sides": sides} if sides is not None else {}
        return AnswerView.describe(Answer("q", "a", "extractive", "m", [], [], True,
                                          outcome="near_miss", answerability=judged)).plain

    for sides in (["sure", "not_found"], ["not_found", "found"]):
        assert "one side of the comparison is not in the store" in line(sides)
        assert "nothing in the store" not in line(sides)
    for sides in (["not_found", "not_found"], None):
        assert "nothing in the store answers this" in line(sides)


@asyncio_test
async def test_s_lists_the_papers_like_one_in_the_sources_pane(make_app, bundled_store):
    from assistant.search.similar import similar

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        chat = app.chat
        await pilot.press("ctrl+l")
        await until(pilot, lambda: isinstance(app.screen, PapersScreen))
        screen = app.screen
        await pilot.press("enter")  # from the filter to the table
        await pilot.press("down", "down")
        query = screen.shown[2]
        await pilot.press("s")
        await until(pilot, lambda: app.screen is chat and chat.views
                    and chat.views[-1].answer is not None, what="the listing")
        view = chat.views[-1]
        answer = view.answer
        expected = similar(query.abstract, retriever=app.session.retriever, k=10,
                           exclude=[query.paper_id]).papers
        # every listed paper once, cited as [n] in the order listed, never the paper itself
        assert [c.paper.paper_id for c in answer.citations] == [
            s.paper.paper_id for s in expected]
        assert query.paper_id not in {c.paper.paper_id for c in answer.citations}
        assert len(expected) == 10
        for n, s in enumerate(expected, 1):
            assert f"**{s.paper.display_title}**" in answer.text
            assert f"[{n}]" in answer.text
        # the sources pane lists them, each with its score, and has the focus
        shown = chat.sources.sources
        assert [(s.paper.paper_id, s.n) for s in shown] == [
            (s.paper.paper_id, n) for n, s in enumerate(expected, 1)]
        assert [round(s.score, 6) for s in shown] == [round(s.score, 6) for s in expected]
        assert chat.sources.options.has_focus and chat.has_class("-sources-open")
        # Enter opens one; s there lists the papers like that one
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, AbstractModal))
        second = app.screen.paper
        assert second.paper_id == expected[0].paper.paper_id
        await pilot.press("s")
        await until(pilot, lambda: len(chat.views) == 2 and chat.views[1].answer is not None)
        assert second.display_title in chat.views[1].question
        assert second.paper_id not in {c.paper.paper_id for c in chat.views[1].answer.citations}
        # /similar method, typed while the sources pane has the focus (it goes to the input):
        # the same paper on one facet; a paper it cannot find: a notification
        assert chat.sources.options.has_focus
        await pilot.press(*"/similar method", "enter")
        await until(pilot, lambda: len(chat.views) == 3 and chat.views[2].answer is not None)
        assert "its method" in chat.views[2].question
        assert second.display_title in chat.views[2].question
        await ask(pilot, "/similar no such paper anywhere", wait=False)
        await until(pilot, lambda: any("no paper with the id or title" in n.message
                                       for n in app._notifications), what="the error")
        assert len(chat.views) == 3
        # the listings are turns of the conversation, saved like answers
        saved = History(app.settings.history).get(chat.conversation_id)
        assert [t.answer.question for t in saved.turns] == [v.question for v in chat.views]
