"""A question typed as an instruction ("Summarize the DyPE paper", "Explain IPMark simply",
"Tell me about VGS") is judged as the question it asks (query/imperative.py): over the bundled
list, every paper's name asked so is answered as "Which paper is about NAME?" is, that paper
first."""

from __future__ import annotations

import re

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.paper import Paper
from assistant.query.imperative import as_question, record_asked
from assistant.sources.corpus import bundled_papers

ASKED = {
    "Summarize the neural ODE paper.": "Which paper is about neural ODE?",
    "Please summarize the mixup paper, briefly": "Which paper is about mixup?",
    "Describe the paper on Gumbel-Softmax": "Which paper is about Gumbel-Softmax?",
    "Summarize the paper that introduced mixup": "Which paper introduced mixup?",
    "Explain spectral normalization simply": "What is spectral normalization?",
    "Can you explain neural ODEs in simple terms?": "What are neural ODEs?",
    "tell me about neural architecture search": "What is neural architecture search?",
    "Explain the limitations of mixup": "What are the limitations of mixup?",
    "Explain how batch norm helps optimization": "How batch norm helps optimization?",
    "Tell me about papers on GANs": "Which papers are about GANs?",
    "Give me a short summary of IPMark": "What is IPMark?",
}
AS_TYPED = ["Summarize the second paper", "Describe it", "Tell me more about it",
            "Tell me about [2]", "Explain", "Explain the second one",
            "Summarize the results of the first paper", "Describe the proposed method",
            "Describe a method that learns robot policies from videos",
            "Which paper is about mixup?", "Summarize this paper"]


def test_an_instruction_is_read_as_the_question_it_asks():
    for said, meant in ASKED.items():
        assert as_question(said) == meant, said
    for said in AS_TYPED:  # a back-reference is the follow-up's; a question stays one
        assert as_question(said) == said, said


NAMED = [(m.group(1), p.paper_id) for p in bundled_papers()
         if (m := re.match(r"^([A-Z][\w\-]*[A-Z][\w\-]*)[:( ]", p.title))]
FORMS = ["Tell me about {n}", "Explain {n} simply", "Summarize the {n} paper.",
         "Describe the paper on {n}", "Can you explain {n} in simple terms?"]


@pytest.fixture(scope="module")
def bundled(module_retriever_over):
    return module_retriever_over(bundled_papers(), collection="bundled")


def test_every_named_paper_asked_for_by_instruction_is_answered_as_the_question(bundled,
                                                                                embedder):
    assert len(NAMED) >= 10  # IPMark, DyPE, MaskAQ, VGS, UniR, Q2D2, ...
    answerer = ExtractiveAnswerer(embedder=embedder)
    for name, paper_id in NAMED:
        asked = answer(f"Which paper is about {name}?", retriever=bundled, answerer=answerer,
                       ground=False)
        assert asked.outcome == "answered" and asked.citations[0].paper.paper_id == paper_id
        for form in FORMS:
            said = answer(form.format(n=name), retriever=bundled, answerer=answerer,
                          ground=False)
            assert said.outcome == "answered", (form, name, said.text)
            assert said.citations[0].paper.paper_id == paper_id, (form, name)
            assert said.to_dict()["confident"] == asked.to_dict()["confident"], (form, name)
            assert said.question == form.format(n=name)  # the user's words, as asked
            # ... and what was searched and judged, as `ask --json` shows it
            assert said.to_dict()["search_query"] == as_question(form.format(n=name))
            assert said.to_dict()["search_query"] != form.format(n=name)


RECORDS = {
    "Give me the BibTeX for the mixup paper": ("Which paper is about mixup?", "bibtex"),
    "How do I cite the neural ODE paper?": ("Which paper is about neural ODE?", "bibtex"),
    "Was the mixup paper accepted?": ("Which paper is about mixup?", "status"),
    "Where was the paper on Gumbel-Softmax published?": (
        "Which paper is about Gumbel-Softmax?", "status"),
    "What venue was the neural ODE paper at?": ("Which paper is about neural ODE?", "status"),
}


def test_a_question_about_a_papers_record_is_read_as_which_paper_then_the_record():
    for said, (meant, record) in RECORDS.items():
        assert as_question(said) == meant and record_asked(said) == record, said
    for said in ("Was it accepted?", "Was the second paper rejected?", "Has this been published?",
                 "Is the method published?"):  # the follow-up's: it points back
        assert as_question(said) == said and record_asked(said) == "", said


