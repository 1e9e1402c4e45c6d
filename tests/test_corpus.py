import json

import pytest

from assistant.corpus import bundled_papers, load_papers, parse_text_list
from assistant.errors import CorpusFormatError, InputError
from assistant.titles import derive_title


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
