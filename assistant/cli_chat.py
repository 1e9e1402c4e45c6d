"""CLI commands of the chat side: `assistant chat` (the TUI) and `assistant history`.

Kept apart from cli.py so the TUI work can grow here. Textual is imported only inside the
`chat` handler.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {}


def add_commands(sub: Any, *, common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Register the chat-side subcommands on the main parser's subparsers."""
    return None
