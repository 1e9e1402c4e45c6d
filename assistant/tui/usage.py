"""Tokens and cost of a turn and of the session (plain Python).

A turn's tokens are the endpoint's usage when it reported any, else a tiktoken estimate of the
question and answer (marked ``~``: the sources in the prompt are not counted then). The
extractive answerer uses no LLM tokens. Prices are optional, in USD per million tokens, from
``ASSISTANT_PRICE_IN`` / ``ASSISTANT_PRICE_OUT``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.answer.types import Answer


@dataclass
class TurnUsage:
    prompt: int = 0
    completion: int = 0
    estimated: bool = False

    @property
    def total(self) -> int:
        return self.prompt + self.completion

    def __add__(self, other: TurnUsage) -> TurnUsage:
        return TurnUsage(self.prompt + other.prompt, self.completion + other.completion,
                         self.estimated or other.estimated)

    def label(self) -> str:
        return ("~" if self.estimated else "") + f"{self.total:,}"


def of_answer(answer: Answer) -> TurnUsage:
    if answer.backend == "extractive":
        return TurnUsage()
    u = answer.usage or {}
    if int(u.get("total_tokens") or 0) > 0:
        return TurnUsage(int(u.get("prompt_tokens") or 0), int(u.get("completion_tokens") or 0),
                         bool(u.get("estimated")))
    from assistant import tokens

    return TurnUsage(tokens.count(answer.question), tokens.count(answer.text), True)


@dataclass(frozen=True)
class Prices:
    per_m_in: float
    per_m_out: float

    @classmethod
    def from_env(cls) -> Prices | None:
        raw_in = os.environ.get("ASSISTANT_PRICE_IN")
        raw_out = os.environ.get("ASSISTANT_PRICE_OUT")
        if not raw_in and not raw_out:
            return None
        try:
            return cls(float(raw_in or 0), float(raw_out or 0))
        except ValueError:
            return None

    def cost(self, usage: TurnUsage) -> float:
        return (usage.prompt * self.per_m_in + usage.completion * self.per_m_out) / 1_000_000


def money(value: float) -> str:
    return f"${value:.4f}" if value < 1 else f"${value:.2f}"
