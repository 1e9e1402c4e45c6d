"""Shared by the TUI tests: one app factory, a slow fake model, and a wait helper."""

from __future__ import annotations

import asyncio
import functools
import time
from typing import Any

from fakes import QueueModel

from assistant.tui.app import AssistantApp

QUESTION = "Which paper generates ultra-high-resolution images with diffusion transformers?"


def asyncio_test(fn: Any) -> Any:
    """Run an async test in a fresh event loop of its own (fixtures still injected)."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        return asyncio.run(fn(*args, **kwargs))

    return run


class RecordingApp(AssistantApp):
    """The real app; it also keeps every notification it showed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.notes: list[tuple[str, str, str]] = []

    def notify(self, message: str, *, title: str = "", severity: Any = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        self.notes.append((severity, title, message))
        super().notify(message, title=title, severity=severity, timeout=timeout)

    def errors(self) -> list[str]:
        return [m for s, _, m in self.notes if s == "error"]


class SlowModel(QueueModel):
    """QueueModel that waits between chunks, like a real endpoint."""

    def __init__(self, delay: float = 0.05, model: str = "queue-model") -> None:
        super().__init__(model)
        self.delay = delay

    async def stream(self, messages: Any):  # type: ignore[override]
        async for chunk in super().stream(messages):
            await asyncio.sleep(self.delay)
            yield chunk


async def until(pilot: Any, predicate: Any, timeout: float = 15.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await pilot.pause(0.02)


def shows_ready(app: Any) -> bool:
    """The store is open and the screen says so (the welcome line, while it is there)."""
    if not app.session.ready:
        return False
    phase = app.chat.query("#welcome-phase")
    return not phase or text_of(phase.first()).startswith("Ready")


async def ready(pilot: Any) -> None:
    await until(pilot, lambda: shows_ready(pilot.app), 60, "the store to open")


async def ask(pilot: Any, text: str, *, wait: bool = True) -> None:
    """Type a question (or slash command) and press Enter, as a person would."""
    app = pilot.app
    before = len(app.chat.answers())
    app.chat.prompt.focus()
    app.chat.prompt.value = text
    await pilot.press("enter")
    if wait:
        await until(pilot, lambda: app.chat.streaming is None and len(app.chat.answers()) >
                    before, 30, f"the answer to {text!r}")
        await pilot.pause()


def text_of(widget: Any) -> str:
    """The plain text a Static shows."""
    return str(widget.render())
