"""Issue 18: what a new user trips over, each through the real CLI (``main`` or a subprocess)
or the chat's pilot: a typo'd collection, scores and their order, a filter no paper passes,
an abstract that does not state what a follow-up asks, comparisons, text lists without a
header, derived titles in another field, LaTeX, the /table view, help and config."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from assistant.cli.main import main

Q = "Which paper generates ultra-high-resolution images with diffusion transformers?"


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "assistant", *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, **(env or {})})


def test_a_typo_in_the_chat_collection_is_the_error_ask_gives(bundled_store_dir, tmp_path):
    store = tmp_path / "copy"
    shutil.copytree(bundled_store_dir, store)
    chat = _cli("chat", "--collection", "nipps2017", "--store", str(store))
    ask = _cli("ask", "--collection", "nipps2017", "--store", str(store), Q)
    assert chat.returncode == ask.returncode == 2
    lines = chat.stderr.strip().splitlines()
    assert len(lines) == 1 and lines == ask.stderr.strip().splitlines()
    assert "no collection 'nipps2017'" in lines[0] and "icml2026" in lines[0]
    listed = _cli("collections", "--json", "--store", str(store))
    assert [c["name"] for c in json.loads(listed.stdout)] == ["icml2026"]  # nothing created


def test_scores_are_one_scale_shown_best_first(bundled_store, capsys):
    assert main(["search", "--json", "watermarking text from language models", "--k", "8"]) == 0
    papers = json.loads(capsys.readouterr().out)["papers"]
    scores = [p["estimate"] for p in papers]
    assert all(0.0 <= s <= 1.0 for s in scores) and scores == sorted(scores, reverse=True)
    assert main(["ask", "--json", Q]) == 0
    listed = json.loads(capsys.readouterr().out)["papers"]
    read = [p["estimate"] for p in listed if p["estimate"] is not None]
    assert read == sorted(read, reverse=True) and {"rank", "score"} <= set(listed[0])
    assert main(["search", "watermarking text from language models", "--k", "5"]) == 0
    shown = [float(line.split()[1]) for line in capsys.readouterr().out.splitlines()]
    assert shown == sorted(shown, reverse=True)
    assert "0-1 estimate" in _cli("search", "--help").stdout


def test_a_follow_up_the_abstract_does_not_answer_says_so(bundled_store, embedder):
    from assistant.answer.extractive import ExtractiveAnswerer
    from assistant.answer.pipeline import answer
    from assistant.search.retrieval import Retriever

    retriever, answerer = Retriever(store=bundled_store), ExtractiveAnswerer(embedder=embedder)
    first = answer(Q, retriever=retriever, answerer=answerer)
    history = [(Q, first.text)]
    code = answer("Is the code available?", retriever=retriever, answerer=answerer,
                  history=history)
    assert "does not state whether its code is available" in code.text
    assert "The closest it comes:" in code.text and code.citations[0].paper.title.startswith(
        "DyPE")
    stated = answer("Which benchmarks did they evaluate on?", retriever=retriever,
                    answerer=answerer, history=history)
    assert "does not state" not in stated.text and "benchmarks" in stated.text


def test_a_comparison_lines_up_the_same_points(bundled_store, capsys):
    assert main(["ask", "How does DyPE compare with IPMark?"]) == 0
    out = capsys.readouterr().out
    for label in ("problem:", "method:", "data:", "result:"):
        assert out.count(f"- {label}") == 2, label
    dype, ipmark = out.split("**IPMark")[0], out.split("**IPMark")[1].split("References")[0]
    assert "[1]" in dype and "[2]" not in dype and "[2]" in ipmark and "[1]" not in ipmark


def test_a_text_list_without_a_header_says_what_was_read(tmp_path):
    from assistant.sources.corpus import load_papers

    f = tmp_path / "plain.txt"
    f.write_text("We study graph learning and show a simple method improves accuracy on four "
                 "benchmarks.\n")
    notes = load_papers(f).notes(f)
    assert any("read 1 abstract, no header line" in n and "venue and year unknown" in n
               for n in notes)
    long = tmp_path / "long.txt"
    long.write_text("ICML 2026\n\n" + "We study things. " * 400)
    assert any("is this a paper list?" in n for n in load_papers(long).notes(long))


@pytest.mark.shared
def test_derived_titles_read_as_titles_in_another_field():
    """300 biomedical abstracts (SciFact's corpus): no title carries a structured abstract's
    label or opens with how the cohort was gathered."""
    import random
    import re

    from conftest import SHARED

    from assistant.sources.titles import derive_title

    rows = [json.loads(line) for line in (SHARED / "bench" / "scifact" / "corpus.jsonl").open()]
    random.Random(18).shuffle(rows)
    titles = [derive_title(r["text"]) for r in rows[:300]]
    label = re.compile(r"^\W*(?:background|context|purpose|aims?|objectives?)\b", re.I)
    assert not [t for t in titles if label.match(t)]
    assert not [t for t in titles if re.match(r"(?:we|the authors) \w*ly (?:identified|"
                                              r"reviewed|enrolled)", t, re.I)]
    assert derive_title("We retrospectively identified 84 consecutive patients aged ≥80 years. "
                        "Outcomes of hip fracture surgery in the very old are poorly "
                        "described.") == ("Outcomes of hip fracture surgery in the very old are "
                                          "poorly described")
    assert derive_title("OBJECTIVE: To assess the effect of vitamin D on bone density in "
                        "elderly women. METHODS: We enrolled 300 women.").startswith(
                            "The effect of vitamin D on bone density")


def test_latex_is_shown_as_text_and_kept_as_source_in_json(tmp_path, capsys):
    from assistant.textutil import readable

    assert readable(r"a regret of $\tilde{O}(D\sqrt{SAT})$ with \emph{care}") == \
        "a regret of Õ(D√(SAT)) with care"
    assert readable("95% and 5$ to 10$: no math") == "95% and 5$ to 10$: no math"
    store = str(tmp_path / "s")
    f = tmp_path / "latex.jsonl"
    f.write_text(json.dumps({"id": "rl1", "title": r"Regret $\tilde{O}(\sqrt{T})$ for "
                             r"\emph{tabular} RL", "abstract": r"We prove a regret bound of "
                             r"$\tilde{O}(\sqrt{T})$ for tabular reinforcement learning with "
                             r"$S$ states and $A$ actions."}) + "\n")
    assert main(["ingest", str(f), "--store", store]) == 0
    capsys.readouterr()
    q = "Which paper proves a regret bound for tabular reinforcement learning?"
    assert main(["ask", q, "--store", store]) == 0
    out = capsys.readouterr().out
    assert "Õ(√(T))" in out and "$" not in out and "\\emph" not in out
    assert main(["ask", "--json", q, "--store", store]) == 0
    assert json.loads(capsys.readouterr().out)["citations"][0]["title"].startswith(
        r"Regret $\tilde{O}")


def test_help_version_and_config_say_what_a_new_user_needs(capsys):
    version = _cli("--version")
    assert version.returncode == 0 and version.stdout.startswith("assistant ")
    helped = " ".join(_cli("ask", "--help").stdout.split())  # argparse wraps lines
    assert "default 6" in helped and "example:" in helped and "auto (the default)" in helped
    for command in ("ingest", "search", "papers", "config", "chat", "history", "collections"):
        assert "example:" in _cli(command, "--help").stdout, command
    wrong = _cli("collections", "--collection", "x")
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
    assert main(["config"]) == 0
    out = capsys.readouterr().out
    assert "(not there:" in out.splitlines()[0]
    line = next(x for x in out.splitlines() if x.startswith("embedding_model"))
    assert "in use: all-MiniLM-L6-v2-onnx-int8" in line


def test_a_refusal_quotes_one_line_and_claims_no_quotes(bundled_store, embedder):
    from assistant.answer.extractive import ExtractiveAnswerer
    from assistant.answer.pipeline import answer
    from assistant.search.retrieval import Retriever
    from assistant.tui.widgets.answer_view import AnswerView

    long_q = "Which papers are about " + "the history of medieval cathedral construction " * 8
    res = answer(long_q + "?", retriever=Retriever(store=bundled_store),
                 answerer=ExtractiveAnswerer(embedder=embedder))
    assert res.refused and len(res.text) < 400 and "…" in res.text
    assert "quoted from the abstracts" not in str(AnswerView.describe(res))


def test_the_chat_refuses_a_filter_no_paper_passes_and_wraps_tables(bundled_store, embedder):
    """Pilot: /filter year=2025 over a 2026 list is refused when set; /table fits the screen
    with wrapped cells; ctrl+o shows plainly which pane has the keys."""
    from tui_helpers import RecordingApp, ask, asyncio_test, ready, until

    from assistant.settings import load_settings
    from assistant.tui.screens.table import TableModal

    @asyncio_test
    async def drive() -> None:
        app = RecordingApp(load_settings(), embedder=embedder, model=None)
        async with app.run_test(size=(120, 40)) as pilot:
            await ready(pilot)
            await ask(pilot, "/filter year=2025", wait=False)
            await until(pilot, lambda: any("matches the filter year 2025" in m
                                           for _, _, m in app.notes))
            assert app.chat.scope.empty  # not set: the next question searches everything
            await ask(pilot, "Which papers study quantization?")
            assert app.chat.views[-1].answer.citations
            await ask(pilot, "/table", wait=False)
            await until(pilot, lambda: isinstance(app.screen, TableModal))
            await pilot.pause()
            table = app.screen.query_one("DataTable")
            assert table.virtual_size.width <= table.size.width  # every column on screen
            assert all(row.height > 1 for row in table.rows.values())  # cells wrap
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is app.chat)
            pane = app.chat.sources
            plain = pane.styles.border_left[0]
            await pilot.press("ctrl+o")
            await until(pilot, lambda: pane.options.has_focus)
            await pilot.pause()
            assert pane.styles.border_left[0] == "thick" != plain

    drive()