def test_every_named_paper_gives_its_record_when_asked(bundled, embedder):
    """Each bundled paper asked for its BibTeX or its venue by name ("bibtex", "accepted" are in
    no abstract: such questions were refused): that paper first, its answer, then its record."""
    answerer = ExtractiveAnswerer(embedder=embedder)
    for name, paper_id in NAMED:
        cite = answer(f"Give me the BibTeX for the {name} paper", retriever=bundled,
                      answerer=answerer)
        assert cite.outcome == "answered" and cite.citations[0].paper.paper_id == paper_id
        paper = cite.citations[0].paper
        block = cite.text.split("```bibtex\n")[-1]
        assert cite.text.rstrip().endswith("```") and block.startswith("@inproceedings{")
        assert "title = {{" + paper.title.split(":")[0] in block, block
        assert "booktitle = {ICML 2026}" in block
        assert cite.to_dict()["attribution"]["misattributed"] == 0  # the record is no claim
        status = answer(f"Was the {name} paper accepted?", retriever=bundled, answerer=answerer)
        assert status.citations[0].paper.paper_id == paper_id
        assert status.text.endswith(f"The paper list has **{paper.display_title}** at ICML "
                                    f"2026{' (' + paper.status + ')' if paper.status else ''}.")
        plain = answer(f"Which paper is about {name}?", retriever=bundled, answerer=answerer)
        assert "The paper list has" not in plain.text and "```" not in plain.text


TOPICS = ["watermarking images", "compressing diffusion models", "speech quantization",
          "image super-resolution", "low-bit quantization of vision transformers",
          "reinforcement learning for reasoning", "robot grasping", "video generation"]


def test_a_bibtex_entry_after_a_hedged_answer_says_whose_it_is(bundled, embedder):
    """Asked for the BibTeX of a paper on a topic the list may not hold, a hedged answer (the
    closest match) gives the closest paper's entry only as that: "If **T** is the paper you
    mean, its entry:" before it; a confident answer's entry stands alone."""
    answerer = ExtractiveAnswerer(embedder=embedder)
    seen = {True: 0, False: 0}
    questions = [f"Give me the BibTeX for the paper on {t}" for t in TOPICS] + [
        f"How do I cite the {name} paper?" for name, _ in NAMED]
    for question in questions:
        said = answer(question, retriever=bundled, answerer=answerer, ground=False)
        if "```bibtex" not in said.text:
            assert said.outcome != "answered", question  # a near miss or refusal: no entry
            continue
        sure = said.to_dict()["confident"]
        seen[sure] += 1
        title = said.citations[0].paper.display_title
        caveat = f"If **{title}** is the paper you mean, its entry:\n\n```bibtex"
        assert (caveat in said.text) == (not sure), (question, said.text)
    assert seen[True] >= len(NAMED) and seen[False] >= 2, seen


def test_a_rejected_submission_is_said_to_be_one(module_retriever_over, embedder):
    rejected = Paper("r1", "GateNet: binary gates for recurrent networks",
                     "We propose GateNet, which pushes recurrent gates towards 0 or 1.",
                     ["A. Author"], "ICLR", 2018, extra={"status": "Reject"})
    other = Paper("o1", "Sparse Gaussian processes for streaming data",
                  "We update a sparse Gaussian process posterior online.", ["B. Author"],
                  "UAI", 2019, extra={"status": "Poster"})
    retriever = module_retriever_over([rejected, other], collection="rejected")
    result = answer("Was the GateNet paper accepted?", retriever=retriever,
                    answerer=ExtractiveAnswerer(embedder=embedder))
    assert result.citations[0].paper.paper_id == "r1"
    assert result.text.endswith("The paper list has **GateNet: binary gates for recurrent "
                                "networks (rejected submission)** as a submission to ICLR "
                                "2018, rejected.")
    cite = answer("How do I cite GateNet?", retriever=retriever,
                  answerer=ExtractiveAnswerer(embedder=embedder))
    assert "@misc{" in cite.text and "Submitted to ICLR 2018; rejected" in cite.text


def test_a_follow_up_asks_the_record_of_the_paper_it_points_to(bundled, embedder):
    """ "Was it accepted?", "How do I cite it?" after an answer: that paper's record."""
    answerer = ExtractiveAnswerer(embedder=embedder)
    for name, paper_id in NAMED[:4]:
        first = answer(f"Which paper is about {name}?", retriever=bundled, answerer=answerer)
        history = [(f"Which paper is about {name}?", first.text)]
        for question, mark in (("Was it accepted?", "The paper list has **"),
                               ("How do I cite it?", "```bibtex\n@inproceedings{")):
            said = answer(question, retriever=bundled, answerer=answerer, history=history)
            assert said.citations[0].paper.paper_id == paper_id, (name, question)
            assert mark in said.text, (name, question, said.text)
            assert first.citations[0].paper.title.split(":")[0] in said.text.split(mark)[-1]
    for said in ("Was it accepted?", "How do I cite it?"):  # with nothing to point to: no
        assert record_asked(said) == ""  # record of a paper picked by search


