"""Properties of the loaders and the chunker on many generated inputs (hypothesis).

Whatever bytes a paper list holds, loading it either returns papers or raises one of the
project's own errors (a one-line message), never anything else; a list written out and read
back keeps every record that has an abstract; the chunker never loses a word of an abstract
and never exceeds its token bound.
"""

from __future__ import annotations

import csv
import io
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.errors import AssistantError
from assistant.index.chunking import chunk_text
from assistant.sources.corpus import load_papers
from assistant.tokens import count

SUFFIXES = [".csv", ".json", ".jsonl", ".txt", ".bib"]
FAST = settings(max_examples=100, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _load(data: bytes, suffix: str) -> list:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"list{suffix}"
        path.write_bytes(data)
        return load_papers(path)


@FAST
@given(data=st.binary(max_size=600), suffix=st.sampled_from(SUFFIXES))
def test_arbitrary_bytes_load_or_raise_our_own_error(data, suffix):
    try:
        papers = _load(data, suffix)
    except AssistantError as exc:
        assert "\n" not in str(exc)
    else:
        assert all(p.abstract.strip() for p in papers)


@FAST
@given(data=st.text(max_size=400), suffix=st.sampled_from(SUFFIXES))
def test_arbitrary_text_loads_or_raises_our_own_error(data, suffix):
    try:
        _load(data.encode("utf-8"), suffix)
    except AssistantError as exc:
        assert "\n" not in str(exc)


_word = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")),
                min_size=1, max_size=12)
records = st.lists(st.fixed_dictionaries({
    "id": st.from_regex(r"[a-z][a-z0-9]{2,8}", fullmatch=True),
    "title": st.lists(_word, min_size=1, max_size=8).map(" ".join),
    # an abstract holds a word (two letters, any script); one without ("0 0 0", "%%% ###") is
    # skipped as having no abstract, and the notes say so
    "abstract": st.tuples(st.from_regex(r"[^\W\d_]{2,10}", fullmatch=True),
                          st.lists(_word, min_size=4, max_size=60)).map(
                              lambda t: " ".join([t[0], *t[1]])),
}), min_size=1, max_size=8, unique_by=lambda r: r["id"])


def _write(rows: list[dict], fmt: str) -> bytes:
    if fmt == ".jsonl":
        return "\n".join(json.dumps(r, ensure_ascii=False) for r in rows).encode()
    if fmt == ".json":
        return json.dumps(rows, ensure_ascii=False).encode()
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=["id", "title", "abstract"])
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()


@FAST
@given(rows=records, fmt=st.sampled_from([".jsonl", ".json", ".csv"]))
def test_a_round_trip_keeps_every_record(rows, fmt):
    papers = _load(_write(rows, fmt), fmt)
    assert [p.paper_id for p in papers] == [r["id"] for r in rows]
    for p, r in zip(papers, rows, strict=True):
        assert p.abstract == " ".join(r["abstract"].split())
        assert p.title == " ".join(r["title"].split())


@FAST
@given(text=st.text(min_size=1, max_size=2000), max_tokens=st.integers(32, 120),
       overlap=st.integers(0, 30))
def test_chunks_cover_every_character_within_the_bound(text, max_tokens, overlap):
    chunks = chunk_text(text, max_tokens=max_tokens, overlap=overlap)
    if not text.split():
        assert chunks == []
        return
    assert all(count(c) <= max_tokens + 2 for c in chunks)
    if overlap == 0:  # without overlap the chunks are the text, whitespace aside
        assert "".join("".join(c.split()) for c in chunks) == "".join(text.split())
    else:
        assert all("".join(c.split()) in "".join(text.split()) for c in chunks)
