"""Paper lists in, Papers out: the bundled text format, JSON, JSONL, CSV and BibTeX.

The bundled format is a header line naming the venue and year ("ICML 2026 论文列表"), then
abstracts separated by blank lines. Structured formats map the common field names; BibTeX and
the JSON exports of OpenReview, arXiv, Semantic Scholar and paperlists are read by formats.py.
"""

from __future__ import annotations

import csv
import hashlib
import json
import logging
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from assistant.errors import CorpusFormatError, InputError
from assistant.paper import Paper
from assistant.settings import BUNDLED_CORPUS
from assistant.sources.bibtex import bibtex_records
from assistant.sources.formats import detect, normalize
from assistant.sources.titles import derive_title
from assistant.textutil import code_link, year_of

log = logging.getLogger(__name__)

_ID_FIELDS = ("_id", "paper_id", "uid", "id")
_TITLE_FIELDS = ("title", "name")
_ABSTRACT_FIELDS = ("abstract", "text", "summary", "content")
_URL_FIELDS = ("url", "site", "link", "pdf", "pdf_url", "paper_url")
_HEADER = re.compile(r"(?P<venue>[A-Za-z][A-Za-z\-]*)\s*['’]?\s*(?P<year>(?:19|20)\d{2})")
SUFFIXES = (".txt", ".json", ".jsonl", ".ndjson", ".csv", ".bib", ".bibtex")
_WRAPPERS = ("papers", "data", "items", "records", "corpus", "notes")  # notes: OpenReview API


class PaperList(list[Paper]):
    """What load_papers returns: the papers, and what it left out: the records without an
    abstract (``skipped``, their numbers in ``no_abstract``) and the records whose id an
    earlier record already had (``duplicates``: the first one is kept)."""

    def __init__(self, papers: Iterable[Paper] = (), *, skipped: int = 0) -> None:
        super().__init__(papers)
        self.skipped = skipped
        self.no_abstract: list[int] = []
        self.duplicates: list[str] = []
        self.odd: list[str] = []  # "record 3: title is a list" (read, as text or left out)
        self.text_notes: list[str] = []  # what a .txt list lacks ("no header line")
        self.records = 0

    def notes(self, path: Path | str) -> list[str]:
        """One line per kind of record left out, saying which and what policy applied."""
        out = []
        if self.skipped:
            first = ", ".join(map(str, self.no_abstract[:5]))
            out.append(f"{path}: skipped {self.skipped} of {self.records} records without an "
                       f"abstract (record {first}{', ...' if self.skipped > 5 else ''})")
        if self.duplicates:
            first = ", ".join(self.duplicates[:3])
            out.append(f"{path}: {len(self.duplicates)} records repeat an earlier record's id "
                       f"({first}{', ...' if len(self.duplicates) > 3 else ''}): the first "
                       "record with an id is kept")
        out += [f"{path}: {note}" for note in self.text_notes]
        if self.odd:
            first = "; ".join(self.odd[:3])
            out.append(f"{path}: {len(self.odd)} records have fields of unexpected types, "
                       f"read as text or left out ({first}{'; ...' if len(self.odd) > 3 else ''})")
        return out


def stable_id(venue: str, year: int | None, abstract: str) -> str:
    digest = hashlib.sha1(" ".join(abstract.split()).encode("utf-8")).hexdigest()[:10]
    prefix = f"{venue.lower()}{year or ''}" or "paper"
    return f"{prefix}-{digest}"


def _authors(value: Any) -> list[str]:
    if not value:
        return []
    if isinstance(value, list):
        out = []
        for a in value:
            out.append(a.get("name", "") if isinstance(a, dict) else str(a))
        return [a.strip() for a in out if a and a.strip()]
    text = str(value)
    sep = ";" if ";" in text else (" and " if " and " in text else ",")
    return [a.strip() for a in text.split(sep) if a.strip()]


def _first(record: dict[str, Any], fields: Iterable[str]) -> Any:
    for f in fields:
        v = record.get(f)
        if v not in (None, "", []):
            return v
    return None


def _text(value: Any, field: str, odd: list[str]) -> str:
    """A field's text: a string as it is, a number or a list of strings read as text (noted
    in ``odd``), anything else left empty (noted)."""
    if value is None or isinstance(value, str):
        return value or ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        odd.append(f"{field} is a number")
        return str(value)
    if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
        odd.append(f"{field} is a list")
        return " ".join(str(v) for v in value)
    odd.append(f"{field} is {'an object' if isinstance(value, dict) else type(value).__name__}"
               " (left out)")
    return ""


_WORDS = re.compile(r"[^\W\d_]{2,}")  # a word of two letters or more, in any script


