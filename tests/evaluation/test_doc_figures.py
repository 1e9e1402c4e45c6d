"""The figures the README and docs cite agree with the results files they come from.

- A figure written ``0.855<!-- fig natural.json by_kind.lookup.right_first -->`` (the comment
  is invisible when the Markdown is rendered) must equal that value of
  ``bench/results/natural.json``'s ``figures``, rounded to the decimals shown.
- Every ``bench/results/<file>`` the docs name is committed, unless the same line says it is
  not (a dev run's file).
- The README's table of settings shows each setting's real default.
"""

import json
import re
import subprocess
from pathlib import Path

import pytest

from assistant.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FIG = re.compile(r"(?<![\w.>])(?P<num>-?\d+(?:\.\d+)?)\**\s*<!--\s*fig\s+(?P<file>[\w.-]+\.json)\s+"
                 r"(?P<path>[^>]+?)\s*-->")
RESULT = re.compile(r"bench/results/(?P<name>[\w.-]+\.(?:json|md|log))")


def _figures() -> list[tuple[str, str, str, str]]:
    out = []
    for doc in DOCS:
        for m in FIG.finditer(doc.read_text()):
            out.append((doc.name, m["num"], m["file"], m["path"]))
    return out


def _value(file: str, path: str) -> float:
    record = json.loads((ROOT / "bench" / "results" / file).read_text())
    node = record.get("figures", record)
    for key in path.split("."):
        node = node[int(key)] if isinstance(node, list) else node[key]
    return float(node)


def test_the_docs_mark_the_figures_they_cite():
    marked = _figures()
    assert len(marked) >= 30, "mark each cited test figure: 0.855<!-- fig FILE.json PATH -->"


@pytest.mark.parametrize(("doc", "num", "file", "path"), _figures())
def test_a_marked_figure_equals_its_results_file(doc, num, file, path):
    decimals = len(num.split(".")[1]) if "." in num else 0
    got = _value(file, path)  # shown rounded half up: within half a unit of the last digit
    assert abs(got - float(num)) <= 10 ** -decimals / 2 + 1e-9, (
        f"{doc} shows {num} for {file} {path}; the file says {got}")


def test_every_results_file_the_docs_name_is_committed():
    tracked = set(subprocess.run(["git", "ls-files", "bench/results"], cwd=ROOT,
                                 capture_output=True, text=True, check=True).stdout.split())
    missing = []
    for doc in DOCS:
        for line in doc.read_text().splitlines():
            if "not committed" in line:
                continue
            for m in RESULT.finditer(line):
                if re.search(r"[A-Z]{3,}", m["name"]):  # a placeholder: NAME.json
                    continue
                if f"bench/results/{m['name']}" not in tracked:
                    missing.append((doc.name, m["name"]))
    assert not missing, f"named but not committed: {missing}"


def _default(name: str) -> str:
    value = Settings.model_fields[name].default
    return "unset" if value is None else str(value).lower()


def test_the_readme_settings_table_shows_the_real_defaults():
    checked = 0
    for line in (ROOT / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or "`ASSISTANT_" not in cells[1]:
            continue
        names = [n.lower().removeprefix("assistant_")
                 for n in re.findall(r"`(ASSISTANT_[A-Z0-9_]+)`", cells[1])]
        shown = [v.strip(" `") for v in cells[2].split("(")[0].split(",")]
        if len(names) != len(shown):
            continue
        for name, value in zip(names, shown, strict=True):
            if name not in Settings.model_fields:
                continue
            real = _default(name)
            try:
                assert float(value) == pytest.approx(float(real)), (name, value, real)
            except ValueError:
                assert value.lower() == real, (name, value, real)
            checked += 1
    assert checked >= 10


def test_the_docs_name_every_step_of_the_report():
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    from report import steps

    table = (ROOT / "docs" / "evaluation.md").read_text()
    table = table[table.index("What `make report` runs"):]
    table = table[:table.index("\n\n", table.index("| step |"))]
    for step in steps():
        name = step.name.removeprefix("scifact-")
        assert re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", table), step.name
