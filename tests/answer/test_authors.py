"""A question that asks who wrote a paper is answered with the paper and its authors, from the
list's metadata, and the claim is checked against them (the abstract never names them)."""

from __future__ import annotations

import json

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.judge.answerability import query_terms
from assistant.paper import Paper
from assistant.query.answer_type import asks_authors
from assistant.search.retrieval import Retriever

GRASP = Paper("grasp", "Learning dexterous grasps from human videos",
              "A robot hand learns to grasp unseen household objects by imitating hand poses "
              "recovered from internet videos, then refines the grasps with reinforcement "
              "learning in simulation before transfer to hardware.",
              ["Ada Okafor", "Lin Wei", "Marta Rossi"], "CoRL", 2022)
OTHERS = [
    Paper("tactile", "Tactile feedback for in-hand rotation",
          "A robot hand rotates objects in its palm using touch sensing alone, with a policy "
          "trained in simulation on randomized object shapes.",
          ["Ada Okafor", "Peter Lindqvist"], "CoRL", 2024),
    Paper("sort", "Sorting networks from pairwise comparisons",
          "We learn sorting networks whose comparators are trained end to end from pairwise "
          "preference labels.", ["Ada M. Okafor"], "UAI", 2021),
    Paper("kg", "Popularity bias in knowledge graph evaluation",
          "Link prediction benchmarks for knowledge graph embeddings are dominated by a few "
          "frequent entities. We show that standard ranking scores overstate progress.",
          ["B. Author"], "UAI", 2020),
    Paper("bandit", "Heavy-tailed rewards in graphical bandits",
          "We study bandits where pulling an arm also reveals the rewards of its neighbours in "
          "a feedback graph, with rewards whose tails are heavier than sub-Gaussian.",
          ["C. Author", "D. Author"], "UAI", 2023),
]


@pytest.mark.parametrize(("question", "asks"), [
    ("Who wrote the paper on learning grasps from human videos?", True),
    ("Who are the authors of the grasping-from-videos paper?", True),
    ("Which paper on grasping was written by a group working on hands?", True),
    ("谁写了那篇从人类视频学习抓取的论文？", True),
    ("这篇论文的作者是谁？", True),
    ("Who benefits from grasps learned from videos?", False),
    ("Which paper learns grasps from human videos?", False),
    ("What did the authors find about transfer to hardware?", False),
])
def test_what_asks_for_the_authors(question: str, asks: bool) -> None:
    assert asks_authors(question) is asks


@pytest.mark.parametrize("topic", ["learning grasps from human videos", "graphical bandits",
                                   "popularity bias in knowledge graphs"])
def test_who_wrote_it_weighs_only_what_the_paper_is_about(topic: str) -> None:
    """"wrote", "who", "published" are in no abstract: counted as the question's terms they
    made a question about a paper in a 4,482-paper collection look off-domain (refused)."""
    plain = set(query_terms(f"The paper on {topic}?"))
    for said in (f"Who wrote the paper on {topic}?", f"Who published the paper on {topic}?",
                 f"The paper on {topic}: written by whom?"):
        assert set(query_terms(said)) == plain, said


@pytest.fixture
def retriever(retriever_over):
    return retriever_over([GRASP, *OTHERS], collection="authors")


def test_who_wrote_it_names_the_authors_and_the_claim_is_checked(retriever, embedder):
    answerer = ExtractiveAnswerer(embedder=embedder)
    result = answer("Who wrote the paper on learning grasps from human videos?",
                    retriever=retriever, answerer=answerer)
    assert result.citations[0].paper.paper_id == "grasp"
    lead = result.grounding.sentences[0]
    assert "by Ada Okafor, Lin Wei and Marta Rossi [1]" in lead.text
    assert lead.verdict == "supported" and not any(c.misattributed for c in lead.claims)
    # a question that does not ask who wrote it is not told
    other = answer("Which paper learns grasps from human videos?", retriever=retriever,
                   answerer=answerer)
    assert "Ada Okafor" not in other.text.split("References")[0]


