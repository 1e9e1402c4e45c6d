"""Issue 17's faults with finer assertions than the fault report (bench/faults.py, whose every
case runs in tests/cli/test_faults.py): damage that keeps sizes and times, hostile text, query
vectors, dropped streams, leftovers, odd lists and questions. CLI cases run ``main`` (the real
argument parsing, output and exit codes) or the CLI in a subprocess."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from assistant.cli.main import main

Q = "Which paper generates ultra-high-resolution images with diffusion transformers?"
ESCAPES = ("\x1b", "\x07", "\x9b", "\u202e")


def _copy(src, dst):
    shutil.copytree(src, dst)
    return dst


def test_damage_that_keeps_size_and_time_is_found_by_a_new_process(bundled_store_dir, tmp_path,
                                                                   embedder):
    """Two papers' chunk ids swapped in chunks.json, the file's size and time kept: a process
    that opens the index checks every CRC, rebuilds, and cites the right paper."""
    from assistant.index import chunk_index
    from assistant.index.store import PaperStore
    from assistant.search.retrieval import Retriever

    path = _copy(bundled_store_dir, tmp_path / "copy")
    store = PaperStore(collection="icml2026", embedder=embedder, path=path)
    assert "DyPE" in Retriever(store=store).search(Q, k=1).papers[0].paper.title
    chunks = chunk_index.index_dir(store) / "chunks.json"
    text, st = chunks.read_text(), chunks.stat()
    papers = list(dict.fromkeys(json.loads(text)["papers"]))
    a = papers[0]
    b = next(p for p in papers[1:] if len(p) == len(a))
    chunks.write_text(text.replace(f'"{a}"', '"\0"').replace(f'"{b}"', f'"{a}"')
                      .replace('"\0"', f'"{b}"'))
    os.utime(chunks, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert chunks.stat().st_size == st.st_size
    chunk_index._VERIFIED.clear()  # what a new process starts with
    assert "DyPE" in Retriever(store=store).search(Q, k=1).papers[0].paper.title
    assert chunks.read_text() == text  # rebuilt from the collection


def test_a_nan_or_infinite_score_is_never_ranked(bundled_store, tmp_path):
    import numpy as np

    from assistant.index.chunk_index import ensure_index

    index = ensure_index(bundled_store)
    index.load()
    index._vectors[:, 0] = np.nan  # one chunk's vector damaged in memory
    index._vectors[:, 1] = np.inf
    query = index._vectors[:, 2].copy()
    hits = index.dense(query, n=50)
    ids = index._meta["ids"]
    assert hits and ids[0] not in {h.chunk_id for h in hits}
    assert all(np.isfinite(h.score) for h in hits)


def test_printable_strips_what_a_terminal_acts_on_and_json_keeps_the_data():
    from assistant.textutil import printable, safe_json

    hostile = ("a\x1b]0;title\x07b\x1b]52;c;SGVsbG8=\x07c\x1b[2Jd\x1b[8mhid\x1b[0me\x9b2Jf"
               "\u202eg\rh\x00i")
    shown = printable(hostile)
    assert shown == "abcdhidefghi"
    assert printable("tab\tand\nnewline, 中文") == "tab\tand\nnewline, 中文"
    text = safe_json({"t": hostile})
    assert not any(c in text for c in ESCAPES)
    assert json.loads(text)["t"] == hostile


def test_escapes_in_a_paper_list_never_reach_the_terminal(tmp_path, capsys):
    store = str(tmp_path / "s")
    listing = tmp_path / "hostile.jsonl"
    listing.write_text(json.dumps({
        "id": "h1", "title": "Evil\x1b]0;pwned\x07 sampler\x1b]52;c;SGVsbG8=\x07",
        "authors": "A. \x9b2JPerson; B. \u202eReversed",
        "abstract": "We study hostile diffusion samplers. \x1b[2J\x1b[8mHidden text.\x1b[0m "
                    "We show the sampler improves fidelity on four benchmarks."}) + "\n")
    assert main(["ingest", str(listing), "--store", store]) == 0
    for args in (["papers"], ["papers", "--json"], ["search", "hostile diffusion samplers"],
                 ["ask", "Which paper studies hostile diffusion samplers?"],
                 ["ask", "--json", "Which paper\x1b]0;x\x07 studies hostile samplers?"]):
        capsys.readouterr()
        assert main([*args, "--store", store]) == 0, args
        out, err = capsys.readouterr()
        assert not any(c in out + err for c in ESCAPES), (args, out[:300])
    # the store keeps the original
    from assistant.index.embeddings import LocalEmbedder
    from assistant.index.records import record
    from assistant.index.store import PaperStore

    raw = PaperStore(collection="icml2026", embedder=LocalEmbedder(), path=tmp_path / "s")
    metas = raw.get_pages(where={"chunk": 0}, include=["metadatas"])["metadatas"]
    assert record(metas[0])["title"].startswith("Evil\x1b]0;pwned\x07")


def test_the_question_vector_is_checked_like_an_ingested_one(wire):
    from assistant.errors import EmbeddingError
    from assistant.index.embeddings import OpenAIEmbedder

    emb = OpenAIEmbedder(model="emb-model", base_url=wire.base_url, api_key="k")
    wire.embedding_fault = "nan"
    with pytest.raises(EmbeddingError, match="NaN"):
        emb.embed_query("a question")


def test_a_dropped_stream_names_the_drop_not_an_unreachable_server(wire):
    import asyncio

    from assistant.errors import LLMError, LLMStreamCut
    from assistant.llm.client import OpenAIChatModel

    model = OpenAIChatModel(model="wire-model", base_url=wire.base_url, api_key="k",
                            timeout=3)

    async def read() -> str:
        return "".join([d async for d in model.stream([{"role": "user", "content": "hi"}])])

    wire.chat_fault = "drop"
    wire.script(["a ", "b ", "c ", "d "])
    with pytest.raises(LLMStreamCut) as cut:
        asyncio.run(read())
    assert "dropped after 3 tokens" in str(cut.value) and cut.value.partial == "a b "
    assert "cannot reach" not in str(cut.value)
    wire.script(["a "])
    with pytest.raises(LLMError, match="dropped after 0 tokens"):
        asyncio.run(read())


def test_a_new_collection_whose_ingest_fails_is_not_left_behind(wire, tmp_path, embedder):
    from assistant.errors import EmbeddingError
    from assistant.index.embeddings import OpenAIEmbedder
    from assistant.index.store import PaperStore
    from assistant.sources.corpus import bundled_papers

    path = tmp_path / "s"
    PaperStore(collection="kept", embedder=embedder, path=path, create=True).ingest(
        bundled_papers()[:1], source="src")
    emb = OpenAIEmbedder(model="emb-model", base_url=wire.base_url, api_key="k")
    wire.fail(401)
    new = PaperStore(collection="fresh", embedder=emb, path=path, create=True)
    with pytest.raises(EmbeddingError):
        new.ingest(bundled_papers()[:3], source="src")
    names = {c.name for c in new.client().list_collections()}
    assert names == {"kept"}  # the one that never received a paper is gone, the other kept
    local = PaperStore(collection="fresh", embedder=embedder, path=path, create=True)
    assert local.ingest(bundled_papers()[:3], source="src").added == 3


def test_the_last_line_of_an_ingest_counts_what_was_committed(bundled_store_dir, tmp_path,
                                                              capsys):
    store = _copy(bundled_store_dir, tmp_path / "copy")
    listing = tmp_path / "five.jsonl"
    listing.write_text("".join(json.dumps({"id": f"p{i}", "abstract": f"We study topic {i} "
                                           "and show a simple method improves accuracy on "
                                           "four benchmarks."}) + "\n" for i in range(5)))
    assert main(["ingest", str(listing), "--store", str(store), "--no-prune"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].endswith(": 24 papers")
    assert main(["papers", "--store", str(store), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 24  # the index was rebuilt too


def test_odd_paper_lists_say_what_was_read_and_skipped(tmp_path):
    from assistant.errors import CorpusFormatError
    from assistant.sources.corpus import load_papers

    nul = tmp_path / "nul.txt"
    nul.write_bytes(b"\0" * 5000)
    with pytest.raises(CorpusFormatError, match="5000 NUL bytes"):
        load_papers(nul)
    odd = tmp_path / "odd.jsonl"
    odd.write_text("\n".join(json.dumps(r) for r in (
        {"id": 5, "title": ["Graph", "learning"], "year": "twenty",
         "abstract": "We study graph learning and improve accuracy on four benchmarks."},
        {"id": "o2", "title": {"t": 1}, "abstract": 12345},
        {"id": "o3", "abstract": "%%% ### 123 456"})))
    papers = load_papers(odd)
    assert [p.title for p in papers] == ["Graph learning"] and papers[0].year is None
    notes = " ".join(papers.notes(odd))
    assert "skipped 2 of 3 records" in notes
    assert "title is a list" in notes and "year 'twenty' is not a year" in notes


def test_questions_empty_huge_or_flooded(bundled_store, tmp_path, capsys):
    assert main(["ask", "  "]) == 2
    assert "the question is empty" in capsys.readouterr().err
    assert main(["search", ""]) == 2
    assert "the question is empty" in capsys.readouterr().err
    for marks in ("???", "？？？", "-- ..."):  # no word to search: said, not refused as off-topic
        assert main(["ask", marks]) == 2
        assert "has no words" in capsys.readouterr().err
    assert main(["ask", "quantum " * 3000 + "gravity?"]) == 0
    out = capsys.readouterr().out
    assert len(out) < 3000 and "…" in out


def test_a_quoted_sentence_carries_at_most_a_few_hundred_characters():
    from assistant.answer.extractive import QUOTE_CHARS, _quote

    flood = "We study citation floods " + "[1] " * 5000 + "in surveys."
    quoted = _quote(flood)
    assert len(quoted) <= QUOTE_CHARS and quoted.endswith("…") and "[1]" not in quoted


def test_filters_that_match_no_paper_say_so(bundled_store, capsys):
    assert main(["search", "diffusion", "--venue", "NOPE"]) == 2
    err = capsys.readouterr().err
    assert "no paper here matches the filter venue 'NOPE'" in err and "icml" in err
    assert main(["ask", "diffusion?", "--year", "1999"]) == 2
    assert "years 2026" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["truncated", "garbage", "wide"])
def test_a_damaged_multilingual_vectors_file_is_made_again(bundled_store_dir, tmp_path, kind,
                                                           caplog):
    import logging

    import numpy as np

    from assistant.search import multilingual

    f = tmp_path / "v.e5.npz"
    multilingual.save(f, {"p1": ("h", np.ones(384, np.float32))}, revision="r1")
    if kind == "truncated":
        f.write_bytes(f.read_bytes()[:300])
    elif kind == "garbage":
        f.write_bytes(os.urandom(2000))
    else:
        np.savez(f.with_suffix(""), ids=np.asarray(["p1"]), revision=np.asarray("r1"),
                 hashes=np.asarray(["h"]), vectors=np.ones((1, 512), np.float32))
    with caplog.at_level(logging.WARNING):
        assert multilingual._load(f) == ("", {})
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "damaged" in said and "made again" in said and "allow_pickle" not in said


def test_the_chat_shows_a_hostile_paper_without_its_escapes(bundled_store_dir, tmp_path,
                                                             embedder, monkeypatch, capsys):
    """Pilot: the answer, its references, the sources pane, the abstract and the papers screen
    over a paper whose title and abstract carry escape sequences."""
    from tui_helpers import RecordingApp, ask, asyncio_test, ready, text_of, until

    from assistant.settings import load_settings
    from assistant.tui.screens.abstract import AbstractModal
    from assistant.tui.screens.papers import PapersScreen

    store = _copy(bundled_store_dir, tmp_path / "copy")
    monkeypatch.setenv("ASSISTANT_STORE", str(store))
    listing = tmp_path / "hostile.jsonl"
    listing.write_text(json.dumps({
        "id": "h1", "title": "Hostile\x1b]0;pwned\x07 diffusion sampler\x1b]52;c;SGk=\x07",
        "abstract": "We study hostile diffusion samplers for images. \x1b[2J\x1b[8mHidden "
                    "text.\x1b[0m We show the sampler improves fidelity on four benchmarks."})
        + "\n")
    assert main(["ingest", str(listing), "--no-prune"]) == 0
    capsys.readouterr()

    @asyncio_test
    async def drive() -> None:
        app = RecordingApp(load_settings(), embedder=embedder, model=None)
        async with app.run_test(size=(120, 36)) as pilot:
            await ready(pilot)
            await ask(pilot, "Which paper studies hostile diffusion samplers?")
            view = app.chat.views[-1]
            shown = [view.body.source, text_of(view.query_one(".references")),
                     *[s.paper.title for s in app.chat.sources.sources]]
            assert any("Hostile" in t for t in shown)
            await pilot.press("ctrl+o")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, AbstractModal))
            shown += [app.screen.paper.title, app.screen.paper.abstract]
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is app.chat)
            await pilot.press("ctrl+l")
            await until(pilot, lambda: isinstance(app.screen, PapersScreen))
            table = app.screen.query_one("DataTable")
            await until(pilot, lambda: table.row_count == 20)
            shown += [str(cell) for row in range(table.row_count)
                      for cell in table.get_row_at(row)]
            for text in shown:
                assert not any(c in text for c in ESCAPES), text

    drive()
