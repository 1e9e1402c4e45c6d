"""An answer's papers as a table in the chat: one row per cited paper (survey.py's columns)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Static

from assistant.answer.survey import Row
from assistant.textutil import readable

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
            n = len(self.rows)
            yield Static(f"[b]{n} paper{'' if n == 1 else 's'}[/b] for: {escape(self.question)}",
                         id="table-title", markup=True)
            yield DataTable(id="papers-table", zebra_stripes=True, cursor_type="row")
        yield Footer()

    def on_mount(self) -> None:
        """Columns that fit the screen's width, cells that wrap (a row is as tall as its
        longest cell): no column is off-screen and no sentence is cut at 25 characters."""
        table = self.query_one(DataTable)
        for name, width in zip(COLUMNS, column_widths(self.app.size.width), strict=True):
            table.add_column(name, width=width, key=name)
        for r in self.rows:
            table.add_row(str(r.n), Text(readable(r.title)), r.venue_year,
                          Text(readable(_clip(r.proposes, 400))),
                          Text(readable(_clip(r.result, 400))), key=str(r.n), height=None)
        table.focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_export(self, fmt: str) -> None:
        self.dismiss(fmt)


def column_widths(screen: int) -> tuple[int, ...]:
    """The five columns' widths for a screen this wide: n and venue fixed, a title column of
    about a quarter, the two prose columns sharing the rest; no column narrower than its
    header (in terminal cells), which a DataTable cuts rather than wraps."""
    box = min(screen * 96 // 100, 200) - 6  # the box (app.tcss), its border, padding, scrollbar
    n, title, venue, proposes, result = (cell_len(name) for name in COLUMNS)
    n, venue = max(3, n), max(10, venue)
    rest = max(40, box - 2 * len(COLUMNS)) - n - venue  # less cell padding, n, venue
    title = max(14, title, rest // 4)
    prose = (rest - title) // 2
    return (n, title, venue, max(12, proposes, prose), max(12, result, prose))


def _clip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"
