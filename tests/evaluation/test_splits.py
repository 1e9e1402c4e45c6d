"""The one split registry (assistant/evaluation/splits.py): every paper is dev or test once in
every suite, questions follow their papers, the committed split files are what the registry
gives, and the suites keep their invariants on every case (checked without printing a figure:
the test parts' figures come from `make report` only)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.answer.factory import build_answerer
from assistant.evaluation.runner import run_suite
from assistant.evaluation.splits import STRADDLES, by_part, paper_part, question_part
from assistant.evaluation.suite import load_suite, resolve_papers
from assistant.search.retrieval import Retriever
from assistant.settings import load_settings
from assistant.sources.corpus import bundled_papers

ROOT = Path(__file__).resolve().parents[2]
SPLITS = ROOT / "evals" / "splits"


def test_a_paper_has_one_part_and_questions_follow_their_papers():
    ids = [f"paper-{i}" for i in range(2000)]
    parts = [paper_part(i) for i in ids]
    assert parts == [paper_part(i) for i in ids]  # stable
    assert 0.45 < parts.count("test") / len(parts) < 0.55
    dev = [i for i in ids if paper_part(i) == "dev"][:2]
    test = [i for i in ids if paper_part(i) == "test"][:2]
    assert question_part(dev, "q") == "dev" and question_part(test, "q") == "test"
    assert question_part([dev[0], test[0]], "q") == STRADDLES
    assert {question_part([], f"q{i}") for i in range(50)} == {"dev", "test"}
    assert by_part([("a", "dev"), ("b", STRADDLES)]) == {"dev": ["a"], "test": [],
                                                         STRADDLES: ["b"]}


def _paper_parts_of(suite_file: str, split_file: str) -> dict[str, set[str]]:
    """paper id -> the parts of the cases about it (one part each, if the split is by paper)."""
    suite = load_suite(ROOT / "evals" / suite_file)
    split = json.loads((SPLITS / split_file).read_text())
    part_of = {cid: part for part in ("dev", "test") for cid in split[part]}
    papers = bundled_papers()
    seen: dict[str, set[str]] = {}
    for case in suite.cases:
        if case.id not in part_of:
            continue
        for turn in case.turns:
            if suite_file == "ml-large.yaml":
                ids = [case.id.split("-", 1)[1]]
            else:
                ids = resolve_papers(turn.expect_papers, papers, case.id)
            for pid in ids:
                seen.setdefault(pid, set()).add(part_of[case.id])
                assert part_of[case.id] == paper_part(pid), (case.id, pid)
    return seen


@pytest.mark.parametrize(("suite_file", "split_file"), [("icml2026.yaml", "icml2026.json"),
                                                        ("ml-large.yaml", "ml-large.json")])
def test_no_paper_is_dev_in_one_case_and_test_in_another(suite_file, split_file):
    seen = _paper_parts_of(suite_file, split_file)
    assert seen and all(len(parts) == 1 for parts in seen.values())


def test_the_chinese_and_grounding_splits_follow_the_registry():
    zh = json.loads((SPLITS / "zh-questions.json").read_text())
    part_of = {cid: part for part in ("dev", "test") for cid in zh[part]}
    for line in (ROOT / "evals" / "zh-questions.jsonl").read_text().splitlines():
        q = json.loads(line)
        if q.get("paper"):
            assert part_of[q["id"]] == paper_part(q["paper"]), q["id"]
    pairs = json.loads((SPLITS / "grounding-pairs.json").read_text())["papers"]
    assert all(part == paper_part(pid) for pid, part in pairs.items())


@pytest.mark.shared
def test_the_committed_split_files_are_what_the_registry_gives():
    done = subprocess.run([sys.executable, str(ROOT / "evals" / "make_splits.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_suite_case_keeps_the_invariants(bundled_store, embedder):
    """No claim cited to the wrong paper, no citation of a paper that was not retrieved: on
    every case of the ICML suite, both parts (only these two numbers are read)."""
    suite = load_suite(ROOT / "evals" / "icml2026.yaml")
    result = run_suite(suite, retriever=Retriever(store=bundled_store),
                       answerer=build_answerer(load_settings(), embedder=embedder))
    overall = result["overall"]
    assert overall["misattributed"] == 0
    assert overall["unknown_citations"] == 0


def test_the_verifier_read_dev_papers_only():
    """train/verifier-papers.json lists every paper a training pair of the shipped verifier
    read (train/make_verifier_pairs.py): all are dev in the one registry."""
    ids = json.loads((ROOT / "train" / "verifier-papers.json").read_text())
    assert len(ids) > 1000
    assert all(paper_part(str(i)) == "dev" for i in ids)