def test_the_llm_is_told_who_wrote_each_source_and_its_claim_is_checked(retriever, embedder,
                                                                        wire):
    """Over the OpenAI wire format (a real server on 127.0.0.1): each source's block names its
    authors, so the model can say who wrote a paper, and that claim is checked like any other;
    a name the paper does not carry is not supported."""
    from assistant.answer.factory import build_answerer
    from assistant.settings import load_settings

    answerer = build_answerer(load_settings(base_url=wire.base_url, model="wire-model"),
                              embedder=embedder)
    wire.script("Learning dexterous grasps from human videos is by Ada Okafor, Lin Wei and "
                "Marta Rossi [1]. It was written by Kurt Gödel and Emmy Noether [1].")
    result = answer("Who wrote the paper on learning grasps from human videos?",
                    retriever=retriever, answerer=answerer)
    sent = json.dumps(wire.chat_requests()[-1])
    assert "by Ada Okafor, Lin Wei and Marta Rossi" in sent
    first, second = result.grounding.sentences[:2]
    assert first.verdict == "supported" and second.verdict != "supported"


@pytest.mark.parametrize(("question", "author"), [
    ("What did Ada Okafor publish?", "Ada Okafor"),
    ("Which papers by Ada Okafor are in the collection?", "Ada Okafor"),
    ("Ada Okafor's papers on grasping", "Ada Okafor"),
    ("What has Lin Wei written?", "Lin Wei"),
    ("Which paper by Okafor studies grasping?", None),  # a surname alone names no one
    ("What did Ada Okafor and Lin Wei publish?", None),  # two authors: no one filter
    ("How do Gaussian Process bandits explore?", None),  # capitalised words, no author
    ("What did Grace Hopper publish?", None),  # nobody the collection holds
])
def test_an_author_named_in_full_is_read_as_a_filter(retriever, question, author):
    from assistant.search.query_filters import named_author

    assert named_author(question, retriever.author_names) == author


@pytest.mark.parametrize(("question", "author"), [
    ("Papers by Lindqvist", "Peter Lindqvist"),
    ("What did Lindqvist publish?", "Peter Lindqvist"),
    ("Lindqvist's papers on rotation", "Peter Lindqvist"),
    ("Which papers did Wei write?", "Lin Wei"),
    ("Papers by Okafor", None),  # two authors here have that surname
    ("How does Lindqvist rotation work?", None),  # no one's papers asked for
    ("Which methods do papers by Gaussian processes use?", None),  # no author so named
])
def test_a_surname_alone_names_an_author_where_someones_papers_are_asked_for(retriever,
                                                                              question, author):
    """ "Papers by Bubeck", "What did Srebro publish?" were searched as topics (a near miss, a
    refusal): a surname is an author where the question asks for someone's papers and one
    author here has it."""
    from assistant.search.query_filters import named_author

    assert named_author(question, retriever.author_names) == author


def test_a_surname_is_capitalised_in_any_script():
    from assistant.search.query_filters import named_author

    names = {"umut şimşekli": "Umut Şimşekli", "david hand": "David Hand"}
    assert named_author("Şimşekli's papers", lambda: names) == "Umut Şimşekli"
    assert named_author("Papers by Hand", lambda: names) == "David Hand"
    assert named_author("Are there papers by hand-crafted features?", lambda: names) is None
    assert named_author("papers by hand", lambda: names) is None  # a word, not a name


