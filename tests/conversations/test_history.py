"""Saved conversations (SQLite) and their exports, and the `assistant history` commands."""

import hashlib
import json
import os
import sqlite3
import subprocess
import sys

import pytest

from assistant.answer.types import Answer
from assistant.citations import Citation
from assistant.cli.main import main
from assistant.conversations.export import FORMATS, answer_markdown, export, to_bibtex
from assistant.conversations.history import Conversation, History, Turn
from assistant.errors import AssistantError, InputError, SuiteError
from assistant.evaluation.suite import load_suite
from assistant.paper import Paper
from assistant.search.retrieval import RetrievedPaper
from assistant.sources.corpus import bundled_papers


@pytest.fixture(scope="module")
def papers():
    return {p.title.split()[0].rstrip(":"): p for p in bundled_papers()}


def make_answer(question, text, cited, retrieved, *, cut=False, backend="llm", model="m1"):
    return Answer(question, text, backend, model,
                  [Citation(n, p) for n, p in enumerate(cited, 1)],
                  [RetrievedPaper(p, 0.9 - i / 10, i + 1) for i, p in enumerate(retrieved)],
                  refused=False, usage={"prompt_tokens": 120, "completion_tokens": 30,
                                        "total_tokens": 150}, cut=cut)


@pytest.fixture
def saved(tmp_path, papers):
    history = History(tmp_path / "h" / "history.db")
    conv = history.new("Which paper generates ultra-high-resolution images?",
                       collection="icml2026")
    dype, q2d2 = papers["DyPE"], papers["Q2D2"]
    history.add(conv.id, make_answer(conv.title, "DyPE extrapolates positions [1].", [dype],
                                     [dype, q2d2]), filters={"year": 2026})
    history.add(conv.id, make_answer("And audio codecs?", "Q2D2 quantizes pairs [1]; DyPE is "
                                     "about images [2].", [q2d2, dype], [q2d2, dype],
                                     cut=True))
    return history, conv.id


def test_a_conversation_round_trips_with_its_papers(saved, papers):
    history, cid = saved
    conv = history.get(cid)
    assert conv.title == "Which paper generates ultra-high-resolution images?"
    assert conv.collection == "icml2026" and conv.n_turns == 2
    first, second = conv.turns
    assert first.answer.text == "DyPE extrapolates positions [1]."
    assert first.answer.citations[0].paper == papers["DyPE"]  # the whole record, abstract too
    assert [rp.paper.paper_id for rp in first.answer.papers] == [
        papers["DyPE"].paper_id, papers["Q2D2"].paper_id]
    assert first.answer.papers[0].score == pytest.approx(0.9)
    assert first.filters == {"year": 2026} and first.answer.usage["total_tokens"] == 150
    assert second.answer.cut is True and first.answer.cut is False
    assert conv.history() == [(first.answer.question, first.answer.text),
                              (second.answer.question, second.answer.text)]


def test_a_papers_other_entry_is_still_named_when_read_back(tmp_path, papers):
    history = History(tmp_path / "history.db")
    conv = history.new("Which paper extrapolates positions?", collection="mixed")
    dype = papers["DyPE"]
    submission = Paper(f"sub-{dype.paper_id}", dype.title, dype.abstract, dype.authors, "ICLR",
                       2025, url="https://openreview.net/forum?id=sub")
    answer = make_answer(conv.title, "DyPE [1].", [dype], [dype, papers["Q2D2"]])
    answer.papers[0].versions.append(submission)
    history.add(conv.id, answer)
    read = history.get(conv.id).turns[0].answer
    assert read.papers[0].versions == [submission] and read.papers[1].versions == []
    assert read.references() == answer.references()
    assert "Also in this collection as: ICLR 2025 (https://openreview.net/forum?id=sub)" \
        in read.references()
    assert read.to_dict()["papers"][0]["versions"] == [submission.paper_id]
    # what copy and save put on the clipboard or disk names it too
    assert "Also in this collection as: ICLR 2025" in answer_markdown(read)


