import re
import shutil

import pytest

from assistant.answer.factory import build_answerer
from assistant.answer.pipeline import answer
from assistant.index.chunk_index import ensure_index, index_dir
from assistant.index.store import PaperStore
from assistant.paper import Paper
from assistant.query.followup import is_follow_up
from assistant.query.form import parse
from assistant.query.rewrite import heuristic
from assistant.search.query_filters import infer, leftover, notice, read
from assistant.search.retrieval import Filters, Retriever
from assistant.settings import load_settings


def offline_rewrite(question, history):
    """The offline answerer's rewrite of a question, its form read as the pipeline reads it."""
    return heuristic(parse(question, history), history)


def paper(pid, title, abstract, venue="ICML", year=2020, authors=("A. Author",)):
    return Paper(pid, title, abstract, list(authors), venue, year)


CORPUS = [
    paper("p1", "Zebra stripes and thermoregulation",
          "We measure how zebra stripes cool the animal in the savanna heat.", year=2019),
    paper("p2", "Sparse attention for long documents",
          "A sparse attention transformer reads very long documents efficiently.",
          venue="NeurIPS", year=2021, authors=("Grace Hopper",)),
    paper("p3", "Graph kernels for molecules",
          "Graph kernels compare molecular graphs for property prediction.", year=2021),
    paper("p4", "Efficient transformers survey",
          "We survey efficient transformer architectures, including sparse and linear "
          "attention.", venue="NeurIPS", year=2019),
]


@pytest.fixture
def small_store(tmp_path, embedder):
    store = PaperStore(collection="small", embedder=embedder, path=tmp_path / "s", create=True)
    store.ingest(CORPUS, source="small")
    return store


def test_the_index_is_derived_and_rebuilt_when_stale_or_missing(small_store):
    index = ensure_index(small_store)
    assert index.revision == small_store.revision()
    hits = index.search("zebra stripes", n=5)
    assert hits[0].paper_id == "p1"
    # an ingest changes the revision; the next search sees the new paper without a manual step
    small_store.ingest([*CORPUS, paper("p5", "Zebrafish genetics", "Zebrafish zebra genes.")],
                       source="small")
    retriever = Retriever(store=small_store)
    order, _ = retriever.rank("zebrafish genes", mode="lexical")
    assert order[0][0] == "p5"
    shutil.rmtree(index_dir(small_store))
    order, _ = Retriever(store=small_store).rank("zebrafish genes", mode="lexical")
    assert order[0][0] == "p5" and index_dir(small_store).exists()


def test_modes_and_fusion(small_store):
    retriever = Retriever(store=small_store)
    for mode in ("dense", "lexical", "hybrid"):
        result = retriever.search("sparse attention over long documents", k=3, mode=mode)
        assert result.papers[0].paper.paper_id == "p2", mode
    hybrid = retriever.search("sparse attention over long documents", k=4)
    assert all(rp.dense is not None for rp in hybrid.papers)  # filled in for lexical-only hits
    assert [rp.rank for rp in hybrid.papers] == list(range(1, len(hybrid.papers) + 1))


@pytest.mark.parametrize(("filters", "expected"), [
    (Filters(venue="neurips"), {"p2", "p4"}),
    (Filters(year=2019), {"p1", "p4"}),
    (Filters(venue="ICML", year=2021), {"p3"}),
    (Filters(author="hopper"), {"p2"}),
    (Filters(paper_ids=["p3", "p4"]), {"p3", "p4"}),
])
def test_filters_apply_to_both_sides(small_store, filters, expected):
    retriever = Retriever(store=small_store)
    for mode in ("dense", "lexical", "hybrid"):
        result = retriever.search("transformer attention graphs zebra", k=10, filters=filters,
                                  mode=mode)
        got = {rp.paper.paper_id for rp in result.papers}
        assert got and got <= expected, (mode, got)


def test_filters_are_read_from_the_question():
    venues, years = {"icml", "neurips"}, {2019, 2021}
    f = infer("NeurIPS 2019 papers on efficient transformers", venues=venues, years=years)
    assert (f.venue, f.year) == ("NeurIPS", 2019)
    assert infer("papers from 2020 on x", venues=venues, years=years).year is None  # not held
    both = infer("ICML or NeurIPS papers on x", venues=venues, years=years)
    assert both.venue is None  # ambiguous: no filter
    explicit = infer("NeurIPS papers", venues=venues, years=years, explicit=Filters(venue="icml"))
    assert explicit.venue == "icml"


@pytest.mark.parametrize(("question", "year"), [
    ("Which models were trained on CoNLL 2003 for tagging?", None),  # a year inside a name
    ("How do the ImageNet 2012 results compare?", None),
    ("Any work from 2003 on tagging?", 2003),
    ("2003 papers about tagging", 2003),
    ("What did ICML 2003 publish on tagging?", 2003),
    ("Tagging methods published in 2003?", 2003),
])
def test_a_year_is_a_filter_only_where_it_qualifies_the_papers(question, year):
    f = infer(question, venues={"icml"}, years={2003, 2012})
    assert f.year == year


