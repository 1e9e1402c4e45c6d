"""A paper named by its number in the previous answer ("tell me more about [2]", "what data did
the third one use?", "more like #1", "第二篇用了什么数据？") is that paper. After a list such a
turn was answered from the list's first paper (the follow-up carried the first two titles): a
question about [2] answered about [1]."""

from __future__ import annotations

import re

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.paper import Paper
from assistant.query.numbered import with_titles
from assistant.query.rewrite import numbered_paper

PAPERS = [
    Paper(f"fl-{i}", title, abstract, [f"A. Author{i}"], "UAI", 2019 + i)
    for i, (title, abstract) in enumerate([
        ("Client drift correction for federated averaging",
         "Federated learning suffers from client drift when client data are heterogeneous. We "
         "correct each update with control variates and evaluate on FEMNIST."),
        ("Two-bit updates for communication-efficient federated learning",
         "Communication is the bottleneck of federated learning. We quantise client updates to "
         "two bits with error feedback, tested on the Shakespeare corpus."),
        ("Secure aggregation with client-level differential privacy in federated learning",
         "Model updates leak client data in federated learning. We add client-level "
         "differential privacy to secure aggregation, with a privacy proof for every round."),
        ("Meta-learned initialisations for personalised federated learning",
         "One global model serves heterogeneous clients poorly in federated learning. We "
         "meta-learn an initialisation each client fine-tunes, evaluated on Sent140."),
        ("Asynchronous federated learning with stale updates",
         "Slow clients stall synchronous federated learning. We aggregate stale updates "
         "asynchronously with a staleness-aware weight and prove convergence."),
    ])
] + [
    Paper("grasp", "Learning dexterous grasps from human videos",
          "A robot hand learns to grasp household objects by imitating hand poses recovered "
          "from internet videos.", ["G. Seven"], "CoRL", 2022),
    Paper("kg", "Popularity bias in knowledge graph evaluation",
          "Link prediction benchmarks for knowledge graph embeddings are dominated by a few "
          "frequent entities.", ["H. Eight"], "UAI", 2020),
]
LIST_Q = "Which papers study federated learning?"


@pytest.fixture(scope="module")
def retriever(module_retriever_over):
    return module_retriever_over(PAPERS, collection="numbered")


def _listed(result) -> dict[int, str]:
    """The list's papers by their number, as the reader sees them."""
    by_n = {c.n: c.paper.paper_id for c in result.citations}
    return {int(n): by_n[int(n)] for n in re.findall(r"^- \*\*.+?\*\* \[(\d+)\]", result.text,
                                                    re.MULTILINE)}


@pytest.mark.parametrize("shape", ["tell me more about [{n}]", "what data did [{n}] use?",
                                   "Does paper {n} prove anything?", "what about #{n}?"])
def test_every_number_of_a_list_means_that_paper_in_the_next_turn(shape, retriever, embedder):
    answerer = ExtractiveAnswerer(embedder=embedder)
    first = answer(LIST_Q, retriever=retriever, answerer=answerer)
    listed = _listed(first)
    assert len(listed) >= 3, first.text
    for n, pid in listed.items():
        turn = shape.format(n=n)
        then = answer(turn, retriever=retriever, answerer=answerer,
                      history=[(LIST_Q, first.text)])
        assert then.citations and then.citations[0].paper.paper_id == pid, (turn, then.text)


def test_an_ordinal_and_a_number_two_turns_back_mean_the_lists_paper(retriever, embedder):
    answerer = ExtractiveAnswerer(embedder=embedder)
    first = answer(LIST_Q, retriever=retriever, answerer=answerer)
    listed = _listed(first)
    history = [(LIST_Q, first.text)]
    second = answer("tell me more about the second one", retriever=retriever,
                    answerer=answerer, history=history)
    assert second.citations[0].paper.paper_id == listed[2]
    history.append(("tell me more about the second one", second.text))
    for turn, n in [("and the third one?", 3), ("第一篇用了什么数据？", 1)]:
        then = answer(turn, retriever=retriever, answerer=answerer, history=history)
        assert then.citations[0].paper.paper_id == listed[n], (turn, then.text)


def test_more_like_a_numbered_paper_lists_the_papers_like_it(retriever, embedder):
    answerer = ExtractiveAnswerer(embedder=embedder)
    first = answer(LIST_Q, retriever=retriever, answerer=answerer)
    listed = _listed(first)
    like = answer("more like [2]", retriever=retriever, answerer=answerer,
                  history=[(LIST_Q, first.text)])
    assert like.outcome == "listed"
    title = next(p.title for p in PAPERS if p.paper_id == listed[2])
    assert f"Papers like **{title}**" in like.text
    assert listed[2] not in {c.paper.paper_id for c in like.citations}


@pytest.mark.parametrize("question", ["What are the top 2 papers on this?", "Is GPT-2 used?",
                                      "Which was the first paper on federated learning?",
                                      "the second one on privacy", "tell me more about [9]",
                                      "tell me more"])
def test_what_names_no_number_of_the_answer_names_no_paper(question):
    said = ("3 papers bear on this:\n\n- **Alpha one** [1]: x [1]\n- **Beta two** [2]: y [2]\n"
            "- **Gamma three** (UAI 2020) [3]: z [3]")
    assert numbered_paper(question, [("Which papers ...?", said)]) is None


