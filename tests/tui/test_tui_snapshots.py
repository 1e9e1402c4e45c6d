"""Snapshots of the main screens (pytest-textual-snapshot). Deterministic: a scripted chat
model, the bundled store, no clocks on screen, the input cursor not blinking.

    pytest tests/tui/test_tui_snapshots.py --snapshot-update   # after an intended UI change
"""

from __future__ import annotations

import pytest
from fakes import QueueModel
from textual.widgets import Input
from tui_helpers import QUESTION, RecordingApp, ask, ready, until

from assistant.settings import load_settings
from assistant.tui.screens.abstract import AbstractModal
from assistant.tui.screens.help import HelpScreen
from assistant.tui.screens.papers import PapersScreen

REPLY = ["DyPE extrapolates positions dynamically [1], reaching 16 million pixels with "
         "FLUX [1]. ", "Image detectors are a different topic [2]."]


@pytest.fixture
def app(bundled_store, embedder):
    return RecordingApp(load_settings(), embedder=embedder, model=QueueModel().enqueue(REPLY))


def steady(app):
    for widget in app.screen.query(Input):
        widget.cursor_blink = False


async def answered(pilot):
    await ready(pilot)
    await ask(pilot, QUESTION)
    steady(pilot.app)


def test_chat_after_an_answer_80x24(app, snap_compare):
    assert snap_compare(app, terminal_size=(80, 24), run_before=answered)


def test_chat_with_the_sources_pane_120x36(app, snap_compare):
    async def run_before(pilot):
        await answered(pilot)
        await pilot.press("ctrl+o")

    assert snap_compare(app, terminal_size=(120, 36), run_before=run_before)


def test_abstract_with_highlights(app, snap_compare):
    async def run_before(pilot):
        await answered(pilot)
        await pilot.press("ctrl+o", "enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, AbstractModal)
                    and pilot.app.screen.evidence.kind == "cited")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)


def test_papers_screen_filtered(app, snap_compare):
    async def run_before(pilot):
        await ready(pilot)
        await pilot.press("ctrl+l")
        await until(pilot, lambda: isinstance(pilot.app.screen, PapersScreen))
        await pilot.press(*"quantization")
        steady(pilot.app)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_help_screen(app, snap_compare):
    async def run_before(pilot):
        await ready(pilot)
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_chat_in_the_light_theme(app, snap_compare):
    async def run_before(pilot):
        pilot.app.theme = "textual-light"
        await answered(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
