"""``Hanging``: a row of a list as two columns, a lead of fixed cell width and a body wrapped
beside it, each continuation line starting under the body's first cell.

Widths are terminal cells (``Content.cell_length``, ``Content.wrap``), never ``len()``: a title
in Chinese, Japanese or Korean takes two cells a character and still lines up. The body is
wrapped at render time, so the columns hold whatever width the list has (a scroll bar coming
and going, the pane resized).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content
from textual.visual import Visual

if TYPE_CHECKING:
    from textual.css.styles import RulesMap
    from textual.strip import Strip
    from textual.style import Style
    from textual.visual import RenderOptions

MIN_BODY = 8  # narrower than this beside the lead, the body flows under it instead


class Hanging(Visual):
    def __init__(self, lead: Content, body: Content) -> None:
        self.lead = lead
        self.body = body

    def lines(self, width: int) -> list[Content]:
        """The rows at ``width`` cells, each exactly ``width`` cells wide."""
        width = max(width, 1)
        indent = self.lead.cell_length
        if width - indent < MIN_BODY:
            rows = (self.lead + self.body).wrap(width)
        else:
            pad = Content(" " * indent)
            rows = [(self.lead if i == 0 else pad) + line
                    for i, line in enumerate(self.body.wrap(width - indent) or [Content()])]
        return [row.pad_right(width - row.cell_length) if row.cell_length < width else row
                for row in rows]

    def render_strips(self, width: int, height: int | None, style: Style,
                      options: RenderOptions) -> list[Strip]:
        if not width:
            return []
        return Content("\n").join(self.lines(width)).render_strips(width, height, style,
                                                                   options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.lead.cell_length + self.body.cell_length

    def get_height(self, rules: RulesMap, width: int) -> int:
        return len(self.lines(width))
