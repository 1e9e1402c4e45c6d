"""Paper-list formats (assistant/formats.py) loaded through load_papers, one fixture each."""

import json
import logging
from pathlib import Path

import pytest

from assistant.errors import CorpusFormatError
from assistant.sources.bibtex import bib_names, latex_to_text, parse_bibtex, short_venue
from assistant.sources.corpus import load_papers
from assistant.sources.formats import detect

FIX = Path(__file__).parents[1] / "fixtures" / "formats"


def by_id(path: Path) -> dict:
    return {p.paper_id: p for p in load_papers(path)}


# -- BibTeX ----------------------------------------------------------------------------------
def test_pmlr_bibtex_maps_fields_and_skips_the_entry_without_abstract(caplog):
    with caplog.at_level(logging.WARNING, logger="assistant.sources.corpus"):
        papers = load_papers(FIX / "pmlr.bib")
    assert [p.paper_id for p in papers] == ["pmlr-v202-okafor23a", "pmlr-v238-sato24a"]
    assert papers.skipped == 1  # pmlr-v202-brandt23b has no abstract
    assert "skipped 1 of 3 records without an abstract (record " in papers.notes("x.bib")[0]
    p = papers[0]
    assert p.title == "Sparse Mixture Routing without Load-Balancing Losses"
    assert p.authors == ["Chidi Okafor", "Maja Lindqvist", "Tomás Ramírez"]
    assert (p.venue, p.year) == ("ICML", 2023)
    assert p.url == "https://proceedings.mlr.press/v202/okafor23a.html"
    assert p.abstract.startswith("Mixture-of-experts layers usually need an auxiliary")
    assert "with a sparsemax gate" in p.abstract and "by 3% on" in p.abstract
    assert p.code_url == "https://github.com/cokafor/sparse-routing"
    q = papers[1]
    assert (q.venue, q.year) == ("AISTATS", 2024)
    assert "coverage of $1-\\alpha$ up to an $O(n^{-1/2})$ term" in q.abstract  # math kept


def test_acl_anthology_bibtex_quoted_values_month_macros_and_accents():
    papers = by_id(FIX / "acl.bib")
    p = papers["haddad-etal-2023-retrieval"]
    assert p.authors == ["Yasmin Haddad", "Piotr Kowalski", "Minh Nguyễn"]
    assert (p.venue, p.year) == ("ACL", 2023)
    assert p.url == "https://aclanthology.org/2023.acl-long.812"
    assert p.extra["doi"] == "10.18653/v1/2023.acl-long.812"
    assert "with the model's, gaining 2.1 BLEU" in p.abstract
    q = papers["osei-2023-calibrated"]
    assert q.venue == "Findings of EMNLP"
    assert q.abstract.startswith("Question answering systems should say “I don't know” when")
    assert "abstains on 40% of" in q.abstract
    assert papers["lindgren-park-2024-tokenizer"].venue == "TACL"


def test_zotero_bibtex_strings_comments_braces_and_doi_urls():
    papers = load_papers(FIX / "zotero.bib")
    assert papers.skipped == 1  # the workshop paper has no abstract
    by = {p.paper_id: p for p in papers}
    assert set(by) == {"garcia-lopez_diffusion_2023", "dubois_scaling_2024", "ivanova_graph_2022"}
    p = by["garcia-lopez_diffusion_2023"]
    assert p.title == ("Diffusion Policies for Offline Reinforcement Learning with Unreliable "
                       "Rewards")
    assert p.authors == ["María García-López", "Jörg Müller", "Søren Østergaard"]
    assert (p.venue, p.year) == ("NeurIPS", 2023)  # booktitle = neurips, an @string macro
    assert p.keywords == ["diffusion models", "offline RL", "reward noise"]
    assert "up to 30% corrupted rewards" in p.abstract
    arxiv = by["dubois_scaling_2024"]
    assert (arxiv.venue, arxiv.year, arxiv.url) == ("arXiv", 2024, "http://arxiv.org/abs/2403.01234")
    assert arxiv.abstract.endswith("grows linearly with the model’s width.")
    jmlr = by["ivanova_graph_2022"]
    assert (jmlr.venue, jmlr.url) == ("JMLR", "https://doi.org/10.5555/jmlr.2022.ivanova")


