"""The paper-list formats researchers export, mapped to the record corpus.paper_from_record reads.

- BibTeX (.bib) from PMLR, the ACL Anthology, Zotero or JabRef: ``bibtex_records``. A small
  parser (``@type{key, name = {nested {braces}} | "quoted" | 2023 | macro # ..., ...}``) with
  @string macros and month names resolved and @comment/@preamble skipped; LaTeX accents and
  markup become plain text, "Last, First" names become "First Last", long venue names their
  acronym.
- JSON records, told apart by their shape (``detect``): OpenReview notes (API v1 and v2), the
  arXiv metadata snapshot (Kaggle), Semantic Scholar Graph API papers and papercopilot
  paperlists exports. ``normalize`` maps one to ``paper_id, title, abstract, authors, venue,
  year, url, code_url`` plus fields kept in ``Paper.extra`` (status, accepted, track, keywords,
  tldr, doi, ...). Any other record passes through unchanged.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from assistant.sources.bibtex import (
    _ACRONYM,
    _acronym,
    latex_to_text,
)
from assistant.textutil import code_link, year_of

# -- JSON records by shape -------------------------------------------------------------------
_S2_LINKS = ("citingPaper", "citedPaper")  # /citations and /references wrap each paper


def detect(record: dict[str, Any]) -> str:
    """"semanticscholar", "arxiv", "openreview", "paperlists" or "generic"."""
    if "paperId" in record or any(isinstance(record.get(k), dict) for k in _S2_LINKS):
        return "semanticscholar"
    if "authors_parsed" in record or {"id", "versions", "categories"} <= record.keys():
        return "arxiv"
    if isinstance(record.get("content"), dict) and "id" in record:
        return "openreview"
    if ("status" in record or "track" in record) and ("site" in record or "uid" in record
                                                       or isinstance(record.get("author"), str)):
        return "paperlists"
    return "generic"


def normalize(record: dict[str, Any], *, stem: str = "") -> dict[str, Any]:
    """``record`` in the shape paper_from_record reads; ``stem`` is the file name without its
    suffix ("iclr2024"), the venue and year of a paperlists export whose records lack them."""
    kind = detect(record)
    if kind == "semanticscholar":
        return _semanticscholar(record)
    if kind == "arxiv":
        return _arxiv(record)
    if kind == "openreview":
        return _openreview(record)
    if kind == "paperlists":
        return _paperlists(record, stem)
    return record


def _text(value: Any) -> str:
    return " ".join(str(value).split()) if value not in (None, "") else ""


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _strings(value: Any) -> list[str]:
    """A list of names or keywords, whether given as a list or as one string."""
    items = value if isinstance(value, list) else [value]
    return [_text(v) for v in items if isinstance(v, str) and _text(v)]


def _semanticscholar(r: dict[str, Any]) -> dict[str, Any]:
    for link in _S2_LINKS:
        if isinstance(r.get(link), dict):
            r = r[link]
    ext, pub = _obj(r.get("externalIds")), _obj(r.get("publicationVenue"))
    name = _text(r.get("venue") or pub.get("name"))
    short = _acronym(name) if name else None
    alternates = [a for a in pub.get("alternate_names") or [] if isinstance(a, str)]
    short = short or next((a for a in alternates if re.fullmatch(_ACRONYM, a)), None)
    pid = _text(r.get("paperId"))
    return {
        "paper_id": pid, "title": _text(r.get("title")), "abstract": _text(r.get("abstract")),
        "authors": [_text(a.get("name")) for a in r.get("authors") or []
                    if isinstance(a, dict) and a.get("name")],
        "venue": short or name, "year": year_of(r.get("year") or r.get("publicationDate")),
        "url": _text(r.get("url")) or (f"https://www.semanticscholar.org/paper/{pid}" if pid
                                       else ""),
        "doi": _text(ext.get("DOI")), "arxiv_id": _text(ext.get("ArXiv")),
        "tldr": _text(_obj(r.get("tldr")).get("text")),
        "fields_of_study": _strings(r.get("fieldsOfStudy") or []),
        "open_access_pdf": _text(_obj(r.get("openAccessPdf")).get("url")),
    }


def _created_year(versions: Any) -> int | None:
    """The year of an arXiv snapshot's first version ("Mon, 2 Apr 2007 19:18:42 GMT")."""
    if not isinstance(versions, list) or not versions or not isinstance(versions[0], dict):
        return None
    try:
        return parsedate_to_datetime(str(versions[0].get("created"))).year
    except (TypeError, ValueError):
        return year_of(versions[0].get("created"))


def _arxiv(r: dict[str, Any]) -> dict[str, Any]:
    aid = _text(r.get("id"))
    parsed = r.get("authors_parsed")
    if isinstance(parsed, list) and parsed:
        authors = [latex_to_text(" ".join(str(p) for p in (a[1:2] + a[:1] + a[2:3]) if p))
                   for a in parsed if isinstance(a, list) and a]
    else:
        text = latex_to_text(re.sub(r"\([^)]*\)", " ", str(r.get("authors") or "")))
        authors = [a.strip() for a in re.split(r",\s*(?:and\s+)?|\s+and\s+", text)]
    comments = _text(r.get("comments"))
    return {
        "paper_id": f"arXiv:{aid}" if aid else "",
        "title": latex_to_text(str(r.get("title") or "")),
        "abstract": latex_to_text(str(r.get("abstract") or ""), markup=False),
        "authors": [a for a in authors if a], "venue": "arXiv",
        "year": _created_year(r.get("versions")) or year_of(r.get("update_date")),
        "url": f"https://arxiv.org/abs/{aid}" if aid else "", "code_url": code_link(comments),
        "doi": _text(r.get("doi")), "journal_ref": _text(r.get("journal-ref")),
        "categories": str(r.get("categories") or "").split(), "comments": comments,
    }


