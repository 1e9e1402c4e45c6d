"""The sources pane: for the selected answer, the papers it cites and the others retrieved.

Each row is three columns, measured in terminal cells (a Chinese title takes two a character):
the citation mark, the decision's estimate, and the title, wrapped under itself (``Hanging``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.cells import cell_len, set_cell_size
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from assistant.textutil import has_cjk
from assistant.tui.widgets.hanging import Hanging

if TYPE_CHECKING:
    from assistant.answer.types import Answer
    from assistant.paper import Paper
    from assistant.tui.widgets.answer_view import AnswerView


@dataclass
class Source:
    paper: Paper
    score: float | None
    n: int | None  # the citation number, when the answer cites it
    rank: int = 0  # retrieval's rank: the order of papers whose shown estimates are equal
    less_sure: bool = False  # cited after a list as less sure (Citation.less_sure)


def sources_of(view: AnswerView) -> list[Source]:
    """Cited papers, then the other retrieved ones, each group by the decision's estimate (the
    0-1 chance that it is the paper asked about: retrieval and the verifier together), best
    first; papers it did not weigh (a question in another language) keep their retrieval order
    after those it did. Estimates are compared as shown (two decimals), so papers that show the
    same one are in retrieval order, not in the order of digits that differ between CPUs. A
    list's less sure papers come after the papers it is sure of. A listing (papers like one
    paper) keeps its own order: [1] first; so does a comparison, its sides' papers in the
    question's order."""
    retrieved = {rp.paper.paper_id: rp for rp in view.retrieved}
    cited: list[Source] = []
    if view.answer is not None:
        for c in view.answer.citations:
            rp = retrieved.get(c.paper.paper_id)
            cited.append(Source(c.paper, rp.verified if rp else None, c.n,
                                rp.rank if rp else c.n, c.less_sure))
    ids = {s.paper.paper_id for s in cited}
    other = [Source(rp.paper, rp.verified, None, rp.rank) for rp in view.retrieved
             if rp.paper.paper_id not in ids]
    if view.answer is not None and view.answer.listed:
        return cited + other
    if view.answer is not None and view.answer.answerability.get("sides"):
        return cited + _by_score(other)
    return (_by_score([s for s in cited if not s.less_sure])
            + _by_score([s for s in cited if s.less_sure]) + _by_score(other))


def _by_score(sources: list[Source]) -> list[Source]:
    return sorted(sources, key=lambda s: (s.score is None, -shown(s.score), s.rank))


def shown(score: float | None) -> float:
    """The estimate as the pane shows it: 0-1, two decimals (0 when there is none)."""
    if score is None or math.isnan(score):
        return 0.0
    return round(min(max(score, 0.0), 1.0), 2)


def score_text(score: float | None) -> str:
    """The decision's estimate, 0-1, two decimals at most (the int8 verifier's further digits
    differ between CPUs); blank when it did not weigh the paper."""
    if score is None or math.isnan(score):
        return "    "
    return f"{shown(score):.2f}"


class SourcesPane(Vertical):
    @dataclass
    class Chosen(Message):
        """Enter on a source: open its abstract."""

        source: Source
        view: AnswerView | None

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.view: AnswerView | None = None
        self.sources: list[Source] = []

    def compose(self) -> ComposeResult:
        yield Static("Sources", id="sources-title")
        yield OptionList(id="sources-list")

    @property
    def options(self) -> OptionList:
        return self.query_one("#sources-list", OptionList)

    def show(self, view: AnswerView | None) -> None:
        self.view = view
        self.sources = sources_of(view) if view is not None else []
        title = self.query_one("#sources-title", Static)
        if view is None:
            title.update(Content.styled("Sources", "bold"))
        else:
            title.update(Content.assemble(("Sources", "bold"),
                                          (f" · answer {view.number}", "$text-muted")))
        items: list[Option | None] = []
        searched = searched_as(view.answer) if view is not None else ""
        if searched:  # a question in Chinese: the English it was searched in
            items.append(Option(Content.assemble(("searched as ", "$text-muted"),
                                                 (searched, "italic")), disabled=True))
        cited = [s for s in self.sources if s.n is not None]
        other = [s for s in self.sources if s.n is None]
        width = max([cell_len("[1]"), *(cell_len(_mark(s)) for s in self.sources)]) + 1
        for label, group in (("Cited", False), ("Cited, less sure", True)):
            if any(s.less_sure == group for s in cited):
                items.append(Option(Content.styled(label, "bold $text-secondary"),
                                    disabled=True))
                items += [self._option(i, s, width) for i, s in enumerate(self.sources)
                          if s.n is not None and s.less_sure == group]
        if other:
            label = "Also retrieved" if cited else "Retrieved"
            items.append(Option(Content.styled(label, "bold $text-secondary"), disabled=True))
            items += [self._option(i, s, width) for i, s in enumerate(self.sources)
                      if s.n is None]
        if not items:
            waiting = view is not None and view.answer is None
            items.append(Option(Content.styled("retrieving…" if waiting else "no sources yet",
                                               "$text-muted"), disabled=True))
        self.options.set_options(items)
        first = next((i for i, o in enumerate(items) if o is not None and not o.disabled), None)
        self.options.highlighted = first

    @staticmethod
    def _option(i: int, s: Source, mark_width: int) -> Option:
        """One row: mark, estimate and title in columns of fixed cell width; a long title
        wraps under itself."""
        lead = Content.assemble((set_cell_size(_mark(s), mark_width), "bold $text-accent"),
                                (score_text(s.score) + " ", "$text-muted"))
        return Option(Hanging(lead, Content(s.paper.display_title)), id=f"src-{i}")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_id and event.option_id.startswith("src-"):
            source = self.sources[int(event.option_id[4:])]
            self.post_message(self.Chosen(source, self.view))


def searched_as(answer: Answer | None) -> str:
    """The English a question in another language was searched in (translated offline or by
    the LLM); "" for an English question."""
    if answer is None or not has_cjk(answer.question):
        return ""
    query = getattr(answer, "search_query", "") or ""
    return query if query and not has_cjk(query) else ""


def _mark(s: Source) -> str:
    return f"[{s.n}]" if s.n is not None else " ·"
