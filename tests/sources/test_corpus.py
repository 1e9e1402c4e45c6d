import json

import pytest

from assistant.errors import CorpusFormatError, InputError
from assistant.sources.corpus import bundled_papers, load_papers, parse_text_list
from assistant.sources.titles import derive_title


def test_bundled_list_gives_19_papers_with_derived_titles():
    papers = bundled_papers()
    assert len(papers) == 19
    assert all(p.venue == "ICML" and p.year == 2026 for p in papers)
    assert all(p.title_derived and 3 <= len(p.title.split()) <= 20 for p in papers)
    assert len({p.paper_id for p in papers}) == 19
    assert len({p.title for p in papers}) == 19
    titles = " | ".join(p.title for p in papers)
    for name in ("DyPE", "CPMöbius", "IPMark", "UniR", "MaskAQ", "Q2D2", "PICACO"):
        assert name in titles


def test_ids_are_stable_across_loads():
    assert [p.paper_id for p in bundled_papers()] == [p.paper_id for p in bundled_papers()]


def test_code_links_are_extracted():
    codes = {p.code_url for p in bundled_papers() if p.code_url}
    assert "https://github.com/nwlt/IPMark" in codes
    assert all(not c.endswith(".") for c in codes)
    assert len(codes) == 5


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        ("Images are hard. We propose FooNet, a sparse transformer for image tagging. It works.",
         "FooNet: a sparse transformer for image tagging"),
        ("Images are hard. To fix it we introduce Gradient Flow Matching (GFM), a method that "
         "matches flows. It works.", "GFM (Gradient Flow Matching): a method that matches flows"),
        ("We study online learning in repeated auctions, where bidders adapt. Results follow.",
         "Online learning in repeated auctions"),
        ("We propose a novel tokenizer for DNA sequences, named GeneTok, which is fast.",
         "GeneTok: tokenizer for DNA sequences"),
        ("Sparse models matter for efficiency, especially at scale. They are popular.",
         "Sparse models matter for efficiency"),
    ],
)
def test_derived_titles(abstract, expected):
    assert derive_title(abstract) == expected


def test_header_without_venue_keeps_first_block_as_abstract():
    papers = parse_text_list("This is a long abstract about sparse attention in transformers "
                             "that we study here.\n\nAnother abstract on kernels and GPUs and "
                             "their scheduling in clusters.")
    assert len(papers) == 2 and papers[0].venue == ""


def test_json_jsonl_csv_field_mapping(tmp_path):
    rec = {"uid": "neurips2020-abc", "id": "abc", "title": "A Title", "text": "An abstract " * 5,
           "authors": ["Ada Lovelace", "Alan Turing"], "venue": "neurips", "year": "2020",
           "site": "https://example.org/p", "tldr": "short", "keywords": "a; b"}
    (tmp_path / "a.json").write_text(json.dumps({"papers": [rec]}))
    (tmp_path / "a.jsonl").write_text(json.dumps(rec) + "\n\n")
    (tmp_path / "a.csv").write_text("id,title,abstract,authors,year,venue,url\n"
                                    "p1,CSV Title,An abstract about things,Ada; Bob,2021,ICLR,"
                                    "https://x.org\n")
    for name in ("a.json", "a.jsonl"):
        [p] = load_papers(tmp_path / name)
        assert p.paper_id == "neurips2020-abc"  # uid is preferred over the non-unique id
        assert (p.title, p.venue, p.year, p.url) == ("A Title", "NEURIPS", 2020,
                                                     "https://example.org/p")
        assert p.authors == ["Ada Lovelace", "Alan Turing"]
        assert p.extra["tldr"] == "short"
    [c] = load_papers(tmp_path / "a.csv")
    assert (c.paper_id, c.authors, c.year, c.venue) == ("p1", ["Ada", "Bob"], 2021, "ICLR")