SPANS = [  # (how it is said, since, until) for the years 2012-2019 held
    ("since {a}", "a", None), ("after {a}", "a+1", None), ("from {a} on", "a", None),
    ("from {a} onwards", "a", None), ("{a} or later", "a", None), ("post-{a}", "a+1", None),
    ("before {b}", None, "b-1"), ("prior to {b}", None, "b-1"), ("until {b}", None, "b"),
    ("up to {b}", None, "b"), ("pre-{b}", None, "b-1"), ("{b} or earlier", None, "b"),
    ("between {a} and {b}", "a", "b"), ("from {a} to {b}", "a", "b"), ("in {a}-{b}", "a", "b"),
    ("in {a}–{b}", "a", "b"), ("papers {a}-{b}", "a", "b"),
]
SPAN_FORMS = ["Which papers on tagging appeared {span}?", "tagging papers {span}",
              "What research was done on tagging {span}?", "{Span}, what work studies tagging?",
              "What is new in tagging {span}?"]


def _bound(said, a, b):
    return None if said is None else {"a": a, "a+1": a + 1, "b": b, "b-1": b - 1}[said]


@pytest.mark.parametrize(("said", "since", "until"), SPANS)
def test_a_span_of_years_is_read_as_one(said, since, until):
    """"Which bandit papers have appeared since 2022?" was searched for papers of 2022 alone."""
    years = set(range(2012, 2020))
    for a, b in ((2013, 2016), (2015, 2018)):
        span = said.format(a=a, b=b)
        for form in SPAN_FORMS:
            q = form.format(span=span, Span=span[0].upper() + span[1:])
            f = infer(q, venues={"icml"}, years=years)
            assert (f.since, f.until, f.year) == (_bound(since, a, b), _bound(until, a, b),
                                                   None), q
            applied = read(None, f)
            assert not set(re.findall(r"\d{4}", leftover(q, applied))), q  # no year searched
            assert notice(applied, {}).startswith("(Searched only papers "), q


@pytest.mark.parametrize(("question", "since", "until"), [
    ("2015 年以后有哪些关于词性标注的论文？", 2016, None),
    ("2015年以来有哪些关于词性标注的研究？", 2015, None),
    ("2016 年以前的词性标注论文", None, 2015),
    ("2014 年到 2017 年关于词性标注的论文有哪些？", 2014, 2017),
])
def test_a_span_of_years_is_read_in_chinese(question, since, until):
    f = infer(question, venues={"icml"}, years=set(range(2012, 2020)))
    assert (f.since, f.until) == (since, until), question
    applied = read(None, f)
    assert notice(applied, {}, chinese=True).startswith("（只检索了"), question
    assert not re.search(r"\d{4}", leftover(question, applied)), question


def test_a_spans_words_translated_are_not_searched():
    """"2018 年以后有哪些关于元学习的论文？" is searched in its offline translation, "2018 year
    after meta-learning": the span's words were searched with the topic."""
    assert leftover("2018 year after meta-learning", {"since": 2019}) == "meta-learning"
    assert leftover("2015 years before kernel methods", {"until": 2014}) == "kernel methods"
    assert leftover("ImageNet 2012 results", {"until": 2016}) == "ImageNet 2012 results"


@pytest.mark.parametrize("question", [
    "2015年以后人口寿命怎么变化？",  # the topic's span, not the papers'
    "What did the 2017-2018 season show about tagging?",  # a span of something else
    "Which models were trained on CoNLL 2003 since its release?",  # a year of no store
    "Any work from 2030 to 2040 on tagging?",  # no held year inside
    # a span of the topic's, not of the papers'
    "How did lifespan at birth change in eastern Germany after 2013?",
    "How many people were projected to have glaucoma by 2016?",
    "Which tagger did best on the 2014-2016 shared tasks?",
])
def test_no_span_of_the_papers_years(question):
    f = infer(question, venues={"icml"}, years=set(range(2012, 2020)))
    assert (f.since, f.until) == (None, None), question


def test_a_filter_read_from_the_question_never_hides_the_answer(small_store):
    retriever = Retriever(store=small_store)
    answerer = build_answerer(load_settings(), embedder=small_store.embedder)
    # the zebra paper is from 2019: a 2021 filter read from the question would leave nothing
    result = answer("How do zebra stripes cool the animal in the savanna? 2021 papers please",
                    retriever=retriever, answerer=answerer)
    assert result.outcome == "answered"
    assert result.citations[0].paper.paper_id == "p1"
    assert result.filters_dropped == {"year": 2021} and result.filters == {}
    assert result.text.startswith("(No papers from 2021 answer")
    # applied, it is said
    kept = answer("Which NeurIPS 2019 papers cover transformers?", retriever=retriever,
                  answerer=answerer)
    assert kept.filters_read == {"venue": "NeurIPS", "year": 2019} and not kept.filters_dropped
    assert kept.text.startswith("(Searched only papers from 2019 at NeurIPS")


def test_a_question_naming_a_venue_and_year_is_filtered(small_store):
    retriever = Retriever(store=small_store)
    result = answer("Which NeurIPS 2019 papers cover transformers?", retriever=retriever,
                    answerer=build_answerer(load_settings(), embedder=small_store.embedder))
    assert result.filters == {"venue": "NeurIPS", "year": 2019}
    assert {rp.paper.paper_id for rp in result.papers} == {"p4"}


