"""The question input: Enter asks, up/down walk back through earlier questions."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.suggester import SuggestFromList
from textual.widgets import Input

from assistant.tui.slash import COMMANDS

PLACEHOLDER = "Ask about the papers… (/help for commands, F1 for keys)"


class PromptInput(Input):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "history_back", "Earlier question", show=False, id="prompt.back",
                tooltip="Put the previous question back in the input"),
        Binding("down", "history_forward", "Later question", show=False, id="prompt.forward",
                tooltip="Walk forward through earlier questions"),
    ]

    def __init__(self, **kwargs: Any) -> None:
        # coming back to a half-typed question keeps it: focus never selects it all (a key
        # would replace it)
        super().__init__(placeholder=PLACEHOLDER, suggester=SuggestFromList(
            list(COMMANDS), case_sensitive=False), select_on_focus=False, **kwargs)
        self.past: list[str] = []
        self._pos: int | None = None
        self._draft = ""

    def remember(self, text: str) -> None:
        text = text.strip()
        if text and (not self.past or self.past[-1] != text):
            self.past.append(text)
        self._pos = None

    def restore(self, text: str) -> None:
        """Put ``text`` back (a failed question), unless the user has typed something since."""
        if not self.value.strip():
            self.value = text
            self.cursor_position = len(text)

    def _show(self, text: str) -> None:
        self.value = text
        self.cursor_position = len(text)

    def action_history_back(self) -> None:
        if not self.past:
            return
        if self._pos is None:
            self._draft, self._pos = self.value, len(self.past)
        if self._pos > 0:
            self._pos -= 1
            self._show(self.past[self._pos])

    def action_history_forward(self) -> None:
        if self._pos is None:
            return
        self._pos += 1
        if self._pos >= len(self.past):
            self._pos = None
            self._show(self._draft)
        else:
            self._show(self.past[self._pos])
