"""Chinese questions in the collection's own English words, offline (search/translate.py), and
what a Chinese asker gets: the answer's own sentences in Chinese, the abstract's as written."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.framing import CHINESE, ENGLISH
from assistant.answer.pipeline import answer
from assistant.index.chunk_index import tokenize
from assistant.index.store import PaperStore
from assistant.paper import Paper
from assistant.search import translate
from assistant.search.retrieval import Retriever
from assistant.textutil import has_cjk, is_list_question

ROOT = Path(__file__).resolve().parents[2]
WORDS = {"扩散": ("spread", "diffuse"), "模型": ("mold", "model"), "图像": ("image",),
         "生成": ("generate",)}


def _postings(chunks: dict[str, list[int]]):
    def postings(stems):
        rows = None
        for s in stems:
            if s not in chunks:
                return None
            have = np.asarray(chunks[s])
            rows = have if rows is None else np.intersect1d(rows, have)
        return rows
    return postings


def _stems(gloss: str) -> list[str]:
    return tokenize([gloss])[0]


def test_the_gloss_kept_is_the_one_the_collection_uses_with_the_other_words():
    """The same two words, two collections: in one "diffuse" and "model" share chunks, in the
    other "spread" and "mold" do; each keeps its own pair, whatever the dictionary's order."""
    ml = _postings({"diffus": [1, 2, 3, 4], "model": [1, 2, 3, 5, 6], "spread": [9],
                    "mold": [10]})
    foundry = _postings({"diffus": [20], "model": [21], "spread": [1, 2, 3],
                         "mold": [1, 2, 3, 4]})
    in_ml = translate.translate("扩散模型", stems=_stems, postings=ml, chunks=30, words=WORDS,
                                per_word=1)
    in_foundry = translate.translate("扩散模型", stems=_stems, postings=foundry, chunks=30,
                                     words=WORDS, per_word=1)
    assert in_ml.query == "diffuse model"
    assert in_foundry.query == "spread mold"


def test_a_rare_gloss_that_shares_a_chunk_by_chance_loses_to_the_collections_own_word():
    """PMI favours rare glosses: two that meet in the one chunk each holds score higher than
    two common ones that meet in a quarter of the collection. How common a gloss is here
    weighs in (``FREQUENCY_PRIOR``): "算法模型" over ML papers is "algorithm model"."""
    words = {"算法": ("method of calculation", "algorithm"), "模型": ("pattern", "model")}
    common = list(range(40))
    chunks = _postings({"method": [99], "calcul": [99], "pattern": [99],
                        "algorithm": common, "model": common[15:] + list(range(50, 75))})
    found = translate.translate("算法模型", stems=_stems, postings=chunks, chunks=100,
                                words=words, per_word=1)
    assert found.query == "algorithm model"


def test_a_word_the_collection_lacks_is_judged_but_not_searched():
    chunks = _postings({"diffus": [1, 2], "model": [1, 2]})
    found = translate.translate("扩散模型生成图像", stems=_stems, postings=chunks, chunks=10,
                                words=WORDS)
    assert found.query.split() == ["diffuse", "model", "generate", "image"]
    assert "generate" not in found.searched and "image" not in found.searched
    nothing = translate.translate("生成图像", stems=_stems, postings=chunks, chunks=10,
                                  words=WORDS)
    assert nothing.query == nothing.searched == ""  # nothing here to search for


def test_segmenting_keeps_latin_names_and_numbers_and_finds_long_words():
    pieces = translate.segment("有没有用Transformer做3D点云分割的大语言模型论文？")
    assert "Transformer" in pieces and "3D" in pieces
    assert "大语言模型" in pieces and "点云分割" in pieces  # one glossary term


def test_of_two_cuts_as_good_the_one_with_function_words_wins():
    # "方面的" is "方面 / 的" (in terms of), not "方 / 面的" (square, minibus taxi)
    pieces = translate.segment("睡眠方面的早期信号")
    assert pieces[:3] == ["睡眠", "方面", "的"]


@pytest.mark.parametrize(("question", "term", "english"), [
    ("运动训练能降低外周动脉疾病患者的血压吗？", "外周动脉疾病", "peripheral artery disease"),
    ("线粒体分裂和内质网有什么关系？", "内质网", "endoplasmic reticulum"),
    ("钙钛矿太阳能电池的稳定性如何提高？", "钙钛矿太阳能电池", "perovskite solar cell"),
    ("吸烟和肺癌的比值比是多少？", "比值比", "odds ratio"),
])
def test_terms_of_other_fields_are_read_whole(question, term, english):
    """Medicine, biology, the physical and social sciences: the glossary holds their terms, so a
    question of those fields is segmented and glossed by the term, not its characters."""
    assert term in translate.segment(question)
    assert translate.lexicon()[term][0] == english


