"""One question and its answer: streamed Markdown, the reference list, how it was made."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Markdown, Sparkline, Static

from assistant.conversations.export import describe_backend
from assistant.judge.decision import tied
from assistant.textutil import printable, readable

if TYPE_CHECKING:
    from assistant.answer.types import Answer
    from assistant.search.retrieval import RetrievedPaper


def shown_text(answer: Answer) -> str:
    """The answer with a mark after each sentence its cited abstract does not support."""
    text = answer.grounding.marked(answer.text) if answer.grounding else answer.text
    return readable(text)  # LaTeX as Unicode text


CELLS = 3  # a trend chart's columns a year


def _unsure(answer: Answer, *, compared: bool) -> str:
    """The chat's mark on an answer not sure of its paper: not sure which of two, when two of
    the papers it cites are estimated alike and high (judge/decision.py ``tied``: the answer
    names both), else not sure of the paper."""
    estimate = {rp.paper.paper_id: rp.verified for rp in answer.papers}
    if not compared and tied([estimate.get(c.paper.paper_id) for c in answer.citations]) \
            is not None:
        return "  ? two papers match about equally: not sure which one is meant"
    return "  ? closest match: not sure it is the paper asked about"


class AnswerView(Vertical, can_focus=True):
    """States: waiting -> streaming -> done | cut | refused (a failed one is removed)."""

    @dataclass
    class Selected(Message):
        """The user focused this answer: the sources pane follows it."""

        view: AnswerView

    def __init__(self, question: str, *, scope: str = "", answer: Answer | None = None,
                 id: str | None = None) -> None:
        super().__init__(id=id, classes="answer")
        self.question = question
        self.scope = scope
        self.answer = answer
        self.retrieved: list[RetrievedPaper] = list(answer.papers) if answer else []
        self.number = 0

    def compose(self) -> ComposeResult:
        head = Content.assemble(("❯ ", "bold $accent"), (printable(self.question), "bold"))
        if self.scope:
            head = head + Content.styled(f"   ⌕ {self.scope}", "$text-muted")
        yield Static(head, classes="question")
        yield Sparkline([], classes="chart")  # a topic over the years: its yearly shares
        yield Static("", classes="chart-years")
        yield Markdown(shown_text(self.answer) if self.answer else "", classes="body")
        yield Static("", classes="references")
        yield Static(Content.styled("retrieving…", "$text-muted"), classes="meta")

    def on_mount(self) -> None:
        if self.answer is not None:
            self._show_done(self.answer)

    @property
    def body(self) -> Markdown:
        return self.query_one(".body", Markdown)

    def on_focus(self) -> None:
        self.post_message(self.Selected(self))

    # -- state changes -------------------------------------------------------------------
    def set_retrieved(self, papers: list[RetrievedPaper]) -> None:
        self.retrieved = list(papers)
        self.add_class("-streaming")
        self._meta(Content.styled(f"{len(papers)} papers retrieved · writing… (Esc stops)",
                                  "$text-muted"))

    async def finish(self, answer: Answer) -> None:
        """Show the final text (citation-checked and tidied) and what it cites; ``answer`` is
        set last, so a set one means it is all on screen."""
        await self.body.update(shown_text(answer))
        self.retrieved = list(answer.papers) or self.retrieved
        self._show_done(answer)
        self.answer = answer

    def _show_chart(self, answer: Answer) -> None:
        """A trend's yearly shares as a Sparkline, ``CELLS`` columns a year, its first and
        last year under it (the answer's text has the bars, with the figures)."""
        years = [y for y in (answer.trend or {}).get("years", [])]
        chart, label = self.query_one(".chart", Sparkline), self.query_one(".chart-years", Static)
        shown = len(years) > 1
        chart.display = label.display = shown
        if not shown:
            return
        chart.data = [float(y["share"]) for y in years for _ in range(CELLS)]
        width = len(years) * CELLS
        chart.styles.width = label.styles.width = width
        first, last = str(years[0]["year"]), str(years[-1]["year"])
        label.update(Content.styled(first + " " * max(1, width - len(first) - len(last)) + last,
                                    "$text-muted"))

    def _show_done(self, answer: Answer) -> None:
        self.remove_class("-streaming")
        self._show_chart(answer)
        self.set_class(answer.cut, "-cut")
        self.set_class(answer.refused, "-refused")
        refs = self.query_one(".references", Static)
        if answer.citations:
            lines = [Content.styled("References", "bold $text-secondary")]
            for c in answer.citations:
                lines.append(Content.assemble((f"[{c.n}] ", "bold $text-accent"),
                                              readable(answer.reference(c.paper))))
            refs.update(Content("\n").join(lines))
            refs.display = True
        else:
            refs.display = False
        self._meta(self.describe(answer))

    @staticmethod
    def describe(answer: Answer) -> Content:
        kind = "offline" if answer.backend == "extractive" else "llm"
        parts = [Content.styled(f" {describe_backend(answer.backend, answer.model)} ",
                                f"bold $text-{'success' if kind == 'offline' else 'primary'} "
                                f"on $surface"),]
        if answer.listed:
            parts.append(Content.styled("  listed from the collection: nothing written",
                                        "$text-muted"))
        elif answer.backend == "extractive" and answer.citations:  # a refusal quotes nothing
            parts.append(Content.styled("  sentences quoted from the abstracts", "$text-muted"))
        g = answer.grounding
        if g is not None and g.claims:
            summary = g.summary()
            flagged = len(g.flagged())
            text = f"  {summary['supported']}/{summary['claims']} claims supported"
            if flagged:
                parts.append(Content.styled(f"{text} · ⚠ {flagged} flagged", "bold $text-warning"))
            else:
                parts.append(Content.styled(text, "$text-success"))
        sides = answer.answerability.get("sides") or ()
        missing = sum(side == "not_found" for side in sides)
        if answer.refused and 0 < missing < len(sides):
            said = "one side of the comparison is" if missing == 1 else \
                f"{missing} sides of the comparison are"
            parts.append(Content.styled(f"  {said} not in the store", "$text-warning"))
        elif answer.refused:
            parts.append(Content.styled("  nothing in the store answers this", "$text-warning"))
        elif answer.outcome == "answered" and not answer.confident:
            parts.append(Content.styled(_unsure(answer, compared=bool(sides)),
                                        "bold $text-warning"))
        if answer.cut:
            why = f" ({answer.cut_reason})" if answer.cut_reason else ""
            parts.append(Content.styled(f"  ✂ cut: stopped before the end{why}",
                                        "bold $text-error"))
        return Content("").join(parts)

    def _meta(self, content: Content) -> None:
        self.query_one(".meta", Static).update(content)
