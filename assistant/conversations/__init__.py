"""Saved chats and their exports, shared by both front ends.

Owns: ``history`` (SQLite conversations), ``export`` (Markdown, JSON, HTML...).
May import: ``answer`` and everything below it; never a front end.
"""
