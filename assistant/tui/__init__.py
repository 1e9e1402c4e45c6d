"""The chat TUI (Textual): a thin shell over the core.

``app.py`` holds the App; ``screens/`` and ``widgets/`` one thing each; ``session.py``,
``runner.py``, ``evidence.py``, ``slash.py`` and ``usage.py`` import no Textual, so they are
plain Python a test can call. Importing this package imports nothing heavy.
"""