def test_a_number_is_read_from_every_kind_of_answer():
    one = ("The most relevant paper is **Alpha one** (UAI 2021) [1]. x [1]\n\nAlso related: "
           "**Beta two** [2]; **Gamma three** [3].")
    ordered = ("The most recent of the **5** papers on “x”:\n\n- **Delta four** (0.96, CORL "
               "2025) [1]")
    assert numbered_paper("what about [3]?", [("q", one)]) == "Gamma three"
    assert numbered_paper("the last one?", [("q", one)]) == "Gamma three"
    assert numbered_paper("tell me about [1]", [("q", ordered)]) == "Delta four"
    assert numbered_paper("the last one?", [("q", ordered)]) is None  # one paper: no list
    assert numbered_paper("第三篇呢？", [("q", one)]) == "Gamma three"


def test_two_numbered_papers_compared_are_those_two_side_by_side(retriever, embedder):
    """"[1] vs [2]" has no content word: it was refused as asking nothing."""
    answerer = ExtractiveAnswerer(embedder=embedder)
    first = answer(LIST_Q, retriever=retriever, answerer=answerer)
    listed = _listed(first)
    for turn, (a, b) in [("[1] vs [2]", (1, 2)), ("compare the first one and the third one",
                                                   (1, 3)), ("how does [3] differ from [2]?",
                                                             (3, 2))]:
        then = answer(turn, retriever=retriever, answerer=answerer,
                      history=[(LIST_Q, first.text)])
        assert then.outcome == "answered", (turn, then.text)
        assert [c.paper.paper_id for c in then.citations[:2]] == [listed[a], listed[b]], turn


def test_a_number_no_answer_cited_is_never_shown_as_a_citation(retriever, embedder):
    answerer = ExtractiveAnswerer(embedder=embedder)
    first = answer(LIST_Q, retriever=retriever, answerer=answerer)
    then = answer("does [9] need labels?", retriever=retriever, answerer=answerer,
                  history=[(LIST_Q, first.text)])
    shown = {int(n) for n in re.findall(r"\[(\d+)\]", then.text)}
    assert shown <= {c.n for c in then.citations}, then.text


def test_a_trend_answers_papers_are_named_by_number_too():
    said = ("- **2018–2021**: 2 on it. First: **Tactile transfer: a study** (0.80, CORL 2021) [1]; "
            "**SimNet** (0.40, CORL 2021) [2].")
    assert numbered_paper("tell me more about [1]", [("q", said)]) == "Tactile transfer: a study"
    assert numbered_paper("and the second one?", [("q", said)]) == "SimNet"


def test_two_numbered_papers_after_a_one_paper_answer_are_still_two(retriever, embedder):
    """After "The most relevant paper is **A** [1] ... Also related: **B** [2]", "[1] vs [2]"
    was pinned to A, the paper that answer was about: one paper, not a comparison."""
    a, b = PAPERS[0], PAPERS[2]
    said = (f"The most relevant paper is **{a.title}** (UAI 2019) [1]. Federated learning "
            f"suffers from client drift. [1]\n\nAlso related: **{b.title}** [2].")
    then = answer("[1] vs [2]", retriever=retriever, answerer=ExtractiveAnswerer(embedder=embedder),
                  history=[("Which paper corrects client drift?", said)])
    assert [c.paper.paper_id for c in then.citations[:2]] == [a.paper_id, b.paper_id], then.text


FIRST_FEW = [("What's the difference between the first two?", 2),
             ("How do these two differ?", 2), ("Compare the top two papers", 2),
             ("So what's the difference between the two?", 2),
             ("How do the first three compare?", 3), ("前两篇有什么区别？", 2),
             ("这两篇论文有什么区别？", 2), ("[1] 和 [2] 有什么区别？", 2)]


@pytest.mark.parametrize(("turn", "k"), FIRST_FEW)
def test_the_first_few_of_a_list_compared_are_those_side_by_side(turn, k, retriever, embedder):
    """"What's the difference between the first two?" after a list was answered about one
    paper (after a list, the first); "[1] 和 [2] 有什么区别？" searched "#1" and "#2" and was
    refused."""
    answerer = ExtractiveAnswerer(embedder=embedder)
    first = answer(LIST_Q, retriever=retriever, answerer=answerer)
    listed = _listed(first)
    assert len(listed) >= k
    then = answer(turn, retriever=retriever, answerer=answerer, history=[(LIST_Q, first.text)])
    assert then.outcome == "answered", (turn, then.text)
    assert [c.paper.paper_id for c in then.citations[:k]] == [listed[n] for n in
                                                                range(1, k + 1)], turn


@pytest.mark.parametrize("turn", ["What happens in the first two layers?",
                                  "Is there a paper comparing these two: DPO and KTO?",
                                  "Which settings do these two methods share?",
                                  "Are both treatment and outcome modelled?"])
def test_a_few_that_are_not_the_answers_papers_are_left_as_said(turn):
    said = ("3 papers bear on this:\n\n- **Alpha one** [1]: x [1]\n- **Beta two** [2]: y [2]\n"
            "- **Gamma three** (UAI 2020) [3]: z [3]")
    assert with_titles(turn, [("Which papers ...?", said)]) == turn
