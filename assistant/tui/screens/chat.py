"""The chat: questions and streamed answers, the sources pane, the scope, the status line."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Markdown, Static

from assistant.errors import AssistantError
from assistant.tui.slash import Scope
from assistant.tui.widgets.answer_view import AnswerView
from assistant.tui.widgets.prompt import PromptInput
from assistant.tui.widgets.sources import SourcesPane
from assistant.tui.widgets.status import StatusLine
from assistant.tui.widgets.welcome import Welcome

from .abstract import AbstractModal, PaperAction
from .table import TableModal

if TYPE_CHECKING:
    from assistant.answer.types import Answer
    from assistant.paper import Paper
    from assistant.tui.host import ChatHost
    from assistant.tui.widgets.sources import Source

log = logging.getLogger(__name__)


def error_title(exc: BaseException) -> str:
    from assistant import errors as e

    for kind, title in ((e.LLMUnreachable, "LLM endpoint unreachable"),
                        (e.LLMAuthError, "API key rejected"),
                        (e.LLMModelNotFound, "Model not found"),
                        (e.LLMRateLimited, "Rate limited"), (e.LLMError, "LLM error"),
                        (e.StoreError, "Store problem"), (e.EmbeddingError, "Embedding problem"),
                        (e.ConfigError, "Settings problem"), (e.InputError, "Cannot do that")):
        if isinstance(exc, kind):
            return title
    return "Error"


class ChatScreen(Screen[None]):
    @property
    def host(self) -> ChatHost:
        """The App, as what this screen needs of it (``tui.host``)."""
        return cast("ChatHost", self.app)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Stop", id="chat.cancel",
                tooltip="Stop the answer being written (keeps what arrived, marked as cut)"),
        Binding("ctrl+o", "sources", "Sources", id="chat.sources", priority=True,
                tooltip="Show and focus the sources of the selected answer"),
        Binding("alt+up,ctrl+up", "select(-1)", "Earlier answer", show=False,
                id="chat.earlier", tooltip="Select the answer above"),
        Binding("alt+down,ctrl+down", "select(1)", "Later answer", show=False,
                id="chat.later", tooltip="Select the answer below"),
        Binding("ctrl+y", "copy", "Copy", id="chat.copy", priority=True,
                tooltip="Copy the selected answer with its references (OSC 52)"),
        Binding("ctrl+s", "save", "Save answer", show=False, id="chat.save", priority=True,
                tooltip="Save the selected answer with its references to a Markdown file"),
        Binding("ctrl+g", "clear_scope", "Clear filter", show=False, id="chat.clear_scope",
                priority=True, tooltip="Ask the whole store again"),
        Binding("ctrl+k", "more", "More papers", show=False, id="chat.more", priority=True,
                tooltip="Ask the selected question again over twice as many papers"),
    ]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]  # noqa: RUF012

    @dataclass
    class Phase(Message):
        """The store is opening: what it is doing now."""

        text: str

    @dataclass
    class Progress(Message):
        """Ingest progress: chunks embedded so far."""

        done: int
        total: int

    @dataclass
    class Opened(Message):
        """The store is open (posted after every Phase, so it lands last)."""

        text: str

    @dataclass
    class OpenFailed(Message):
        """The store did not open: what to fix."""

        text: str

    def __init__(self) -> None:
        super().__init__(id="chat")
        self.scope = Scope()
        self.conversation_id: int | None = None
        self.streaming: AnswerView | None = None
        self.selected: AnswerView | None = None
        self.last_similar: Paper | None = None  # the paper the last "papers like" was of
        self._cut_requested = False

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield VerticalScroll(Welcome(id="welcome"), id="log")
            yield SourcesPane(id="sources")
        yield Static("", id="scope")
        yield PromptInput(id="prompt")
        yield StatusLine(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#log", VerticalScroll).anchor()
        self.prompt.focus()
        self._show_scope()

    # -- parts -------------------------------------------------------------------------------
    @property
    def prompt(self) -> PromptInput:
        return self.query_one("#prompt", PromptInput)

    @property
    def status(self) -> StatusLine:
        return self.query_one("#status", StatusLine)

    @property
    def sources(self) -> SourcesPane:
        return self.query_one("#sources", SourcesPane)

    @property
    def views(self) -> list[AnswerView]:
        return list(self.query(AnswerView))

    def answers(self) -> list[Answer]:
        return [v.answer for v in self.views if v.answer is not None]

    # -- opening the store -------------------------------------------------------------------
    def on_chat_screen_phase(self, message: Phase) -> None:
        self.query_one(Welcome).phase(message.text)
        self.status.set(state=message.text)

    def on_chat_screen_progress(self, message: Progress) -> None:
        self.query_one(Welcome).progress(message.done, message.total)
        self.status.set(state=f"embedding chunks {message.done}/{message.total}")

    def on_chat_screen_opened(self, message: Opened) -> None:
        welcome = self.query_one(Welcome)
        welcome.ready(message.text)
        if self.views:
            welcome.display = False
        self.status.set(state="", papers=self.host.session.paper_count)

    def on_chat_screen_open_failed(self, message: OpenFailed) -> None:
        self.query_one(Welcome).phase(f"The store did not open: {message.text}",
                                      style="$text-error")
        self.status.set(state="store not open: fix it, then ask again")

    # -- asking ------------------------------------------------------------------------------
    @on(PromptInput.Submitted, "#prompt")
    async def submitted(self, event: PromptInput.Submitted) -> None:
        text = event.value.strip()
        if not text:
            return
        prompt = self.prompt
        from assistant.tui import slash

        try:
            command = slash.parse(text)
        except AssistantError as exc:
            self.notify(str(exc), title="Unknown command", severity="warning")
            return
        prompt.remember(text)
        prompt.value = ""
        if command is not None:
            await self.host.run_slash(command)
            return
        if self.streaming is not None:
            prompt.restore(text)
            self.notify("An answer is still being written: Esc stops it.", severity="warning")
            return
        self.ask(text)

    def action_more(self) -> None:
        """The selected question again, searching twice as many papers (a survey's "more")."""
        view = self.selected
        if view is None or view.answer is None:
            self.notify("No answer to widen yet: ask a question first.", severity="warning")
            return
        if self.streaming is not None:
            self.notify("An answer is still being written: Esc stops it.", severity="warning")
            return
        searched = max(len(view.answer.papers), 1)
        self.ask(view.question, k=searched * 2)

    @work(exclusive=True, group="answer")
    async def ask(self, question: str, k: int | None = None) -> None:
        from assistant.answer.types import Answer, Delta, Finished, Phase, Retrieved

        app = self.host
        scope = self.scope
        view = AnswerView(question, scope=scope.label())
        view.number = len(self.views) + 1
        if app.session.ready:
            self.query_one(Welcome).display = False
        await self.query_one("#log", VerticalScroll).mount(view)
        self.query_one("#log", VerticalScroll).anchor()
        self.select(view)
        self.streaming, self._cut_requested = view, False
        history = [(a.question, a.text) for a in self.answers()]
        stream = Markdown.get_stream(view.body)
        parts: list[str] = []
        answer: Answer | None = None
        try:
            if not app.session.ready:
                view._meta(Content.styled("waiting for the store to open…", "$text-warning"))
            await app.wait_ready()
            events = app.core.stream(lambda: app.session.ask(
                question, filters=scope.filters(), history=history, k=k))
            async for event in events:
                if isinstance(event, Phase):
                    view._meta(Content.styled(event.text, "$text-muted"))
                elif isinstance(event, Retrieved):
                    view.set_retrieved(event.retrieval.papers)
                    self.sources.show(view)
                elif isinstance(event, Delta):
                    parts.append(event.text)
                    await stream.write(event.text)
                elif isinstance(event, Finished):
                    answer = event.answer
        except asyncio.CancelledError:
            await stream.stop()
            self.streaming = None
            if not self._cut_requested:
                raise
            answer = Answer(question, "".join(parts).strip(), app.session.backend,
                            app.session.model, [], view.retrieved, False, cut=True)
        except Exception as exc:
            await stream.stop()
            self.streaming = None
            await self._failed(view, question, exc)
            return
        else:
            await stream.stop()
            self.streaming = None
        if answer is None:  # the stream ended without a Finished event
            await self._failed(view, question, AssistantError(
                "the answer ended without finishing: ask again"))
            return
        await view.finish(answer)
        self.select(view)
        await app.turn_done(answer, scope)

    async def _failed(self, view: AnswerView, question: str, exc: BaseException) -> None:
        if not isinstance(exc, AssistantError):
            log.error("answer failed", exc_info=exc)
            message = (f"unexpected {type(exc).__name__}: {exc} (run with --verbose for "
                       "details)")
        else:
            message = str(exc)
        await view.remove()
        if self.selected is view:
            self.select(self.views[-1] if self.views else None)
        self.prompt.restore(question)
        self.prompt.focus()
        self.notify(message + "\nYour question is back in the input.",
                    title=error_title(exc), severity="error", timeout=12)

    def action_cancel(self) -> None:
        if self.streaming is not None:
            self._cut_requested = True
            self.workers.cancel_group(self, "answer")
            return
        if self.has_class("-sources-open"):
            self.remove_class("-sources-open")
        self.prompt.focus()

    # -- selection and sources ---------------------------------------------------------------
    def select(self, view: AnswerView | None) -> None:
        if self.selected is not None and self.selected is not view:
            self.selected.remove_class("-selected")
        self.selected = view
        if view is not None:
            view.add_class("-selected")
        self.sources.show(view)

    def on_answer_view_selected(self, message: AnswerView.Selected) -> None:
        self.select(message.view)

    def action_select(self, step: int) -> None:
        views = self.views
        if not views:
            return
        i = views.index(self.selected) if self.selected in views else len(views)
        view = views[max(0, min(len(views) - 1, i + step))]
        self.select(view)
        view.scroll_visible(animate=False)

    def action_sources(self) -> None:
        options = self.sources.options
        if self.has_class("-narrow"):
            if self.has_class("-sources-open") and options.has_focus:
                self.remove_class("-sources-open")
                self.prompt.focus()
                return
            self.add_class("-sources-open")
        if options.has_focus:
            self.prompt.focus()
        else:
            options.focus()

    def on_key(self, event: events.Key) -> None:
        """Typing while the sources pane has the focus types into the question input (after
        a listing the pane has it, for Enter and s; a question or /command still just types)."""
        if event.is_printable and event.character and self.sources.options.has_focus:
            event.stop()
            event.prevent_default()
            self.prompt.focus()
            self.prompt.insert_text_at_cursor(event.character)

    def on_sources_pane_chosen(self, message: SourcesPane.Chosen) -> None:
        self.open_abstract(message.source, message.view)

    def open_abstract(self, source: Source, view: AnswerView | None) -> None:
        app = self.host
        answer = view.answer if view is not None else None

        async def evidence() -> Any:
            return await app.core.run(app.session.relied_on, answer, source.paper)

        listed = answer is not None and answer.listed
        label = ("on the topic" if answer is not None and answer.trend is not None else
                 "like the paper listed" if listed else "answers the question")
        self.app.push_screen(AbstractModal(source.paper, score=source.score, n=source.n,
                                           score_label=label,
                                           evidence=evidence if answer is not None and not listed
                                           else None),
                             self.paper_chosen)

    def paper_chosen(self, chosen: PaperAction | None) -> None:
        """What the abstract viewer or the papers screen asked for: a scope, or a listing."""
        if chosen is None:
            return
        if chosen.action == "similar":
            self.show_similar(chosen.paper)
        else:
            self.ask_about(chosen.paper)

    @work(exclusive=True, group="similar")
    async def show_similar(self, paper: Paper | str, facet: str | None = None) -> None:
        """The papers most like ``paper`` (or the paper an id, title or abstract names) as a
        turn of its own, listed in the sources pane with their scores."""
        app = self.host
        if self.streaming is not None:
            self.notify("An answer is still being written: Esc stops it.", severity="warning")
            return
        try:
            await app.wait_ready()
            found, answer = await app.core.run(
                lambda: app.session.similar(paper, facet=facet))
        except AssistantError as exc:
            self.notify(str(exc), title=error_title(exc), severity="error", timeout=10)
            return
        self.last_similar = found
        view = AnswerView(answer.question, answer=answer)
        view.number = len(self.views) + 1
        self.query_one(Welcome).display = False
        await self.query_one("#log", VerticalScroll).mount(view)
        self.query_one("#log", VerticalScroll).anchor()
        self.select(view)
        if self.has_class("-narrow"):
            self.add_class("-sources-open")
        self.sources.options.focus()
        await app.turn_done(answer, self.scope)

    # -- scope -------------------------------------------------------------------------------
    def ask_about(self, paper: Paper) -> None:
        self.set_scope(Scope.of_paper(paper))
        self.remove_class("-sources-open")
        self.prompt.focus()

    def set_scope(self, scope: Scope) -> None:
        self.scope = scope
        self._show_scope()

    def _show_scope(self) -> None:
        chip = self.query_one("#scope", Static)
        chip.display = not self.scope.empty
        if not self.scope.empty:
            chip.update(Content.assemble(("⌕ asking about ", "$text-muted"),
                                         (self.scope.label(), "bold $text-accent"),
                                         ("   ctrl+g or /filter off clears", "$text-muted")))

    def action_clear_scope(self) -> None:
        if not self.scope.empty:
            self.set_scope(Scope())
            self.notify("Filter cleared: questions search the whole store.", timeout=3)

    # -- conversations -----------------------------------------------------------------------
    async def clear(self) -> None:
        self.workers.cancel_group(self, "answer")
        self.streaming = None
        await self.query(AnswerView).remove()
        self.conversation_id = None
        self.set_scope(Scope())
        self.select(None)
        self.query_one(Welcome).display = True

    async def show_conversation(self, conversation_id: int, answers: list[Answer]) -> None:
        await self.clear()
        self.conversation_id = conversation_id
        self.query_one(Welcome).display = False
        views = [AnswerView(a.question, answer=a) for a in answers]
        for n, v in enumerate(views, 1):
            v.number = n
            self.prompt.remember(v.question)
        await self.query_one("#log", VerticalScroll).mount_all(views)
        self.select(views[-1] if views else None)
        self.query_one("#log", VerticalScroll).anchor()

    # -- copy and save -----------------------------------------------------------------------
    def _selected_answer(self) -> Answer | None:
        view = self.selected
        if view is None or view.answer is None:
            self.notify("No answer to copy yet: ask a question first.", severity="warning")
            return None
        return view.answer

    def action_copy(self) -> None:
        from assistant.conversations.export import answer_markdown

        answer = self._selected_answer()
        if answer is not None:
            self.app.copy_to_clipboard(answer_markdown(answer))
            self.notify("Copied the answer with its references (OSC 52). If your terminal "
                        "ignores that, ctrl+s saves it to a file.", timeout=5)

    def action_table(self, fmt: str = "", path: str = "") -> None:
        """The selected answer's cited papers as a table: shown in the chat (no format given),
        or written as a Markdown or CSV file (from the view: m, v)."""
        from assistant.answer import survey

        answer = self._selected_answer()
        if answer is None or self.selected is None:
            return
        if not answer.citations:
            self.notify("This answer cites no paper: nothing to tabulate.", severity="warning")
            return
        number = self.selected.number

        def write(chosen: str | None) -> None:
            if chosen:
                name = f"papers-{self.conversation_id or 'unsaved'}-{number}.{chosen}"
                self.host.write_export(survey.render(survey.rows(answer), chosen), path,
                                      default_name=name)

        if fmt:
            write(fmt)
        else:
            self.app.push_screen(TableModal(survey.rows(answer), question=answer.question), write)

    def action_save(self, path: str = "") -> None:
        from assistant.conversations.export import answer_markdown

        answer = self._selected_answer()
        if answer is not None and self.selected is not None:
            name = f"answer-{self.conversation_id or 'unsaved'}-{self.selected.number}.md"
            self.host.write_export(answer_markdown(answer), path, default_name=name)
