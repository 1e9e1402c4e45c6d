"""Asking across several collections (``--collection a,b``): the union ranks as one collection
holding every paper would, keeps a paper in two collections once, follows a member's change,
and names a missing member. Real Chroma in a temp dir, real papers from ../shared."""

import json
from pathlib import Path

import pytest

from assistant.cli.main import main
from assistant.errors import InputError, StoreNotFound
from assistant.evaluation.splits import corpus_part
from assistant.index.factory import open_store, open_writable
from assistant.index.store import PaperStore
from assistant.search.retrieval import Retriever
from assistant.settings import load_settings
from assistant.sources.corpus import bundled_papers, load_papers

SHARED = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "ml-abstracts.jsonl"
pytestmark = pytest.mark.shared


def _slice(n: int = 150) -> list:
    lines = []
    with SHARED.open() as fh:
        for line in fh:
            rec = json.loads(line)
            if (rec.get("tldr") and len(rec.get("abstract") or "") > 300
                    and corpus_part(rec) == "dev"):  # CI reads fit-venue dev papers only
                lines.append(line)
            if len(lines) >= n:
                break
    return list(load_papers_from_lines(lines))


def load_papers_from_lines(lines: list[str]) -> list:
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as fh:
        fh.writelines(lines)
    try:
        return list(load_papers(fh.name))
    finally:
        Path(fh.name).unlink()


@pytest.fixture(scope="module")
def union_store(tmp_path_factory, embedder):
    path = tmp_path_factory.mktemp("union") / "store"
    icml, ml = bundled_papers(), _slice()
    for name, papers in (("icml2026", icml), ("ml-part", ml), ("everything", icml + ml)):
        PaperStore(collection=name, embedder=embedder, path=path, create=True).ingest(
            papers, source="src")
    # one ICML paper also in ml-part's store as a second source: kept once in the union
    PaperStore(collection="ml-part", embedder=embedder, path=path).ingest(
        icml[:1], source="dup", prune=False)
    return path, icml, ml


def _open(path, collection, embedder):
    settings = load_settings(store=path, collection=collection)
    return open_store(settings, embedder=embedder)


def test_the_union_ranks_as_one_collection_holding_every_paper(union_store, embedder):
    path, icml, ml = union_store
    union = Retriever(store=_open(path, "icml2026,ml-part", embedder))
    whole = Retriever(store=_open(path, "everything", embedder))
    assert union.index().paper_count == whole.index().paper_count == len(icml) + len(ml)
    questions = [str(p.extra.get("tldr") or p.tldr) for p in ml[::10]] + [p.title for p in icml]
    found_ml = found_icml = 0
    for q in questions:
        a = [(r.paper.paper_id, round(r.score, 6)) for r in union.search(q, k=8).papers]
        b = [(r.paper.paper_id, round(r.score, 6)) for r in whole.search(q, k=8).papers]
        assert a == b, q
        ids = {pid for pid, _ in a}
        found_ml += bool(ids & {p.paper_id for p in ml})
        found_icml += bool(ids & {p.paper_id for p in icml})
    assert found_ml >= len(ml[::10]) and found_icml >= len(icml)  # both collections answer


def test_a_paper_in_two_collections_is_kept_once(union_store, embedder):
    path, icml, _ = union_store
    store = _open(path, "ml-part,icml2026", embedder)
    ids = [p.paper_id for p in store.papers()]
    assert len(ids) == len(set(ids)) and icml[0].paper_id in ids
    hits = Retriever(store=store).search(icml[0].title, k=5).papers
    assert [r.paper.paper_id for r in hits].count(icml[0].paper_id) == 1


def test_the_union_follows_a_member_change(tmp_path, embedder):
    path = tmp_path / "s"
    icml = bundled_papers()
    PaperStore(collection="aaa", embedder=embedder, path=path, create=True).ingest(
        icml[:5], source="a")
    PaperStore(collection="bbb", embedder=embedder, path=path, create=True).ingest(
        icml[5:8], source="b")
    retriever = Retriever(store=_open(path, "aaa,bbb", embedder))
    assert retriever.index().paper_count == 8
    PaperStore(collection="bbb", embedder=embedder, path=path).ingest(icml[5:12], source="b")
    assert retriever.index().paper_count == 12
    top = retriever.search(icml[11].title, k=1).papers[0]
    assert top.paper.paper_id == icml[11].paper_id


def test_a_missing_member_and_an_ingest_into_several_are_clear_errors(union_store, embedder,
                                                                      capsys):
    path, _, _ = union_store
    with pytest.raises(StoreNotFound, match=r"'nope'.*leave it out"):
        Retriever(store=_open(path, "icml2026,nope", embedder)).index()
    with pytest.raises(InputError, match=r"one collection at a time"):
        open_writable(load_settings(store=path, collection="icml2026,ml-part"),
                      embedder=embedder)
    assert main(["ingest", "--store", str(path), "--collection", "icml2026,ml-part"]) == 2
    err = capsys.readouterr().err
    assert "one collection at a time" in err and "Traceback" not in err


def test_ask_across_collections_from_the_cli(union_store, capsys):
    path, _, ml = union_store
    paper = ml[7]
    question = f"Which paper does this: {paper.extra.get('tldr') or paper.tldr}"
    assert main(["ask", "--store", str(path), "--collection", "icml2026, ml-part", "--json",
                 question]) == 0
    out = json.loads(capsys.readouterr().out)
    cited = [c["paper_id"] for c in out["citations"]]
    assert paper.paper_id in cited