@pytest.fixture
def bundled_retriever(bundled_store):
    return Retriever(store=bundled_store)


def test_an_english_question_is_searched_as_written(bundled_retriever):
    q = "Which paper watermarks text written by large language models?"
    assert bundled_retriever.english(q) == (q, q)


def test_every_searched_word_is_the_collections_and_every_name_is_kept(bundled_retriever):
    """On every Chinese question of the bundled list's dev set (a generated case each): the
    searched English holds only words this collection has, every Latin name of the question
    survives, and nothing Chinese is left in what is searched."""
    dev = set(json.loads((ROOT / "evals" / "splits" / "zh-questions.json").read_text())["dev"])
    rows = [json.loads(x) for x in (ROOT / "evals" / "zh-questions.jsonl").read_text()
            .splitlines() if x.strip()]
    questions = [r["question"] for r in rows if r["id"] in dev]
    assert len(questions) >= 40
    index = bundled_retriever.index()
    for q in questions:
        found = bundled_retriever.translation(q)
        assert not has_cjk(found.searched), q
        for word in found.searched.split():
            stems = _stems(word)  # [] for a stopword inside a gloss ("make into")
            if stems and not any(c.isdigit() for c in word):
                assert index.postings(stems) is not None or word in q, (q, word)
        for name in translate.segment(q):
            if not has_cjk(name):
                assert name in found.searched.split(), (q, name)


def _ask(store, question, history=()):
    return answer(question, retriever=Retriever(store=store), history=list(history),
                  answerer=ExtractiveAnswerer(embedder=store.embedder))


def test_a_chinese_answer_frames_in_chinese_and_quotes_the_abstract_as_written(bundled_store):
    result = _ask(bundled_store, "哪篇论文研究扩散模型生成超高分辨率图像？")
    assert result.outcome == "answered" and "DyPE" in result.citations[0].paper.title
    assert result.text.startswith(CHINESE.most_relevant.split("**")[0])
    abstract = result.citations[0].paper.abstract
    quoted = [s for s in result.text.split("[1]")[1:] if s.strip(" 。\n")]
    assert quoted and any(part.strip()[:40] in abstract or "The authors" in part
                          for part in quoted)
    english = _ask(bundled_store, "Which paper generates ultra-high-resolution images with "
                                  "diffusion transformers?")
    assert english.text.startswith(ENGLISH.most_relevant.split("**")[0])


def test_a_chinese_list_question_lists_in_chinese(bundled_store):
    assert is_list_question("有哪些论文是关于量化的？") and is_list_question("我想找量化方面的研究")
    assert is_list_question("有哪些关于机器人抓取的论文？")  # "哪些" far from "论文"
    assert not is_list_question("有没有关于大语言模型水印的论文？")
    result = _ask(bundled_store, "有哪些论文是关于量化的？")
    assert result.outcome == "answered" and len(result.citations) >= 2
    assert result.text.startswith("本文集中有")


def test_a_chinese_instruction_searches_its_topic_not_how_it_asks(bundled_store):
    """ "给我讲讲量化相关的论文" (tell me about the papers on quantization) searched "speech
    quantization" and named one paper; "总结一下DyPE这篇论文" searched "sum up DyPE"."""
    assert is_list_question("给我讲讲量化相关的论文") and is_list_question("帮我找关于水印的论文")
    assert not is_list_question("给我讲讲这篇论文")
    assert not is_list_question("帮我找一篇关于水印的论文")
    listed = _ask(bundled_store, "给我讲讲量化相关的论文")
    assert listed.search_query == "quantization", listed.search_query
    assert listed.outcome == "answered" and listed.text.startswith("本文集中有")
    assert {"Q2D2", "MaskAQ"} <= {c.paper.title.split(" ")[0].rstrip(":") for c in
                                  listed.citations}
    one = _ask(bundled_store, "总结一下DyPE这篇论文")
    assert one.search_query == "DyPE" and "DyPE" in one.citations[0].paper.title


def test_explain_is_how_a_chinese_question_asks_only_where_it_asks(bundled_store):
    """ "请解释一下 VGS 的方法" (please explain VGS's method) searched "interpret VGS method" and
    was answered hedged; "解释" asks where it opens the question, follows who is asked or takes
    "一下", and is a field's word elsewhere ("解释方法": explanation methods)."""
    for asked, query in (("请解释一下 VGS 的方法", "VGS method"),
                         ("解释一下 DyPE 是怎么工作的", "DyPE"),
                         ("给我解释 IPMark", "IPMark"), ("请说明一下 IPMark", "IPMark")):
        said = _ask(bundled_store, asked)
        assert said.search_query == query, (asked, said.search_query)
        assert said.confident and query.split()[0] in said.citations[0].paper.title, asked
    field = _ask(bundled_store, "有哪些解释方法的论文")
    assert field.search_query.startswith("interpret"), field.search_query


