"""What the chat shows before the first question: what to ask, and the store opening."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import ProgressBar, Static

HINT = ("Ask a question about the papers; every claim cites a paper [n].\n"
        "Enter asks · Esc stops an answer · ctrl+o sources · ctrl+l papers · ctrl+r chats · "
        "F1 keys · /help")


class Welcome(Vertical):
    def compose(self) -> ComposeResult:
        yield Static(Content.styled("Paper assistant", "bold $text-accent"), id="welcome-title")
        yield Static(Content.styled(HINT, "$text-muted"), id="welcome-hint")
        yield Static(Content.styled("starting…", "$text-warning"), id="welcome-phase")
        yield ProgressBar(id="welcome-progress", show_eta=False)

    def on_mount(self) -> None:
        self.query_one(ProgressBar).display = False

    def phase(self, text: str, *, style: str = "$text-warning") -> None:
        self.query_one("#welcome-phase", Static).update(Content.styled(text, style))

    def progress(self, done: int, total: int) -> None:
        bar = self.query_one(ProgressBar)
        bar.display = True
        bar.update(total=total, progress=done)

    def ready(self, text: str) -> None:
        self.query_one(ProgressBar).display = False
        self.phase(text, style="$text-success")
