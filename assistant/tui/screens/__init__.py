"""The chat TUI's screens: chat, papers, conversations, abstract, help."""
