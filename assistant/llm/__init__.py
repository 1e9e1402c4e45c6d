"""The OpenAI-compatible endpoint: the chat client, prompt templates, and the one reading of a
failed ``openai`` call (``faults.classify``), which the chat client and the embeddings client
(``assistant.index.embeddings``) each turn into their own one-line message and hint.

Owns: ``client`` (``ChatModel``, ``OpenAIChatModel``, streaming, timeouts, the chat's error
messages), ``prompts`` (templates loaded by name from ``prompts/``), ``faults`` (which kind of
fault an openai exception is).
May import: the shared basics only.
"""
