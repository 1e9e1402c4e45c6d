"""The chat TUI (Textual): a thin shell over the core.

``app.py`` (the App, key bindings) and ``app.tcss`` (its style); ``host.py`` (the protocol the
chat screen needs of the app); ``screens/`` one screen each: ``chat``, ``abstract`` (a paper's
abstract with its evidence highlighted), ``papers``, ``conversations``, ``table`` (``/table``),
``help``; ``widgets/`` one widget each: ``answer_view``, ``prompt``, ``sources`` (the sources
pane), ``status``, ``welcome``, ``hanging``. ``session.py`` (opens the store off the UI thread
after the first paint), ``runner.py`` (the core on one background event loop), ``evidence.py``
(the sentences to highlight), ``slash.py`` (slash commands) and ``usage.py`` (tokens and cost)
import no Textual, so they are plain Python a test can call. Importing this package imports
nothing heavy.
"""