def test_a_surname_lists_the_authors_papers(retriever, retriever_over, embedder):
    answerer = ExtractiveAnswerer(embedder=embedder)
    result = answer("What did Lindqvist publish?", retriever=retriever, answerer=answerer)
    assert result.outcome == "answered" and result.filters_read == {"author": "Peter Lindqvist"}
    assert [c.paper.paper_id for c in result.citations] == ["tactile"]
    # one author spelt two ways ("Sébastien Bubeck", "Sebastien Bubeck"): both spellings' papers
    spelt = [Paper("m1", "Bandits with delayed feedback", "We study delayed bandits.",
                   ["Sébastien Moreau"], "COLT", 2014),
             Paper("m2", "Convex bodies and online learning", "We study online learning.",
                   ["Sebastien Moreau", "H. Other"], "COLT", 2016),
             Paper("m3", "Kernel methods", "We study kernels.", ["H. Other"], "COLT", 2015)]
    both = answer("Papers by Moreau", retriever=retriever_over(spelt, collection="spelt"),
                  answerer=answerer)
    assert both.filters_read == {"author": "Moreau"}
    assert [c.paper.paper_id for c in both.citations] == ["m2", "m1"], both.text


def test_a_surname_several_authors_have_says_who_they_are(retriever, embedder):
    """ "Papers by Okafor" where two authors here are Okafors: no filter, and the answer says
    who they are and how to name one (it was a bare near miss quoting the question)."""
    result = answer("Papers by Okafor", retriever=retriever,
                    answerer=ExtractiveAnswerer(embedder=embedder))
    assert not result.filters_read
    assert result.text.startswith("(2 authors here have the surname Okafor: Ada M. Okafor, Ada "
                                  "Okafor. Name one in full to see their papers: “Papers by "
                                  "Ada M. Okafor”.)"), result.text
    one = answer("Papers by Lindqvist", retriever=retriever,
                 answerer=ExtractiveAnswerer(embedder=embedder))
    assert "have the surname" not in one.text


def test_a_short_form_two_authors_share_names_neither(retriever):
    """"Ada Okafor" is an author's full name here; "Ada M. Okafor" is another spelling, whose
    first and last words are the same: the short form stays with the full name."""
    names = retriever.author_names()
    assert names["ada okafor"] == "Ada Okafor" and names["ada m. okafor"] == "Ada M. Okafor"


def test_what_an_author_published_lists_their_papers_newest_first(retriever, embedder):
    answerer = ExtractiveAnswerer(embedder=embedder)
    result = answer("What did Ada Okafor publish?", retriever=retriever, answerer=answerer)
    assert result.outcome == "answered"
    assert [c.paper.paper_id for c in result.citations] == ["tactile", "grasp"]
    assert "2 papers by Ada Okafor in the collection, newest first" in result.text
    assert "(CoRL 2024) [1]" in result.text and "(CoRL 2022) [2]" in result.text
    assert result.filters_read == {"author": "Ada Okafor"}
    # with a topic, the author's papers on it
    topical = answer("What has Ada Okafor written on rotating objects in the palm?",
                     retriever=retriever, answerer=answerer)
    assert topical.citations[0].paper.paper_id == "tactile"
    assert all("Ada Okafor" in c.paper.authors for c in topical.citations)


def test_what_else_an_author_published_after_an_answer_lists_them_too(retriever, embedder):
    """In a conversation, "What else did Ada Okafor publish?" reads as a follow-up (its query
    carries the previous paper's title), yet asks only for her papers: the list."""
    answerer = ExtractiveAnswerer(embedder=embedder)
    first = answer("Which paper learns dexterous grasps from human videos?",
                   retriever=retriever, answerer=answerer)
    second = answer("What else did Ada Okafor publish?", retriever=retriever,
                    answerer=answerer,
                    history=[("Which paper learns dexterous grasps from human videos?",
                              first.text)])
    assert "2 papers by Ada Okafor in the collection" in second.text
    assert [c.paper.paper_id for c in second.citations] == ["tactile", "grasp"]


