"""A question that sifts the papers an answer listed ("Which of them use domain randomization?",
"Do any of these need demonstrations?", "其中哪些在真实机器人上测试过？") is searched among those
papers alone, each judged on what is asked; it was rewritten with the list's first two titles
and searched across the collection, and said nothing here was about it."""

from __future__ import annotations

import re

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.framing import CHINESE, ENGLISH
from assistant.answer.pipeline import answer
from assistant.paper import Paper
from assistant.query.numbered import among

SIM2REAL = [
    Paper("s-dr", "Randomized physics for sim-to-real transfer of legged locomotion",
          "Policies trained in simulation often fail on real legged robots. We transfer a "
          "locomotion policy from simulation to a real quadruped by domain randomization of "
          "friction, mass and motor strength during training.", ["A. One"], "CoRL", 2021),
    Paper("s-sysid", "Active system identification for sim-to-real transfer",
          "The gap between simulation and reality limits transfer of robot policies. We "
          "identify simulator parameters from a few real trajectories with active exploration, "
          "then fine-tune the policy in the calibrated simulator.", ["B. Two"], "CoRL", 2022),
    Paper("s-diff", "Differentiable simulation for sim-to-real locomotion control",
          "We learn a locomotion controller entirely within a differentiable simulator and "
          "transfer it from simulation to a real robot, using analytic gradients of smooth "
          "contact dynamics.", ["C. Three"], "CoRL", 2023),
    Paper("s-human", "Sim-to-real transfer with human corrections",
          "Robot policies trained in simulation are corrected online by a human operator "
          "during real-world execution, and the corrections close the sim-to-real gap for "
          "contact-rich assembly.", ["D. Four"], "CoRL", 2024),
]
OTHERS = [
    # about domain randomization, but not about sim-to-real transfer: never in the first list
    Paper("o-dr-vision", "Domain randomization of textures for object detection",
          "We train an object detector on synthetic images whose textures, lighting and "
          "backgrounds are randomized, and study which randomizations matter for accuracy.",
          ["E. Five"], "ACML", 2020),
    Paper("o-bandit", "Regret bounds for contextual bandits with knapsacks",
          "We prove regret bounds for contextual bandits under global budget constraints.",
          ["F. Six"], "COLT", 2019),
    Paper("o-gp", "Sparse Gaussian processes for streaming data",
          "We update a sparse Gaussian process posterior online as data arrive.",
          ["G. Seven"], "UAI", 2019),
]
LISTED = {p.paper_id for p in SIM2REAL}
FIRST = "Which papers study sim-to-real transfer for robots?"


@pytest.fixture(scope="module")
def retriever(module_retriever_over):
    return module_retriever_over([*SIM2REAL, *OTHERS], collection="sift")


def _ask(question, retriever, embedder, history=()):
    return answer(question, retriever=retriever, answerer=ExtractiveAnswerer(embedder=embedder),
                  history=list(history))


@pytest.fixture(scope="module")
def first(retriever, embedder):
    result = _ask(FIRST, retriever, embedder)
    assert len(_listed(result) & LISTED) >= 3, result.text
    return result


def _listed(result) -> set[str]:
    """The papers the answer lists, a line each (not its "possibly related too" ones)."""
    by_n = {c.n: c.paper.paper_id for c in result.citations}
    return {by_n[int(n)] for n in re.findall(r"^- \*\*.+?\*\* \[(\d+)\]", result.text,
                                             re.MULTILINE)}


@pytest.mark.parametrize("question", [
    "Which of them use domain randomization?",
    "Which of these papers use domain randomization?",
    "Among those, which use domain randomization?",
    "Do any of them use domain randomization?",
])
def test_which_of_them_is_answered_from_the_listed_papers_alone(question, first, retriever,
                                                                 embedder):
    result = _ask(question, retriever, embedder, [(FIRST, first.text)])
    listed = _listed(first)
    cited = [c.paper.paper_id for c in result.citations]
    assert result.search_query == "use domain randomization"
    assert result.question == question  # as asked: the chat's history keeps it
    assert result.outcome == "answered", result.text
    assert result.text.startswith(f"(Searched only the {len(listed)} papers listed before.)")
    assert cited and cited[0] == "s-dr", result.text  # the listed paper that randomizes
    assert set(cited) <= listed, result.text  # never the detector paper, which the list lacked