def test_a_less_sure_citation_stays_less_sure_when_read_back(tmp_path, papers):
    history = History(tmp_path / "history.db")
    conv = history.new("Which papers are about quantization?", collection="icml2026")
    answer = make_answer(conv.title, "MaskAQ [1].\n\nPossibly related too (not as sure): "
                         "**Q2D2** [2].", [papers["MaskAQ"], papers["Q2D2"]],
                         [papers["MaskAQ"], papers["Q2D2"]])
    answer.citations[1].less_sure = True
    history.add(conv.id, answer)
    read = history.get(conv.id).turns[0].answer
    assert [c.less_sure for c in read.citations] == [False, True]
    assert [c["less_sure"] for c in read.to_dict()["citations"]] == [False, True]


def test_list_search_delete(saved, tmp_path):
    history, cid = saved
    other = history.new("Watermarking text", collection="icml2026")
    history.add(other.id, make_answer("Watermarking text", "IPMark [1].", [], []))
    assert [c.id for c in history.search("")] == [other.id, cid]  # most recently updated first
    assert [c.id for c in history.search("audio codecs")] == [cid]  # words of a later turn
    assert [c.id for c in history.search("ipmark")] == [other.id]  # answers, any case
    assert history.search("100%_") == []  # LIKE wildcards are literal
    history.delete(cid)
    assert [c.id for c in history.search("")] == [other.id]
    with pytest.raises(InputError, match="assistant history list"):
        history.get(cid)
    # turns went with it
    with sqlite3.connect(history.path) as db:
        assert db.execute("SELECT COUNT(*) FROM turns WHERE conversation_id = ?",
                          (cid,)).fetchone()[0] == 0


def test_reading_a_missing_history_creates_nothing(tmp_path):
    history = History(tmp_path / "nowhere" / "history.db")
    assert history.search("") == [] and history.search("x") == []
    assert not (tmp_path / "nowhere").exists()


def test_a_corrupt_history_is_one_line_that_says_what_to_do(tmp_path):
    path = tmp_path / "history.db"
    path.write_text("this is not sqlite " * 100)
    with pytest.raises(AssistantError, match="ASSISTANT_HISTORY"):
        History(path).search("")


def test_exports(saved, papers):
    history, cid = saved
    conv = history.get(cid)
    md = export(conv, "md")
    assert md.startswith("# Which paper generates ultra-high-resolution images?")
    assert "## 1. Which paper generates" in md and "## 2. And audio codecs?" in md
    assert f"- [1] {papers['DyPE'].reference()}" in md  # each answer keeps its own references
    assert f"- [1] {papers['Q2D2'].reference()}" in md
    assert "cut short" in md and "_answered by LLM m1_" in md
    doc = json.loads(export(conv, "json"))
    assert doc["id"] == cid and len(doc["turns"]) == 2
    assert doc["turns"][1]["cut"] is True
    assert doc["turns"][0]["citations"][0]["paper_id"] == papers["DyPE"].paper_id
    bib = to_bibtex(conv)
    assert bib.count("@inproceedings{") == 2  # DyPE is cited twice, listed once
    assert "title = {{DyPE (Dynamic Position Extrapolation)" in bib
    assert "booktitle = {ICML 2026}" in bib and "year = {2026}" in bib
    with pytest.raises(InputError, match="md, json, bib, suite"):
        export(conv, "pdf")


