"""The chat TUI's widgets, one per module."""
