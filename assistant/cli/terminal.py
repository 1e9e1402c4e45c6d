"""What the command line writes goes through ``printable``: a title, an abstract, a question or
an id from a paper list never reaches the terminal with its escape sequences (window title,
clipboard, clearing or hiding text). ``--json`` output is JSON-escaped instead
(``textutil.safe_json``)."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from assistant.textutil import printable


class SafeStream:
    """A text stream that writes only printable text to the stream it wraps."""

    def __init__(self, raw: TextIO) -> None:
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(printable(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding, buffer ...
        return getattr(self.raw, name)


def install() -> None:
    """Wrap stdout and stderr (once) for the rest of the process."""
    if not isinstance(sys.stdout, SafeStream):
        sys.stdout = SafeStream(sys.stdout)
    if not isinstance(sys.stderr, SafeStream):
        sys.stderr = SafeStream(sys.stderr)


def raw_stderr() -> TextIO:
    """stderr itself, for the progress bar (its own escape sequences, no paper text)."""
    err = sys.stderr
    return err.raw if isinstance(err, SafeStream) else err
