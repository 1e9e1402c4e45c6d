"""A hedged answer whose second paper is estimated as high as its first (both at least
``decision.TIED``) is hedged for a tie, not for doubt: "Are there lower bounds showing ...
Massart noise ...?" over ml-theory has two papers exactly on it, each estimated ~0.98, and was
answered "The closest match is ..., though it may not be about exactly this". It now names both
as matching, quotes each under its own number, and lists the rest as related."""

from __future__ import annotations

import random
import re

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.framing import ENGLISH
from assistant.judge.decision import TIED
from assistant.judge.grounding import stems
from assistant.query.form import of
from assistant.search.retrieval import RetrievedPaper
from assistant.sources.corpus import bundled_papers

QUESTIONS = ["Is there work on watermarking text from language models?",
             "Which paper speeds up diffusion sampling?",
             "Has anyone trained reasoning models without data?"]


def _sources(rng: random.Random, n: int, estimates: list[float]) -> list[RetrievedPaper]:
    papers = rng.sample(bundled_papers(), n)
    return [RetrievedPaper(p, 1.0 / i, i, verified=v)
            for i, (p, v) in enumerate(zip(papers, estimates, strict=True), 1)]


def test_a_tie_names_both_and_quotes_each_under_its_own_number(embedder):
    answerer = ExtractiveAnswerer(embedder=embedder)
    rng = random.Random(5)
    tied = untied = 0
    for _ in range(30):
        n = rng.randint(2, 5)
        estimates = [rng.choice([0.95, 0.6, 0.91, 0.3]) for _ in range(n)]
        sources = _sources(rng, n, estimates)
        question = rng.choice(QUESTIONS)
        for hedged in (True, False):
            text = answerer.compose(of(question), sources, hedged=hedged)
            first = sources[0].paper
            twins = [i for i, v in enumerate(estimates[1:], 2) if v >= TIED]
            if hedged and estimates[0] >= TIED and twins:
                tied += 1
                twin = max(twins, key=lambda i: estimates[i - 1])
                other = sources[twin - 1].paper
                opening = ENGLISH.closest_tied.format(
                    title=first.display_title, where=f" ({first.venue_year})", n=twin,
                    other=other.display_title, other_where=f" ({other.venue_year})")
            else:
                untied += 1
                twin = 0
                opening = (ENGLISH.closest_match if hedged else ENGLISH.most_relevant).format(
                    title=first.display_title, where=f" ({first.venue_year})")
            assert text.startswith(opening), (opening, text)
            body, _, related = text[len(opening):].partition("Also related:")
            quoted = re.findall(r"(.+?) \[(\d+)\](?: |$)", body.strip())
            assert quoted and {k for _, k in quoted} == ({"1", str(twin)} if twin else {"1"})
            for said, k in quoted:  # each quoted sentence: words of paper k's abstract
                paper = sources[int(k) - 1].paper
                assert stems(said) <= stems(f"{paper.abstract} {paper.display_title}"), (
                    said, paper.title)
            numbers = re.findall(r"\[(\d+)\]", related)
            assert len(numbers) == len(set(numbers)) == len(sources) - 1 - bool(twin)
            assert str(twin) not in numbers  # the twin is named once, not also as related
    assert tied >= 5 and untied >= 20, (tied, untied)


def test_a_tie_is_said_in_chinese_too(embedder):
    sources = _sources(random.Random(2), 3, [0.97, 0.95, 0.2])
    text = ExtractiveAnswerer(embedder=embedder).compose(of("有没有关于语言模型文本水印的工作？"),
                                                         sources, hedged=True)
    assert text.startswith("有两篇论文与此同样吻合"), text
    assert f"**{sources[1].paper.display_title}**" in text.split("。")[0]
