"""An answer's papers as a table in the chat: one row per cited paper (survey.py's columns)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Static

from assistant.answer.survey import Row

COLUMNS = ("n", "title", "venue, year", "what it proposes", "main result")


class TableModal(ModalScreen["str | None"]):
    """Dismisses with "md" or "csv" when the user exports, else with None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="table.close", tooltip="Back to the chat"),
        Binding("m", "export('md')", "Export Markdown", id="table.md",
                tooltip="Write the table as a Markdown file"),
        Binding("v", "export('csv')", "Export CSV", id="table.csv",
                tooltip="Write the table as a CSV file"),
    ]

    def __init__(self, rows: Sequence[Row], *, question: str) -> None:
        super().__init__()
        self.rows = list(rows)
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="table-box"):
            yield Static(f"[b]{len(self.rows)} papers[/b] for: {self.question}",
                         id="table-title", markup=True)
            yield DataTable(id="papers-table", zebra_stripes=True, cursor_type="row")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        for r in self.rows:
            table.add_row(str(r.n), _clip(r.title, 60), r.venue_year, _clip(r.proposes, 90),
                          _clip(r.result, 90), key=str(r.n))
        table.focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_export(self, fmt: str) -> None:
        self.dismiss(fmt)


def _clip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"
