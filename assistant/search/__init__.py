"""Question -> ranked papers: dense + BM25 retrieval, fusion, filters, the multilingual side.

Owns: ``retrieval`` (``Retriever``, ``RetrievedPaper``, ``Filters``), ``fusion``,
``query_filters`` (venue/year read from a question), ``multilingual`` (e5 paper vectors).
May import: ``index``, ``sources`` and the shared basics; never ``query``, ``judge`` or ``answer``.
"""
