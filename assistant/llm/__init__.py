"""The OpenAI-compatible endpoint: the chat client, prompt templates, and the one mapping of
``openai`` exceptions to this package's errors (used by the embeddings client too).

Owns: ``client`` (``ChatModel``, ``OpenAIChatModel``, streaming, timeouts), ``prompts``
(templates loaded by name from ``prompts/``), ``faults`` (openai exception -> our error).
May import: the shared basics only.
"""
