import json
import os
import subprocess
import sys

from assistant.cli.main import main


def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "assistant", *args], capture_output=True,
                          text=True, env={**os.environ, **(env or {})}, timeout=120)


def test_ingest_ask_search_papers_end_to_end(tmp_path, capsys):
    store = str(tmp_path / "cli-store")
    assert main(["ingest", "--store", store]) == 0
    out = capsys.readouterr().out
    assert "19 added" in out and "19 papers" in out
    assert main(["ingest", "--store", store]) == 0
    assert "19 unchanged; 0 chunks embedded" in capsys.readouterr().out
    assert main(["ask", "--store", store, "--json", "Which paper speeds up diffusion "
                 "transformers at ultra-high resolution?"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "DyPE" in data["citations"][0]["title"] and data["refused"] is False
    assert main(["search", "--store", store, "--json", "watermark", "--k", "3"]) == 0
    hits = json.loads(capsys.readouterr().out)["papers"]
    assert len(hits) == 3 and "IPMark" in hits[0]["title"]
    assert main(["papers", "--store", store, "--json"]) == 0
    papers = json.loads(capsys.readouterr().out)
    assert len(papers) == 19
    assert {"paper_id", "title", "title_derived", "venue", "year", "authors", "url", "code_url",
            "status", "tldr", "keywords", "abstract"} <= set(papers[0])


def test_user_errors_are_one_line_and_exit_2(tmp_path):
    cases = [
        ("ask", "anything", "--store", str(tmp_path / "nothing")),
        ("ingest", str(tmp_path / "missing.jsonl"), "--store", str(tmp_path / "s")),
        ("ask",),
        ("ask", "q", "--bogus"),
        ("ask", "q", "--k", "0"),
        ("ingest", "--collection", "x", "--store", str(tmp_path / "s")),
    ]
    for args in cases:
        proc = run(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, proc.stderr)
        assert "Traceback" not in proc.stderr


def test_a_bad_file_leaves_the_store_untouched(tmp_path, capsys):
    store = str(tmp_path / "s")
    assert main(["ingest", "--store", store]) == 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"title": "t", "abstract": "ok abstract here"}\nnot json\n')
    capsys.readouterr()
    assert main(["ingest", "--store", store, str(bad)]) == 2
    assert "bad.jsonl:2" in capsys.readouterr().err
    assert main(["papers", "--store", store, "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 19


def test_config_masks_secrets():
    proc = run("config", "--json", env={"OPENAI_API_KEY": "sk-zq9xvw8utplm",
                                        "ASSISTANT_K": "9"})
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    assert data["k"] == 9 and "9xvw8utp" not in proc.stdout and data["api_key"].startswith("sk-")
    assert data["effective_backend"] == "llm"
    bad = run("config", env={"ASSISTANT_K": "lots"})
    assert bad.returncode == 2 and bad.stderr.startswith("error: invalid setting k")


def test_the_chat_logs_to_a_file_not_over_the_screen(tmp_path, monkeypatch):
    import logging
    import sys

    from assistant.cli.chat import _log_to_file
    from assistant.settings import load_settings

    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [logging.StreamHandler(sys.stderr)])
    path = _log_to_file(load_settings())
    logging.getLogger("assistant.tui").error("answer failed", exc_info=ValueError("boom"))
    for h in root.handlers:
        h.flush()
    assert all(isinstance(h, logging.FileHandler) for h in root.handlers)
    text = path.read_text()
    assert "answer failed" in text and "ValueError: boom" in text
    for h in root.handlers:
        h.close()
