"""What the command line prints where a new user read it: `assistant collections` for a paper
list without venues or years, and `assistant ingest` into a log (stderr not a terminal)."""

from __future__ import annotations

import functools
import json
import re

import pytest

from assistant.cli import main as cli_main
from assistant.cli.ingest import cmd_ingest
from assistant.cli.main import main

ABSTRACT = ("We study {topic} with a new method and show that it improves accuracy on three "
            "benchmarks while using fewer parameters than the strongest baseline.")


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _papers(n: int, **fields):
    return [{"id": f"p{i}", "title": f"Paper {i} on topic {i}",
             "abstract": ABSTRACT.format(topic=f"topic {i}"), **fields} for i in range(n)]


def test_collections_say_an_unknown_venue_or_year_in_words(tmp_path, capsys):
    store = str(tmp_path / "store")
    records = (_papers(3, year=2018) + [{**r, "id": f"n{i}"} for i, r in
                                        enumerate(_papers(2, venue="NeurIPS"))]
               + [{**r, "id": f"x{i}"} for i, r in enumerate(_papers(1))])
    assert main(["ingest", _write(tmp_path / "mine.jsonl", records).as_posix(),
                 "--store", store, "--collection", "mine"]) == 0
    capsys.readouterr()
    assert main(["collections", "--store", store]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("mine "))
    venues = line.split("  ")[-1]
    assert venues == "unknown venue 2018 (3), NeurIPS (2), unknown venue and year (1)", line
    assert "?" not in line
    # --json keeps its keys and says the same apart: venue and year, null when unknown
    assert main(["collections", "--store", store, "--json"]) == 0
    listed = {c["name"]: c for c in json.loads(capsys.readouterr().out)}
    assert listed["mine"]["venue_years"] == [
        {"venue": None, "year": 2018, "papers": 3}, {"venue": "NeurIPS", "year": None,
                                                    "papers": 2},
        {"venue": None, "year": None, "papers": 1}]


def test_ingest_into_a_log_prints_progress_lines_then_the_summary(tmp_path, capsys,
                                                                  monkeypatch):
    papers = _write(tmp_path / "papers.jsonl", _papers(6, venue="ICLR", year=2024))
    store = str(tmp_path / "store")
    # every=0: a line at each step of the real command (capsys: stderr is not a terminal)
    monkeypatch.setitem(cli_main.COMMANDS, "ingest", functools.partial(cmd_ingest, every=0.0))
    assert main(["ingest", str(papers), "--store", store, "--collection", "log"]) == 0
    out, err = capsys.readouterr()
    progress = [x for x in err.splitlines() if x.startswith("embedding ")]
    assert progress[0] == "embedding 0/6 papers"
    assert re.fullmatch(r"embedding 6/6 papers, \d+\.\d papers/s", progress[-1]), progress
    assert "6 added" in out  # the summary, on stdout as before
    assert "\r" not in err and "\x1b" not in err  # plain lines, no bar
    # the default interval (a minute): the first line only, then the summary
    monkeypatch.setitem(cli_main.COMMANDS, "ingest", cmd_ingest)
    more = _write(tmp_path / "more.jsonl", _papers(4, venue="ICLR", year=2025))
    assert main(["ingest", str(more), "--store", store, "--collection", "log2"]) == 0
    out, err = capsys.readouterr()
    assert [x for x in err.splitlines() if x.startswith("embedding ")] == [
        "embedding 0/4 papers"]
    assert "4 added" in out


@pytest.mark.parametrize(("every", "times", "printed"), [
    (60.0, [0.0, 30.0, 59.9, 60.0, 61.0, 130.0], 3),  # at 0, 60 and 130 s
    (0.0, [0.0, 0.0, 1.0], 3),
])
def test_progress_lines_are_at_most_one_per_interval(every, times, printed, capsys):
    from assistant.cli.ingest import ProgressLines
    from assistant.index.ingest import Progress

    clock = iter(times)
    lines = ProgressLines(every=every, clock=lambda: next(clock))
    for i, _ in enumerate(times):
        lines(Progress(i * 10, 100, i * 20, started=0.0))
    err = capsys.readouterr().err.splitlines()
    assert len(err) == printed, err
    assert err[0] == "embedding 0/100 papers"
