"""The real `assistant chat` in a real terminal (tmux), driven the way a person would: type a
question, open the sources, open an abstract, Esc, quit. Skipped where tmux is missing."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tui_helpers import QUESTION

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    def __init__(self, tmp_path: Path, env: dict[str, str]) -> None:
        self.socket = f"pytest-{os.getpid()}-{tmp_path.name}"
        self.screens: list[str] = []
        assigns = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        cmd = (f"cd {shlex.quote(str(ROOT))} && env {assigns} {shlex.quote(sys.executable)} "
               "-m assistant chat; echo EXIT=$?; sleep 30")
        self.tmux("new-session", "-d", "-s", "chat", "-x", "100", "-y", "30", cmd)

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=10).stdout

    def screen(self) -> str:
        text = self.tmux("capture-pane", "-p", "-t", "chat")
        self.screens.append(text)
        return text

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "chat", *keys)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "chat", "-l", text)

    def wait_for(self, needle: str, timeout: float = 30, gone: bool = False) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.screen()
            if (needle in text) != gone:
                return text
            time.sleep(0.1)
        raise AssertionError(f"{'still' if gone else 'never'} saw {needle!r}:\n{self.screen()}")

    def close(self) -> None:
        self.tmux("kill-server")


@pytest.fixture
def terminal(tmp_path, bundled_store):
    made: list[Terminal] = []

    def start(**env: str) -> Terminal:
        base = {"ASSISTANT_STORE": os.environ["ASSISTANT_STORE"],
                "ASSISTANT_HISTORY": str(tmp_path / "history.db"),
                "ASSISTANT_CONFIG": str(tmp_path / "none.toml"), "TERM": "xterm-256color"}
        t = Terminal(tmp_path, {**base, **env})
        made.append(t)
        return t

    yield start
    for t in made:
        assert not any("Traceback" in s for s in t.screens), "a traceback reached the screen"
        t.close()


def test_a_person_asks_opens_sources_and_an_abstract_then_quits(terminal):
    t = terminal(ASSISTANT_BACKEND="extractive")
    t.wait_for("Ready: 19 papers in collection icml2026")
    assert "offline extractive" in t.screen()
    t.type(QUESTION)
    t.keys("Enter")
    screen = t.wait_for("References")
    assert "[1] DyPE (Dynamic Position Extrapolation)" in screen
    assert "offline extractive" in screen
    t.keys("C-o")
    t.wait_for("Sources · answer 1")
    t.keys("Enter")
    screen = t.wait_for("Ask about this paper")
    assert "cited as [1]" in screen
    t.wait_for("highlighted: the sentences the answer relied on")
    t.keys("Escape")
    t.wait_for("Ask about this paper", gone=True)
    t.keys("C-q")
    t.wait_for("EXIT=0", timeout=10)


def test_escape_in_a_real_terminal_cuts_a_streaming_llm_answer(terminal, wire):
    wire.delay = 0.25
    wire.script(["DyPE ", "extrapolates ", "positions [1]"] + [" and then more"] * 40)
    t = terminal(OPENAI_BASE_URL=wire.base_url, OPENAI_API_KEY="sk-test",
                 ASSISTANT_MODEL="wire-model")
    t.wait_for("Ready: 19 papers")
    assert "LLM wire-model" in t.screen()
    t.type(QUESTION)
    t.keys("Enter")
    t.wait_for("extrapolates")
    t.keys("Escape")
    screen = t.wait_for("✂ cut")
    assert "DyPE extrapolates" in screen
    t.keys("C-q")
    t.wait_for("EXIT=0", timeout=10)
