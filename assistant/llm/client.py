"""One chat-model interface: ``stream(messages)`` yields text deltas.

``OpenAIChatModel`` wraps ``openai.AsyncOpenAI`` for any OpenAI-compatible endpoint (OpenAI,
vLLM, Ollama, llama.cpp server). Endpoint failures become one-line ``LLMError``s that say what
to fix. ``usage`` holds the last call's token counts (the server's, else tiktoken's estimate).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterator, Sequence
from typing import Any, Protocol

from assistant import tokens
from assistant.errors import (
    LLMAuthError,
    LLMError,
    LLMModelNotFound,
    LLMRateLimited,
    LLMStreamCut,
    LLMUnreachable,
)
from assistant.llm.faults import Kind, classify

log = logging.getLogger(__name__)
Message = dict[str, str]


class ChatModel(Protocol):
    backend: str
    model: str
    usage: dict[str, Any]

    def stream(self, messages: Sequence[Message]) -> AsyncIterator[str]: ...


async def complete(model: ChatModel, content: str) -> str:
    """One user message in, the whole (streamed) reply out: for rewrite, rerank and judge."""
    return "".join([d async for d in model.stream([{"role": "user", "content": content}])])


def json_reply(raw: str) -> Any:
    """Parse a reply that should be JSON, tolerating a ```json fence; ValueError if it is not."""
    return json.loads(re.sub(r"^```(?:json)?\s*|\s*```$", "", raw.strip()))


def estimate_usage(messages: Sequence[Message], completion: str) -> dict[str, Any]:
    prompt = sum(tokens.count(m["content"]) + 4 for m in messages)
    done = tokens.count(completion)
    return {"prompt_tokens": prompt, "completion_tokens": done, "total_tokens": prompt + done,
            "estimated": True}


class OpenAIChatModel:
    backend = "llm"

    def __init__(self, *, model: str, base_url: str | None = None, api_key: str | None = None,
                 temperature: float = 0.1, max_tokens: int = 700, timeout: float = 60.0,
                 client: Any = None) -> None:
        self.model = model
        self.base_url = base_url or "https://api.openai.com/v1"
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.usage: dict[str, Any] = {}
        if client is None:
            import openai

            # connect and read timeouts apart, and no silent retry: a dead endpoint fails in
            # at most ``timeout`` seconds, a hanging one after ``timeout`` without a token
            client = openai.AsyncOpenAI(
                base_url=base_url, api_key=api_key or "not-needed", max_retries=0,
                timeout=openai.Timeout(timeout, connect=min(10.0, timeout)))
        self.timeout = timeout
        self._client = client

    def _translate(self, exc: Exception) -> LLMError:
        from assistant.settings import mask_url

        where = mask_url(self.base_url)
        fault = classify(exc)
        if fault.kind is Kind.TIMEOUT:
            return LLMUnreachable(f"the LLM endpoint at {where} did not answer within "
                                  f"{self.timeout:g} s: check the server, or raise "
                                  "ASSISTANT_TIMEOUT")
        if fault.kind is Kind.UNREACHABLE:
            return LLMUnreachable(f"cannot reach the LLM endpoint at {where}: start the server or "
                                  "fix OPENAI_BASE_URL")
        if fault.kind is Kind.AUTH:
            return LLMAuthError(f"the LLM endpoint at {where} rejected the API key "
                                f"({fault.status}): set a valid OPENAI_API_KEY")
        if fault.kind is Kind.MODEL_NOT_FOUND:
            return LLMModelNotFound(f"model {self.model!r} not found at {where}: set "
                                    "ASSISTANT_MODEL to a model the server serves")
        if fault.kind is Kind.RATE_LIMITED:
            return LLMRateLimited(f"the LLM endpoint at {where} is rate-limiting (429): wait "
                                  "and ask again, or use another model")
        if fault.kind is Kind.CONTEXT_LENGTH:
            return LLMError(f"the prompt is longer than the model at {where} accepts "
                            f"({fault.status}): lower ASSISTANT_CONTEXT_TOKENS (the "
                            "sources' budget) or ASSISTANT_MAX_TOKENS, or use --k with "
                            "fewer papers")
        if fault.kind is Kind.SERVER_ERROR:
            return LLMError(f"the LLM endpoint at {where} failed on its side "
                            f"({fault.status}): retry, or check the server's log")
        if fault.kind is Kind.REJECTED:
            return LLMError(f"the LLM endpoint at {where} answered {fault.status}: "
                            f"{fault.detail[:160]}")
        return LLMError(f"the LLM call failed: {fault.error_type}: {fault.detail[:160]}")

    async def aclose(self) -> None:
        """Close the HTTP client (the TUI calls this on exit)."""
        close = getattr(self._client, "close", None)
        if close is not None:
            await close()

    async def stream(self, messages: Sequence[Message]) -> AsyncIterator[str]:
        import openai

        self.usage = {}
        parts: list[str] = []
        finished = False
        chunks = 0  # events read: once one arrived, a failure is a dropped stream
        try:
            response = await self._client.chat.completions.create(
                model=self.model, messages=list(messages), temperature=self.temperature,
                max_tokens=self.max_tokens, stream=True, stream_options={"include_usage": True})
            async for chunk in response:
                chunks += 1
                if getattr(chunk, "usage", None):
                    u = chunk.usage
                    self.usage = {"prompt_tokens": u.prompt_tokens,
                                  "completion_tokens": u.completion_tokens,
                                  "total_tokens": u.total_tokens}
                for choice in chunk.choices or []:
                    finished = finished or bool(getattr(choice, "finish_reason", None))
                    delta = getattr(choice.delta, "content", None)
                    if delta:
                        parts.append(delta)
                        yield delta
        except openai.OpenAIError as exc:
            kind = classify(exc).kind
            error = (self._dropped(kind, parts) if chunks and kind in (Kind.UNREACHABLE,
                                                                       Kind.TIMEOUT)
                     else self._translate(exc))
            raise self._cut(error, parts) from None
        except (ValueError, KeyError, TypeError, AttributeError) as exc:  # a malformed stream
            from assistant.settings import mask_url

            raise self._cut(LLMError(
                f"the LLM endpoint at {mask_url(self.base_url)} sent a malformed event stream "
                f"({type(exc).__name__}): is it an OpenAI-compatible server?"), parts) from None
        if not parts and chunks and not finished:
            raise self._dropped(Kind.UNREACHABLE, parts)
        if not parts:
            from assistant.settings import mask_url

            raise LLMError(f"the LLM endpoint at {mask_url(self.base_url)} streamed no text: "
                           "does it support stream=true (an OpenAI-compatible "
                           "/v1/chat/completions)?")
        if not finished:  # the stream stopped without a finish reason: the connection dropped
            raise self._dropped(Kind.UNREACHABLE, parts)
        if not self.usage:
            self.usage = estimate_usage(messages, "".join(parts))

    def _dropped(self, kind: Kind, parts: list[str]) -> LLMError:
        """The stream started, then stopped: say so, and after how much (never "cannot reach",
        which sends the user to start a server that is running)."""
        from assistant.settings import mask_url

        got = tokens.count("".join(parts))
        if kind is Kind.TIMEOUT:
            why = (f"the LLM endpoint at {mask_url(self.base_url)} stopped sending for "
                   f"{self.timeout:g} s after {got} tokens of the answer: ask again, or raise "
                   "ASSISTANT_TIMEOUT")
        else:
            why = (f"the connection to the LLM endpoint at {mask_url(self.base_url)} dropped "
                   f"after {got} tokens of the answer, before it finished: ask again")
        return self._cut(LLMError(why), parts)

    @staticmethod
    def _cut(error: LLMError, parts: list[str]) -> LLMError:
        """An error after some text arrived: the text is kept (the answer is marked cut)."""
        if parts:
            return LLMStreamCut(str(error), partial="".join(parts))
        return error
