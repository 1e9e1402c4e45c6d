"""One question -> one cited answer.

Owns: ``pipeline`` (``answer()``: read the question's form, retrieve, decide, generate, check;
it carries the verdict out and decides nothing), ``types`` (``Answer``, the ``Answerer``
protocol and the events streamed to front ends), ``llm_answerer`` (prompting an endpoint),
``extractive`` (the offline answerer, and ``near_miss_text``: a near miss composed offline),
``outcome_gate`` (an LLM reply that starts ``NONE:``), ``survey`` (the table of a list's
papers), ``factory`` (``build_answerer`` from settings). May import every stage below it:
``judge``, ``query``, ``search``, ``index``, ``llm``, ``sources`` and the shared basics.
"""
