"""The chat in a real pseudo-terminal: when the terminal goes away, so does the chat."""

import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

import pytest


def _plain(raw: bytes) -> bytes:
    """The text drawn, without the escape sequences between its cells."""
    return re.sub(rb"\x1b(?:\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])",
                  b"", raw)


def _read_until(fd: int, text: bytes, deadline: float) -> bytes:
    """What the terminal shows until ``text`` (poll, not select: a test process that has
    opened many stores holds descriptors past select's limit of 1024)."""
    seen = b""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    while text not in _plain(seen) and time.monotonic() < deadline:
        if poller.poll(500):
            try:
                seen += os.read(fd, 1 << 16)
            except OSError:
                break
    return seen


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux pseudo-terminal")
def test_the_chat_leaves_when_its_terminal_hangs_up(bundled_store_dir: Path):
    """A terminal window closed under `make run` hangs up without a SIGHUP reaching the chat
    (make is the one that gets it), and Textual's input thread then spun on end-of-file at
    60% of a core, for good. Here the chat ignores SIGHUP, as it in effect did: it must see the
    hang-up itself and leave."""
    pid, master = pty.fork()
    if pid == 0:  # the child: the chat, with SIGHUP ignored
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        os.environ["TERM"] = "xterm-256color"
        os.execv(sys.executable, [sys.executable, "-m", "assistant", "chat", "--backend",
                                  "extractive", "--store", str(bundled_store_dir)])
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    deadline = time.monotonic() + 180  # a bound for a busy machine, not a wait
    try:
        seen = _read_until(master, b"Ready", deadline)
        assert b"Ready" in _plain(seen), (os.waitpid(pid, os.WNOHANG), _plain(seen)[-400:])
    finally:
        os.close(master)  # the terminal hangs up
    while time.monotonic() < deadline:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            return
        time.sleep(0.2)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    pytest.fail("the chat kept running after its terminal hung up")
