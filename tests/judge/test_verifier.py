"""The verifier (judge/verifier.py): the cross-encoder this project trains and ships
(train/train_verifier.py) loads from the package, offline, and reads a question against a
paper: the paper a question was written about scores above the others of the bundled list, and
questions from another field score low everywhere."""

from pathlib import Path

from assistant.evaluation.suite import load_suite, resolve_papers
from assistant.judge import verifier
from assistant.judge.verifier import Verifier, passage
from assistant.sources.corpus import bundled_papers

ROOT = Path(__file__).resolve().parents[2]


def _passages() -> tuple[list[str], list[str]]:
    papers = bundled_papers()
    return [p.paper_id for p in papers], [f"{p.title}. {p.abstract}" for p in papers]


def test_the_shipped_verifier_ranks_the_asked_paper_first_on_dev_questions():
    assert verifier.available()
    ids, passages = _passages()
    suite = load_suite(ROOT / "evals" / "icml2026.yaml").only("dev")
    v = verifier.Verifier()
    first = asked = 0
    for case in suite.cases:
        turn = case.turns[0]
        if len(case.turns) != 1 or len(turn.expect_papers) != 1:
            continue
        (pid,) = resolve_papers(turn.expect_papers, bundled_papers(), case.id)
        scores = v.score(turn.question, passages)
        assert len(scores) == len(ids) and all(0.0 <= s <= 1.0 for s in scores)
        asked += 1
        first += ids[max(range(len(ids)), key=scores.__getitem__)] == pid
    assert asked >= 20 and first >= asked * 0.7, (first, asked)


def test_questions_from_another_field_score_low():
    _, passages = _passages()
    v = verifier.shared()
    for q in ("How do I make a sourdough starter rise faster?",
              "Which treatment reduces blood pressure in elderly patients?",
              "Who won the 1998 football world cup?"):
        assert max(v.score(q, passages)) < 0.5, q


def test_a_pairs_score_does_not_depend_on_the_others_scored_with_it():
    """The decision scores 6 papers for `ask` and 10 for `search`: a paper's score must be
    the same either way (an int8 batch would share one activation scale)."""
    v = Verifier()
    papers = bundled_papers()
    q = "Which paper generates ultra-high-resolution images with diffusion transformers?"
    alone = [v.score(q, [passage(p)])[0] for p in papers]
    together = v.score(q, [passage(p) for p in papers])
    assert together == alone
    assert max(alone) - min(alone) > 0.5  # and it does tell the papers apart
