"""One question -> one cited answer.

Owns: ``pipeline`` (``answer()``: retrieve, decide, generate, check), ``types`` (``Answer`` and
the events streamed to front ends), ``llm_answerer`` (prompting an endpoint), ``extractive``
(the offline answerer), ``survey`` (list questions and their table), ``factory``
(``build_answerer`` from settings). May import every stage below it: ``judge``, ``query``,
``search``, ``index``, ``llm``, ``sources`` and the shared basics.
"""
