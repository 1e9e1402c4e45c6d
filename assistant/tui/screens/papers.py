"""Every paper in the store, filterable by text, venue and year; open one, ask about it."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Select, Static

from assistant.textutil import words

from .abstract import AbstractModal, PaperAction

if TYPE_CHECKING:
    from assistant.paper import Paper


def matches(paper: Paper, text: str, venue: str | None, year: int | None) -> bool:
    if venue and paper.venue != venue:
        return False
    if year and paper.year != year:
        return False
    want = words(text)
    if not want:
        return True
    hay = " ".join([paper.title, paper.abstract, " ".join(paper.authors), paper.paper_id]).lower()
    return all(w in hay for w in want)


class PapersScreen(Screen["PaperAction | None"]):
    """Dismisses with what to do with a paper (ask about it, list the papers like it), or
    None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="papers.back", tooltip="Back to the chat"),
        Binding("ctrl+f", "focus_filter", "Filter", id="papers.filter",
                tooltip="Type words to filter by"),
        Binding("s", "similar", "Papers like this", id="papers.similar",
                tooltip="List the papers most like the highlighted one (in the table)"),
    ]

    def __init__(self, papers: list[Paper], *, collection: str = "") -> None:
        super().__init__()
        self.papers = papers
        self.collection = collection
        self.shown: list[Paper] = []

    def compose(self) -> ComposeResult:
        venues = sorted({p.venue for p in self.papers if p.venue})
        years = sorted({p.year for p in self.papers if p.year}, reverse=True)
        yield Static(Content.assemble(("Papers", "bold $text-accent"),
                                      (f" · {self.collection}", "$text-muted")),
                     id="papers-title")
        with Horizontal(id="papers-filters"):
            yield Input(placeholder="filter: words in title, abstract or authors",
                        id="papers-text")
            yield Select([(v, v) for v in venues], prompt="venue", id="papers-venue",
                         compact=True)
            yield Select([(str(y), y) for y in years], prompt="year", id="papers-year",
                         compact=True)
        yield DataTable(id="papers-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="papers-count")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("venue", key="venue")
        table.add_column("year", key="year")
        table.add_column("title", key="title")
        self.refilter()
        self.query_one("#papers-text", Input).focus()

    def _select_value(self, selector: str) -> object:
        value = self.query_one(selector, Select).value
        return None if value is Select.NULL else value

    @on(Input.Changed, "#papers-text")
    @on(Select.Changed)
    def refilter(self) -> None:
        text = self.query_one("#papers-text", Input).value
        venue = self._select_value("#papers-venue")
        year = self._select_value("#papers-year")
        self.shown = [p for p in self.papers if matches(
            p, text, venue if isinstance(venue, str) else None,
            year if isinstance(year, int) else None)]
        table = self.query_one(DataTable)
        table.clear()
        for i, p in enumerate(self.shown):
            table.add_row(p.venue, str(p.year or ""), p.display_title, key=str(i))
        self.query_one("#papers-count", Static).update(Content.styled(
            f"{len(self.shown)} of {len(self.papers)} papers · Enter opens one, s lists the "
            "papers like it", "$text-muted"))

    @on(Input.Submitted, "#papers-text")
    def to_table(self) -> None:
        self.query_one(DataTable).focus()

    @on(DataTable.RowSelected)
    def open_paper(self, event: DataTable.RowSelected) -> None:
        paper = self.shown[int(str(event.row_key.value))]

        def chosen(result: PaperAction | None) -> None:
            if result is not None:
                self.dismiss(result)

        self.app.push_screen(AbstractModal(paper), chosen)

    def action_similar(self) -> None:
        table = self.query_one(DataTable)
        if not self.shown or not table.is_valid_row_index(table.cursor_row):
            self.notify("No paper highlighted: filter, then pick one in the table.",
                        severity="warning")
            return
        self.dismiss(PaperAction(self.shown[table.cursor_row], "similar"))

    def action_focus_filter(self) -> None:
        self.query_one("#papers-text", Input).focus()

    def action_back(self) -> None:
        self.dismiss(None)