def test_bibtex_escapes_and_keys():
    p = Paper("x-1", "50% of Q&A_tasks {solved}", "abstract", authors=["Ada Lovelace", "B C"],
              venue="ICML", year=2026, url="https://example.org/a_b",
              code_url="https://github.com/a/b")
    twin = Paper("x-2", "50% of Q&A_tasks again", "abstract", authors=["Ada Lovelace"],
                 venue="ICML", year=2026)
    c = Conversation(1, "t", turns=[Turn(make_answer("q", "a [1] [2]", [p, twin], []))])
    bib = to_bibtex(c)
    assert r"title = {{50\% of Q\&A\_tasks \{solved\}}}" in bib
    assert "author = {Ada Lovelace and B C}" in bib
    assert "@inproceedings{lovelace2026tasks," in bib
    assert "@inproceedings{lovelace2026tasksa," in bib  # the same key made unique
    assert "url = {https://example.org/a_b}" in bib  # urls stay verbatim
    assert r"note = {Code: \url{https://github.com/a/b}}" in bib


def test_history_cli(saved, papers, tmp_path, capsys, monkeypatch):
    history, cid = saved
    monkeypatch.setenv("ASSISTANT_HISTORY", str(history.path))
    assert main(["history", "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].split()[0] == str(cid) and out[0].endswith(
        "2 turns  Which paper generates ultra-high-resolution images?")
    assert main(["history", "list", "--json", "--search", "codecs"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == [cid] and rows[0]["turns"] == 2
    assert main(["history", "show", str(cid)]) == 0
    assert capsys.readouterr().out.startswith("# Which paper generates")
    target = tmp_path / "refs.bib"
    assert main(["history", "export", str(cid), "--format", "bib", "--output", str(target)]) == 0
    assert f"wrote {target}" in capsys.readouterr().err
    assert target.read_text().count("@inproceedings{") == 2
    assert main(["history", "export", str(cid), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == cid
    assert main(["history", "show", "999"]) == 2
    assert "no conversation 999" in capsys.readouterr().err
    assert main(["history", "delete", str(cid)]) == 0
    capsys.readouterr()
    assert main(["history", "list"]) == 0
    assert "no saved conversations" in capsys.readouterr().err


@pytest.fixture
def kept(tmp_path, papers):
    """A conversation worth keeping as a test: one answer cites two papers, one refuses."""
    history = History(tmp_path / "h" / "history.db")
    conv = history.new("Which paper generates ultra-high-resolution images?",
                       collection="icml2026")
    dype, q2d2 = papers["DyPE"], papers["Q2D2"]
    history.add(conv.id, make_answer(conv.title, "DyPE [1]; Q2D2 is about audio [2].",
                                     [dype, q2d2], [dype, q2d2]),
                filters={"venue": "ICML", "paper_id": dype.paper_id, "paper_title": dype.title})
    refusal = Answer("Which paper folds proteins?", "None of the papers is about that.",
                     "extractive", "", [], [], refused=True)
    history.add(conv.id, refusal)
    return history, conv.id


def test_a_conversation_kept_as_an_eval_suite(kept, papers, tmp_path):
    history, cid = kept
    assert "suite" in FORMATS
    text = export(history.get(cid), "suite")
    assert text.startswith(f"# An evaluation case kept from conversation {cid}")
    assert "assistant's own answers" in text and "remove `review: true`" in text
    assert f"#   {papers['DyPE'].paper_id}  DyPE (Dynamic" in text  # which id is which paper
    path = tmp_path / "kept.yaml"
    path.write_text(text, encoding="utf-8")
    suite = load_suite(path)
    assert suite.name == f"conversation-{cid}" and suite.k == 6
    assert suite.collection == "icml2026"
    [case] = suite.cases
    assert case.id == f"conv-{cid}" and case.review is True
    first, second = case.turns
    assert first.question == "Which paper generates ultra-high-resolution images?"
    assert first.expect_papers == [papers["DyPE"].paper_id, papers["Q2D2"].paper_id]
    assert first.refuse is None
    assert first.filters == {"venue": "ICML", "paper_ids": [papers["DyPE"].paper_id]}
    assert second.question == "Which paper folds proteins?"
    assert second.expect_papers == [] and second.refuse is True and second.filters == {}
    # once checked, a person removes the flag; anything but a boolean is refused
    path.write_text(text.replace("review: true", "review: false"), encoding="utf-8")
    assert load_suite(path).cases[0].review is False
    path.write_text(text.replace("review: true", "review: later"), encoding="utf-8")
    with pytest.raises(SuiteError, match="'review' must be true or false"):
        load_suite(path)


def test_an_answer_with_no_citation_is_kept_as_answered(tmp_path):
    c = Conversation(4, "t", turns=[Turn(make_answer("What is new?", "Many things.", [], []))])
    path = tmp_path / "s.yaml"
    path.write_text(export(c, "suite"), encoding="utf-8")
    assert load_suite(path).cases[0].turns[0].refuse is False  # still a case that loads
    with pytest.raises(InputError, match="nothing to keep"):
        export(Conversation(5, "empty"), "suite")


def test_history_cli_exports_a_suite(kept, papers, tmp_path, capsys, monkeypatch):
    history, cid = kept
    monkeypatch.setenv("ASSISTANT_HISTORY", str(history.path))
    target = tmp_path / "case.yaml"
    assert main(["history", "export", str(cid), "--format", "suite", "--output",
                 str(target)]) == 0
    err = capsys.readouterr().err
    assert f"wrote {target}" in err and "review: true" in err
    suite = load_suite(target)
    assert [c.id for c in suite.cases] == [f"conv-{cid}"] and suite.cases[0].review
    assert suite.cases[0].turns[0].expect_papers[0] == papers["DyPE"].paper_id
    with pytest.raises(SystemExit):
        main(["history", "export", str(cid), "--format", "yaml"])
    assert "choose from 'md', 'json', 'bib', 'suite'" in capsys.readouterr().err


def test_exports_mark_unpublished_papers_and_derived_titles(papers):
    rejected = Paper("iclr2018-x", "Twin Networks: matching the future", "abstract",
                     authors=["Dmitriy Serdyuk", "Yoshua Bengio"], venue="ICLR", year=2018,
                     url="https://openreview.net/forum?id=x",
                     extra={"status": "Reject", "accepted": False})
    withdrawn = Paper("iclr2018-y", "Causal meta-transfer", "abstract", authors=["Yoshua Bengio"],
                      venue="ICLR", year=2018, extra={"status": "Withdraw", "accepted": False})
    dype = papers["DyPE"]  # the bundled list has no titles: DyPE's is derived
    c = Conversation(7, "t", turns=[Turn(make_answer("q", "a [1] [2] [3]",
                                                     [rejected, withdrawn, dype], []))])
    bib = to_bibtex(c)
    assert ("@misc{serdyuk2018twin,\n"
            "  title = {{Twin Networks: matching the future}},\n"
            "  author = {Dmitriy Serdyuk and Yoshua Bengio},\n"
            "  year = {2018},\n"
            "  url = {https://openreview.net/forum?id=x},\n"
            "  note = {Submitted to ICLR 2018; rejected},\n}\n") in bib
    assert "note = {Submitted to ICLR 2018; withdrawn}" in bib
    assert bib.count("booktitle") == 1 and bib.count("@inproceedings{") == 1  # DyPE only
    assert "note = {Title derived from the abstract}" in bib
    md = export(c, "md")
    assert ("- [1] Twin Networks: matching the future. Dmitriy Serdyuk, Yoshua Bengio. "
            "ICLR 2018 (submission, rejected). https://openreview.net/forum?id=x\n") in md
    assert "- [2] Causal meta-transfer. Yoshua Bengio. ICLR 2018 (submission, withdrawn).\n" in md
    assert f"- [3] {dype.reference()} _(title derived from the abstract)_\n" in md


def test_a_kept_suite_keeps_the_status_filter(tmp_path, papers):
    dype = papers["DyPE"]
    turn = Turn(make_answer("q", "a [1]", [dype], [dype]),
                filters={"author": "Bengio", "status": "accepted", "paper_title": "x"})
    path = tmp_path / "s.yaml"
    path.write_text(export(Conversation(8, "t", turns=[turn]), "suite"), encoding="utf-8")
    assert load_suite(path).cases[0].turns[0].filters == {"author": "Bengio",
                                                          "status": "accepted"}


def test_a_saved_answer_keeps_its_support_check(bundled_store, tmp_path):
    """A resumed conversation shows the same marks and evidence as when it was asked."""
    from assistant.answer.factory import build_answerer
    from assistant.answer.pipeline import answer
    from assistant.search.retrieval import Retriever
    from assistant.settings import load_settings

    result = answer("How does DyPE differ from UniR?", retriever=Retriever(store=bundled_store),
                    answerer=build_answerer(load_settings(), embedder=bundled_store.embedder))
    assert result.grounding is not None and result.grounding.claims
    history = History(tmp_path / "h.db")
    conv = history.new("q")
    history.add(conv.id, result)
    back = history.get(conv.id).turns[0].answer
    assert back.outcome == result.outcome == "answered"
    assert back.grounding is not None
    assert back.grounding.to_dict() == result.grounding.to_dict()
    dype = result.citations[0].paper.paper_id
    assert back.grounding.evidence_for(dype) == result.grounding.evidence_for(dype)


def test_a_history_from_before_the_support_check_still_opens(tmp_path):
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:  # the turns table as it was, without `checks`
        db.executescript("""
            CREATE TABLE conversations (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL,
                collection TEXT NOT NULL DEFAULT '', created REAL NOT NULL, updated REAL NOT NULL);
            CREATE TABLE turns (id INTEGER PRIMARY KEY AUTOINCREMENT,
                conversation_id INTEGER NOT NULL, seq INTEGER NOT NULL, question TEXT NOT NULL,
                answer TEXT NOT NULL, backend TEXT NOT NULL, model TEXT NOT NULL,
                refused INTEGER NOT NULL DEFAULT 0, cut INTEGER NOT NULL DEFAULT 0,
                citations TEXT NOT NULL DEFAULT '[]', papers TEXT NOT NULL DEFAULT '[]',
                usage TEXT NOT NULL DEFAULT '{}', filters TEXT NOT NULL DEFAULT '{}',
                created REAL NOT NULL);
            INSERT INTO conversations VALUES (1, 'old', '', 1.0, 1.0);
            INSERT INTO turns (conversation_id, seq, question, answer, backend, model, created)
                VALUES (1, 1, 'q?', 'a [1].', 'extractive', 'extractive-v1', 1.0);
        """)
    before = sha256(path)
    conv = History(path).get(1)
    assert conv.turns[0].answer.text == "a [1]." and conv.turns[0].answer.grounding is None
    assert sha256(path) == before  # reading it did not add the column
    History(path).add(1, make_answer("q2?", "b.", [], []))  # saving does, then keeps the check
    assert [t.answer.outcome for t in History(path).get(1).turns] == ["answered", "answered"]


# -- a file that is not ours: a read never writes, a write refuses, one line says what to do ------
def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run_cli(*args):
    """The installed CLI in a child process, with the test's environment (ASSISTANT_HISTORY)."""
    return subprocess.run([sys.executable, "-m", "assistant", *args], capture_output=True,
                          text=True, env=dict(os.environ), timeout=120)


def _another_apps_database(path):
    with sqlite3.connect(path) as db:
        db.executescript("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);"
                         "CREATE TABLE tags (name TEXT); INSERT INTO notes VALUES (1, 'hello');")


def _another_chat_log(path):
    """Tables named like ours with other columns: `show 1` failed with IndexError."""
    with sqlite3.connect(path) as db:
        db.executescript("CREATE TABLE conversations (id INTEGER PRIMARY KEY, title TEXT);"
                         "CREATE TABLE turns (id INTEGER PRIMARY KEY, conversation_id INTEGER, "
                         "seq INTEGER, question TEXT, answer TEXT);"
                         "INSERT INTO conversations VALUES (1, 'theirs');"
                         "INSERT INTO turns VALUES (1, 1, 1, 'q', 'a');")


def _not_sqlite(path):
    path.write_text("this is not sqlite " * 100)


FOREIGN = {"other-app": (_another_apps_database, "it has tables notes, tags"),
           "other-chat": (_another_chat_log, "table conversations lacks collection, created, "
                                             "updated"),
           "not-sqlite": (_not_sqlite, "not a SQLite database")}
READS = {"list": ["history", "list"], "search": ["history", "list", "--search", "x", "--json"],
         "show": ["history", "show", "1"],
         "export": ["history", "export", "1", "--format", "json"]}


def _one_error_line(proc):
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    return lines[0]


@pytest.mark.parametrize("kind", FOREIGN)
@pytest.mark.parametrize("command", [*READS, "delete"])
def test_a_foreign_history_file_is_one_line_and_left_unchanged(kind, command, tmp_path):
    path = tmp_path / "history.db"  # where the autouse fixture points ASSISTANT_HISTORY
    make, what = FOREIGN[kind]
    make(path)
    before = sha256(path)
    argv = READS.get(command, ["history", "delete", "1"])
    proc = run_cli(*argv)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    line = _one_error_line(proc)
    assert line == (f"error: {path} is not a conversation history of this assistant ({what}): "
                    "set ASSISTANT_HISTORY to another file or move it away")
    assert proc.stdout == ""
    assert sha256(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["history.db"]  # no journal either


@pytest.mark.parametrize("kind", FOREIGN)
def test_saving_into_a_foreign_history_file_is_refused_without_writing(kind, tmp_path):
    path = tmp_path / "history.db"
    make, what = FOREIGN[kind]
    make(path)
    before = sha256(path)
    history = History(path)
    for save in (lambda: history.new("A question?"),
                 lambda: history.add(1, make_answer("q", "a.", [], [])),
                 lambda: history.delete(1)):
        with pytest.raises(InputError) as caught:
            save()
        assert str(caught.value) == (f"{path} is not a conversation history of this assistant "
                                     f"({what}): set ASSISTANT_HISTORY to another file or move "
                                     "it away")
    assert sha256(path) == before


def test_no_history_command_creates_a_missing_history(tmp_path, monkeypatch):
    path = tmp_path / "nowhere" / "history.db"
    monkeypatch.setenv("ASSISTANT_HISTORY", str(path))
    proc = run_cli("history", "list")
    assert proc.returncode == 0 and proc.stdout == ""
    assert proc.stderr == "no saved conversations: start one with `assistant chat`\n"
    proc = run_cli("history", "list", "--json", "--search", "x")
    assert proc.returncode == 0 and json.loads(proc.stdout) == []
    for argv in (["show", "1"], ["export", "1", "--format", "bib"], ["delete", "1"]):
        proc = run_cli("history", *argv)
        assert proc.returncode == 2, (argv, proc.stderr)
        assert _one_error_line(proc) == (f"error: no conversation 1 in {path}: see "
                                         "`assistant history list`")
    assert not (tmp_path / "nowhere").exists()


def test_an_empty_file_is_an_empty_history_that_reading_leaves_alone(tmp_path):
    path = tmp_path / "history.db"
    path.write_bytes(b"")  # a valid, empty SQLite database
    proc = run_cli("history", "list")
    assert proc.returncode == 0 and "no saved conversations" in proc.stderr
    for argv in (["show", "1"], ["delete", "1"]):
        proc = run_cli("history", *argv)
        assert proc.returncode == 2 and "no conversation 1" in _one_error_line(proc)
    assert path.read_bytes() == b""
    conv = History(path).new("Now a conversation")  # the first save writes the schema
    proc = run_cli("history", "list")
    assert proc.returncode == 0 and proc.stdout.split()[0] == str(conv.id)
