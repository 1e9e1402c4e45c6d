"""Author, venue, year and status filters act inside candidate generation (the chunk index's
mask, or Chroma's ``where``), on `search` and `papers`; unpublished papers are marked."""

import json
import shutil

import pytest

from assistant.cli.main import main
from assistant.errors import InputError, StoreError
from assistant.index.chunk_index import FORMAT, ChunkIndex, ensure_index, index_dir
from assistant.index.store import PaperStore
from assistant.paper import Paper
from assistant.search.retrieval import Filters, Retriever
from assistant.sources.corpus import load_papers

QUERY = "generative adversarial networks"
METHODS = ["Wasserstein", "spectrally normalized", "progressive", "conditional",
           "cycle-consistent", "self-attention", "style-based", "boundary-seeking",
           "least-squares", "energy-based", "relativistic", "multi-scale"]
DOMAINS = ["face images", "medical scans", "text-to-image synthesis"]
# (venue, year, status, accepted) by position; ICML 2019 lists say nothing about status
VENUES = [("NeurIPS", 2018, "Poster", True), ("ICML", 2019, None, None),
          ("ICLR", 2018, "Poster", True)]
ICLR_STATUS = {2: ("Reject", False), 5: ("Withdraw", False), 8: ("Oral", True),
               11: ("Active", False)}


def _gan_records():
    out = []
    for i, (method, domain) in enumerate((m, d) for m in METHODS for d in DOMAINS):
        venue, year, status, accepted = VENUES[i % 3]
        if venue == "ICLR" and i // 3 in ICLR_STATUS:
            status, accepted = ICLR_STATUS[i // 3]
        rec = {"uid": f"gan{i:02d}", "title": f"{method.capitalize()} GANs for {domain}",
               "abstract": f"We train {method} generative adversarial networks on {domain}. The "
                           f"generator and the discriminator of the GAN play a minimax game; our "
                           f"{method} adversarial objective stabilises GAN training and improves "
                           f"sample quality on {domain}.",
               "authors": [f"Ada Gan{i}", f"Bo Net{i}"], "venue": venue, "year": year}
        if status is not None:
            rec |= {"status": status, "accepted": accepted}
        out.append(rec)
    return out


BENGIO = [  # by Yoshua Bengio, none of them about GANs
    ("yb-curriculum", "Curriculum learning", "ICML", 2009, "Poster", True,
     "Humans learn better when examples come in a meaningful order. We formalise curriculum "
     "learning and show that training on easy examples first speeds up convergence."),
    ("yb-rectifier", "Deep sparse rectifier neural networks", "AISTATS", 2011, "Poster", True,
     "Rectifying neurons give sparse representations; deep networks of rectifiers train well "
     "without unsupervised pre-training."),
    ("yb-align", "Neural machine translation by jointly learning to align and translate", "ICLR",
     2015, "Oral", True,
     "An encoder-decoder for translation that learns a soft alignment between source and target "
     "words instead of a fixed-length vector."),
    ("yb-lm", "A neural probabilistic language model", "NeurIPS", 2000, "Poster", True,
     "We learn a distributed representation of words together with the probability function "
     "of word sequences, fighting the curse of dimensionality."),
    ("yb-twin", "Twin networks for sequence prediction", "ICLR", 2018, "Reject", False,
     "A backward recurrent network regularises the forward one so that its states anticipate "
     "the future of the sequence."),
    ("yb-causal", "Meta-transfer objectives for causal structure", "ICLR", 2018, "Withdraw", False,
     "The speed of adaptation to a changed distribution reveals the causal direction between "
     "two variables."),
]
OTHERS = [
    {"uid": "sb-sampling", "title": "Scheduled sampling for sequence prediction",
     "abstract": "Feeding a recurrent network its own predictions during training, on a "
                 "schedule, closes the gap between training and inference.",
     "authors": ["Samy Bengio", "Oriol Vinyals"], "venue": "NeurIPS", "year": 2015,
     "status": "Poster", "accepted": True, "tldr": "Train on your own predictions.",
     "keywords": "sequence prediction;scheduled sampling"},
    {"uid": "ws-untitled",  # no title: the assistant derives one
     "abstract": "We propose ZebraNet, a convolutional network that counts zebra stripes in "
                 "savanna photographs taken by camera traps.",
     "authors": ["Wei Stripe"], "venue": "ICLR", "year": 2013, "status": "Workshop",
     "accepted": True},
]


def _records():
    bengio = [{"uid": uid, "title": title, "abstract": abstract, "venue": venue, "year": year,
               "authors": ["Yoshua Bengio", f"Co Author{i}"], "status": status,
               "accepted": accepted}
              for i, (uid, title, venue, year, status, accepted, abstract) in enumerate(BENGIO)]
    return _gan_records() + bengio + OTHERS


RECORDS = {r["uid"]: r for r in _records()}
YOSHUA = {uid for uid, r in RECORDS.items() if "Yoshua Bengio" in r["authors"]}


def ids(where):
    return {uid for uid, r in RECORDS.items() if where(r)}


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory, embedder):
    folder = tmp_path_factory.mktemp("filters")
    source = folder / "papers.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in RECORDS.values()))
    path = folder / "store"
    store = PaperStore(collection="filters", embedder=embedder, path=path, create=True)
    store.ingest(load_papers(source), source=str(source))
    return path


