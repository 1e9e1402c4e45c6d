"""Who works on a topic here (answer/topic_authors.py): the authors of the topic's papers,
counted against the store's own paper list, on real Chroma stores and many generated topics."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from topics import multi_year_slice, topics_of

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.answer.topic_authors import AUTHORS, TITLES, authors_answer
from assistant.answer.trend import trend
from assistant.index.store import PaperStore
from assistant.query import field_ask, trend_ask
from assistant.search.retrieval import Retriever
from assistant.sources.corpus import bundled_papers

SHARED = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "ml-abstracts.jsonl"
PEOPLE = ["Sébastien Moreau", "Ada Okafor", "Peter Lindqvist", "Mei Chen", "Jonas Berg"]

ASKED = {
    "Who works on bandits in this collection?": "bandits",
    "Who is working on sim-to-real transfer here?": "sim-to-real transfer",
    "Which authors have the most papers on online learning?": "online learning",
    "Who are the leading researchers in differential privacy?": "differential privacy",
    "Who has published the most on Gaussian processes?": "Gaussian processes",
    "Which researchers work on imitation learning?": "imitation learning",
    "Who are the most prolific authors on matrix completion?": "matrix completion",
    "top authors in reinforcement learning": "reinforcement learning",
    "Which groups work on legged locomotion?": "legged locomotion",
}
NOT_ASKED = ["Who wrote the paper on bandits?", "Who wrote about bandits?",
             "Who are the authors of DyPE?", "Which paper by Bubeck studies bandits?",
             "Who studies the effect of batch size on generalization in deep networks?"]


def _person(name: str) -> str:
    folded = unicodedata.normalize("NFKD", name.lower())
    return "".join(c for c in folded if not unicodedata.combining(c))


@pytest.fixture(scope="module")
def authored_store(tmp_path_factory, embedder) -> PaperStore:
    """The bundled papers, dated 2020-2026, each by two of five people (one of them spelt
    with and without its accent), so that people share papers and topics."""
    papers = []
    for i, p in enumerate(bundled_papers()):
        first = PEOPLE[i % 5] if i % 3 else PEOPLE[i % 5].replace("é", "e")
        papers.append(replace(p, year=2020 + i % 7, venue="ICML",
                              authors=[first, PEOPLE[(2 * i + 1) % 5]]))
    path = tmp_path_factory.mktemp("authored") / "store"
    store = PaperStore(collection="authored", embedder=embedder, path=path, create=True)
    store.ingest(papers, source="test:authored")
    return store



def check(store: PaperStore, topic: str, embedder) -> int:
    """Every invariant of one answer; returns how many people it names."""
    retr = Retriever(store=store)
    t = trend(topic, index=retr.index(), embedder=embedder)
    result = authors_answer(t, papers=retr.papers)
    if not t.members:
        assert not result.text.startswith("The authors")
        return 0
    own = {p.paper_id: p for p in store.papers()}  # the store's own list, counted another way
    counts: Counter[str] = Counter()
    for m in t.members:
        for person in {_person(a) for a in own[m.paper_id].authors}:
            counts[person] += 1
    lines = [x for x in result.text.splitlines() if x.startswith("- **")]
    named = []
    for line in lines:
        name, n = re.match(r"- \*\*(.+?)\*\*, (\d+) papers?: ", line).groups()
        named.append((_person(name), int(n)))
        assert counts[_person(name)] == int(n), (topic, line)
        # the papers cited on its line are that person's, at most TITLES of them
        cited = [int(x) for x in re.findall(r"\[(\d+)\]", line)]
        assert len(cited) == min(TITLES, int(n))
        for k in cited:
            paper = result.citations[k - 1].paper
            assert _person(name) in {_person(a) for a in paper.authors}
            assert paper.paper_id in {m.paper_id for m in t.members}
    assert [n for _, n in named] == sorted((n for _, n in named), reverse=True)
    assert len(named) == min(AUTHORS, len([c for c in counts.values() if c > 1]) or len(counts))
    if named:  # no one left out has more of the topic's papers than one named
        assert max((c for p, c in counts.items() if p not in dict(named)), default=0) \
            <= named[-1][1]
    # every [n] is one paper, numbered in order of first appearance
    ids = [c.paper.paper_id for c in result.citations]
    assert len(ids) == len(set(ids)) and [c.n for c in result.citations] == \
        list(range(1, len(ids) + 1))
    first_seen = list(dict.fromkeys(int(x) for x in re.findall(r"\[(\d+)\]", result.text)))
    assert first_seen == [c.n for c in result.citations]
    return len(named)


def test_questions_asking_who_works_on_a_topic_are_read():
    for question, topic in ASKED.items():
        assert field_ask.read(question) == field_ask.FieldAsk(topic, who=True), question
    for question in NOT_ASKED:
        found = field_ask.read(question)
        assert found is None or not found.who, question


def test_the_authors_named_are_those_with_the_most_of_the_topics_papers(authored_store,
                                                                        embedder):
    named = [check(authored_store, topic, embedder)
             for topic in topics_of(authored_store.papers(), 19)]
    assert sum(n > 0 for n in named) >= 8
    # one person spelt two ways is one person: the accent-free spelling never named apart
    retr = Retriever(store=authored_store)
    for topic in topics_of(authored_store.papers(), 19):
        text = authors_answer(trend(topic, index=retr.index(), embedder=embedder),
                              papers=retr.papers).text
        assert not ("**Sébastien Moreau**" in text and "**Sebastien Moreau**" in text)


def test_ask_answers_who_works_on_a_topic_from_its_authors(authored_store, embedder):
    retr = Retriever(store=authored_store)
    answerer = ExtractiveAnswerer(embedder=embedder)
    asked = 0
    for topic in topics_of(authored_store.papers(), 19):
        t = trend(topic, index=retr.index(), embedder=embedder)
        if not t.members:
            continue
        said = answer(f"Who works on {topic} here?", retriever=retr, answerer=answerer)
        made = authors_answer(t, papers=retr.papers)
        assert said.outcome == "listed" and said.search_query == topic
        assert [c.paper.paper_id for c in said.citations] == \
            [c.paper.paper_id for c in made.citations]
        asked += 1
    assert asked >= 5
    # a topic nothing here is on is searched and refused, as any question is
    off = answer("Who works on sourdough baking?", retriever=retr, answerer=answerer)
    assert off.outcome == "refused" and not off.citations


def test_a_collection_without_authors_says_it_names_no_one(tmp_path, embedder):
    papers = [replace(p, year=2020 + i % 3) for i, p in enumerate(bundled_papers())]
    store = PaperStore(collection="anon", embedder=embedder, path=tmp_path / "s", create=True)
    store.ingest(papers, source="test:anon")
    retr = Retriever(store=store)
    for topic in topics_of(papers, 19):
        t = trend(topic, index=retr.index(), embedder=embedder)
        if t.members:
            said = authors_answer(t, papers=retr.papers)
            assert said.text.startswith("(The papers in this collection carry no author names")
            assert said.citations
            return
    pytest.fail("no generated topic has a member")


@pytest.mark.shared
def test_authors_invariants_over_a_slice_of_the_corpus(tmp_path, embedder):
    """300 dev-part papers of COLT and ACML (fit venues) with their real authors, twenty
    topics made from their titles."""
    store, read = multi_year_slice(SHARED, tmp_path, embedder)
    from assistant.evaluation.splits import corpus_part  # each a dev paper of a fit venue

    assert all(corpus_part({"uid": p.paper_id, "venue": p.venue, "year": p.year}) == "dev"
               for p in store.papers())
    assert len(store.papers()) == read
    named = [check(store, topic, embedder) for topic in topics_of(store.papers()[::9], 20)]
    assert sum(n > 0 for n in named) >= 10


def test_who_works_on_a_topic_asked_in_chinese_is_answered_in_chinese(authored_store, embedder):
    """ "谁在研究水印？" (who works on watermarking?): the English topic's authors, the answer's
    own sentences in Chinese, the names and titles as written."""
    for question in ("谁在研究水印？", "哪些作者在水印方面发表的论文最多？",
                     "水印领域的主要作者有哪些？"):
        assert trend_ask.read_chinese(question) == trend_ask.TrendAsk("水印", order="authors")
    assert trend_ask.read_chinese("这篇论文的作者是谁？") is None
    assert trend_ask.read_chinese("谁提出了DyPE？") is None
    retr = Retriever(store=authored_store)
    answerer = ExtractiveAnswerer(embedder=embedder)
    zh = answer("谁在研究水印？", retriever=retr, answerer=answerer)
    en = answer(f"Who works on {zh.search_query}?", retriever=retr, answerer=answerer)
    assert zh.outcome == en.outcome == "listed", zh.text
    assert [c.paper.paper_id for c in zh.citations] == [c.paper.paper_id for c in en.citations]
    assert zh.text.startswith(f"本文集中关于“水印”（{zh.search_query}）的 **")
    assert "The authors" not in zh.text and "papers" not in zh.text.split("\n")[0]


def test_who_works_on_a_topic_after_another_answer_is_asked_on_its_own(authored_store,
                                                                      embedder):
    """ "谁在研究水印？" after a list of quantization papers was read as leaning on it (0.84), and
    so never read as asking who works on watermarking; "谁在研究这个？" (who works on this?)
    leans on it."""
    from assistant.query.followup import is_follow_up

    before = "Which papers are about quantization?"
    for question in ("谁在研究水印？", "哪些作者在水印方面发表的论文最多？",
                     "Who works on watermarking?",
                     "Which authors have the most papers on watermarking?"):
        assert not is_follow_up(question, before), question
    for question in ("谁在研究这个？", "Who works on this?", "他们的作者是谁？"):
        assert is_follow_up(question, before), question
    retr = Retriever(store=authored_store)
    answerer = ExtractiveAnswerer(embedder=embedder)
    first = answer(before, retriever=retr, answerer=answerer, ground=False)
    said = answer("谁在研究水印？", retriever=retr, answerer=answerer, ground=False,
                  history=[(before, first.text)])
    alone = answer("谁在研究水印？", retriever=retr, answerer=answerer, ground=False)
    assert said.text == alone.text and said.outcome == "listed"