def test_what_none_of_the_listed_papers_is_about_is_said_so(first, retriever, embedder):
    result = _ask("Which of them prove regret bounds for contextual bandits?", retriever,
                  embedder, [(FIRST, first.text)])
    listed = _listed(first)
    assert result.outcome != "answered", result.text
    assert result.text.startswith(f"(Searched only the {len(listed)} papers listed before.)")
    assert "None of them is about “prove regret bounds for contextual bandits”" in result.text
    assert result.question == "Which of them prove regret bounds for contextual bandits?"
    assert {c.paper.paper_id for c in result.citations} <= listed  # not the bandit paper


def test_a_chinese_question_sifts_the_list_too(first, retriever, embedder):
    result = _ask("其中哪些用了域随机化？", retriever, embedder, [(FIRST, first.text)])
    listed = _listed(first)
    cited = [c.paper.paper_id for c in result.citations]
    assert result.text.startswith(f"（只在前面列出的 {len(listed)} 篇论文中查找。）"), result.text
    assert cited and set(cited) <= listed, result.text


@pytest.mark.parametrize(("question", "rest"), [
    ("Which of them use domain randomization?", "use domain randomization"),
    ("Do any of these need human demonstrations?", "need human demonstrations"),
    ("Among those, which run on real robots?", "run on real robots"),
    ("Of these, how many use transformers?", "use transformers"),
    ("Which of these papers report results on hardware?", "report results on hardware"),
    ("其中哪些用了域随机化？", "用了域随机化"),
    ("这些论文中哪些需要标注数据？", "需要标注数据"),
])
def test_what_a_sifting_question_asks_is_read(question, rest):
    said = ("- **Paper A** [1]: a.\n- **Paper B** [2]: b.\n\nPossibly related too (not as "
            "sure): **Paper C** [3].")
    assert among(question, [("q", said)]) == (rest, ["Paper A", "Paper B"])  # not "possibly"


@pytest.mark.parametrize("question", [
    "Which of them?",  # asks nothing more
    "Which one uses RL?",
    "Which of the two-stage methods works best?",
    "Which paper uses domain randomization?",
    "这些学到的分组还能用在下游任务上吗？",  # "these learned groupings": one paper's
    "Which of these is a method and which a testbed: imitating human play from one video, or "
    "an emulator interface for console games?",  # a comparison of two described papers
    "Which of these two gives a regret bound?",
])
def test_other_questions_sift_nothing(question):
    said = "- **Paper A** [1]: a.\n- **Paper B** [2]: b."
    assert among(question, [("q", said)]) is None


def test_an_answer_about_one_paper_is_no_list_to_sift():
    said = ("The most relevant paper is **Paper A** [1]. It does x. [1]\n\nAlso related: "
            "**Paper B** [2].")
    assert among("Which of them use domain randomization?", [("q", said)]) is None


@pytest.mark.parametrize("say", [ENGLISH, CHINESE])
def test_a_near_miss_names_no_list_to_sift(say):
    """The closest papers to something none is about are no list a later "which of them"
    sifts: it looks back to the list before."""
    lines = "\n\n- **Paper C** [1]: c.\n- **Paper D** [2]: d."
    listed = "- **Paper A** [1]: a.\n- **Paper B** [2]: b."
    for head in (say.nothing_here.format(asked="x"), say.nothing_sifted.format(asked="x"),
                 say.nothing_both.format(asked="x"), say.not_introduced.format(missing="x"),
                 say.nothing_on_both.format(a="x", b="y")):
        history = [("q1", listed), ("q2", head + lines)]
        assert among("Which of them use domain randomization?", history) == (
            "use domain randomization", ["Paper A", "Paper B"]), head


@pytest.mark.parametrize(("question", "head"), [
    ("Which of them are corrected online by a human operator?",
     "One of them bears on this: **Sim-to-real transfer with human corrections**"),
    ("其中哪些由人工操作员在线纠正？",
     "其中有一篇与此相关：**Sim-to-real transfer with human corrections**"),
])
def test_a_sift_down_to_one_paper_names_it_as_one_of_them(question, head, first, retriever,
                                                           embedder):
    """One listed paper bears on it: named as one of those listed, not as "the most relevant
    paper" of the collection, which was not searched."""
    result = _ask(question, retriever, embedder, [(FIRST, first.text)])
    assert "s-human" in _listed(first)
    assert result.outcome == "answered", result.text
    assert [c.paper.paper_id for c in result.citations][:1] == ["s-human"], result.text
    assert result.text.split("\n\n")[1].startswith(head), result.text
    assert "most relevant" not in result.text and "最相关" not in result.text