_OR_VENUE = re.compile(r"(?:submitted\s+to\s+)?(?P<venue>[A-Za-z][\w\-]*?)\s*"
                       r"(?P<year>(?:19|20)\d{2})\b\s*(?P<rest>.*)", re.IGNORECASE)
_PRESENTED = re.compile(r"\b(oral|spotlight|poster|notable\b.*)$", re.IGNORECASE)


def _content(content: dict[str, Any], *keys: str) -> Any:
    """A note's field; API v2 wraps every value as {"value": ...}."""
    for key in keys:
        value = content.get(key)
        if isinstance(value, dict):
            value = value.get("value")
        if value not in (None, "", []):
            return value
    return None


def _venue_id(venue_id: str) -> tuple[str, int | None]:
    """"ICLR.cc/2024/Conference/Rejected_Submission" -> ("ICLR", 2024)."""
    parts = [p for p in venue_id.split("/") if p]
    at = next((i for i, p in enumerate(parts) if re.fullmatch(r"(?:19|20)\d{2}", p)), None)
    name = parts[at - 1] if at else (parts[0] if parts else "")
    return re.sub(r"\.(?:cc|org|com|net|io)$", "", name), int(parts[at]) if at is not None else None


def openreview_status(venue: str, venue_id: str) -> tuple[str, bool | None, str]:
    """(status, accepted, track) from a note's venue ("ICLR 2024 poster", "Submitted to ICLR
    2024") and venueid (".../Rejected_Submission", ".../Withdrawn_Submission")."""
    both = f"{venue} {venue_id}".lower().replace("_", " ")
    if "withdraw" in both:
        return "Withdraw", False, ""
    if "desk reject" in both:
        return "Desk Reject", False, ""
    if "reject" in both:
        return "Reject", False, ""
    if re.search(r"\bsubmi(?:tted|ssion)\b", venue.lower()) or venue_id.endswith("/Submission"):
        return "Submitted", False, ""
    if not venue:
        return "", (True if venue_id else None), ""
    m = _OR_VENUE.match(venue)
    rest = m.group("rest").strip() if m else ""
    p = _PRESENTED.search(rest)
    if p:
        return p.group(1).capitalize(), True, rest[:p.start()].strip()
    return (rest[:1].upper() + rest[1:]), True, ""


def _openreview(r: dict[str, Any]) -> dict[str, Any]:
    c = r["content"]
    nid = _text(r.get("id"))
    venue_text = _text(_content(c, "venue"))
    venue_id = _text(_content(c, "venueid")) or _text(r.get("domain"))
    invitation = r.get("invitation") or next(iter(r.get("invitations") or []), "")
    name, year = _venue_id(venue_id or str(invitation))
    m = _OR_VENUE.match(venue_text)
    if m:
        name, year = m.group("venue"), int(m.group("year"))
    stamp = r.get("pdate") or r.get("cdate") or r.get("tcdate")
    if year is None and isinstance(stamp, int | float) and 0 < stamp < 1e13:  # milliseconds
        year = datetime.fromtimestamp(stamp / 1000, tz=UTC).year
    status, accepted, track = openreview_status(venue_text, venue_id)
    code = _text(_content(c, "code"))
    keywords = _content(c, "keywords") or []
    return {
        "paper_id": nid, "title": _text(_content(c, "title")),
        "abstract": _text(_content(c, "abstract")),
        "authors": [a for a in _strings(_content(c, "authors") or []) if a != "Anonymous"],
        "venue": name, "year": year, "url": f"https://openreview.net/forum?id={nid}",
        "code_url": code if code.startswith("http") else "",
        "status": status, "accepted": accepted, "track": track,
        "keywords": keywords if isinstance(keywords, str) else _strings(keywords),
        "tldr": _text(_content(c, "TLDR", "TL;DR", "tldr", "one-sentence_summary")),
        "primary_area": _text(_content(c, "primary_area")),
    }


_PAPERLISTS_EXTRA = ("status", "accepted", "track", "keywords", "primary_area", "tldr",
                     "project", "openreview")


def _paperlists(r: dict[str, Any], stem: str) -> dict[str, Any]:
    """A papercopilot/paperlists record. Their own files ("iclr2024.json") give "author" as
    "A;B", and no venue or year (the file name has them); the derived lists (uid, venue, year,
    authors) already read as they are."""
    if "authors" in r or not isinstance(r.get("author"), str):
        return r
    m = re.fullmatch(r"([a-z]+)[-_]?((?:19|20)\d{2})", stem.lower())
    venue, year = (m.group(1), int(m.group(2))) if m else ("", None)
    pid = _text(r.get("id"))
    return {
        "paper_id": f"{venue}{year}-{pid}" if m and pid else pid, "title": _text(r.get("title")),
        "abstract": _text(r.get("abstract")),
        "authors": [a.strip() for a in r["author"].split(";") if a.strip()],
        "venue": venue, "year": year, "url": r.get("site") or r.get("openreview") or "",
        "code_url": _text(r.get("github")),
        **{k: r[k] for k in _PAPERLISTS_EXTRA if r.get(k) not in (None, "")},
    }