def test_a_chinese_off_domain_question_is_refused_in_chinese(bundled_store):
    result = _ask(bundled_store, "去西藏旅游怎么预防高原反应？")
    assert result.outcome == "refused" and result.text.startswith("已索引的论文不能回答")


def test_a_chinese_follow_up_is_read_from_the_paper_the_last_answer_named(bundled_store):
    """"它……" after a one-paper answer: that paper alone, asked in Chinese; the data aspect is
    answered from its sentences, or said to be missing from its abstract."""
    first = _ask(bundled_store, "有没有关于大语言模型水印的论文？")
    assert "IPMark" in first.citations[0].paper.title
    second = _ask(bundled_store, "它在哪些数据集上做了实验？", [(first.question, first.text)])
    assert [c.paper.paper_id for c in second.citations] == [first.citations[0].paper.paper_id]
    assert second.outcome == "answered" and second.confident
    assert second.text.startswith("最相关的论文")


# the title's words ("highly trained female cyclists") fill most sentences; the figure asked
# for sits in one that holds few of them
CYCLISTS = Paper(
    paper_id="cyclists", title="Dietary intake of highly trained female cyclists",
    abstract="Dietary intake was evaluated in eight highly trained female cyclists over a "
    "racing season. Each highly trained female cyclist kept a weighed food record on three "
    "consecutive days. Energy intake of highly trained female cyclists was low for an athletic "
    "group. Highly trained female cyclists ate less than male cyclists of the same level. "
    "Mean iron intake was 59% of the recommended amount. Carbohydrate intake of highly trained "
    "female cyclists met guidelines on race days. Dietary quality of highly trained female "
    "cyclists could be improved.", venue="Test", year=1990)
OTHERS = [
    Paper(paper_id=f"other-{i}", title=title, abstract=abstract, venue="Test", year=1991)
    for i, (title, abstract) in enumerate([
        ("Sleep and glucose control", "We study how short sleep changes glucose control in "
         "adults. Glucose tolerance fell after five nights of short sleep."),
        ("Coral bleaching in warm years", "Reef corals bleach when the sea is warm. We "
         "surveyed bleaching on three reefs over ten years."),
    ])]


def test_a_chinese_follow_up_is_read_in_its_own_words_not_the_previous_papers_title(
        tmp_path, embedder):
    """Its search carries the previous paper's title, which matches every sentence of that
    paper; the sentences are read against what the turn itself asks, as in English."""
    store = PaperStore(collection="cyclists", embedder=embedder, path=tmp_path / "s",
                       create=True)
    store.ingest([CYCLISTS, *OTHERS], source="test")
    retriever = Retriever(store=store)
    answerer = ExtractiveAnswerer(embedder=embedder)
    first = "Is there a study of what highly trained female cyclists eat in a racing season?"
    said = answer(first, retriever=retriever, answerer=answerer, ground=False)
    assert said.citations[0].paper.paper_id == "cyclists"
    second = answer("铁的摄入情况怎么样？", retriever=retriever,
                    answerer=answerer, ground=False, history=[(first, said.text)])
    assert [c.paper.paper_id for c in second.citations] == ["cyclists"]
    assert "59%" in second.text


@pytest.mark.parametrize(("text", "kept"), [("比较 IPMark 与 CPMöbius", "CPMöbius"),
                                            ("Schrödinger方程的数值解", "Schrödinger"),
                                            ("Gödel不完备定理", "Gödel")])
def test_a_name_with_accented_letters_is_kept_whole(text, kept):
    """"CPMöbius" was cut at its "ö" and searched as "CPM bius"."""
    assert kept in translate.segment(text)


def test_the_words_a_record_is_asked_with_are_searched_only_where_they_ask_for_it():
    """ "被录用了吗" (was it accepted?) asks for a paper's record; "接收" in "接收方" (the
    receiver) or "录取" in "大学录取" (college admissions) is what a question is about, and was
    never searched while those words were dropped wherever they stood."""
    words = {"接收": ("receive",), "接收方": ("receiver",), "信号": ("signal",),
             "大学": ("university",), "录取": ("admit",), "录用": ("hire",), "匹配": ("match",)}
    postings = _postings({"receiv": [1, 2], "receiv_": [3], "signal": [1, 2, 4],
                          "univers": [5, 6], "admit": [5, 6], "hire": [7], "match": [5, 6, 8]})
    kw = dict(stems=_stems, postings=postings, chunks=30, words=words, per_word=1)
    assert translate.translate("接收信号的论文", **kw).query == "receive signal"
    assert translate.translate("大学录取匹配", **kw).query == "university admit match"
    for asked in ("IPMark 被录用了吗？", "IPMark 被接收了吗", "IPMark 发表在哪里？",
                  "IPMark 是否录用", "IPMark 哪年发表的"):
        assert translate.translate(asked, **kw).query == "IPMark", asked
