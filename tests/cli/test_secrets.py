"""Secrets (the API key, a password in a URL) never appear where the program prints, logs or
stores anything: errors, `-v` logs (httpx logs each request's URL), the chat's log file and
history, eval reports. A real HTTP server on 127.0.0.1 speaking the OpenAI wire format."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys

from tui_helpers import QUESTION, RecordingApp, ask, asyncio_test, ready

from assistant.cli.main import main
from assistant.settings import load_settings, redact

KEY = "sk-Secr3tKey-4f9a1c77"
PASSWORD = "pw-Secr3t-8d2e"


def _with_password(base_url: str) -> str:
    return base_url.replace("http://", f"http://alice:{PASSWORD}@")


def _clean(text: str) -> bool:
    return KEY not in text and PASSWORD not in text


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "assistant", *args], capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=180)


def test_redact_masks_each_kind_of_secret(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    said = redact(f"POST http://alice:{PASSWORD}@h:1/v1?api_key=abc123&x=1 "
                  f"Authorization: Bearer {KEY} key={KEY}")
    assert _clean(said) and "abc123" not in said
    assert "http://alice:****@h:1/v1" in said and "x=1" in said  # the rest is kept


def test_verbose_logs_and_errors_of_a_real_process_hold_no_secret(bundled_store_dir, wire):
    wire.script("DyPE extrapolates positions [1].")
    env = {"ASSISTANT_STORE": str(bundled_store_dir), "OPENAI_API_KEY": KEY,
           "OPENAI_BASE_URL": _with_password(wire.base_url), "ASSISTANT_MODEL": "wire-model"}
    done = _run(["ask", "-v", "--json", QUESTION], env)
    assert done.returncode == 0, done.stderr[-500:]
    assert "HTTP Request: POST" in done.stderr  # httpx logged the request URL...
    assert "alice:****@" in done.stderr  # ...masked
    assert _clean(done.stdout + done.stderr)
    closed = f"http://alice:{PASSWORD}@127.0.0.1:{_closed_port()}/v1"
    failed = _run(["ask", QUESTION], {**env, "OPENAI_BASE_URL": closed, "ASSISTANT_TIMEOUT": "3"})
    assert failed.returncode != 0 and failed.stderr.startswith("error: ")
    assert _clean(failed.stdout + failed.stderr) and "Traceback" not in failed.stderr
    config = _run(["config"], env)
    assert _clean(config.stdout + config.stderr) and "alice:****@" in config.stdout


def test_eval_reports_hold_no_secret(bundled_store, wire, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", _with_password(wire.base_url))
    suite = tmp_path / "s.yaml"
    suite.write_text("k: 4\ncases:\n  - id: a\n    question: Which paper makes pretrained "
                     "diffusion transformers produce huge images?\n    expect_papers: [DyPE]\n")
    wire.script("DyPE makes them [1].")
    main(["eval", str(suite), "--runs-dir", str(tmp_path / "r"), "--json"])
    out = capsys.readouterr()
    report_dir = tmp_path / "r" / json.loads(out.out)["report"].split("/")[-1]
    written = [f.read_text() for f in report_dir.iterdir()]
    assert len(written) >= 2 and all(_clean(t) for t in written) and _clean(out.out + out.err)


@asyncio_test
async def test_the_chat_history_and_log_file_hold_no_secret(bundled_store, embedder, wire,
                                                            tmp_path):
    from assistant.cli.chat import _log_to_file

    settings = load_settings(base_url=_with_password(wire.base_url), api_key=KEY,
                             model="wire-model")
    log_file = _log_to_file(settings)
    try:
        # what httpx would log at -v, and an error naming the endpoint
        logging.getLogger("httpx").error("HTTP Request: POST %s/chat/completions",
                                         settings.base_url)
        logging.getLogger("assistant").error("failed with key %s", KEY)
        wire.script("DyPE extrapolates positions [1].")
        app = RecordingApp(settings, embedder=embedder)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            await ask(pilot, QUESTION)
            assert app.chat.answers()
    finally:
        root = logging.getLogger()
        for handler in [h for h in root.handlers if isinstance(h, logging.FileHandler)]:
            root.removeHandler(handler)
            handler.close()
    logged = log_file.read_text()
    assert "alice:****@" in logged and "failed with key ****" in logged and _clean(logged)
    history = (tmp_path / "history.db").read_bytes()
    assert b"DyPE extrapolates" in history and KEY.encode() not in history
    assert PASSWORD.encode() not in history
