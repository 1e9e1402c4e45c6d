"""``ChatHost``: what the chat screen needs of the App that hosts it (the session, the core
loop, turn bookkeeping, slash commands, exports). A protocol, so the screen does not import
the App that imports it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from assistant.answer.types import Answer
    from assistant.tui.runner import CoreLoop
    from assistant.tui.session import ChatSession
    from assistant.tui.slash import Scope, Slash


class ChatHost(Protocol):
    session: ChatSession
    core: CoreLoop

    async def wait_ready(self) -> None: ...

    async def turn_done(self, answer: Answer, scope: Scope) -> None: ...

    async def run_slash(self, command: Slash) -> None: ...

    def write_export(self, text: str, path: str, *, default_name: str,
                     then: str = "") -> Path | None: ...
