"""Read an LLM reply's outcome as it streams: a reply that starts with ``NONE:`` says none of
the sources answers the question (prompts/system.md asks for exactly that), anything else is
an answer.

The gate holds back only the reply's first few characters, until they either spell the start
of ``NONE:`` or cannot: an answer streams on as it comes; a NONE reply is never shown (the
pipeline composes the near miss instead). It is a protocol the prompt defines, read from the
first characters only, not a search for refusal phrases anywhere in the text.
"""

from __future__ import annotations

MARK = "NONE:"


class OutcomeGate:
    def __init__(self) -> None:
        self.none: bool | None = None  # None until the first characters decide it
        self._head = ""
        self.reason = ""  # a NONE reply's sentence (what the sources are about instead)

    def feed(self, delta: str) -> str:
        """The text to show for this delta ("" while undecided or for a NONE reply)."""
        if self.none is None:
            self._head += delta
            probe = self._head.lstrip().upper()
            if len(probe) < len(MARK) and MARK.startswith(probe):
                return ""
            self.none = probe.startswith(MARK)
            delta, self._head = self._head, ""
            if not self.none:
                return delta
            self.reason = delta.lstrip()[len(MARK):]
            return ""
        if self.none:
            self.reason += delta
            return ""
        return delta

    def flush(self) -> str:
        """At the end of the stream: what is still held back (a reply shorter than the mark)."""
        if self.none is None:
            self.none = False
            held, self._head = self._head, ""
            return held
        self.reason = self.reason.strip()
        return ""