def paper_from_record(record: dict[str, Any], *, venue: str = "", year: int | None = None,
                      odd: list[str] | None = None) -> Paper:
    """Map one JSON/CSV record to a Paper; raises CorpusFormatError without an abstract (none,
    or one with no word in it). ``odd`` collects the fields of unexpected types."""
    odd = [] if odd is None else odd
    abstract = " ".join(_text(_first(record, _ABSTRACT_FIELDS), "abstract", odd).split())
    if not _WORDS.search(abstract):
        raise CorpusFormatError("record has no abstract/text field")
    venue_v = _text(record.get("venue"), "venue", odd) or venue
    venue_v = venue_v.upper() if venue_v.islower() and len(venue_v) <= 8 else venue_v
    year_v = year_of(record.get("year")) or year
    if record.get("year") not in (None, "") and year_of(record.get("year")) is None:
        odd.append(f"year {str(record.get('year'))[:20]!r} is not a year (left out)")
    title = " ".join(_text(_first(record, _TITLE_FIELDS), "title", odd).split())
    derived = not title
    title = title or derive_title(abstract)
    pid = _first(record, _ID_FIELDS)
    url = _first(record, _URL_FIELDS) or ""
    code = str(record.get("code_url") or record.get("code") or "") or code_link(abstract)
    known = set(_ID_FIELDS + _TITLE_FIELDS + _ABSTRACT_FIELDS + _URL_FIELDS) | {
        "authors", "venue", "year", "code_url", "code"}
    extra = {k: v for k, v in record.items()
             if k not in known and v not in (None, "", [])
             and isinstance(v, str | int | float | bool | list)}
    return Paper(
        paper_id=str(pid) if pid not in (None, "") else stable_id(venue_v, year_v, abstract),
        title=title,
        abstract=abstract,
        authors=_authors(record.get("authors")),
        venue=venue_v,
        year=year_v,
        url=str(url),
        code_url=code,
        title_derived=derived,
        extra=extra,
    )


def parse_text_list(text: str, *, source: str = "text") -> list[Paper]:
    """The bundled format: header line with venue and year, then blank-line-separated abstracts."""
    blocks = [b.strip() for b in re.split(r"\n\s*\n", text.replace("\r\n", "\n")) if b.strip()]
    if not blocks:
        raise CorpusFormatError(f"{source} holds no abstracts: expected a header line, then "
                                "abstracts separated by blank lines")
    venue, year = "", None
    m = _HEADER.search(blocks[0].splitlines()[0]) if len(blocks[0].splitlines()[0]) < 120 else None
    if m:
        venue, year = m.group("venue"), int(m.group("year"))
        first_rest = "\n".join(blocks[0].splitlines()[1:]).strip()
        blocks = ([first_rest] if first_rest else []) + blocks[1:]
    papers = []
    for block in blocks:
        abstract = " ".join(block.split())
        if len(abstract) < 40:
            continue
        papers.append(paper_from_record({"abstract": abstract}, venue=venue, year=year))
    if not papers:
        raise CorpusFormatError(f"{source} holds no abstracts (of 40 characters or more): "
                                "expected a header line, then abstracts separated by blank "
                                "lines")
    return papers


