"""A queue-based fake chat model for tests and evaluations (no network).

    model = QueueModel()
    model.enqueue(["DyPE scales [1]", " well [9]."])
    ... answer(question, model=model) ...
    model.calls[0]  # the messages it was sent
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

from assistant.errors import LLMError
from assistant.llm.client import Message, estimate_usage


class QueueModel:
    backend = "llm"

    def __init__(self, model: str = "queue-model") -> None:
        self.model = model
        self.queue: list[list[str] | Exception] = []
        self.calls: list[list[Message]] = []
        self.usage: dict[str, Any] = {}

    def enqueue(self, chunks: list[str] | str | Exception) -> QueueModel:
        if isinstance(chunks, str):
            chunks = [chunks]
        self.queue.append(chunks)
        return self

    async def stream(self, messages: Sequence[Message]) -> AsyncIterator[str]:
        self.calls.append(list(messages))
        if not self.queue:
            raise LLMError("QueueModel has no scripted reply left: enqueue() one first")
        reply = self.queue.pop(0)
        if isinstance(reply, Exception):
            raise reply
        for chunk in reply:
            yield chunk
        self.usage = estimate_usage(messages, "".join(reply))