def test_malformed_bibtex_names_the_file_and_the_entry_line():
    with pytest.raises(CorpusFormatError,
                       match=r"malformed\.bib:8: entry 'broken-2023-entry' is not closed "
                             r"\(unbalanced braces"):
        load_papers(FIX / "malformed.bib")


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("@article{a,\n  title = {T}},\n  abstract = {An abstract.}\n}\n", r"x\.bib:3: a field"),
        ("@article{a,\n  title = {T}\n  abstract = {An abstract.}\n}\n", r"x\.bib:3: in entry 'a'"),
        ("@article{a,\n  title = {T},\n  abstract = {never closed\n", r"x\.bib:1: entry 'a'"),
    ],
)
def test_an_extra_brace_a_missing_comma_or_an_open_value_is_an_error(tmp_path, text, where):
    path = tmp_path / "x.bib"
    path.write_text(text)
    with pytest.raises(CorpusFormatError, match=where):
        load_papers(path)


def test_bib_without_any_abstract_says_to_export_abstracts(tmp_path):
    path = tmp_path / "refs.bib"
    path.write_text("@article{a, title = {T}, year = 2020}\n@misc{b, title = {U}}\n")
    with pytest.raises(CorpusFormatError, match="none of its 2 entries has an abstract"):
        load_papers(path)


def test_bibtex_parser_macros_concatenation_and_skipped_blocks():
    text = ('@preamble{"\\newcommand{\\x}{}"}\n@string{ICML = "Proc. ICML"}\n'
            'contact: me@example.org\n@comment{see {this}}\n'
            '@Article(k1, Title = "A " # {B} # icml, MONTH = sep, year = 2020)\n')
    [e] = parse_bibtex(text, "t.bib")
    assert (e.kind, e.key, e.line) == ("article", "k1", 5)
    assert e.fields == {"title": "A BProc. ICML", "month": "September", "year": "2020"}


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        (r"Schr{\"o}dinger's {C}at -- a {\'E}tude", "Schrödinger's Cat – a Étude"),
        (r"G\"{o}del, Escher \& Bach~rules", "Gödel, Escher & Bach rules"),
        (r"Fran\c{c}ois \v{S}ar\'{\i}k Nguy{\~{\^e}}n", "François Šarík Nguyễn"),
        (r"Stra{\ss}e \AA ngstr\"om S{\o}ren", "Straße Ångström Søren"),
        (r"\emph{Deep} \textbf{nets} \cite{x} at $O(n^{2})$, 50\% faster",
         "Deep nets at $O(n^{2})$, 50% faster"),
        (r"``quoted''---and more \ldots", "“quoted”—and more …"),
    ],
)
def test_latex_accents_braces_and_markup_become_text(latex, text):
    assert latex_to_text(latex) == text


def test_bibtex_names_become_first_last():
    value = ("Smith, John  and\n   M{\\\"u}ller, J{\\\"o}rg and {Google DeepMind} and Jane Q. Doe"
             " and van der Berg, Jr, Piet and others")
    assert bib_names(value) == ["John Smith", "Jörg Müller", "Google DeepMind", "Jane Q. Doe",
                                "Piet van der Berg Jr"]


@pytest.mark.parametrize(
    ("name", "short"),
    [
        ("Proceedings of the 40th International Conference on Machine Learning", "ICML"),
        ("Advances in Neural Information Processing Systems 36", "NeurIPS"),
        ("Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)",
         "CVPR"),
        ("Proceedings of the Thirty-Second International Joint Conference on Artificial "
         "Intelligence, {IJCAI-23}", "IJCAI"),
        ("Proceedings of the 2019 Conference of the North American Chapter of the Association for "
         "Computational Linguistics: Human Language Technologies, Volume 1", "NAACL"),
        ("International Conference on Machine Learning and Applications",
         "International Conference on Machine Learning and Applications"),
        ("Proceedings of the ICML 2023 Workshop on Foo",
         "Proceedings of the ICML 2023 Workshop on Foo"),
        ("Neural Computation", "Neural Computation"),
        ("CoRR", "arXiv"),
    ],
)
def test_long_venue_names_are_shortened_only_when_known(name, short):
    assert short_venue(name) == short


