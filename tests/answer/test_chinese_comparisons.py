"""Comparisons asked in Chinese over the bundled list, offline: each side is searched in its
English, so two papers the list holds are lined up side by side (was: "本文集中没有论文是关于
'IPMark 和 VGS 有什么区别'的", both papers cited as the closest), a side the list does not hold
is said to be missing while the other is named, and a name with accented letters
("CPMöbius") is searched whole."""

from __future__ import annotations

import itertools
import re

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.framing import CHINESE
from assistant.answer.pipeline import answer
from assistant.search.retrieval import Retriever


def ask(store, question):
    return answer(question, retriever=Retriever(store=store),
                  answerer=ExtractiveAnswerer(embedder=store.embedder))


@pytest.fixture(scope="module")
def names(bundled_store_dir, embedder):
    from assistant.index.store import PaperStore

    store = PaperStore(collection="icml2026", embedder=embedder, path=bundled_store_dir)
    return {p.title.split(":")[0].split(" (")[0]: p.paper_id for p in store.papers()
            if re.match(r"^[A-Z][\w\-ö]+(?: \(|:)", p.title)}


def test_two_papers_here_are_compared_side_by_side(bundled_store, names):
    assert len(names) >= 8 and "CPMöbius" in names
    pairs = list(itertools.combinations(sorted(names), 2))[::3]
    assert len(pairs) >= 8
    for (a, b), form in zip(pairs, itertools.cycle(["{a} 和 {b} 有什么区别？", "比较{a}与{b}",
                                                     "{a}与{b}相比如何？"])):
        result = ask(bundled_store, form.format(a=a, b=b))
        assert result.outcome == "answered", (a, b, result.text)
        cited = [c.paper.paper_id for c in result.citations]
        assert cited[:2] == [names[a], names[b]], (a, b, result.text)
        assert result.text.startswith((CHINESE.side_by_side, CHINESE.side_by_side_closest))


def test_a_side_not_here_is_said_to_be_missing(bundled_store, names):
    for name in sorted(names)[:6]:
        result = ask(bundled_store, f"{name} 和关于蛋白质折叠的论文有什么区别？")
        assert result.outcome == "near_miss", (name, result.text)
        assert result.citations[0].paper.paper_id == names[name], result.text
        assert result.to_dict()["answerability"]["sides"][0] in ("sure", "found")
        head = (CHINESE.side_sure.split("{title}")[0].format(which=CHINESE.ordinals[0]),
                CHINESE.side_closest.split("{title}")[0].format(which=CHINESE.ordinals[0]))
        assert result.text.startswith(head), result.text


def test_three_papers_listed_with_a_chinese_list_comma_each_lead_a_side(bundled_store, names):
    for form in ("比较{a}、{b}与{c}", "{a}、{b}和{c}有什么区别？"):
        for a, b, c in list(itertools.combinations(sorted(names), 3))[::40][:3]:
            result = ask(bundled_store, form.format(a=a, b=b, c=c))
            assert result.outcome == "answered", result.text
            cited = [x.paper.paper_id for x in result.citations]
            assert cited[:3] == [names[a], names[b], names[c]], result.text
            assert result.text.startswith((CHINESE.side_by_side, CHINESE.side_by_side_closest))
