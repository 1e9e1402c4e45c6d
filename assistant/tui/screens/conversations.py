"""Saved conversations: search, resume (Enter), delete (d)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from assistant.errors import AssistantError

if TYPE_CHECKING:
    from assistant.conversations.history import Conversation

Search = Callable[[str], Awaitable["list[Conversation]"]]
Delete = Callable[[int], Awaitable[None]]


class ConversationsScreen(ModalScreen["int | None"]):
    """Dismisses with the id of the conversation to resume, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="chats.close", tooltip="Back to the chat"),
        Binding("ctrl+d,delete", "delete", "Delete", id="chats.delete",
                tooltip="Delete the highlighted conversation"),
    ]

    def __init__(self, *, search: Search, delete: Delete, current: int | None = None) -> None:
        super().__init__()
        self._search = search
        self._delete = delete
        self.current = current
        self.conversations: list[Conversation] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="chats-box"):
            yield Static(Content.styled("Conversations", "bold $text-accent"), id="chats-title")
            yield Input(placeholder="search questions and answers", id="chats-search")
            yield OptionList(id="chats-list")
            yield Static(Content.styled("Enter resumes · ctrl+d deletes · Esc closes",
                                        "$text-muted"), id="chats-foot")

    def on_mount(self) -> None:
        self.query_one("#chats-search", Input).focus()
        self.reload("")

    @on(Input.Changed, "#chats-search")
    def searched(self, event: Input.Changed) -> None:
        self.reload(event.value)

    @on(Input.Submitted, "#chats-search")
    def to_list(self) -> None:
        options = self.query_one(OptionList)
        if self.conversations:
            options.focus()
            options.action_select()

    @work(exclusive=True)
    async def reload(self, text: str) -> None:
        try:
            self.conversations = await self._search(text)
        except AssistantError as exc:  # a foreign or damaged history file: one line
            self.conversations = []
            self.notify(str(exc), severity="error", timeout=8)
        options = self.query_one(OptionList)
        items: list[Option | None] = []
        for c in self.conversations:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(c.updated))
            here = "  (open)" if c.id == self.current else ""
            items.append(Option(Content.assemble(
                (f"#{c.id} ", "bold $text-accent"), c.title,
                (f"  {c.n_turns} turn{'s' if c.n_turns != 1 else ''} · {when}{here}",
                 "$text-muted")), id=f"c-{c.id}"))
        if not items:
            items.append(Option(Content.styled("no conversations match" if text else
                                               "no saved conversations yet", "$text-muted"),
                                disabled=True))
        options.set_options(items)
        options.highlighted = 0 if self.conversations else None

    @on(OptionList.OptionSelected, "#chats-list")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option_id:
            self.dismiss(int(event.option_id[2:]))

    async def action_delete(self) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is None or not self.conversations:
            return
        conv = self.conversations[options.highlighted]
        await self._delete(conv.id)
        self.notify(f"Deleted conversation #{conv.id}: {conv.title}", timeout=3)
        self.reload(self.query_one("#chats-search", Input).value)

    def action_close(self) -> None:
        self.dismiss(None)
