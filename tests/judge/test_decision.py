"""The one decision (judge/decision.py): ask, search and the evaluations never disagree on
whether the collection answers a question, and which papers an answer cites agrees with it.
Checked on every question of the ICML suite over the bundled list (the outcome counts on its dev
part only) and on generated TL;DR questions over fit-venue dev papers, through the pipeline and
through the real CLI."""

import json
from pathlib import Path

import pytest

from assistant.answer.factory import build_answerer
from assistant.answer.pipeline import answer, searched
from assistant.cli.main import main
from assistant.evaluation.generate import tldr_question
from assistant.evaluation.splits import corpus_part
from assistant.evaluation.suite import load_suite
from assistant.index.store import PaperStore
from assistant.judge.relevance import V_LIST, V_MAYBE
from assistant.query.form import asked_names
from assistant.search.retrieval import Retriever
from assistant.settings import load_settings
from assistant.sources.corpus import load_papers
from assistant.textutil import has_cjk, is_list_question

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpus" / "ml-abstracts.jsonl"


def _questions_of_suite(split: str | None = None) -> list[str]:
    suite = load_suite(ROOT / "evals" / "icml2026.yaml")
    if split:
        suite = suite.only(split)
    return [c.turns[0].question for c in suite.cases if len(c.turns) == 1]


def _check_agreement(store: PaperStore, questions: list[str], embedder,
                     counted: set[str] | None = None) -> dict[str, int]:
    """Check the invariants on every question; count the outcomes of ``counted`` (all when
    None)."""
    retriever = Retriever(store=store)
    answerer = build_answerer(load_settings(), embedder=embedder)
    outcomes: dict[str, int] = {}
    for q in questions:
        found = searched(q, q, retriever=retriever, k=10)
        result = answer(q, retriever=retriever, answerer=answerer, ground=False)
        v = found.verdict
        assert v.outcome == result.outcome, q  # search (k=10) and ask (k=6) decide alike
        assert v.relevance.relevant == (v.outcome == "answered"), q
        assert result.relevance["relevant"] == (result.outcome == "answered"), q
        if result.outcome == "answered":
            cited = {c.paper.paper_id for c in result.citations if not c.less_sure}
            assert cited, q  # an answered question cites what it answers from
            assert cited <= set(v.relevance.relevant_ids) | {
                rp.paper.paper_id for rp in found.retrieval.papers[:found.leads]}, q
            # a list's less sure papers: those the decision set aside as such, and no others
            less = {c.paper.paper_id for c in result.citations if c.less_sure}
            assert less <= set(v.relevance.maybe_ids) - cited, q
            _check_scores(q, result, v)
        else:
            assert result.refused and not v.relevance.relevant_ids, q
        if counted is None or q in counted:
            outcomes[v.outcome] = outcomes.get(v.outcome, 0) + 1
    return outcomes


def _check_scores(q: str, result, verdict) -> None:
    """The decision's estimates: on every paper it weighed (one 0-1 scale); a list holds only
    papers estimated at least V_LIST (and its best one); a one-paper answer names first the
    paper with the highest estimate, as the closest match exactly when it is not confident."""
    scores = {rp.paper.paper_id: rp.verified for rp in result.papers}
    if has_cjk(q):
        return
    assert all(s is not None and 0.0 <= s <= 1.0 for s in scores.values()), q
    cited = [scores[c.paper.paper_id] for c in result.citations if not c.less_sure]
    assert all(V_MAYBE <= (scores[c.paper.paper_id] or 0.0) < V_LIST
               for c in result.citations if c.less_sure), q
    if is_list_question(q) and not result.text.startswith("What each paper says"):
        best = max(scores.values())
        assert len(cited) == 1 or all(s >= V_LIST or s == best for s in cited), q
    elif result.text.startswith(("The most relevant paper is", "The closest match is")):
        assert result.text.startswith("The closest match is") == (not result.confident), q
        if not asked_names(q):  # the paper named first is the one the estimate ranks first
            assert result.citations[0].paper.paper_id == verdict.best, q


def test_ask_and_search_decide_alike_on_every_suite_question(bundled_store, embedder):
    # the invariants hold on every question; what the outcomes are is read on dev only (the
    # test part's outcomes are make report's, never CI's)
    dev = set(_questions_of_suite("dev"))
    outcomes = _check_agreement(bundled_store, _questions_of_suite(), embedder, counted=dev)
    assert outcomes.get("answered", 0) >= 15 and outcomes.get("refused", 0) + outcomes.get(
        "near_miss", 0) >= 5  # both kinds were exercised


@pytest.mark.shared
def test_ask_and_search_decide_alike_over_real_papers(tmp_path, embedder):
    lines = []
    with SHARED.open() as fh:
        for line in fh:
            rec = json.loads(line)
            if (rec.get("venue") == "iclr" and rec.get("year") == 2018 and rec.get("tldr")
                    and corpus_part(rec) == "dev"):
                lines.append(line)
            if len(lines) >= 200:
                break
    src = tmp_path / "slice.jsonl"
    src.write_text("".join(lines))
    papers = load_papers(src)
    store = PaperStore(collection="slice", embedder=embedder, path=tmp_path / "s", create=True)
    store.ingest(papers[:150], source="slice")
    asked = [tldr_question(json.loads(line)["tldr"]) for line in lines]
    questions = [q for q in asked if q][:80]  # 150 in the store, the rest held out
    outcomes = _check_agreement(store, questions, embedder)
    assert len(outcomes) >= 2


def test_search_and_ask_agree_on_a_comparison_through_the_cli(bundled_store, capsys):
    q = "How does DyPE differ from UniR?"
    assert main(["search", "--json", q]) == 0
    searched_json = json.loads(capsys.readouterr().out)
    assert main(["ask", "--json", q]) == 0
    asked_json = json.loads(capsys.readouterr().out)
    assert searched_json["outcome"] == asked_json["outcome"] == "answered"
    top_two = {p["title"].split(":")[0].split(" ")[0] for p in searched_json["papers"][:2]}
    assert top_two == {"DyPE", "UniR"}  # each side's paper first, as ask cites them
