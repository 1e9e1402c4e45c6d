"""The command line: a thin shell over the core.

Owns, one module each:

- ``main``: ``main()``, the dispatch to the handlers and the one-line errors (exit 2 for a
  user error); re-exports ``build_parser``.
- ``parser``: ``build_parser``, every subcommand and its flags.
- ``args``: what the subcommands' arguments share (store and collection flags, help texts,
  subcommands whose --help ends with examples, the version).
- ``shared``: what the handlers share (settings from the flags, opening the store, the
  filters, JSON on stdout).
- ``ingest``: ``ingest`` with its progress bar and the multilingual vectors.
- ``ask``: ``ask`` (the answer, references, support check, --json, --table) and ``search``.
- ``papers``: ``papers``; ``config``: ``config``.
- ``eval``: ``eval`` (a suite or ``eval retrieval``), printing what
  ``assistant.evaluation.orchestrate`` runs.
- ``chat``: ``chat`` and ``history`` (Textual is imported only when the chat starts).
- ``collections``: ``collections``.
- ``terminal``: stdout and stderr through ``printable`` (no escape sequence from a paper list
  reaches the terminal).

May import every stage; nothing imports it.
"""