def test_a_follow_up_after_a_sift_down_to_one_paper_stays_with_it(first, retriever, embedder):
    """"How do they close the gap?" after "One of them bears on this: **T** [1]" is about T,
    though the answer opens with the note of what was searched."""
    sift = "Which of them are corrected online by a human operator?"
    one = _ask(sift, retriever, embedder, [(FIRST, first.text)])
    assert one.text.split("\n\n")[1].startswith("One of them bears on this:"), one.text
    after = _ask("What kind of tasks did they test it on?", retriever, embedder,
                 [(FIRST, first.text), (sift, one.text)])
    assert [c.paper.paper_id for c in after.citations] == ["s-human"], after.text


@pytest.mark.parametrize("say", [ENGLISH, CHINESE])
def test_what_a_follow_up_after_a_note_refers_to_is_read_past_the_note(say):
    """An answer that opens with a note ("(Searched only the 4 papers listed before.)",
    "(Read as ...)") is read by how its answer opens: a follow-up after one paper named is about
    that paper, not its "also related" ones; after the closest papers to something none is
    about, about none of them."""
    from assistant.query.form import parse
    from assistant.query.rewrite import heuristic, previous_paper

    note = say.sifted_note.format(m=4)
    one = (f"{note}\n\n{say.one_sifted.format(title='Paper A', where='')} a. [1]"
           f"{say.also_related.format(papers='**Paper B** [2]')}")
    for opening in (one, one.replace(note, "(Read as “x”.)")):
        history = [("Which of them use x?", opening)]
        form = parse("How robust is it to attacks?", history)
        assert previous_paper(form, history) == "Paper A"
        assert "Paper B" not in heuristic(form, history)
    none = (f"{note}\n\n{say.nothing_sifted.format(asked='x')}\n\n- **Paper C** [1]: c.\n"
            f"- **Paper D** [2]: d.")
    history = [("Which of them use x?", none)]
    rewritten = heuristic(parse("what data did they use?", history), history)
    assert "Paper C" not in rewritten and "Paper D" not in rewritten, rewritten


@pytest.mark.parametrize("question", ["Summarize each of these papers in one sentence",
                                      "Summarize them", "What does each of them do?",
                                      "Give me a one-line summary of each",
                                      "分别总结一下这些论文"])
def test_each_listed_paper_is_summed_up(question, first, retriever, embedder):
    """ "Summarize each of these papers in one sentence" after a list was answered with one
    paper (the first listed, as a follow-up): every listed paper, in the list's order, each
    with a sentence of its own abstract, nothing searched beyond them."""
    said = _ask(question, retriever, embedder, history=[(FIRST, first.text)])
    order = [c.paper.paper_id for c in first.citations if not c.less_sure]
    assert [c.paper.paper_id for c in said.citations] == order, said.text
    head = (CHINESE if "总结" in question else ENGLISH).listing_each.format(n=len(order))
    assert said.text.startswith(head), said.text
    by_id = {p.paper_id: p for p in SIM2REAL}
    for c in said.citations:  # each line quotes its own paper's abstract
        line = next(x for x in said.text.splitlines() if x.startswith(
            f"- **{c.paper.display_title}** [{c.n}]: "))
        quote = line.split("]: ", 1)[1].rsplit(" [", 1)[0]
        assert " ".join(quote.split()[-5:]).rstrip(".") in by_id[c.paper.paper_id].abstract


def test_a_summary_of_one_paper_or_of_a_sifted_set_is_no_summary_of_each():
    from assistant.query.numbered import summed_up

    history = [(FIRST, "- **Paper one** [1]: x [1]\n- **Paper two** [2]: y [2]")]
    assert summed_up("Summarize them", history) == ["Paper one", "Paper two"]
    for question in ("Summarize the paper", "Summarize these papers that use RL",
                     "Which of them use domain randomization?", "Summarize the first one"):
        assert summed_up(question, history) == [], question
    assert summed_up("Summarize them", []) == []  # nothing listed before