# -- OpenReview ------------------------------------------------------------------------------
def test_openreview_v2_notes_map_venue_year_status_and_forum_url():
    papers = by_id(FIX / "openreview_v2.json")  # {"notes": [...], "count": 4}
    p = papers["Kq9vT3xZp1"]
    assert p.title == "Token Merging for Long-Context Retrieval"
    assert p.authors == ["Aiko Tanabe", "Rafael Costa", "Ingrid Holm"]
    assert (p.venue, p.year) == ("ICLR", 2024)
    assert p.url == "https://openreview.net/forum?id=Kq9vT3xZp1"
    assert p.abstract.startswith("Dense retrievers truncate long documents.")
    assert (p.status, p.outcome) == ("Poster", "")
    assert p.keywords == ["long context", "retrieval", "token merging"]
    assert p.tldr.startswith("Merging redundant tokens")
    assert papers["Rw2mB8cLd0"].status == "Oral"
    rejected, withdrawn = papers["Zt7hN4eGq5"], papers["Pb3sW6yHk8"]
    assert (rejected.venue, rejected.year, rejected.status) == ("ICLR", 2024, "Reject")
    assert rejected.outcome == "rejected" and "unpublished" in rejected.status_tags
    assert (withdrawn.status, withdrawn.outcome) == ("Withdraw", "withdrawn")


def test_openreview_v1_notes_with_plain_string_content():
    papers = by_id(FIX / "openreview_v1.json")
    p = papers["aB3dE5fG7h"]
    assert (p.title, p.venue, p.year) == ("Equivariant Flows on Lie Groups", "ICLR", 2023)
    assert p.authors == ["Nikolai Petrov", "Ama Mensah"]
    assert p.url == "https://openreview.net/forum?id=aB3dE5fG7h"
    assert p.abstract.startswith("We construct normalizing flows on matrix Lie groups")
    assert (p.status, p.is_unpublished) == ("Notable top 25%", False)
    assert p.tldr == "Normalizing flows that respect a Lie group symmetry by construction."
    submitted = papers["cD4eF6gH8i"]  # "Submitted to ICLR 2023": never accepted
    assert (submitted.status, submitted.outcome) == ("Submitted", "not accepted")
    assert papers["eF5gH7iJ9k"].status == "Poster"


# -- arXiv -----------------------------------------------------------------------------------
def test_arxiv_snapshot_jsonl():
    papers = by_id(FIX / "arxiv-metadata.jsonl")
    p = papers["arXiv:2310.04417"]
    assert p.title == "Quantized Key-Value Caches for Streaming Speech Recognition"
    assert p.authors == ["Elif Şahin", "Jonas Müller", "Priya Raman"]
    assert (p.venue, p.year) == ("arXiv", 2023)  # first version, not update_date (2024)
    assert p.url == "https://arxiv.org/abs/2310.04417"
    assert p.abstract.startswith("Streaming speech recognizers keep a growing key-value cache.")
    assert p.abstract.endswith("cutting memory by ~70%.")
    assert p.code_url == "https://github.com/esahin/qkv-asr"  # from the comments
    assert p.extra["categories"] == ["eess.AS", "cs.CL", "cs.LG"]
    nips = papers["arXiv:1905.11872"]
    assert nips.authors == ["Tomasz Nowak", "Adéla Horáková"]
    assert nips.extra["journal_ref"].startswith("Advances in Neural Information Processing")
    old = papers["arXiv:math/0612345"]
    assert (old.year, old.url) == (2006, "https://arxiv.org/abs/math/0612345")


