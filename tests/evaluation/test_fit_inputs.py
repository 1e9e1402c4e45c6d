"""What fitting, tuning and training read: the fit venues' dev papers, never an unseen venue.

Every script under bench/, train/ and evals/ that reads the ml-abstracts corpus is classified
here (a new one fails until it is): a script that fits, tunes, trains or chooses reads the
corpus only through ``splits.corpus_part`` (fit venues, by part) and never the bundled ICML list,
its suite or any other unseen collection; a script that builds a collection or questions takes
only fit venues; a script that only measures (speed, ingest faults) may read every venue, and
the injection bench reads the unseen venues only under ``--split test`` (make report)."""

import ast
import json
import re
from pathlib import Path

import pytest

from assistant.evaluation.splits import FIT_VENUES, UNSEEN, corpus_part, paper_part

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpus" / "ml-abstracts.jsonl"

FITTING = {  # fit, tune, train or choose: dev papers of the fit venues only
    "bench/decision_fit.py", "bench/calibrate_relevance.py", "bench/grounding_judge.py",
    "bench/answerability.py", "bench/injection.py", "train/make_verifier_pairs.py",
    "bench/answerability_zh.py", "bench/multilingual_fit.py", "train/train_embedder.py",
}
BUILDING = {  # make a collection or questions: fit venues only (both parts: split later)
    "evals/make_large_suite.py": "SLICE", "evals/natural/make_batches.py": "LARGE,THEORY",
    "evals/trend/make_pools.py": "VENUES",
}
MEASURING = {"bench/scale.py", "bench/profiles.py", "bench/faults.py"}  # speed, faults
UNSEEN_INPUTS = ("bundled_papers", "icml2026", "calib-icml", "zh-questions")


def _scripts() -> list[Path]:
    return sorted(p for d in ("bench", "train", "evals") for p in (ROOT / d).rglob("*.py"))


def _rel(p: Path) -> str:
    return str(p.relative_to(ROOT))


def test_every_script_reading_the_corpus_is_classified():
    reading = {_rel(p) for p in _scripts() if "ml-abstracts" in p.read_text()}
    known = FITTING | set(BUILDING) | MEASURING
    assert reading <= known, f"classify them in test_fit_inputs.py: {sorted(reading - known)}"


@pytest.mark.parametrize("script", sorted(FITTING))
def test_a_fitting_script_reads_fit_venues_by_part_and_nothing_unseen(script):
    source = (ROOT / script).read_text()
    code = "\n".join(line for line in source.splitlines()
                     if not line.lstrip().startswith("#"))
    body = ast.get_docstring(ast.parse(source)) or ""
    code = code.replace(body, "")
    for name in UNSEEN_INPUTS:
        assert name not in code, f"{script} reads {name}: an unseen collection"
    if "ml-abstracts" in code:
        assert "corpus_part" in code, f"{script} reads the corpus without splits.corpus_part"


@pytest.mark.parametrize(("script", "names"), sorted(BUILDING.items()))
def test_a_building_script_takes_fit_venues_only(script, names):
    tree = ast.parse((ROOT / script).read_text())
    values = {t.id: node.value for node in tree.body if isinstance(node, ast.Assign)
              for t in node.targets if isinstance(t, ast.Name)}
    for name in names.split(","):
        venues = set(ast.literal_eval(values[name])) if not isinstance(
            values[name], ast.BinOp) else _venues_of(values[name])
        assert venues and venues <= FIT_VENUES, (script, name, venues - FIT_VENUES)


def _venues_of(node: ast.BinOp) -> set[tuple[str, int]]:
    """``[("colt", y) for y in range(a, b)] + [...]``, as written in make_batches.py."""
    out: set[tuple[str, int]] = set()
    for part in (node.left, node.right):
        if isinstance(part, ast.BinOp):
            out |= _venues_of(part)
            continue
        assert isinstance(part, ast.ListComp)
        venue = ast.literal_eval(part.elt.elts[0])
        lo, hi = (ast.literal_eval(a) for a in part.generators[0].iter.args)
        out |= {(venue, y) for y in range(lo, hi)}
    return out


def test_the_injection_bench_reads_unseen_venues_only_for_the_report():
    source = (ROOT / "bench" / "injection.py").read_text()
    assert re.search(r"if args\.split == \"test\"", source)
    assert "sealed.jsonl" in source


def test_corpus_part_sorts_by_venue_then_paper():
    assert corpus_part({"uid": "x1", "venue": "icml", "year": 2019}) == UNSEEN
    assert corpus_part({"uid": "x1", "venue": "nips", "year": 2017}) == UNSEEN
    assert corpus_part({"uid": "x1", "venue": "iclr", "year": 2014}) == UNSEEN
    for uid in ("a", "b", "c", "d"):
        assert corpus_part({"uid": uid, "venue": "colt", "year": 2015}) == paper_part(uid)
        assert corpus_part({"uid": uid, "venue": "NIPS", "year": "2018"}) == paper_part(uid)


@pytest.mark.shared
def test_every_committed_question_and_training_paper_is_of_a_fit_venue():
    parts = {}
    with SHARED.open() as fh:
        for line in fh:
            r = json.loads(line)
            parts[str(r["uid"])] = corpus_part(r)
    natural = [json.loads(line) for line in
               (ROOT / "evals" / "natural" / "questions.jsonl").read_text().splitlines()]
    asked = {p for q in natural for p in q.get("papers", [])}
    assert asked and all(parts.get(p, UNSEEN) != UNSEEN for p in asked)
    training = [json.loads(line) for line in
                (ROOT / "train" / "natural-train.jsonl").read_text().splitlines()]
    trained = {p for q in training for p in q.get("papers", [])}
    assert trained and all(parts.get(p) == "dev" for p in trained)


def test_a_ci_test_reads_only_fit_venue_dev_papers_of_the_corpus():
    """CI tests assert behaviour on real papers: they read the fit venues' dev part, never a
    test part or an unseen venue (their figures are make report's)."""
    here = Path(__file__).resolve().parents[1]
    for path in sorted(here.rglob("test_*.py")):
        source = path.read_text()
        reads = "corpus\" / \"ml-abstracts" in source or "SHARED, " in source or \
            ("ml-abstracts.jsonl\"" in source and "shared" in source)
        if path.name in ("test_fit_inputs.py", "test_formats.py") or not reads:
            continue
        assert "corpus_part" in source, f"{path.name} reads the corpus without corpus_part"
