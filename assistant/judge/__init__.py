"""Judgement: does the collection answer the question, and is each cited claim supported.

Owns: ``decision`` (the one answer / near miss / refuse decision, which papers are on topic,
and its last word after generation, ``settle``; called by ``ask``, ``search``, the chat and the
evaluations), ``evidence`` (each paper's 0-1 estimate: retrieval and the verifier weighed
together), ``verifier`` (the cross-encoder: does this paper answer the question?),
``answerability`` (the fitted outcome model and its features), ``relevance`` (per-paper
evidence and which papers a list holds), ``introduces`` (does a paper introduce the method a
question names?), ``grounding`` (the support check of an answer's claims), ``injection``
(instruction-like text in abstracts).
May import: ``query``, ``search``, ``index``, ``sources`` and the shared basics.
"""
