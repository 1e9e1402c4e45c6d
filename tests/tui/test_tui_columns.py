"""The chat's columns, as a new user read them in tmux: the /table header whole at 80 and 120
columns, the sources pane aligned in terminal cells when a title is Chinese, and each paper's
estimate shown with two decimals, papers showing the same one in retrieval order."""

from __future__ import annotations

import dataclasses
import re

import pytest
from fakes import QueueModel
from rich.cells import cell_len
from tui_helpers import QUESTION, RecordingApp, ask, asyncio_test, ready, until

from assistant.index.store import PaperStore
from assistant.paper import Paper
from assistant.search.retrieval import RetrievedPaper
from assistant.settings import load_settings
from assistant.sources.corpus import bundled_papers
from assistant.tui.screens.table import COLUMNS, TableModal, column_widths
from assistant.tui.widgets.sources import SourcesPane, score_text, sources_of

REPLY = ["DyPE extrapolates positions dynamically [1], reaching 16 million pixels with "
         "FLUX [1]. ", "Image detectors are a different topic [2]."]
CHINESE = "基于扩散变换器的超高分辨率图像生成：训练无关的动态位置外推方法研究"


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
@asyncio_test
async def test_the_table_view_shows_every_header_whole(bundled_store, embedder, size):
    app = RecordingApp(load_settings(), embedder=embedder, model=QueueModel().enqueue(REPLY))
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await ask(pilot, QUESTION)
        await ask(pilot, "/table", wait=False)
        await until(pilot, lambda: isinstance(app.screen, TableModal))
        await pilot.pause()
        table = app.screen.query_one("DataTable")
        header = table.render_line(0).text
        for name in COLUMNS:
            assert name in header, (name, header)  # "venue, year", not "venue, yea"
        for column in table.columns.values():
            assert column.content_width >= cell_len(column.label.plain), column.label
        assert table.max_scroll_x == 0  # and every column is on the screen
        title = str(app.screen.query_one("#table-title").render())
        rows = len(table.rows)
        assert title.startswith(f"{rows} paper{'' if rows == 1 else 's'} for: ")


