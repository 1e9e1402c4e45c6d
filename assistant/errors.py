"""Every error the assistant raises on purpose, in one tree.

    AssistantError                 base; ``str(e)`` is one line that says what to do
    ├── InputError                 a file, flag or question the user gave is unusable
    │   ├── CorpusFormatError      a paper list cannot be parsed
    │   └── SuiteError             an evaluation suite is malformed
    ├── StoreError                 the Chroma store is missing, unreachable or inconsistent
    │   ├── StoreNotFound          no store / no collection where one was expected
    │   └── EmbeddingMismatch      the collection was built with another embedding model
    ├── EmbeddingError             the embedding model cannot load or the endpoint failed
    ├── PromptError                a prompt template is missing or lacks a variable
    ├── ConfigError                a setting is invalid
    └── LLMError                   the chat endpoint failed
        ├── LLMUnreachable         connection refused / DNS / timeout
        ├── LLMAuthError           401 / 403
        ├── LLMModelNotFound       404 for the model
        └── LLMRateLimited         429

Front ends convert these at the edge: the CLI prints ``error: <message>`` and exits 2,
the TUI shows a notification. Nothing a user can cause should surface as a traceback.
"""

from __future__ import annotations


class AssistantError(Exception):
    """Base class. The message is a single line that tells the user what to do."""

    exit_code = 2


class InputError(AssistantError):
    pass


class CorpusFormatError(InputError):
    pass


class SuiteError(InputError):
    pass


class StoreError(AssistantError):
    pass


class StoreNotFound(StoreError):
    pass


class EmbeddingMismatch(StoreError):
    pass


class EmbeddingError(AssistantError):
    pass


class PromptError(AssistantError):
    pass


class ConfigError(AssistantError):
    pass


class LLMError(AssistantError):
    pass


class LLMStreamCut(LLMError):
    """The stream broke off after some text arrived; ``partial`` is what arrived."""

    def __init__(self, message: str, *, partial: str = "") -> None:
        super().__init__(message)
        self.partial = partial


class LLMUnreachable(LLMError):
    pass


class LLMAuthError(LLMError):
    pass


class LLMModelNotFound(LLMError):
    pass


class LLMRateLimited(LLMError):
    pass
