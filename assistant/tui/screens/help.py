"""Every key binding and slash command, in one scrollable list (F1 or ?)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from assistant.tui.slash import COMMANDS


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,question_mark,q", "close", "Close", id="help.close",
                tooltip="Close the help"),
    ]

    def __init__(self, sections: list[tuple[str, Iterable[BindingType]]]) -> None:
        super().__init__()
        self.sections = sections

    def _keys(self, binding: Binding) -> str:
        return " / ".join(self.app.get_key_display(b)
                          for b in Binding.make_bindings([binding]))

    def lines(self) -> list[Content]:
        out: list[Content] = []
        for title, bindings in self.sections:
            out.append(Content.styled(title, "bold $text-secondary"))
            for b in bindings:
                if not isinstance(b, Binding) or not b.description:
                    continue
                out.append(Content.assemble((f"  {self._keys(b):<16}", "bold $text-accent"),
                                            b.description))
            out.append(Content(""))
        out.append(Content.styled("Slash commands (type in the input)", "bold $text-secondary"))
        for name, text in COMMANDS.items():
            out.append(Content.assemble((f"  {name:<16}", "bold $text-accent"), text))
        out.append(Content(""))
        out.append(Content.styled("ctrl+p opens the command palette: every action is there.",
                                  "$text-muted"))
        return out

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Static(Content.styled("Keys and commands", "bold $text-accent"),
                         id="help-title")
            with VerticalScroll(id="help-scroll"):
                yield Static(Content("\n").join(self.lines()), id="help-body")
            yield Static(Content.styled("Esc closes", "$text-muted"), id="help-foot")

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