def test_column_widths_fit_their_headers_and_the_box():
    for screen in (80, 100, 120, 200):
        widths = column_widths(screen)
        assert all(w >= cell_len(name) for w, name in zip(widths, COLUMNS, strict=True))
        box = min(screen * 96 // 100, 200) - 6
        assert sum(widths) + 2 * len(COLUMNS) <= box, (screen, widths)


@pytest.fixture
def chinese_store(embedder, tmp_path):
    """The bundled list with DyPE's title in Chinese (a long one, that wraps), in a real store
    at the user's store path."""
    papers = [dataclasses.replace(p, title=CHINESE) if "DyPE" in p.title else p
              for p in bundled_papers()]
    assert any(p.title == CHINESE for p in papers)
    store = PaperStore(collection="cjk", embedder=embedder, path=tmp_path / "store",
                       create=True)
    store.ingest(papers, source="test:cjk")
    return store


LEAD = re.compile(r"(\[\d+\]| ·) +(\d\.\d\d|    ) ")


@asyncio_test
async def test_the_sources_pane_aligns_a_chinese_title_in_terminal_cells(chinese_store,
                                                                         embedder):
    reply = ["该论文提出动态位置外推 [1]。", " Image detectors are a different topic [2]."]
    app = RecordingApp(load_settings(collection="cjk"), embedder=embedder,
                       model=QueueModel().enqueue(reply))
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await ask(pilot, QUESTION)
        await pilot.press("ctrl+o")
        pane = app.chat.query_one(SourcesPane)
        await until(pilot, lambda: any(s.paper.title == CHINESE for s in pane.sources))
        await pilot.pause()
        options = pane.options
        width = options.scrollable_content_region.width
        lines = [options.render_line(y).text for y in range(options.size.height)]
    assert all(cell_len(line) == width for line in lines)  # every line as wide as the pane
    rows: list[list[str]] = []  # each source's lines
    for line in lines:
        if LEAD.match(line):
            rows.append([line])
        elif rows and line.strip() and line[0] == " " and not line.startswith(" " * width):
            rows[-1].append(line)
    assert rows and any(len(row) > 1 for row in rows)  # some title wraps
    indents = {cell_len(LEAD.match(row[0]).group(0)) for row in rows}
    assert len(indents) == 1  # the title column starts at one cell for every source
    indent = indents.pop()
    for row in rows:  # and each title's continuation lines start under it, in cells
        for line in row[1:]:
            assert line[:indent] == " " * indent and line[indent] != " ", row
    chinese = next(row for row in rows if CHINESE[:4] in row[0])
    assert "".join(line[indent:].strip() for line in chinese) == CHINESE
    assert len(chinese) > 1  # it wrapped, under itself


def _retrieved(paper_id: str, rank: int, estimate: float | None) -> RetrievedPaper:
    paper = Paper(paper_id, f"Paper {paper_id}", "An abstract.")
    return RetrievedPaper(paper, 0.5, rank, verified=estimate)


def test_estimates_show_two_decimals_and_equal_ones_keep_retrieval_order():
    view = type("View", (), {})()
    view.answer = None
    # b's estimate is higher in the third decimal only (it differs between CPUs): a, ranked
    # first, stays first; c was not weighed and comes last; d's tiny negative shows as 0.00
    view.retrieved = [_retrieved("a", 1, 0.351), _retrieved("c", 2, None),
                      _retrieved("b", 3, 0.354), _retrieved("d", 4, -1e-9),
                      _retrieved("e", 5, 0.99999)]
    shown = sources_of(view)
    assert [s.paper.paper_id for s in shown] == ["e", "a", "b", "d", "c"]
    assert [score_text(s.score) for s in shown] == ["1.00", "0.35", "0.35", "0.00", "    "]
    assert all(re.fullmatch(r"\d\.\d\d| {4}", score_text(x))
               for x in (0.0, 1.0, 0.123456, 1 / 3, 2.5, -0.2, float("nan"), None))


def test_a_lists_less_sure_papers_come_after_the_sure_ones_under_their_own_heading():
    from assistant.answer.types import Answer
    from assistant.citations import Citation

    view = type("View", (), {})()
    view.retrieved = [_retrieved("a", 1, 0.9), _retrieved("b", 2, 0.12),
                      _retrieved("c", 3, 0.3), _retrieved("d", 4, 0.01)]
    by_id = {rp.paper.paper_id: rp.paper for rp in view.retrieved}
    view.answer = Answer("Which papers ...?", "...", "extractive", "m",
                         [Citation(1, by_id["a"]), Citation(2, by_id["c"]),
                          Citation(3, by_id["b"], less_sure=True)],
                         view.retrieved, refused=False)
    shown = sources_of(view)
    assert [(s.paper.paper_id, s.n, s.less_sure) for s in shown] == [
        ("a", 1, False), ("c", 2, False), ("b", 3, True), ("d", None, False)]


def test_a_comparisons_papers_keep_their_sides_order():
    """"Compare A, B and C": [1], [2], [3] are the sides' papers in the question's order,
    whatever their estimates; the other retrieved papers follow, best first."""
    from assistant.answer.types import Answer
    from assistant.citations import Citation

    view = type("View", (), {})()
    view.retrieved = [_retrieved("a", 1, 0.35), _retrieved("b", 2, 0.9),
                      _retrieved("c", 3, 0.07), _retrieved("d", 4, 0.01),
                      _retrieved("e", 5, 0.5)]
    by_id = {rp.paper.paper_id: rp.paper for rp in view.retrieved}
    view.answer = Answer("Compare A, B and C", "...", "extractive", "m",
                         [Citation(n, by_id[p]) for n, p in enumerate("abc", 1)],
                         view.retrieved, refused=False,
                         answerability={"sides": ["found", "sure", "not_found"]})
    shown = sources_of(view)
    assert [(s.paper.paper_id, s.n) for s in shown] == [
        ("a", 1), ("b", 2), ("c", 3), ("e", None), ("d", None)]
