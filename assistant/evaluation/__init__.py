"""Evaluation: BEIR-format retrieval benchmarks and scripted Q&A suites.

- ``suite``: the suite format (YAML), its splits and gates.
- ``runner``: runs a suite through the same ``answer()`` every front end uses, and writes the
  reports (JSON and Markdown, against a baseline).
- ``beir``: ``eval retrieval``, a BEIR-format benchmark end to end.
- ``orchestrate``: a run from settings, as ``assistant eval`` makes it: the store (the bundled
  list into an empty icml2026 collection; a benchmark's ``-bench`` store), the answerer and the
  LLM judge, then the run and its reports.
- ``metrics``: ranking metrics as BEIR/pytrec_eval define them.
- ``generate``: the generated TL;DR cases of the large suite.
- ``splits``: the one split registry.

Imports the stages below it; never the front ends (``cli``, ``tui``).
"""
