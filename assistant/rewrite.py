"""Conversation-aware rewriting of a question before retrieval.

Offline, a heuristic: a follow-up ("how robust is it?", "what about its results?") that
leans on the previous turn gets that turn's topic carried in — the papers the previous answer
named (its **bold** titles) and the previous question's content words. With an LLM, the
``rewrite`` prompt asks for a standalone English search query (so questions in other languages
retrieve English abstracts), and the heuristic is the fallback for an empty reply.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from assistant import prompts
from assistant.textutil import content_words

if TYPE_CHECKING:
    from assistant.llm import ChatModel

Turn = tuple[str, str]
_ANAPHORA = re.compile(
    r"\b(?:it|its|it's|this|that|these|those|they|them|their|the (?:paper|method|model|approach|"
    r"authors|framework|work|technique|algorithm|results?)|same|also|more|else|other ones?|"
    r"what about|how about|and)\b", re.IGNORECASE)
_BOLD = re.compile(r"\*\*([^*]{3,200})\*\*")
_CJK = re.compile(r"[\u3400-\u9fff\uac00-\ud7af\u3040-\u30ff]")


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def is_follow_up(question: str) -> bool:
    words = content_words(question)
    return (bool(_ANAPHORA.search(question)) and len(words) <= 6) or len(words) <= 1


def heuristic(question: str, history: Sequence[Turn]) -> str:
    if not history or not is_follow_up(question):
        return question
    prev_q, prev_a = history[-1]
    titles = _BOLD.findall(prev_a)[:2]
    topic = " ".join(titles) if titles else " ".join(content_words(prev_q))
    return f"{question} {topic}".strip()


async def with_llm(question: str, history: Sequence[Turn], *, model: ChatModel,
                   prompts_dir: Path | None = None) -> str:
    if not history and not has_cjk(question):
        return question
    turns = "\n".join(f"Q: {q}\nA: {a[:400]}" for q, a in history[-3:]) or "(none)"
    content = prompts.render("rewrite", prompts_dir=prompts_dir, history=turns, question=question)
    from assistant.llm import complete

    text = (await complete(model, content)).strip().strip('"').splitlines()
    rewritten = text[0].strip() if text else ""
    return rewritten or heuristic(question, history)
