"""The chat App: keys, the command palette, slash commands, and the core behind them.

The first paint needs only Textual and the settings; the store, the embedding model and the
answerer open on the core thread once the screen is up (``on_ready``). Every action is a key,
a command palette entry and (most) a slash command.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from assistant.errors import AssistantError
from assistant.tui.runner import CoreLoop
from assistant.tui.screens.chat import ChatScreen, error_title
from assistant.tui.session import ChatSession
from assistant.tui.usage import TurnUsage

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from assistant.answer.types import Answer
    from assistant.conversations.history import Conversation, History
    from assistant.index.embeddings import Embedder
    from assistant.llm.client import ChatModel
    from assistant.paper import Paper
    from assistant.settings import Settings
    from assistant.tui.slash import Scope, Slash

log = logging.getLogger(__name__)


def _terminal() -> int | None:
    """The terminal the chat reads (stdin), or None once it has hung up (or never was one)."""
    stdin = sys.__stdin__
    try:
        fd = stdin.fileno() if stdin is not None else -1
        return fd if fd >= 0 and os.isatty(fd) else None
    except (OSError, ValueError):
        return None


class AssistantApp(App[None]):
    CSS_PATH = str(Path(__file__).with_name("app.tcss"))  # absolute: subclasses live elsewhere
    TITLE = "Paper assistant"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help", id="app.help",
                tooltip="Every key and slash command"),
        Binding("ctrl+n", "new_chat", "New", id="app.new", tooltip="Start a new conversation"),
        Binding("ctrl+l", "papers", "Papers", id="app.papers",
                tooltip="Browse every paper in the store"),
        Binding("ctrl+r", "conversations", "Chats", id="app.chats",
                tooltip="Saved conversations: resume, search, delete"),
        Binding("ctrl+t", "keep_test", "Keep as test case", show=False, id="app.keep_test",
                tooltip="Save this conversation as an evaluation case (/export suite) to "
                        "check and run with assistant eval"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True,
                tooltip="Quit (the conversation is already saved)"),
    ]

    def __init__(self, settings: Settings, *, resume: int | None = None,
                 embedder: Embedder | None = None, model: ChatModel | None = None) -> None:
        super().__init__()
        self.settings = settings
        self.session = ChatSession(settings, embedder=embedder, model=model)
        self.core = CoreLoop()
        self.resume_id = resume
        self.session_usage = TurnUsage()
        self._store_ready: asyncio.Future[None] | None = None

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Notifications carry error text and paper titles: never read them as markup, and
        never show a secret."""
        from assistant.settings import redact

        super().notify(redact(message), title=title, severity=severity, timeout=timeout,
                       markup=False)

    def get_default_screen(self) -> Screen[Any]:
        return ChatScreen()

    @property
    def chat(self) -> ChatScreen:
        screen = self.screen_stack[0]
        assert isinstance(screen, ChatScreen)
        return screen

    # -- start-up ------------------------------------------------------------------------------
    def on_ready(self) -> None:
        self._refresh_status(state="opening the store…", papers=None)
        self._start_open()
        if self.resume_id is not None:
            self.resume(self.resume_id)
        if not self.is_headless and _terminal() is not None:
            # a terminal closed under `make run` hangs up without a SIGHUP reaching this
            # process, and Textual's input thread then spins on end-of-file: leave instead
            self.set_interval(1.0, self._leave_if_hung_up)

    def _leave_if_hung_up(self) -> None:
        if _terminal() is None:
            log.info("the terminal hung up: leaving")
            # Textual's shutdown writes to the terminal, and with the terminal gone it can
            # block for good: leave within seconds whatever it does (every turn is saved as it
            # ends, and nothing is left to show)
            deadline = threading.Timer(5.0, os._exit, (0,))
            deadline.daemon = True
            deadline.start()
            self.exit()

    def _refresh_status(self, **values: Any) -> None:
        s = self.session
        self.chat.status.set(backend=s.backend_label, offline=s.backend == "extractive",
                             collection=s.collection, **values)

    def _start_open(self) -> None:
        self._store_ready = asyncio.get_running_loop().create_future()
        self.open_session(self._store_ready)

    @work(exclusive=True, group="open")
    async def open_session(self, ready: asyncio.Future[None]) -> None:
        chat = self.chat
        try:
            count = await self.core.run(
                self.session.open, on_phase=lambda t: chat.post_message(ChatScreen.Phase(t)),
                on_progress=lambda d, n: chat.post_message(ChatScreen.Progress(d, n)))
        except Exception as exc:
            if not isinstance(exc, AssistantError):
                log.error("opening the store failed", exc_info=exc)
            message = str(exc) if isinstance(exc, AssistantError) else (
                f"unexpected {type(exc).__name__}: {exc}")
            ready.set_exception(AssistantError(message))
            ready.exception()  # retrieved here; wait_ready() re-raises it per question
            chat.post_message(ChatScreen.OpenFailed(message))
            self.notify(message, title=error_title(exc), severity="error", timeout=15)
            return
        ready.set_result(None)
        where = "ingested the bundled ICML 2026 list: " if self.session.ingested else ""
        chat.post_message(ChatScreen.Opened(
            f"Ready: {where}{count} papers in collection {self.session.collection}."))
        self._refresh_status()

    async def wait_ready(self) -> None:
        """Until the store is open; raises its error (and starts a retry) if it failed."""
        ready = self._store_ready
        if ready is None or (ready.done() and ready.exception() is not None):
            self._start_open()
        assert self._store_ready is not None
        await asyncio.shield(self._store_ready)

    async def on_unmount(self) -> None:
        if self.session.ready:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.core.run_async(self.session.aclose), 2)
        self.core.stop()

    # -- turns and conversations ---------------------------------------------------------------
    def _history(self) -> History:
        from assistant.conversations.history import History

        return History(self.settings.history)

    def _save_turn(self, conversation_id: int | None, answer: Answer,
                   filters: dict[str, Any]) -> int:
        history = self._history()
        if conversation_id is None:
            conversation_id = history.new(answer.question, collection=self.settings.collection).id
        history.add(conversation_id, answer, filters=filters)
        return conversation_id

    async def turn_done(self, answer: Answer, scope: Scope) -> None:
        from assistant.tui.usage import of_answer

        turn = of_answer(answer)
        self.session_usage = self.session_usage + turn
        self._refresh_status(turn=turn, session=self.session_usage)
        try:
            self.chat.conversation_id = await self.core.run(
                self._save_turn, self.chat.conversation_id, answer, scope.to_dict())
        except AssistantError as exc:
            self.notify(f"The answer was not saved: {exc}", severity="warning", timeout=8)

    @work(exclusive=True, group="resume")
    async def resume(self, conversation_id: int) -> None:
        try:
            conv = await self.core.run(lambda: self._history().get(conversation_id))
        except AssistantError as exc:
            self.notify(str(exc), title="Cannot resume", severity="error")
            return
        await self.back_to_chat()
        await self.chat.show_conversation(conv.id, [t.answer for t in conv.turns])
        self.notify(f"Resumed conversation #{conv.id}: {conv.title}", timeout=4)

    async def back_to_chat(self) -> None:
        while len(self.screen_stack) > 1:
            await self.pop_screen()

    # -- actions -------------------------------------------------------------------------------
    def action_help(self) -> None:
        from assistant.tui.screens.abstract import AbstractModal
        from assistant.tui.screens.conversations import ConversationsScreen
        from assistant.tui.screens.help import HelpScreen
        from assistant.tui.screens.papers import PapersScreen
        from assistant.tui.widgets.prompt import PromptInput

        if isinstance(self.screen, HelpScreen):
            return
        palette = Binding("ctrl+p", "command_palette", "Command palette (every action)")
        self.push_screen(HelpScreen([
            ("Everywhere", [*self.BINDINGS, palette]), ("Chat", ChatScreen.BINDINGS),
            ("Question input", PromptInput.BINDINGS), ("Abstract", AbstractModal.BINDINGS),
            ("Papers", PapersScreen.BINDINGS), ("Conversations", ConversationsScreen.BINDINGS),
        ]))

    async def action_new_chat(self) -> None:
        await self.back_to_chat()
        await self.chat.clear()
        self.chat.prompt.focus()
        self.notify("New conversation.", timeout=2)

    @work(exclusive=True, group="papers")
    async def action_papers(self) -> None:
        from assistant.tui.screens.papers import PapersScreen

        try:
            await self.wait_ready()
            papers = await self.core.run(self.session.papers)
        except AssistantError as exc:
            self.notify(str(exc), title=error_title(exc), severity="error")
            return
        await self.back_to_chat()
        await self.push_screen(PapersScreen(papers, collection=self.session.collection),
                               self.chat.paper_chosen)

    async def action_conversations(self) -> None:
        from assistant.tui.screens.conversations import ConversationsScreen

        async def search(text: str) -> list[Conversation]:
            return await self.core.run(lambda: self._history().search(text))

        async def delete(conversation_id: int) -> None:
            await self.core.run(lambda: self._history().delete(conversation_id))
            if self.chat.conversation_id == conversation_id:
                self.chat.conversation_id = None

        def chosen(conversation_id: int | None) -> None:
            if conversation_id is not None:
                self.resume(conversation_id)

        await self.back_to_chat()
        await self.push_screen(ConversationsScreen(
            search=search, delete=delete, current=self.chat.conversation_id), chosen)

    def action_keep_test(self) -> None:
        self.action_export("suite")

    @work(group="export")
    async def action_export(self, fmt: str = "md", path: str = "") -> None:
        from assistant.conversations.export import export, suffix

        cid = self.chat.conversation_id
        if cid is None:
            self.notify("Nothing to export yet: ask a question first.", severity="warning")
            return
        try:
            text = await self.core.run(lambda: export(self._history().get(cid), fmt))
        except AssistantError as exc:
            self.notify(str(exc), title="Export failed", severity="error")
            return
        then = (" Its expectations are the assistant's own answers: check them, then remove "
                "`review: true`." if fmt == "suite" else "")
        self.write_export(text, path, default_name=f"conversation-{cid}.{suffix(fmt)}",
                          then=then)

    def exports_dir(self) -> Path:
        return self.settings.history.parent / "exports"

    def write_export(self, text: str, path: str, *, default_name: str,
                     then: str = "") -> Path | None:
        target = Path(path).expanduser() if path else self.exports_dir() / default_name
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        except OSError as exc:
            self.notify(f"cannot write {target}: {exc.strerror or exc}: give another path, "
                        "e.g. /save ~/answer.md", title="Save failed", severity="error")
            return None
        self.notify(f"Saved to {target}.{then}" if then else f"Saved to {target}",
                    timeout=10 if then else 6)
        return target

    @work(exclusive=True, group="model")
    async def set_model(self, name: str) -> None:
        try:
            label = await self.core.run(self.session.set_model, name)
        except AssistantError as exc:
            self.notify(str(exc), title=error_title(exc), severity="error")
            return
        self._refresh_status()
        self.notify(f"Now answering with {label}.", timeout=4)

    async def run_slash(self, command: Slash) -> None:
        from assistant.conversations.export import FORMATS
        from assistant.tui.slash import parse_filter

        chat, args = self.chat, command.args
        if command.name == "/help":
            self.action_help()
        elif command.name == "/new":
            await self.action_new_chat()
        elif command.name == "/papers":
            self.action_papers()
        elif command.name == "/history":
            await self.action_conversations()
        elif command.name == "/export":
            fmt = args[0].lower() if args and args[0].lower() in FORMATS else "md"
            rest = args[1:] if args and args[0].lower() in FORMATS else args
            self.action_export(fmt, rest[0] if rest else "")
        elif command.name == "/model":
            if args:
                self.set_model(args[0])
            else:
                self.notify(f"Answering with {self.session.backend_label}. /model NAME "
                            "switches; /model offline uses the extractive answerer.")
        elif command.name == "/filter":
            try:
                scope = parse_filter(args, chat.scope)
                if self.session.retriever is not None:  # a filter no paper passes is not set
                    self.session.retriever.check_filters(scope.filters())
            except AssistantError as exc:
                self.notify(f"{exc} (the filter was not set)", title="Filter",
                            severity="warning")
                return
            chat.set_scope(scope)
            self.notify(f"Asking about {scope.label()}." if not scope.empty
                        else "No filter: questions search the whole store.", timeout=3)
        elif command.name == "/similar":
            self.similar_command(args)
        elif command.name == "/copy":
            chat.action_copy()
        elif command.name == "/save":
            chat.action_save(args[0] if args else "")
        elif command.name == "/table":
            fmt = args[0].lower() if args and args[0].lower() in ("md", "csv") else ""
            rest = args[1:] if args and args[0].lower() in ("md", "csv") else args
            chat.action_table(fmt or ("md" if rest else ""), rest[0] if rest else "")

    def similar_command(self, args: list[str]) -> None:
        """/similar [background|method|result] [PAPER]: PAPER by default is the paper of the
        last listing, else the one questions are scoped to."""
        from assistant.search.facets import FACETS

        facet = args[0].lower() if args and args[0].lower() in FACETS else None
        rest = " ".join(args[1:] if facet else args).strip()
        chat = self.chat
        paper: Paper | str | None = rest or chat.last_similar or chat.scope.paper_id or None
        if paper is None:
            self.notify("Which paper? /similar [background|method|result] ID or TITLE, or "
                        "press s on a paper (ctrl+l lists them).", severity="warning")
            return
        chat.show_similar(paper, facet)

    # -- command palette -----------------------------------------------------------------------
    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        chat = self.chat
        yield SystemCommand("New chat", "Start a new conversation (ctrl+n)", self.action_new_chat)
        yield SystemCommand("Papers", "Browse every paper in the store (ctrl+l)",
                            self.action_papers)
        yield SystemCommand("Conversations", "Resume, search or delete saved conversations "
                            "(ctrl+r)", self.action_conversations)
        yield SystemCommand("Help", "Every key and slash command (F1)", self.action_help)
        yield SystemCommand("Papers like this one", "The papers most like the last one listed "
                            "or asked about (s on a paper, /similar)",
                            lambda: self.similar_command([]))
        yield SystemCommand("Sources", "Show the sources of the selected answer (ctrl+o)",
                            chat.action_sources)
        yield SystemCommand("Stop the answer", "Stop the answer being written (Esc)",
                            chat.action_cancel)
        yield SystemCommand("Copy answer", "Copy the selected answer with references (ctrl+y)",
                            chat.action_copy)
        yield SystemCommand("Save answer", "Save the selected answer to a Markdown file "
                            "(ctrl+s)", chat.action_save)
        for fmt, what in (("md", "Markdown"), ("json", "JSON"), ("bib", "BibTeX")):
            yield SystemCommand(f"Export conversation as {what}",
                                f"Write the conversation to a .{fmt} file (/export {fmt})",
                                lambda fmt=fmt: self.action_export(fmt))
        yield SystemCommand("Keep as test case", "Save the conversation as an evaluation case "
                            "for assistant eval (ctrl+t, /export suite)", self.action_keep_test)
        yield SystemCommand("Earlier answer", "Select the answer above (alt+up)",
                            lambda: chat.action_select(-1))
        yield SystemCommand("Later answer", "Select the answer below (alt+down)",
                            lambda: chat.action_select(1))
        yield SystemCommand("Clear filter", "Ask the whole store again (ctrl+g)",
                            chat.action_clear_scope)
        yield SystemCommand("Use the offline answerer", "Extractive answers, no LLM "
                            "(/model offline)", lambda: self.set_model("offline"))
        yield SystemCommand("Show the model", "Which backend and model answer (/model)",
                            lambda: self.notify(f"Answering with {self.session.backend_label}."))
