"""Judgement: does the collection answer the question, and is each cited claim supported.

Owns: ``decision`` (the one answer / near miss / refuse decision and which papers are on topic,
called by ``ask``, ``search``, the chat and the evaluations), ``answerability`` (its fitted
model and features), ``relevance`` (per-paper evidence), ``grounding`` (the support check of an
answer's claims), ``injection`` (instruction-like text in abstracts).
May import: ``search``, ``index``, ``sources`` and the shared basics.
"""