# -- Semantic Scholar ------------------------------------------------------------------------
def test_semantic_scholar_graph_api_papers(tmp_path):
    papers = load_papers(FIX / "semanticscholar.json")  # {"total", "offset", "data": [...]}
    assert papers.skipped == 1  # abstract: null
    p = papers[0]
    assert p.paper_id == "5f1e2d3c4b5a69788796a5b4c3d2e1f00a1b2c3d"
    assert p.title == "Reward Models Overfit to Response Length"
    assert p.authors == ["Chidi Okafor", "Hana Lee"]
    assert (p.venue, p.year) == ("NeurIPS", 2023)
    assert p.url == "https://www.semanticscholar.org/paper/5f1e2d3c4b5a69788796a5b4c3d2e1f00a1b2c3d"
    assert p.abstract.startswith("We show that learned reward models reward longer responses")
    assert p.tldr == ("Learned reward models prefer long answers; length-controlled training "
                      "fixes it.")
    assert (p.extra["doi"], p.extra["arxiv_id"]) == ("10.48550/arXiv.2305.11111", "2305.11111")
    assert papers[1].venue == "arXiv"
    one = tmp_path / "paper.json"  # GET /paper/{id} gives one object
    one.write_text(json.dumps(json.loads((FIX / "semanticscholar.json").read_text())["data"][2]))
    [q] = load_papers(one)
    assert q.title == "Curriculum Sampling for Math Reasoning"


# -- papercopilot / paperlists ---------------------------------------------------------------
def test_paperlists_records_keep_status_track_tldr_keywords_and_site():
    papers = by_id(FIX / "ml-abstracts.jsonl")
    p = papers["iclr2018-SkZx3k0cY"]
    assert (p.title, p.venue, p.year) == ("Learning Sparse Latent Graphs for Multi-Agent "
                                          "Forecasting", "ICLR", 2018)
    assert p.authors == ["Marta Silva", "Ken Ito"]
    assert p.url == "https://openreview.net/forum?id=SkZx3k0cY"
    assert p.abstract.startswith("We infer a sparse interaction graph between agents")
    assert (p.status, p.extra["track"], p.outcome) == ("Poster", "main", "")
    assert p.keywords == ["graph neural networks", "trajectory forecasting", "relational inference"]
    assert p.tldr == "A sparse latent interaction graph improves multi-agent forecasting."
    assert papers["iclr2018-HyQw9oGmz"].outcome == "rejected"
    assert papers["nips2017-3f5ee243547dee91fbd053c1c4a845aa"].venue == "NIPS"


def test_papercopilot_export_takes_venue_and_year_from_the_file_name():
    papers = load_papers(FIX / "iclr2024.json")
    assert papers.skipped == 1  # the withdrawn paper has an empty abstract
    p, rejected = papers
    assert p.paper_id == "iclr2024-Gx4TpW2mQa"
    assert (p.venue, p.year) == ("ICLR", 2024)
    assert p.authors == ["Freya Nilsson", "Arjun Mehta"]
    assert p.url == "https://iclr.cc/virtual/2024/poster/19001"
    assert p.code_url == "https://github.com/fnilsson/learned-grids"
    assert (p.status, p.extra["track"]) == ("Spotlight", "main")
    assert p.keywords == ["Gaussian processes", "scalable inference", "inducing points"]
    assert "aff" not in p.extra and "rating_avg" not in p.extra  # review data stays out
    assert rejected.outcome == "rejected"


def test_records_are_told_apart_by_shape():
    first = {name: json.loads((FIX / name).read_text().splitlines()[0])
             for name in ("arxiv-metadata.jsonl", "ml-abstracts.jsonl")}
    assert detect(first["arxiv-metadata.jsonl"]) == "arxiv"
    assert detect(first["ml-abstracts.jsonl"]) == "paperlists"
    v2 = json.loads((FIX / "openreview_v2.json").read_text())["notes"][0]
    assert detect(v2) == "openreview"
    s2 = json.loads((FIX / "semanticscholar.json").read_text())["data"][0]
    assert detect(s2) == "semanticscholar"
    assert detect({"citingPaper": s2}) == "semanticscholar"
    assert detect({"_id": "4983", "title": "T", "text": "x"}) == "generic"  # BEIR


# -- end to end ------------------------------------------------------------------------------
def test_ingest_a_bib_file_end_to_end(tmp_path, capsys):
    from assistant.cli.main import main

    assert main(["ingest", str(FIX / "pmlr.bib"), "--store", str(tmp_path / "store")]) == 0
    out = capsys.readouterr().out
    assert "2 papers" in out