def _records_json(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8-sig"))
    if isinstance(data, dict):
        for key in _WRAPPERS:
            if isinstance(data.get(key), list):
                return list(data[key])
        if detect(data) != "generic":  # one Semantic Scholar paper or OpenReview note
            return [data]
        raise CorpusFormatError(f"{path}: a JSON object must hold a list under 'papers'")
    if not isinstance(data, list):
        raise CorpusFormatError(f"{path}: expected a JSON list of paper objects")
    return data


def _records_jsonl(path: Path) -> list[dict[str, Any]]:
    records = []
    with path.open(encoding="utf-8-sig") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise CorpusFormatError(f"{path}:{lineno}: not valid JSON ({exc.msg}); fix or "
                                        "remove that line") from None
    return records


def _records_csv(path: Path) -> list[dict[str, Any]]:
    """Strict CSV: a quote opened and never closed is an error naming the line it opens on,
    never a row that swallows the rows after it."""
    csv.field_size_limit(1 << 26)  # a list may carry full texts, beyond csv's 131,072
    with path.open(encoding="utf-8-sig", newline="") as fh:
        reader = csv.reader(fh, strict=True)
        start = 1
        try:
            header = next(reader, None)
            if not header:
                raise CorpusFormatError(f"{path}: CSV has no header row")
            rows = []
            start = reader.line_num + 1
            for row in reader:
                if row:
                    if len(row) > len(header):
                        raise CorpusFormatError(
                            f"{path}:{start}: {len(row)} fields where the header has "
                            f"{len(header)}; quote fields that contain commas")
                    rows.append(dict(zip(header, row, strict=False)))
                start = reader.line_num + 1
        except csv.Error as exc:
            raise CorpusFormatError(f"{path}:{start}: bad CSV ({exc}); a quoted field that "
                                    "starts on this line is never closed, or a quote inside "
                                    "a field is not doubled") from None
        return rows


LONG_ABSTRACT = 4000  # characters: longer than nearly every real abstract


def _text_list_notes(papers: list[Paper]) -> list[str]:
    """What was read from a text list, when it is not what the format expects: no header line
    (venue and year unknown), or abstracts too long to be abstracts (a paper's full text, a
    file of something else, abstracts not separated by blank lines)."""
    notes = []
    n = len(papers)
    if not any(p.venue or p.year for p in papers):
        notes.append(f"read {n} abstract{'s' if n != 1 else ''}, no header line (e.g. "
                     "'ICML 2026' on the first line): venue and year unknown")
    long = [p for p in papers if len(p.abstract) > LONG_ABSTRACT]
    if long:
        notes.append(f"{len(long)} of {n} abstracts run over {LONG_ABSTRACT} characters (the "
                     f"longest {max(len(p.abstract) for p in long):,}): is this a paper list? "
                     "Separate abstracts with a blank line")
    return notes


def _text_file(path: Path) -> str:
    """A text paper list's text; NUL bytes mean it is no text file (a binary, a disk image)."""
    text = path.read_text(encoding="utf-8-sig")
    if "\x00" in text:
        raise CorpusFormatError(f"{path} holds {text.count(chr(0))} NUL bytes: it is not a "
                                "text paper list; export the list as UTF-8 text, JSON or CSV")
    return text


def load_papers(path: Path | str) -> PaperList:
    """Load a paper list by its suffix (JSON records also by their shape, see formats.detect).
    Records without an abstract are skipped and counted. Every problem is one
    CorpusFormatError/InputError line."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"no such file: {path}")
    if path.is_dir():
        raise InputError(f"{path} is a folder: pass the paper list files in it")
    suffix = path.suffix.lower()
    bib = suffix in (".bib", ".bibtex")
    try:
        if suffix == ".txt":
            listed = PaperList(parse_text_list(_text_file(path), source=str(path)))
            listed.records = len(listed)
            listed.text_notes = _text_list_notes(listed)
            return listed
        if bib:
            records = bibtex_records(_text_file(path), source=str(path))
        elif suffix in (".jsonl", ".ndjson"):
            records = _records_jsonl(path)
        elif suffix == ".json":
            records = _records_json(path)
        elif suffix == ".csv":
            records = _records_csv(path)
        else:
            raise InputError(f"{path}: unsupported file type {suffix or '(none)'}; use "
                             ".txt, .json, .jsonl, .csv or .bib")
    except UnicodeDecodeError:
        raise CorpusFormatError(f"{path} is not UTF-8 text: convert it to UTF-8") from None
    except PermissionError:
        raise InputError(f"cannot read {path}: permission denied (check its owner and mode, "
                         "e.g. chmod u+r)") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise CorpusFormatError(
            f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise CorpusFormatError(f"{path}: JSON nested too deeply to be a paper list") from None
    except csv.Error as exc:
        raise CorpusFormatError(f"{path}: bad CSV ({exc})") from None
    papers, seen = PaperList(), set()
    papers.records = len(records)
    for i, rec in enumerate(records, 1):
        if not isinstance(rec, dict):
            raise CorpusFormatError(f"{path}: record {i} is not an object")
        odd: list[str] = []
        try:
            paper = paper_from_record(rec if bib else normalize(rec, stem=path.stem), odd=odd)
            if odd:
                papers.odd.append(f"record {i}: {', '.join(odd)}")
        except CorpusFormatError:
            papers.skipped += 1  # a record without an abstract has nothing to retrieve
            papers.no_abstract.append(i)
            continue
        if paper.paper_id in seen:
            papers.duplicates.append(paper.paper_id)
            continue
        seen.add(paper.paper_id)
        papers.append(paper)
    if not papers:
        if bib:
            raise CorpusFormatError(f"{path}: none of its {len(records)} entries has an abstract "
                                    "field; export the list with abstracts included")
        raise CorpusFormatError(f"{path}: no record has an abstract (fields tried: "
                                f"{', '.join(_ABSTRACT_FIELDS)})")
    return papers


def bundled_papers() -> list[Paper]:
    return load_papers(BUNDLED_CORPUS)
