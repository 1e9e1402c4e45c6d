"""The one reading of a failed ``openai`` call: which kind of fault it is, and the facts a
message about it needs.

``classify(exc)`` -> ``Fault``. The chat client (``client.py``) and the embeddings client
(``assistant.index.embeddings``) each turn a ``Fault`` into their own error class and hint; the
deciding (timeout before connection, the status codes, what a context-length refusal says) is
done here only.

A status error is read by the SDK's class or by its HTTP status, which agree for every error
the SDK raises (it picks the class from the status).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Kind(enum.Enum):
    TIMEOUT = "timeout"  # no answer within the client's timeout
    UNREACHABLE = "unreachable"  # connection refused, DNS, TLS...
    AUTH = "auth"  # 401 / 403
    MODEL_NOT_FOUND = "model not found"  # 404
    RATE_LIMITED = "rate limited"  # 429
    CONTEXT_LENGTH = "context length"  # 400 / 413 saying the input is too long
    SERVER_ERROR = "server error"  # 5xx
    REJECTED = "rejected"  # any other status
    NO_DATA = "no data"  # a reply that holds no embeddings
    BAD_REPLY = "bad reply"  # anything else: not what an OpenAI-compatible server sends


@dataclass(frozen=True)
class Fault:
    kind: Kind
    status: int | None  # the HTTP status, when the server answered one
    detail: str  # the exception's text
    error_type: str  # the exception's class name


def classify(exc: BaseException) -> Fault:
    """What went wrong in an ``openai`` call (or while reading its reply)."""
    import openai

    def fault(kind: Kind, status: int | None = None) -> Fault:
        return Fault(kind, status, str(exc), type(exc).__name__)

    if isinstance(exc, openai.APITimeoutError):
        return fault(Kind.TIMEOUT)
    if isinstance(exc, openai.APIConnectionError):
        return fault(Kind.UNREACHABLE)
    if isinstance(exc, openai.APIStatusError):
        code = exc.status_code
        if (isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError)
                or code in (401, 403)):
            return fault(Kind.AUTH, code)
        if isinstance(exc, openai.NotFoundError) or code == 404:
            return fault(Kind.MODEL_NOT_FOUND, code)
        if isinstance(exc, openai.RateLimitError) or code == 429:
            return fault(Kind.RATE_LIMITED, code)
        text = str(exc).lower()
        if code in (400, 413) and ("context" in text or "too long" in text
                                   or ("maximum" in text and "token" in text)):
            return fault(Kind.CONTEXT_LENGTH, code)
        if code >= 500:
            return fault(Kind.SERVER_ERROR, code)
        return fault(Kind.REJECTED, code)
    if isinstance(exc, ValueError) and "no embedding data" in str(exc).lower():
        return fault(Kind.NO_DATA)
    return fault(Kind.BAD_REPLY)
