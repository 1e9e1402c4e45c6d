"""Conversation-aware rewriting of a question before retrieval.

Only a question that cannot stand alone is rewritten (the detector is assistant/followup.py).

Offline, a follow-up gets the previous turn's topic carried in: the paper the previous answer was
about (its first **bold** title; a comparison's or a list's first two), else the previous
question's content words (so after a near miss, whose closest papers were said not to be it).
With an LLM, the ``rewrite`` prompt asks for a standalone English search query (so questions
in other languages retrieve English abstracts); it sees the conversation only for a follow-up,
and the heuristic is the fallback for an empty reply.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.llm import prompts
from assistant.query.followup_rules import ELLIPSES, dangling_references
from assistant.query.form import Form, Turn
from assistant.query.numbered import named, numbered_paper, with_titles
from assistant.textutil import content_words, has_cjk

if TYPE_CHECKING:
    from assistant.llm.client import ChatModel

_BOLD = re.compile(r"\*\*([^*]{3,200})\*\*")  # the titles an answer names
# how the offline answerer opens a one-paper answer, in English or Chinese (answer/framing.py)
ONE_PAPER = ("The most relevant paper is", "The closest match is", "The abstract of",
             "One of them bears on this:", "最相关的论文", "最接近的是", "其中有一篇与此相关")
# how it opens a list of papers, best first (a survey's, or the papers of a list that bear on a
# question asked of them)
LISTING = re.compile(r"^(?:\d+ papers in the collection bear on this, best first|"
                     r"\d+ of them bear on this, best first|本文集中有 \d+ 篇论文与此相关|"
                     r"其中有 \d+ 篇与此相关)")
# how it opens a near miss ("nothing here is about it; the closest papers are ...")
NEAR_MISS = ("Nothing in this collection is about", "No paper in this collection introduces",
             "No paper in this collection is about both", "No paper here clearly matches",
             "None of them is about", "本文集中没有论文", "其中没有论文")

__all__ = ["Turn", "answered_paper", "dangling_references", "heuristic", "numbered_paper",
           "previous_paper", "with_llm"]


def heuristic(form: Form, history: Sequence[Turn]) -> str:
    """A follow-up gets the previous turn's topic appended: the papers its answer named, or,
    for "what about X?" (the previous question asked again of X), that question's words."""
    question = form.question
    titled = with_titles(question, history)
    if titled != question:  # "tell me more about [2]", "[1] vs [2]": the papers' titles in
        return titled  # place of their numbers, whatever else the answer named
    if not history or not form.follow_up:
        return question
    prev_q, prev_a = history[-1]
    refs = dangling_references(question) or ["no topic of its own"]
    asked = prev_q if has_cjk(prev_q) else " ".join(content_words(prev_q)) or prev_q
    titles = _BOLD.findall(prev_a)[:2]
    opening = _opening(prev_a)
    if opening.startswith(ONE_PAPER):  # its "Also related" papers are not what it was about
        titles = titles[:1]
    if opening.startswith(NEAR_MISS):  # its papers were said not to be it: what was asked is
        titles = []
    topic = asked if set(refs) <= ELLIPSES or not titles else " ".join(titles)
    return f"{question} {topic}".strip()


def previous_paper(form: Form, history: Sequence[Turn]) -> str | None:
    """The title of the one paper the previous answer was about, when this question refers
    back to it ("what data did they use?", "它需要成对的图像吗？"): the answer is then read from
    that paper alone. After a list, its first paper, the best match of what was asked ("Any
    work on patrol planning against poachers?", then "What real data was used?": searched with
    the list's first two titles, the second paper's words matched "real data" better, and it
    was answered from, to say it does not state its data). None for a question that stands
    alone, one that asks the previous question again of something else ("what about X?"), or
    after a comparison or a near miss (no one paper to refer to). A paper named by its number
    in the previous answer ("what data did [2] use?") is that paper; two named ("[1] vs [2]")
    are no one paper, whatever the previous answer was about."""
    if named(form.question, history):  # "what data did [2] use?", but "[1] vs [2]" is two
        return numbered_paper(form.question, history)
    if not history or not form.follow_up:
        return None
    refs = dangling_references(form.question)
    if refs and set(refs) <= ELLIPSES:  # "what about X?"
        return None
    if not refs:  # a follow-up that points at nothing ("What real data was used?"): after one
        # paper, searched with its title; after a list, the list's best
        return listed_first(history)
    return answered_paper(history) or listed_first(history)


def listed_first(history: Sequence[Turn]) -> str | None:
    """The title of the first paper of the previous answer when it is a list ("3 papers in the
    collection bear on this, best first:"); None for any other answer."""
    if not history or not LISTING.match(_opening(history[-1][1])):
        return None
    titles = _BOLD.findall(history[-1][1])
    return titles[0] if titles else None


def answered_paper(history: Sequence[Turn]) -> str | None:
    """The title of the one paper the previous answer was about (it opens by naming one:
    "The most relevant paper is ...", "The closest match is ..."); None after a list, a
    comparison, a near miss or no answer at all."""
    if not history:
        return None
    opening = next((part for part in history[-1][1].split("\n\n")
                    if part.startswith(ONE_PAPER)), "")
    titles = _BOLD.findall(opening)
    return titles[0] if titles else None


def _opening(answer: str) -> str:
    """How an answer opens, after the notes before it ("(Read as ...)", "(Searched only the 9
    papers listed before.)")."""
    parts = answer.split("\n\n")
    return next((part for part in parts if not part.startswith(("(", "（"))), "")


def needs_llm(form: Form) -> bool:
    """Does ``with_llm`` call the LLM for this question (a follow-up, or another language)?"""
    return form.follow_up or form.cjk


async def with_llm(form: Form, history: Sequence[Turn], *, model: ChatModel,
                   prompts_dir: Path | None = None) -> str:
    # "[1] vs [2]": the titles in place of the numbers, which a small model may not look up
    question, follow_up = with_titles(form.question, history), form.follow_up
    if not needs_llm(form):
        return question
    # a standalone question in another language is translated, never given the old topic
    turns = "\n".join(f"Q: {q}\nA: {a[:400]}" for q, a in history[-3:]) if follow_up else ""
    content = prompts.render("rewrite", prompts_dir=prompts_dir, history=turns or "(none)",
                             question=question)
    from assistant.llm.client import complete

    text = (await complete(model, content)).strip().strip('"').splitlines()
    rewritten = text[0].strip() if text else ""
    if _empty(rewritten):  # a small model echoing "(none)" from the prompt, or nothing
        rewritten = ""
    return rewritten or heuristic(form, history)


def _empty(reply: str) -> bool:
    """A rewrite that says nothing: no content word ("(none)", "N/A", "?")."""
    return reply.strip(" ()[].:").lower() in ("none", "n/a", "null", "") or not (
        content_words(reply) or has_cjk(reply))
