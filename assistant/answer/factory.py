"""``build_answerer``: the answerer the settings ask for (the LLM one when an endpoint is
configured, else the offline extractive one)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.llm_answerer import LLMAnswerer
from assistant.answer.types import Answerer

if TYPE_CHECKING:
    from assistant.index.embeddings import Embedder
    from assistant.llm.client import ChatModel
    from assistant.settings import Settings


def build_answerer(settings: Settings, *, embedder: Embedder,
                   model: ChatModel | None = None) -> Answerer:
    if model is None and not settings.uses_llm:
        return ExtractiveAnswerer(embedder=embedder)
    if model is None:
        from assistant.llm.client import OpenAIChatModel

        key = settings.api_key.get_secret_value() if settings.api_key else None
        model = OpenAIChatModel(model=settings.model, base_url=settings.base_url, api_key=key,
                                temperature=settings.temperature, max_tokens=settings.max_tokens,
                                timeout=settings.timeout)
    return LLMAnswerer(model=model, context_tokens=settings.context_tokens,
                       prompts_dir=settings.prompts_dir, rerank=settings.rerank)
