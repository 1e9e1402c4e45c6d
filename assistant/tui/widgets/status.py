"""The status line: backend and model, collection and paper count, tokens, cost."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from assistant.tui.usage import Prices, TurnUsage, money


class StatusLine(Static):
    def __init__(self, **kwargs: object) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self.backend = ""
        self.offline = True
        self.collection = ""
        self.papers: int | None = None
        self.state = "starting…"
        self.turn = TurnUsage()
        self.session = TurnUsage()
        self.prices = Prices.from_env()

    def set(self, **values: object) -> None:
        for key, value in values.items():
            setattr(self, key, value)
        self.refresh_line()

    def refresh_line(self) -> None:
        sep = Content.styled(" │ ", "$text-muted")
        style = "bold $text-success" if self.offline else "bold $text-primary"
        bits = [Content.styled(self.backend or "…", style)]
        count = "…" if self.papers is None else f"{self.papers} papers"
        bits.append(Content.assemble((self.collection, "bold"), f" {count}"))
        if self.state:
            bits.append(Content.styled(self.state, "$text-warning"))
        else:
            if self.offline and not self.session.total:
                bits.append(Content.styled("no LLM tokens", "$text-muted"))
            else:
                bits.append(Content(f"turn {self.turn.label()} · session "
                                    f"{self.session.label()} tok"))
            if self.prices is not None and self.session.total:
                bits.append(Content(f"{money(self.prices.cost(self.turn))} · session "
                                    f"{money(self.prices.cost(self.session))}"))
        self.update(sep.join(bits))