@pytest.fixture
def store(store_dir, embedder):
    return PaperStore(collection="filters", embedder=embedder, path=store_dir)


def found(retriever, filters, *, k=50, mode=None, query=QUERY):
    return {rp.paper.paper_id for rp in retriever.search(query, k=k, filters=filters,
                                                         mode=mode).papers}


@pytest.mark.parametrize("mode", ["hybrid", "dense"])
def test_author_filter_finds_papers_far_below_the_unfiltered_top(store, mode):
    retriever = Retriever(store=store)
    order, _ = retriever.rank(QUERY, mode=mode)
    unfiltered_top = {pid for pid, _ in order[:30]}
    assert YOSHUA - unfiltered_top  # a post-filter over the top k×3 (k=10) would miss these
    result = retriever.search(QUERY, k=10, filters=Filters(author="yoshua BENGIO"), mode=mode)
    assert {rp.paper.paper_id for rp in result.papers} == YOSHUA
    assert [rp.rank for rp in result.papers] == list(range(1, len(YOSHUA) + 1))
    # a part of a name, as before: "bengio" is Yoshua and Samy
    assert found(retriever, Filters(author="bengio"), mode=mode) == YOSHUA | {"sb-sampling"}
    assert found(retriever, Filters(author="nobody at all"), mode=mode) == set()


UNPUBLISHED = {"Reject", "Withdraw", "Active"}


@pytest.mark.parametrize(("filters", "expected"), [
    (Filters(venue="iclr", year=2018), ids(lambda r: (r["venue"], r["year"]) == ("ICLR", 2018))),
    (Filters(status="accepted"), ids(lambda r: r.get("status") not in UNPUBLISHED)),
    (Filters(status="Rejected"), ids(lambda r: r.get("status") == "Reject")),
    (Filters(status="withdrawn"), ids(lambda r: r.get("status") == "Withdraw")),
    (Filters(status="unpublished"), ids(lambda r: r.get("status") in UNPUBLISHED)),
    (Filters(status="oral"), ids(lambda r: r.get("status") == "Oral")),
    (Filters(status="workshop"), {"ws-untitled"}),
    (Filters(author="Yoshua Bengio", venue="ICLR", status="accepted"), {"yb-align"}),
    (Filters(author="Yoshua Bengio", year=2018), {"yb-twin", "yb-causal"}),
    # a span of years, both ends inclusive
    (Filters(since=2015), ids(lambda r: r["year"] >= 2015)),
    (Filters(until=2011), ids(lambda r: r["year"] <= 2011)),
    (Filters(author="Yoshua Bengio", since=2011, until=2015), {"yb-rectifier", "yb-align"}),
    (Filters(venue="ICLR", since=2016, until=2017), set()),
])
def test_venue_year_status_filters_rank_every_paper_that_passes(store, filters, expected):
    retriever = Retriever(store=store)
    if not expected:  # a filter no paper passes: one line naming it and what there is
        with pytest.raises(InputError, match="since 2016 and until 2017"):
            retriever.check_filters(filters)
        return
    assert found(retriever, filters) == expected  # hybrid: the dense side ranks them all
    assert found(retriever, filters, mode="dense") == expected
    lexical = found(retriever, filters, mode="lexical", query="training networks adversarial")
    assert lexical <= expected
    # `assistant papers` applies the same test to the papers in hand
    assert {p.paper_id for p in store.papers() if filters.accepts(p)} == expected