def test_beir_corpus_ids_are_kept(tmp_path):
    (tmp_path / "c.jsonl").write_text(json.dumps({"_id": "4983", "title": "T", "text": "x" * 50}))
    assert load_papers(tmp_path / "c.jsonl")[0].paper_id == "4983"


def test_bad_inputs_are_one_line_errors(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_papers(tmp_path / "missing.txt")
    (tmp_path / "bad.jsonl").write_text('{"title": "ok", "abstract": "fine abstract"}\n{oops\n')
    with pytest.raises(CorpusFormatError, match=r"bad\.jsonl:2: not valid JSON"):
        load_papers(tmp_path / "bad.jsonl")
    (tmp_path / "x.pdf").write_text("nope")
    with pytest.raises(InputError, match="unsupported file type"):
        load_papers(tmp_path / "x.pdf")
    (tmp_path / "empty.json").write_text("[]")
    with pytest.raises(CorpusFormatError, match="no record has an abstract"):
        load_papers(tmp_path / "empty.json")
    (tmp_path / "latin.txt").write_bytes("caf\xe9 abstract".encode("latin-1"))
    with pytest.raises(CorpusFormatError, match="not UTF-8"):
        load_papers(tmp_path / "latin.txt")


def test_an_unclosed_quote_in_a_csv_is_an_error_with_its_line(tmp_path):
    f = tmp_path / "papers.csv"
    f.write_text('id,title,abstract\n1,First,"An abstract that opens a quote\n'
                 '2,Second,Another abstract long enough to be a paper.\n')
    with pytest.raises(CorpusFormatError, match=r"papers\.csv:2: bad CSV .*never closed"):
        load_papers(f)
    f.write_text("id,abstract\n1,An abstract, with a comma that is not quoted\n")
    with pytest.raises(CorpusFormatError, match=r"papers\.csv:2: 3 fields where the header"):
        load_papers(f)


@pytest.mark.parametrize("suffix", [".csv", ".json", ".jsonl", ".txt"])
def test_a_byte_order_mark_is_accepted_in_every_format(tmp_path, suffix):
    abstract = "We study byte order marks in paper lists and find they are harmless."
    body = {".csv": f"id,title,abstract\nbom-1,BOM paper,{abstract}\n",
            ".json": json.dumps([{"id": "bom-1", "title": "BOM paper", "abstract": abstract}]),
            ".jsonl": json.dumps({"id": "bom-1", "title": "BOM paper", "abstract": abstract}),
            ".txt": f"ICML 2026\n\n{abstract}\n"}[suffix]
    f = tmp_path / f"list{suffix}"
    f.write_bytes(b"\xef\xbb\xbf" + body.encode())
    (paper,) = load_papers(f)
    assert paper.abstract == abstract
    if suffix != ".txt":
        assert paper.paper_id == "bom-1" and paper.title == "BOM paper"


def test_skipped_and_repeated_records_are_counted_and_strict_refuses(tmp_path, capsys):
    from assistant.cli.main import main

    rows = [{"id": "a", "abstract": "A first abstract about sparse attention in transformers."},
            {"id": "b", "abstract": ""},
            {"id": "a", "abstract": "A different abstract that reuses the first id by mistake."},
            {"id": "c", "abstract": "A third abstract about graph kernels for molecules."}]
    f = tmp_path / "list.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in rows))
    papers = load_papers(f)
    assert [p.paper_id for p in papers] == ["a", "c"]
    assert papers.skipped == 1 and papers.no_abstract == [2] and papers.duplicates == ["a"]
    store = tmp_path / "store"
    assert main(["ingest", str(f), "--store", str(store), "--strict"]) == 2
    err = capsys.readouterr().err
    assert "skipped 1 of 4 records without an abstract (record 2)" in err
    assert "--strict: nothing was written" in err and not store.exists()
    assert main(["ingest", str(f), "--store", str(store)]) == 0
    err = capsys.readouterr().err
    assert "note: " in err and "1 records repeat an earlier record's id (a)" in err