def test_who_wrote_a_paper_the_list_names_no_authors_for_says_so(bundled_store, embedder):
    """The bundled ICML list gives no authors: the answer names the paper and says the list
    names none, never an author."""
    result = answer("Who wrote the IPMark paper?", retriever=Retriever(store=bundled_store),
                    answerer=ExtractiveAnswerer(embedder=embedder))
    assert result.citations[0].paper.title.startswith("IPMark")
    assert "(the paper list names no authors for it) [1]" in result.text
    assert result.grounding.sentences[0].verdict == "supported"


def test_a_chinese_question_is_told_in_chinese_what_filter_it_set(retriever, embedder):
    """The line that says a filter was read from the question speaks the asker's language."""
    from assistant.search.query_filters import notice

    result = answer("Ada Okafor 发表了哪些论文？", retriever=retriever,
                    answerer=ExtractiveAnswerer(embedder=embedder))
    assert result.text.startswith("（只检索了 Ada Okafor 的论文")
    assert [c.paper.paper_id for c in result.citations] == ["tactile", "grasp"]
    said = notice({}, {"venue": "NeurIPS", "year": 2019}, chinese=True)
    assert said.startswith("（没有 2019 年 NeurIPS 的论文能回答") and "(" not in said
    assert notice({"year": 2019}, {}).startswith("(Searched only papers from 2019")


def test_an_author_named_alone_lists_their_papers(retriever, embedder):
    """"Ada Okafor" typed alone asks for her papers (it was refused: nothing but the name was
    searched)."""
    result = answer("Ada Okafor", retriever=retriever,
                    answerer=ExtractiveAnswerer(embedder=embedder))
    assert result.outcome == "answered"
    assert [c.paper.paper_id for c in result.citations] == ["tactile", "grasp"]
    assert "2 papers by Ada Okafor in the collection, newest first" in result.text


TOPICS = {"bandits": "We study a multi-armed bandit problem where {x}, and prove regret bounds.",
          "convex optimization": "We give an accelerated method for smooth convex optimization "
                                 "when {x}, with a matching lower bound."}
TWISTS = ["the arms are correlated", "feedback is delayed", "the horizon is unknown",
          "the budget is fixed"]


def _prolific() -> list[Paper]:
    """An author with four papers on each of two topics, beside others' papers on both."""
    out = []
    for t, (topic, abstract) in enumerate(TOPICS.items()):
        for i, x in enumerate(TWISTS):
            mine = i % 4 != 3 or t == 0  # seven of the eight are hers
            out.append(Paper(f"{topic[:6]}-{i}", f"{topic.capitalize()} when {x}",
                             abstract.format(x=x),
                             ["Noor Haddad", "E. Other"] if mine else ["F. Other"], "COLT",
                             2015 + i))
            out.append(Paper(f"{topic[:6]}-o{i}", f"More {topic} when {x}",
                             abstract.format(x=x) + " Ours is simpler.", ["G. Other"], "COLT",
                             2016 + i))
    return out


@pytest.mark.parametrize(("question", "topic"), [
    ("What has Noor Haddad published on bandits?", "bandits"),
    ("What did Noor Haddad write about convex optimization?", "convex optimization"),
    ("Has Noor Haddad worked on bandits?", "bandits"),
])
def test_what_an_author_published_on_a_topic_is_a_list_of_theirs(retriever_over, embedder,
                                                                  question, topic):
    """"What has Sébastien Bubeck published on bandits?" was answered with one of his ten
    bandit papers, as if one paper were asked for."""
    papers = _prolific()
    theirs = {p.paper_id for p in papers if "Noor Haddad" in p.authors and
              p.title.lower().startswith(topic)}
    result = answer(question, retriever=retriever_over(papers, collection="prolific"),
                    answerer=ExtractiveAnswerer(embedder=embedder), ground=False)
    listed = {c.paper.paper_id for c in result.citations}
    assert result.text.startswith("(Searched only papers by Noor Haddad"), result.text
    assert "papers in the collection bear on this" in result.text, result.text
    assert len(listed & theirs) >= 2 and listed <= theirs, (listed, theirs)