def test_follow_up_rewrite_carries_the_previous_topic():
    history = [("Which paper makes diffusion transformers generate huge images?",
                "The most relevant paper is **DyPE: dynamic position extrapolation** [1].")]
    assert is_follow_up("How robust is it?")
    assert not is_follow_up("Which paper studies zebra stripes in the savanna heat?")
    rewritten = offline_rewrite("How robust is it?", history)
    assert "DyPE" in rewritten and rewritten.startswith("How robust is it?")
    assert offline_rewrite("Which paper studies zebra stripes?", history) == \
        "Which paper studies zebra stripes?"
    assert offline_rewrite("How robust is it?", []) == "How robust is it?"


def test_follow_up_retrieves_the_previous_paper(bundled_store):
    settings = load_settings()
    retriever = Retriever(store=bundled_store)
    answerer = build_answerer(settings, embedder=bundled_store.embedder)
    first = answer("Which paper watermarks LLM text for per-user attribution?",
                   retriever=retriever, answerer=answerer)
    follow = answer("How robust is it?", retriever=retriever, answerer=answerer,
                    history=[(first.question, first.text)])
    assert "IPMark" in follow.search_query
    assert "IPMark" in follow.citations[0].paper.title


def test_llm_rewrite_translates_and_resolves(bundled_store, wire):
    wire.script("DyPE ultra-high-resolution image generation")  # the rewrite call
    wire.script("DyPE extrapolates positions [1].")  # the answer
    settings = load_settings(base_url=wire.base_url)
    result = answer("DyPE 如何生成超高分辨率图像？", retriever=Retriever(store=bundled_store),
                    answerer=build_answerer(settings, embedder=bundled_store.embedder))
    assert result.search_query == "DyPE ultra-high-resolution image generation"
    assert "DyPE" in result.citations[0].paper.title
    rewrite_prompt = wire.chat_requests()[0]["messages"][0]["content"]
    assert "English" in rewrite_prompt and "DyPE 如何" in rewrite_prompt


def test_mmr_spreads_a_list_over_topics():
    import numpy as np

    from assistant.search.fusion import mmr

    order = [("a", 1.0), ("a2", 0.99), ("b", 0.8)]
    vectors = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    assert [p for p, _ in mmr(order, vectors, lam=1.0, k=3)] == ["a", "a2", "b"]
    assert [p for p, _ in mmr(order, vectors, lam=0.3, k=2)] == ["a", "b"]


def test_list_questions_are_diversified(small_store):
    twin = paper("p2b", "Sparse attention for long documents, again",
                 "A sparse attention transformer reads very long documents efficiently.")
    small_store.ingest([*CORPUS, twin], source="small")
    retriever = Retriever(store=small_store)
    plain = [rp.paper.paper_id for rp in retriever.search("sparse attention", k=2).papers]
    diverse = [rp.paper.paper_id for rp in retriever.search("sparse attention", k=2,
                                                            diversity=0.3).papers]
    assert set(plain) == {"p2", "p2b"}
    assert diverse[0] == plain[0] and diverse[1] not in {"p2", "p2b"}


def test_a_retriever_made_without_settings_fuses_as_the_settings_say():
    """Benchmarks and tests build Retriever(store=...) without settings: its fusion must be
    the shipped one, or they measure something the product does not do."""
    from assistant.search.retrieval import FusionParams
    from assistant.settings import Settings

    shipped = Settings.model_fields
    params = FusionParams()
    assert (params.method, params.w_dense, params.w_lexical, params.rrf_k) == (
        shipped["fusion"].default, shipped["w_dense"].default, shipped["w_lexical"].default,
        shipped["rrf_k"].default)


def test_a_comparison_side_goes_to_the_paper_that_introduces_it(tmp_path, embedder):
    store = PaperStore(collection="sides", embedder=embedder, path=tmp_path / "s", create=True)
    store.ingest([
        # discusses FooNet at length, and ranks first for "FooNet"
        paper("d1", "An empirical look at failures of popular image networks",
              "FooNet is widely used. We study when FooNet fails, FooNet on FooNet benchmarks, "
              "and compare FooNet with three baselines on image tasks."),
        paper("i1", "A new network for images",
              "We propose FooNet, a convolutional network with gated skip connections for "
              "image classification, and show it trains faster."),
        paper("b1", "BarGAN for audio synthesis",
              "We introduce BarGAN, a generative adversarial network that synthesizes raw "
              "audio waveforms."),
        paper("z1", "Zebra stripes and thermoregulation",
              "We measure how zebra stripes cool the animal in the savanna heat."),
    ], source="sides")
    retriever = Retriever(store=store)
    assert retriever.search("FooNet", k=3).papers[0].paper.paper_id == "d1"  # the trap is set
    result = answer("How does FooNet differ from BarGAN?", retriever=retriever,
                    answerer=build_answerer(load_settings(), embedder=embedder))
    assert [c.paper.paper_id for c in result.citations[:2]] == ["i1", "b1"]