LIST_RECORDS = ["Give me BibTeX entries for the papers on {t}", "BibTeX for all papers on {t}",
                "Export the papers on {t} as BibTeX"]


def _entries(text: str) -> list[str]:
    block = text.split("```bibtex\n")[-1].split("```")[0]
    return re.findall(r"^@\w+\{([^,]+),", block, flags=re.MULTILINE)


def test_bibtex_for_the_papers_on_a_topic_gives_each_listed_papers_entry(bundled, embedder):
    """ "Give me BibTeX entries for the papers on quantization" was refused ("bibtex" and
    "entries" are in no abstract): now the topic's papers, listed as "Which papers are about
    X?" lists them, then one entry for each listed paper (not the less sure), keys distinct."""
    answerer = ExtractiveAnswerer(embedder=embedder)
    lists = 0
    for topic in ("quantization", "watermarking", "reasoning", "image generation"):
        plain = answer(f"Which papers are about {topic}?", retriever=bundled, answerer=answerer,
                       ground=False)
        for form in LIST_RECORDS:
            said = answer(form.format(t=topic), retriever=bundled, answerer=answerer,
                          ground=False)
            assert said.to_dict()["search_query"] == f"Which papers are about {topic}?"
            assert [c.paper.paper_id for c in said.citations] == \
                [c.paper.paper_id for c in plain.citations], form
            listed = [c.paper for c in said.citations if not c.less_sure]
            keys = _entries(said.text)
            assert len(keys) == len(listed) == len(set(keys)), (form, said.text)
            block = said.text.split("```bibtex\n")[-1]
            assert [block.index(p.title.split(":")[0]) for p in listed] == sorted(
                block.index(p.title.split(":")[0]) for p in listed)  # in the list's order
            lists += len(listed) >= 2
    assert lists


def test_how_do_i_cite_these_papers_after_a_list_gives_each_ones_entry(bundled, embedder):
    answerer = ExtractiveAnswerer(embedder=embedder)
    first = answer("Which papers are about quantization?", retriever=bundled, answerer=answerer)
    listed = [c.paper for c in first.citations if not c.less_sure]
    assert len(listed) >= 2
    history = [("Which papers are about quantization?", first.text)]
    for question in ("How do I cite these papers?", "Give me the BibTeX for all of them",
                     "BibTeX for them"):
        said = answer(question, retriever=bundled, answerer=answerer, history=history)
        assert [c.paper.paper_id for c in said.citations] == [p.paper_id for p in listed]
        assert said.text.startswith(f"The BibTeX entries of the {len(listed)} papers listed "
                                    "before:"), said.text
        assert len(_entries(said.text)) == len(listed)
    # after one paper's answer, "How do I cite it?" is that paper's entry (not a list's)
    one = answer("Which paper is about IPMark?", retriever=bundled, answerer=answerer)
    it = answer("How do I cite it?", retriever=bundled, answerer=answerer,
                history=[("Which paper is about IPMark?", one.text)])
    assert len(_entries(it.text)) == 1 and "IPMark" in it.text.split("```bibtex")[-1]


def test_a_chinese_question_about_a_papers_record_gets_it(bundled, embedder):
    """ "给我 IPMark 论文的 BibTeX", "IPMark 这篇论文被录用了吗？" answered the paper and no record;
    "它被录用了吗？" after an answer, likewise."""
    answerer = ExtractiveAnswerer(embedder=embedder)
    for name, paper_id in NAMED[:6]:
        cite = answer(f"给我 {name} 论文的 BibTeX", retriever=bundled, answerer=answerer)
        assert cite.citations[0].paper.paper_id == paper_id, name
        assert len(_entries(cite.text)) == 1 and cite.text.rstrip().endswith("```")
        status = answer(f"{name} 这篇论文被录用了吗？", retriever=bundled, answerer=answerer)
        assert status.citations[0].paper.paper_id == paper_id, name
        assert status.text.endswith(f"论文列表中，**{status.citations[0].paper.display_title}** "
                                    "发表于 ICML 2026。"), status.text
    first = answer(f"有没有关于 {NAMED[0][0]} 的论文？", retriever=bundled, answerer=answerer)
    it = answer("它被录用了吗？", retriever=bundled, answerer=answerer,
                history=[(f"有没有关于 {NAMED[0][0]} 的论文？", first.text)])
    assert it.citations[0].paper.paper_id == NAMED[0][1] and "论文列表中" in it.text
    plain = answer(f"{NAMED[0][0]} 这篇论文讲了什么？", retriever=bundled, answerer=answerer)
    assert "论文列表中" not in plain.text and "```" not in plain.text
