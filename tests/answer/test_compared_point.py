"""A comparison made on a point ("Compare A and B on sample efficiency") says first what each
paper's abstract says on that point: the sentence of its own abstract that holds the point's
words, cited to it, or that its abstract does not state it. Before, the side-by-side answer
showed each paper's problem, method, data and result, whatever was asked."""

from __future__ import annotations

import random
import re

from assistant.answer.extractive import _on_point, _Scored, _stems
from assistant.answer.factory import build_answerer
from assistant.answer.framing import ENGLISH
from assistant.answer.pipeline import answer
from assistant.query.form import of
from assistant.search.retrieval import Retriever
from assistant.settings import load_settings
from assistant.textutil import content_words, split_sentences


def _ask(store, question):
    return answer(question, retriever=Retriever(store=store),
                  answerer=build_answerer(load_settings(), embedder=store.embedder))


def _named(store):
    """The bundled papers whose title opens with a method's name ("DyPE: ..."), by name."""
    out = {}
    for p in store.papers():
        m = re.match(r"^([A-Z][\w-]+)(?: \(|:)", p.title)
        if m:
            out[m.group(1)] = p
    return out


def test_the_point_is_read_as_said():
    assert of("Compare PPO, SAC and TD3 on sample efficiency").compared_on == "sample efficiency"
    assert of("How does the sample efficiency of PPO and SAC differ?").compared_on == \
        "sample efficiency"
    assert of("Compare the robustness of CNNs and ViTs to distribution shift").compared_on == \
        "robustness to distribution shift"
    for q in ("Compare PPO and SAC", "Compare Mean Teacher and Learning to Teach",
              "Which paper proposes PPO?", "How do training on CIFAR and training on ImageNet "
              "compare?"):
        assert of(q).compared_on == "", q


def test_a_sentence_states_the_point_only_with_its_words():
    sents = [_Scored(0, "We give an efficient solver for the inner problem.", 1.0),
             _Scored(1, "Our agent is far more sample-efficient than PPO on Atari.", 0.2),
             _Scored(2, "Sample efficiency was not the focus of prior work.", 0.1)]
    assert _stems("sample-efficient") >= _stems("sample efficiency")
    got = _on_point("sample efficiency", sents)
    assert got is not None and got.index == 1  # the better scored of the two that hold it
    assert _on_point("sample efficiency", sents[:1]) is None  # "efficient" alone is not it
    # a longer point: two thirds of its words
    shift = [_Scored(0, "It stays robust to shifts in the test distribution.", 0.0)]
    assert _on_point("robustness to distribution shift", shift) is not None
    assert _on_point("robustness to adversarial label shift", shift) is None


def test_each_side_is_quoted_on_the_point_from_its_own_abstract(bundled_store):
    """Generated over the bundled list: two named methods, compared on a word one of their
    abstracts holds and the other's does not. The side that holds it quotes a sentence of its
    own abstract holding it, cited to its own number, first; the other says it is not stated;
    no sentence is quoted twice in one side."""
    named = _named(bundled_store)
    rng = random.Random(11)
    checked = 0
    for _ in range(20):
        a, b = rng.sample(sorted(named), 2)
        pa, pb = named[a], named[b]
        mine = {w.lower() for w in content_words(pa.abstract) if len(w) >= 8 and w.isalpha()}
        theirs = _stems(f"{pb.title} {pb.abstract}") | _stems(pa.title)
        words = sorted(w for w in mine if not _stems(w) & theirs)
        if not words:
            continue
        point = rng.choice(words)
        result = _ask(bundled_store, f"Compare {a} and {b} on {point}")
        if result.outcome != "answered" or [c.paper.paper_id for c in result.citations[:2]] \
                != [pa.paper_id, pb.paper_id]:
            continue  # the comparison's own papers are tested elsewhere
        checked += 1
        blocks = re.split(r"\n- \*\*", result.text)[1:]
        row = f"- {ENGLISH.point_asked.format(point=point)}: "
        for n, (paper, block) in enumerate(zip((pa, pb), blocks, strict=False), 1):
            rows = [r.strip() for r in block.split("\n")[1:]]
            assert rows[0].startswith(row), (point, block)
            said = rows[0][len(row):]
            if n == 1:
                assert said.endswith(f"[{n}]"), (point, said)
                quoted = said[: -len(f" [{n}]")]
                assert _stems(point) <= _stems(quoted), (point, quoted)
                assert any(_stems(s) >= _stems(point) for s in split_sentences(paper.abstract))
                assert all(not r.endswith(said) for r in rows[1:]), block  # quoted once
            else:
                assert said == ENGLISH.point_missing, (point, said)
    assert checked >= 10, checked
