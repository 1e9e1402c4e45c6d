"""A paper's abstract, the sentences an answer relied on highlighted; "ask about this paper"."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static

from assistant.textutil import readable
from assistant.tui.evidence import Evidence, abstract_sentences
from assistant.tui.widgets.sources import score_text

if TYPE_CHECKING:
    from assistant.paper import Paper

EvidenceLoader = Callable[[], Awaitable[Evidence]]
LEGEND = {
    "cited": "highlighted: the sentences the answer relied on",
    "closest": "highlighted: the sentences closest to the question (the answer does not cite it)",
    "none": "",
}


@dataclass(frozen=True)
class PaperAction:
    """What the user asked to do with a paper: ask about it, or list the papers like it."""

    paper: Paper
    action: Literal["ask", "similar"] = "ask"


def render_abstract(evidence: Evidence) -> Content:
    marked = set(evidence.highlighted)
    parts = [Content.styled(s, "bold $text-warning on $warning-muted") if i in marked
             else Content(s) for i, s in enumerate(map(readable, evidence.sentences))]
    return Content(" ").join(parts)


class AbstractModal(ModalScreen["PaperAction | None"]):
    """Dismisses with what to do with the paper (ask about it, list the papers like it), or
    None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="abstract.close", tooltip="Back to where you were"),
        Binding("a", "ask", "Ask about this paper", id="abstract.ask",
                tooltip="Scope the next questions to this paper"),
        Binding("s", "similar", "Papers like this", id="abstract.similar",
                tooltip="List the papers most like this one (in the sources pane; /similar "
                        "method does it on one facet)"),
        Binding("c", "copy_reference", "Copy reference", id="abstract.copy",
                tooltip="Copy the reference line (OSC 52)"),
    ]

    def __init__(self, paper: Paper, *, score: float | None = None, n: int | None = None,
                 evidence: EvidenceLoader | None = None,
                 score_label: str = "answers the question") -> None:
        super().__init__()
        self.paper = paper
        self.score = score
        self.score_label = score_label  # what the 0-1 score says of the paper
        self.n = n
        self._loader = evidence
        self.evidence = Evidence(abstract_sentences(paper), [], "none")

    def compose(self) -> ComposeResult:
        p = self.paper
        bits = [b for b in (p.venue_year, ", ".join(p.authors[:4]) +
                            (" et al." if len(p.authors) > 4 else ""), p.paper_id) if b]
        if self.score is not None:
            bits.append(f"{self.score_label}: {score_text(self.score)} of 1")
        if self.n is not None:
            bits.append(f"cited as [{self.n}]")
        with Vertical(id="abstract-box"):
            yield Static(Content.styled(p.display_title, "bold $text-accent"),
                         id="abstract-title")
            yield Static(Content.styled(" · ".join(bits), "$text-muted"), id="abstract-meta")
            if p.link:
                yield Static(Content.styled(p.link, "underline $text-primary"),
                             id="abstract-link")
            with VerticalScroll(id="abstract-scroll"):
                yield Static(render_abstract(self.evidence), id="abstract-body")
            yield Static("", id="abstract-legend")
            with Horizontal(id="abstract-buttons"):
                yield Button("Ask about it", id="ask", variant="primary", compact=True)
                yield Button("Papers like it", id="similar", compact=True)
                yield Button("Copy reference", id="copy", compact=True)
                yield Button("Close", id="close", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#abstract-scroll").focus()
        if self._loader is not None:
            self.query_one("#abstract-legend", Static).update(
                Content.styled("finding the sentences the answer relied on…", "$text-muted"))
            self.load_evidence()

    @work(exclusive=True)
    async def load_evidence(self) -> None:
        assert self._loader is not None
        try:
            evidence = await self._loader()
        except Exception as exc:  # highlighting is a nicety: never let it break the modal
            self.query_one("#abstract-legend", Static).update(Content.styled(
                f"could not find the relied-on sentences ({type(exc).__name__})", "$text-muted"))
            return
        self.evidence = evidence
        self.query_one("#abstract-body", Static).update(render_abstract(evidence))
        self.query_one("#abstract-legend", Static).update(
            Content.styled(LEGEND.get(evidence.kind, ""), "$text-warning"))
        self.call_after_refresh(self._scroll_to_first_highlight)

    def _scroll_to_first_highlight(self) -> None:
        """Bring the first highlighted sentence into view (by its share of the text)."""
        if not self.evidence.highlighted:
            return
        sentences = self.evidence.sentences
        before = sum(len(s) + 1 for s in sentences[: self.evidence.highlighted[0]])
        share = before / max(1, sum(len(s) + 1 for s in sentences))
        body = self.query_one("#abstract-body", Static)
        self.query_one("#abstract-scroll", VerticalScroll).scroll_to(
            y=max(0, int(share * body.size.height) - 1), animate=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        {"ask": self.action_ask, "similar": self.action_similar,
         "copy": self.action_copy_reference,
         "close": self.action_close}[event.button.id or "close"]()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_ask(self) -> None:
        self.dismiss(PaperAction(self.paper, "ask"))

    def action_similar(self) -> None:
        self.dismiss(PaperAction(self.paper, "similar"))

    def action_copy_reference(self) -> None:
        self.app.copy_to_clipboard(self.paper.reference())
        self.notify("Reference copied (OSC 52).", timeout=3)
