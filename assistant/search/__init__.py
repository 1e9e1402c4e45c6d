"""Question -> ranked papers: dense + BM25 retrieval, fusion, filters, the multilingual side.

Owns: ``retrieval`` (``Retriever``, ``RetrievedPaper``, ``Filters``, ``best_first``),
``fusion``, ``compared`` (a comparison's sides searched on their own, their best papers first),
``query_filters`` (venue/year read from a question, and the notice an answer opens with),
``multilingual`` (e5 paper vectors).
May import: ``index``, ``sources`` and the shared basics; never ``query``, ``judge`` or ``answer``.
"""