def test_chroma_filters_when_the_index_holds_no_vectors(store):
    rows, _ = store.chunks_with_vectors()
    index = ChunkIndex(index_dir(store))
    index.build(rows, revision=store.revision())  # no vectors: dense search asks Chroma
    try:
        retriever = Retriever(store=store)
        assert not retriever.index().has_vectors
        # author: `$in` the few papers that pass; accepted: `$nin` the few that do not
        assert found(retriever, Filters(author="yoshua bengio"), mode="dense") == YOSHUA
        accepted = ids(lambda r: r.get("status") not in UNPUBLISHED)
        assert found(retriever, Filters(status="accepted"), mode="dense") == accepted
        assert found(retriever, Filters(author="bengio", venue="ICLR", status="unpublished"),
                     mode="dense") == {"yb-twin", "yb-causal"}
        assert found(retriever, Filters(author="nobody at all"), mode="dense") == set()
        # a span of years: Chroma's $gte and $lte
        assert found(retriever, Filters(since=2015, until=2018), mode="dense") == ids(
            lambda r: 2015 <= r["year"] <= 2018)
    finally:
        shutil.rmtree(index_dir(store))  # the next search rebuilds it, vectors included


def test_an_index_of_the_old_format_is_rebuilt(store):
    folder = index_dir(store)
    ensure_index(store)
    manifest = json.loads((folder / "manifest.json").read_text())
    chunks = json.loads((folder / "chunks.json").read_text())
    (folder / "manifest.json").write_text(json.dumps({**manifest, "format": 2}))
    (folder / "chunks.json").write_text(json.dumps(
        {k: v for k, v in chunks.items() if k not in ("authors", "status", "accepted")}))
    with pytest.raises(StoreError, match="rebuilt"):  # read directly: an error, never no match
        ChunkIndex(folder).load()
    assert found(Retriever(store=store), Filters(author="Yoshua Bengio")) == YOSHUA
    assert json.loads((folder / "manifest.json").read_text())["format"] == FORMAT == 6


