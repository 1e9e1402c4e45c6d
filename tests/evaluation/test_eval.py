import json
import os
from pathlib import Path

import pytest

from assistant.cli.main import main
from assistant.errors import SuiteError
from assistant.evaluation.metrics import mrr_at, ndcg_at, recall_at
from assistant.evaluation.suite import fact_found, load_suite


def test_metrics_against_hand_computed_values():
    rels = {"a": 1, "b": 1}
    assert ndcg_at(["a", "b", "c"], rels) == pytest.approx(1.0)
    assert ndcg_at(["c", "a"], {"a": 1}) == pytest.approx(1 / 1.5849625, rel=1e-6)
    assert recall_at(["x", "a"], rels, 10) == 0.5
    assert mrr_at(["x", "y", "b"], rels) == pytest.approx(1 / 3)
    assert ndcg_at(["x"], rels) == 0.0


def write_beir(tmp_path):
    docs = [("d1", "Zebra stripes cool animals", "Stripes reduce heat load in zebras."),
            ("d2", "Sparse attention", "Sparse attention makes transformers read long text."),
            ("d3", "Graph kernels", "Kernels on molecular graphs predict properties."),
            ("d4", "Protein folding", "Deep networks predict protein structures.")]
    (tmp_path / "corpus.jsonl").write_text("\n".join(
        json.dumps({"_id": i, "title": t, "text": x}) for i, t, x in docs))
    (tmp_path / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in [
        {"_id": "q1", "text": "why do zebras have stripes"},
        {"_id": "q2", "text": "long documents with sparse transformers"},
        {"_id": "q3", "text": "unjudged query"}]))
    (tmp_path / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n")
    return tmp_path


def test_eval_retrieval_on_a_small_beir_set(tmp_path, capsys):
    d = write_beir(tmp_path)
    args = ["eval", "retrieval", "--corpus", str(d / "corpus.jsonl"), "--queries",
            str(d / "queries.jsonl"), "--qrels", str(d / "qrels.tsv"), "--json"]
    for mode in ("hybrid", "dense", "lexical"):
        assert main([*args, "--mode", mode]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["queries"] == 2 and out["mode"] == mode
        assert out["ndcg_at_10"] == 1.0 and out["recall_at_100"] == 1.0
        assert set(out) >= {"ndcg_at_10", "recall_at_10", "recall_at_100", "mrr_at_10",
                            "queries", "latency_ms_p50", "latency_ms_p95"}
    capsys.readouterr()
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "0 chunks embedded" in err  # the second run reuses the store
    # its own store beside the user's, never the user's default one
    user_store = Path(os.environ["ASSISTANT_STORE"])
    assert f"benchmark store: {user_store.with_name(user_store.name + '-bench')}" in err
    assert not user_store.exists()


def test_collections_are_listed_and_removed_and_an_empty_one_says_how_to_fill_it(
        tmp_path, capsys):
    d = write_beir(tmp_path)
    store = tmp_path / "many"
    assert main(["ingest", "--store", str(store)]) == 0
    assert main(["ingest", str(d / "corpus.jsonl"), "--store", str(store),
                 "--collection", "tiny"]) == 0
    capsys.readouterr()
    assert main(["collections", "--store", str(store), "--json"]) == 0
    listed = {c["name"]: c for c in json.loads(capsys.readouterr().out)}
    assert listed["icml2026"]["papers"] == 19 and listed["icml2026"]["venues"] == {"ICML 2026": 19}
    assert listed["tiny"]["papers"] == 4 and listed["tiny"]["bytes_on_disk"] > 0
    assert listed["tiny"]["embedding_model"] == listed["icml2026"]["embedding_model"]
    assert main(["collections", "remove", "tiny", "--store", str(store)]) == 0
    assert capsys.readouterr().out.startswith("removed collection 'tiny'")
    assert main(["collections", "--store", str(store), "--json"]) == 0
    assert [c["name"] for c in json.loads(capsys.readouterr().out)] == ["icml2026"]
    assert not (store / "index" / "tiny").exists()
    assert main(["collections", "remove", "tiny", "--store", str(store)]) == 2
    import chromadb

    chromadb.PersistentClient(path=str(store)).create_collection("empty-one")
    capsys.readouterr()
    assert main(["ask", "anything?", "--store", str(store), "--collection", "empty-one"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"error: collection 'empty-one' in {store} holds no papers: fill it with "
                   "`assistant ingest FILE --collection empty-one`")


def test_eval_retrieval_input_errors(tmp_path, capsys):
    d = write_beir(tmp_path)
    (d / "bad.tsv").write_text("qid\tdid\n")
    assert main(["eval", "retrieval", "--corpus", str(d / "corpus.jsonl")]) == 2
    assert main(["eval", "retrieval", "--corpus", str(d / "corpus.jsonl"), "--queries",
                 str(d / "queries.jsonl"), "--qrels", str(d / "bad.tsv")]) == 2
    assert "TSV header" in capsys.readouterr().err


SUITE = """
name: mini
k: 4
thresholds: {retrieval_recall: 0.9, refusal_accuracy: 0.9, citation_recall: 0.9}
cases:
  - id: dype
    question: Which paper makes pretrained diffusion transformers produce huge images?
    expect_papers: [DyPE]
    expect_facts: ["re:training[- ]free", "a fact that is not there"]
  - id: follow
    turns:
      - question: Which paper does per-user watermarking of LLM text?
      - question: How robust is it?
        expect_papers: [IPMark]
  - id: absent
    question: What is the best sourdough bread recipe?
    refuse: true
"""


def test_suite_run_writes_reports_and_gates(bundled_store, tmp_path, capsys):
    suite = tmp_path / "mini.yaml"
    suite.write_text(SUITE)
    runs = tmp_path / "runs"
    assert main(["eval", str(suite), "--runs-dir", str(runs), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["passed"] and out["overall"]["refusal_accuracy"] == 1.0
    assert out["overall"]["fact_coverage"] == 0.5
    # offline answers quote the abstracts they cite: every claim supported, none misattributed
    assert out["overall"]["supported"] == 1.0 and out["overall"]["misattributed"] == 0
    report = json.loads((runs / out["report"].split("/")[-1] / "report.json").read_text())
    assert {c["id"] for c in report["cases"]} == {"dype", "follow", "absent"}
    md = (runs / out["report"].split("/")[-1] / "report.md").read_text()
    assert "| retrieval_recall |" in md and "## Cases" in md
    # a threshold the run cannot meet fails the command, and the baseline is compared
    suite.write_text(SUITE.replace("citation_recall: 0.9", "fact_coverage: 0.9"))
    baseline = runs / out["report"].split("/")[-1]
    assert main(["eval", str(suite), "--runs-dir", str(runs), "--baseline", str(baseline)]) == 1
    captured = capsys.readouterr()
    assert "threshold missed: fact_coverage = 0.5 (needs 0.9)" in captured.err
    newest = sorted(p for p in runs.iterdir() if p != baseline)[-1]
    assert "| baseline | Δ |" in (newest / "report.md").read_text()


def test_suite_format_errors(tmp_path):
    bad = tmp_path / "bad.yaml"
    for text, message in [
        ("cases: 3", "'cases' list"),
        ("cases:\n  - id: a\n    question: q\n", "nothing to score"),
        ("cases:\n  - id: a\n    question: q\n    refuse: maybe\n", "true or false"),
        ("cases:\n  - id: a\n    question: q\n    expect_facts: ['re:(']\n", "bad regex"),
        ("thresholds: {speed: 1}\ncases:\n  - question: q\n    refuse: true\n", "unknown thr"),
        ("cases: [\n", "not valid YAML"),
    ]:
        bad.write_text(text)
        with pytest.raises(SuiteError, match=message):
            load_suite(bad)


def test_facts_match_strings_and_regexes():
    assert fact_found("16 million", "up to 16  Million pixels")
    assert fact_found("re:training[- ]free", "a Training-free method")
    assert not fact_found("FLUX", "no such model")


def test_the_judge_must_answer_strict_json(bundled_store, wire, tmp_path, monkeypatch, capsys):
    suite = tmp_path / "j.yaml"
    suite.write_text("cases:\n  - question: Which paper is DyPE?\n    expect_papers: [DyPE]\n")
    monkeypatch.setenv("OPENAI_BASE_URL", wire.base_url)
    wire.script("DyPE [1].").script('{"score": 0.8, "reason": "supported"}')
    assert main(["eval", str(suite), "--runs-dir", str(tmp_path / "r"), "--judge",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["overall"]["judge_score"] == 0.8
    wire.script("DyPE [1].").script("I think it is pretty good!")
    assert main(["eval", str(suite), "--runs-dir", str(tmp_path / "r"), "--judge"]) == 2
    assert "not the required JSON" in capsys.readouterr().err


def test_a_misattributed_claim_fails_the_gate(bundled_store, wire, tmp_path, monkeypatch, capsys):
    """An LLM that quotes the second paper's abstract under [1]: the harness must see it."""
    from assistant.search.retrieval import Retriever

    question = "Which paper makes pretrained diffusion transformers produce huge images?"
    ranked = Retriever(store=bundled_store).search(question, k=4).papers
    quoted = ranked[1].paper.abstract.split(". ")[2]
    suite = tmp_path / "m.yaml"
    suite.write_text(f"k: 4\nthresholds: {{misattributed: 0}}\ncases:\n  - id: m\n"
                     f"    question: {question}\n    expect_papers: [DyPE]\n")
    monkeypatch.setenv("OPENAI_BASE_URL", wire.base_url)
    wire.script(f"{ranked[0].paper.title} answers this [1]. {quoted} [1].")
    assert main(["eval", str(suite), "--runs-dir", str(tmp_path / "r"), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["overall"]["misattributed"] == 1
    assert out["failures"] == [{"metric": "misattributed", "value": 1.0, "threshold": 0.0}]
    report = json.loads((tmp_path / "r" / out["report"].split("/")[-1] / "report.json")
                        .read_text())
    flagged = [s for s in report["cases"][0]["turns"][0]["sentences"] if s["misattributed"]]
    assert len(flagged) == 1 and flagged[0]["text"].startswith(quoted[:30])
    assert flagged[0]["claims"][0]["best_paper_id"] == ranked[1].paper.paper_id


def test_splits_select_cases_and_are_checked(bundled_store, tmp_path, capsys):
    suite = tmp_path / "s.yaml"
    suite.write_text(SUITE + "splits: s.json\n")
    (tmp_path / "s.json").write_text('{"dev": ["dype", "follow"], "test": ["absent"]}')
    assert main(["eval", str(suite), "--split", "test", "--runs-dir", str(tmp_path / "r"),
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["overall"]["cases"] == 1 and out["overall"]["refusal_accuracy"] == 1.0
    assert main(["eval", str(suite), "--split", "holdout"]) == 2
    assert "no split 'holdout'" in capsys.readouterr().err
    # gates per split: the test part's gate is its own
    suite.write_text(SUITE.replace("thresholds: {retrieval_recall: 0.9, refusal_accuracy: 0.9, "
                                   "citation_recall: 0.9}",
                                   "thresholds:\n  dev: {fact_coverage: 0.9}\n"
                                   "  test: {refusal_accuracy: 1.0}") + "splits: s.json\n")
    assert load_suite(suite).only("test").thresholds == {"refusal_accuracy": 1.0}
    assert load_suite(suite).thresholds == {}  # no `all` entry: the whole suite is ungated
    assert main(["eval", str(suite), "--split", "test", "--runs-dir", str(tmp_path / "r")]) == 0
    assert main(["eval", str(suite), "--split", "dev", "--runs-dir", str(tmp_path / "r")]) == 1
    assert "threshold missed: fact_coverage = 0.5 (needs 0.9)" in capsys.readouterr().err
    (tmp_path / "s.json").write_text('{"dev": ["dype", "nope"], "test": ["dype"]}')
    with pytest.raises(SuiteError, match="not in the suite: nope"):
        load_suite(suite)


def test_no_suite_fact_is_given_away_by_the_question_or_the_title():
    """A fact an answer gets by echoing the question, or the derived title every answer prints,
    tests nothing."""
    from pathlib import Path

    from assistant.evaluation.suite import resolve_papers
    from assistant.sources.corpus import bundled_papers

    papers = bundled_papers()
    suite = load_suite(Path(__file__).parents[2] / "evals" / "icml2026.yaml")
    assert set(suite.splits) == {"dev", "test", "straddles"}  # evals/make_splits.py
    assert {i for v in suite.splits.values() for i in v} == {c.id for c in suite.cases}
    titles = {p.paper_id: p.title for p in papers}
    for case in suite.cases:
        for turn in case.turns:
            expected = resolve_papers(turn.expect_papers, papers, case.id)
            for fact in turn.expect_facts:
                assert not fact_found(fact, turn.question), (case.id, fact)
                for pid in expected:
                    assert not fact_found(fact, titles[pid]), (case.id, fact, titles[pid])


def test_a_suite_over_an_empty_collection_says_how_to_fill_it(tmp_path, capsys):
    suite = tmp_path / "other.yaml"
    suite.write_text("collection: other\ncases:\n  - question: Which paper is X?\n"
                     "    refuse: true\n")
    assert main(["eval", str(suite), "--store", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: collection 'other'") and "holds no papers" in err
    assert "assistant ingest FILE --collection other" in err
