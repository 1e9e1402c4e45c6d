"""The command line: a thin shell over the core.

Owns: ``main`` (parser and the handlers of ingest, ask, search, papers, config, eval), ``chat``
(``chat`` and ``history``; Textual is imported only when the chat starts), ``collections``.
May import every stage; nothing imports it.
"""