def test_papers_command_filters_and_json_fields(store_dir, capsys):
    base = ["papers", "--store", str(store_dir), "--collection", "filters"]
    assert main([*base, "--author", "yoshua bengio", "--json"]) == 0
    rows = {r["paper_id"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(rows) == YOSHUA
    assert set(rows["yb-twin"]) == {"paper_id", "title", "title_derived", "venue", "year",
                                    "authors", "url", "code_url", "status", "tldr", "keywords",
                                    "abstract"}
    assert rows["yb-twin"]["status"] == "Reject"
    assert rows["yb-twin"]["authors"] == ["Yoshua Bengio", "Co Author4"]
    assert rows["yb-twin"]["title_derived"] is False
    assert main([*base, "--author", "samy", "--json"]) == 0
    [samy] = json.loads(capsys.readouterr().out)
    assert samy["tldr"] == "Train on your own predictions."
    assert samy["keywords"] == ["sequence prediction", "scheduled sampling"]
    assert main([*base, "--status", "workshop", "--json"]) == 0
    [untitled] = json.loads(capsys.readouterr().out)
    assert untitled["title_derived"] is True and "ZebraNet" in untitled["title"]
    assert main([*base, "--venue", "iclr", "--year", "2018", "--status", "unpublished"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == len(ids(lambda r: r.get("status") in UNPUBLISHED))
    assert any(line.endswith("Twin networks for sequence prediction (rejected submission)")
               for line in lines)
    assert any(line.endswith("(withdrawn submission)") for line in lines)
    assert f"{len(lines)} of {len(RECORDS)} papers in collection 'filters'" in captured.err


def test_search_command_takes_status(store_dir, capsys):
    base = ["search", QUERY, "--store", str(store_dir), "--collection", "filters", "--json"]
    assert main([*base, "--author", "Yoshua Bengio", "--k", "10"]) == 0
    hits = json.loads(capsys.readouterr().out)["papers"]
    assert {h["paper_id"] for h in hits} == YOSHUA
    assert main([*base, "--author", "Yoshua Bengio", "--status", "accepted", "--k", "10"]) == 0
    hits = json.loads(capsys.readouterr().out)["papers"]
    assert {h["paper_id"] for h in hits} == YOSHUA - {"yb-twin", "yb-causal"}
    assert all(h["status"] in ("Poster", "Oral") for h in hits)
    assert main([*base, "--status", "oral", "--k", "10"]) == 0  # the list's own status
    assert json.loads(capsys.readouterr().out)["papers"]
    # a status no paper has is a one-line error naming the ones there are, not an empty list
    for command in (base, ["papers", "--store", str(store_dir), "--collection", "filters"]):
        assert main([*command, "--status", "acepted"]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error: no paper in this collection has status 'acepted'")
        assert "accepted" in err and "oral" in err and "\n" not in err


def test_status_of_a_paper():
    def p(**extra):
        return Paper("x", "Twin networks", "abstract", ["A B", "C D"], "ICLR", 2018,
                     url="https://openreview.net/forum?id=x", extra=extra)

    rejected = p(status="Reject", accepted=False)
    assert rejected.status == "Reject" and rejected.is_unpublished
    assert rejected.display_title == "Twin networks (rejected submission)"
    assert rejected.reference() == ("Twin networks. A B, C D. ICLR 2018 (submission, rejected). "
                                    "https://openreview.net/forum?id=x")
    assert p(status="Withdrawn").display_title == "Twin networks (withdrawn submission)"
    assert p(status="Desk Reject").outcome == "rejected"
    active = p(status="Active", accepted="false")  # a CSV gives text
    assert active.is_unpublished and "(submission, not accepted)" in active.reference()
    assert p(accepted=False).status == "Not accepted"
    for published in (p(status="Oral", accepted=True), p(), p(status="Workshop")):
        assert not published.is_unpublished and published.display_title == "Twin networks"
        assert "ICLR 2018. https://" in published.reference()
    assert p(status="Poster", accepted=True).status_tags == {"poster", "accepted"}
    assert rejected.status_tags == {"reject", "rejected", "unpublished"}
    assert p().status == "" and p().status_tags == {"accepted"}


def test_search_and_papers_take_a_span_of_years(store_dir, capsys):
    base = ["--store", str(store_dir), "--collection", "filters"]
    assert main(["papers", *base, "--since", "2015", "--until", "2018", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["paper_id"] for r in rows} == ids(lambda r: 2015 <= r["year"] <= 2018)
    assert main(["search", QUERY, *base, "--until", "2011", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["papers"] and all(p["paper_id"] in ids(lambda r: r["year"] <= 2011)
                                 for p in got["papers"])
    assert main(["search", QUERY, *base, "--since", "2030"]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "since 2030" in err and "Traceback" not in err


def test_a_span_of_years_read_from_the_question_limits_the_answer(store, embedder):
    """"Which bandit papers have appeared since 2022?" was searched for papers of 2022 alone."""
    from assistant.answer.extractive import ExtractiveAnswerer
    from assistant.answer.pipeline import answer

    retriever, answerer = Retriever(store=store), ExtractiveAnswerer(embedder=embedder)
    for question, since, until in (
            ("Which papers on generative adversarial networks appeared since 2019?", 2019, None),
            ("Which papers on generative adversarial networks were published before 2019?", None,
             2018)):
        result = answer(question, retriever=retriever, answerer=answerer, ground=False)
        assert result.outcome == "answered" and result.citations, question
        assert all((since or 0) <= c.paper.year <= (until or 9999) for c in result.citations)
        said = f"from {since} on" if since else f"up to {until}"
        assert result.text.startswith(f"(Searched only papers {said}: read from the question")
        assert result.filters == {k: v for k, v in (("since", since), ("until", until)) if v}


@pytest.mark.parametrize(("query", "applied", "left"), [
    ("Show me papers from COLT 2023 on bandits", {"venue": "COLT", "year": 2023},
     "Show me papers on bandits"),
    ("Which ICML 2026 papers are about quantization?", {"venue": "ICML", "year": 2026},
     "Which papers are about quantization?"),
    ("List all papers by Yoshua Bengio", {"author": "Yoshua Bengio"}, "List all papers"),
    ("Which papers on transformers were published at NeurIPS?", {"venue": "NeurIPS"},
     "Which papers on transformers were?"),
    ("Which ICLR 2018 papers on GANs were rejected?",
     {"venue": "ICLR", "year": 2018, "status": "rejected"}, "Which papers on GANs?"),
    ("Rejected papers on GANs", {"status": "rejected"}, "papers on GANs"),
    ("Which oral papers are about GANs?", {"status": "oral"}, "Which papers are about GANs?"),
])
def test_the_word_that_led_to_a_filter_goes_with_it(query, applied, left):
    """ "Show me papers from COLT 2023 on bandits" was searched as "Show me papers from on
    bandits": no longer a request for papers on bandits (a near miss that quoted it)."""
    from assistant.search.query_filters import leftover

    assert leftover(query, applied) == left


def test_how_the_papers_fared_is_read_from_the_question(store, embedder, bundled_store):
    """ "Which ICLR 2018 papers on GANs were rejected?" was searched with "were rejected" as
    topic words, a near miss ("Nothing in this collection is about “GANs were rejected”")."""
    from assistant.answer.extractive import ExtractiveAnswerer
    from assistant.answer.pipeline import answer
    from assistant.search.query_filters import status_asked

    retriever, answerer = Retriever(store=store), ExtractiveAnswerer(embedder=embedder)
    for question, status, kept in (
            ("Which papers on generative adversarial networks were rejected?", "rejected",
             lambda r: r.get("status") == "Reject"),
            ("Which oral papers are about generative adversarial networks?", "oral",
             lambda r: r.get("status") == "Oral")):
        result = answer(question, retriever=retriever, answerer=answerer, ground=False)
        assert result.filters_read == {"status": status}, question
        assert result.citations and all(kept(RECORDS[c.paper.paper_id]) for c in
                                        result.citations), result.text
        assert result.text.startswith(f"(Searched only {status} papers: read from the question")
    tags = Retriever(store=store).index().status_tags
    for question in ("Which paper shows that the null hypothesis is rejected too often?",
                     "Is there a paper on rejection sampling?",
                     "Which papers propose a widely accepted benchmark?"):
        assert status_asked(question, tags) is None, question
    # every paper of the bundled list is in the proceedings: "accepted" tells none apart
    bundled = Retriever(store=bundled_store)
    plain = answer("Accepted papers on quantization", retriever=bundled, answerer=answerer,
                   ground=False)
    assert not plain.filters_read and not plain.text.startswith("(Searched only")


@pytest.mark.parametrize(("question", "status", "kept"), [
    ("Which papers were rejected?", "rejected", lambda r: r.get("status") == "Reject"),
    ("How many papers were withdrawn?", "withdrawn", lambda r: r.get("status") == "Withdraw"),
    ("What are the oral papers?", "oral", lambda r: r.get("status") == "Oral"),
])
def test_a_status_asked_alone_is_counted_by_venue_and_year(question, status, kept, store,
                                                          embedder):
    """ "Which papers were rejected?" was searched with nothing left to search for, and refused
    ("none of the papers searched is about “Which papers were rejected”")."""
    from collections import Counter

    from assistant.answer.extractive import ExtractiveAnswerer
    from assistant.answer.pipeline import answer

    result = answer(question, retriever=Retriever(store=store),
                    answerer=ExtractiveAnswerer(embedder=embedder), ground=False)
    marked = [r for r in RECORDS.values() if kept(r)]
    assert result.outcome == "listed" and not result.citations
    assert result.text.startswith(f"This collection holds **{len(marked)}** paper"
                                  f"{'s' * (len(marked) != 1)} marked {status}:")
    for (venue, year), n in Counter((r["venue"].upper(), r["year"]) for r in marked).items():
        assert f"{year}: {n}" in next(line for line in result.text.splitlines()
                                      if line.startswith(f"- {venue}:")), (venue, year)
    assert result.filters_read == {"status": status}


def test_search_says_what_the_query_itself_set(store_dir, capsys):
    """`assistant search` applied a filter read from the query (and papers left out for
    using something) without a word; it says so on stderr, as `ask` does in its answer, and
    `--json` gives `filters_read` and `left_out`."""
    base = ["search", "--store", str(store_dir), "--collection", "filters", "--k", "20"]
    assert main([*base, "Which papers on generative adversarial networks were rejected?"]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines()[0].startswith("(Searched only rejected papers: read from the "
                                          "question")
    assert out.strip() and all("(rejected submission)" in line or "also here" in line
                               for line in out.splitlines())
    assert main([*base, "--json", "Which papers on GANs do not use face images?"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["left_out"]["thing"] == "face images" and got["left_out"]["papers"] > 0
    assert not any("face images" in RECORDS[h["paper_id"]]["abstract"] for h in got["papers"])
    assert main([*base, "generative adversarial networks"]) == 0  # nothing set: nothing said
    assert not capsys.readouterr().err.strip()


def test_a_venue_named_by_another_name_or_not_held_is_said(retriever_over, embedder):
    """ "Which NeurIPS 2018 papers are about GANs?" over a list that calls the venue "nips"
    (the corpus's lists do) was refused: "NeurIPS" was searched as a topic word. And "papers
    from AISTATS on bandits" over a list without AISTATS was refused the same way."""
    from assistant.answer.extractive import ExtractiveAnswerer
    from assistant.answer.pipeline import answer
    from assistant.search.query_filters import absent_venue

    papers = [Paper(f"p{i}", f"{m.capitalize()} GANs", f"We train {m} generative adversarial "
                    "networks and improve GAN sample quality.", [f"A. Gan{i}"],
                    ("nips", "iclr")[i % 2], 2018 - i % 3 // 2)
              for i, m in enumerate(METHODS)]
    retriever = retriever_over(papers, collection="aliases")
    answerer = ExtractiveAnswerer(embedder=embedder)
    said = answer("Which NeurIPS 2018 papers are about GANs?", retriever=retriever,
                  answerer=answerer, ground=False)
    assert said.outcome == "answered" and said.filters_read == {"venue": "nips", "year": 2018}
    assert said.citations and all(c.paper.venue == "nips" and c.paper.year == 2018
                                  for c in said.citations)
    assert said.text.startswith("(Searched only papers from 2018 at NIPS: read from")
    other = answer("papers from AISTATS on GANs", retriever=retriever, answerer=answerer,
                   ground=False)
    assert other.text.startswith("(No paper here is from AISTATS: the venues here are ICLR, "
                                 "NIPS. Every paper was searched.)"), other.text
    assert other.outcome == "answered" and not other.filters_read
    # the user's own filter too, by either name: the index, Chroma's where, a paper in hand
    for mode in ("hybrid", "dense"):
        hits = retriever.search("GANs", k=20, filters=Filters(venue="NeurIPS"), mode=mode)
        assert hits.papers and {rp.paper.venue for rp in hits.papers} == {"nips"}, mode
    assert Filters(venue="NeurIPS").accepts(papers[0]) and not Filters(
        venue="NeurIPS").accepts(papers[1])
    assert absent_venue("Which NeurIPS papers study GANs?", ["nips"]) is None  # held, renamed
    assert absent_venue("Is there work on ACL reconstruction in ICML papers?", ["nips"]) == \
        "ICML"
    assert absent_venue("a torn acl", []) is None and absent_venue("press alt to", []) is None
