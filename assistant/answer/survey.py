"""An answer's papers as a table: one row per cited paper, what it proposes, its main result.

    assistant ask --table md  "Which papers are about quantization?"
    assistant ask --table csv "..." > papers.csv

Both cells are sentences of the paper's own abstract (so they need no citation check): the
first that states the contribution ("we propose/introduce ..."), and the last that states a
result (outperforms, achieves, a number with % or x), each in the third person.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from assistant.judge.injection import instructions_in
from assistant.textutil import clean_markup, split_sentences, strip_section_label

if TYPE_CHECKING:
    from assistant.answer.types import Answer
    from assistant.paper import Paper

_PROPOSES = re.compile(r"\b(?:we|this (?:paper|work))\s+(?:propose|introduce|present|develop|"
                       r"design|describe|study|show|formulate)\w*\b|\b(?:named|called)\b",
                       re.IGNORECASE)
_RESULT = re.compile(r"\b(?:outperform\w*|achiev\w*|improv\w*|surpass\w*|state-of-the-art|"
                     r"reduc\w*|speedup|gains?)\b|\d+(?:\.\d+)?\s*(?:%|x|×)", re.IGNORECASE)
FORMATS = ("md", "csv")


@dataclass
class Row:
    n: int
    title: str
    venue_year: str
    proposes: str
    result: str


def row_for(n: int, paper: Paper) -> Row:
    from assistant.answer.extractive import third_person

    text = clean_markup(paper.abstract)
    planted = instructions_in(text)  # a sentence addressed to an assistant is never quoted
    sentences = [s for s in split_sentences(text) if not planted(s)]
    proposes = next((s for s in sentences if _PROPOSES.search(s)), sentences[0] if sentences
                    else "")
    results = [s for s in sentences if _RESULT.search(s) and s != proposes]
    return Row(n, paper.display_title, paper.venue_year,
               third_person(strip_section_label(proposes)),
               third_person(strip_section_label(results[-1])) if results else "")


def rows(answer: Answer) -> list[Row]:
    """The papers the answer lists (not its "less sure" ones)."""
    return [row_for(c.n, c.paper) for c in answer.citations if not c.less_sure]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(table: Sequence[Row], fmt: str = "md") -> str:
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["n", "title", "venue_year", "proposes", "main_result"])
        for r in table:
            writer.writerow([r.n, r.title, r.venue_year, r.proposes, r.result])
        return out.getvalue()
    lines = ["| # | paper | venue | what it proposes | main result |", "|---|---|---|---|---|"]
    lines += [f"| [{r.n}] | {_cell(r.title)} | {r.venue_year} | {_cell(r.proposes)} | "
              f"{_cell(r.result)} |" for r in table]
    return "\n".join(lines) + "\n"
