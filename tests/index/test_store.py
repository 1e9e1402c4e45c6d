from dataclasses import replace

import pytest

from assistant.errors import EmbeddingError, EmbeddingMismatch, StoreNotFound
from assistant.index import ingest
from assistant.index.chunking import chunk_paper
from assistant.index.embeddings import LocalEmbedder
from assistant.index.store import PaperStore
from assistant.sources.corpus import bundled_papers


class CountingEmbedder:
    """The real local model, counting what it is asked to embed; can fail on demand."""

    def __init__(self, inner: LocalEmbedder, name: str | None = None) -> None:
        self.inner = inner
        self.name = name or inner.name
        self.embedded = 0
        self.fail_after: int | None = None

    def embed(self, texts, *, progress=None):
        if self.fail_after is not None and self.embedded + len(texts) > self.fail_after:
            raise EmbeddingError("scripted failure while embedding")
        self.embedded += len(texts)
        return self.inner.embed(texts, progress=progress)

    def embed_query(self, text):
        return self.inner.embed_query(text)

    def preload(self):
        pass


@pytest.fixture
def papers():
    return bundled_papers()[:6]


def make(tmp_path, embedder, **kw):
    return PaperStore(collection="test-coll", embedder=embedder, path=tmp_path / "s", create=True,
                      chunk_tokens=120, chunk_overlap=20, **kw)


def test_ingest_then_reingest_does_no_embedding_work(tmp_path, embedder, papers):
    counting = CountingEmbedder(embedder)
    store = make(tmp_path, counting)
    first = store.ingest(papers, source="src")
    assert (first.added, first.unchanged) == (6, 0)
    assert counting.embedded == first.chunks_embedded > 6
    assert store.paper_count() == 6
    # a fresh client on the same directory sees the same data and re-embeds nothing
    again = make(tmp_path, counting).ingest(papers, source="src")
    assert (again.added, again.updated, again.unchanged, again.chunks_embedded) == (0, 0, 6, 0)
    assert counting.embedded == first.chunks_embedded


def test_changed_papers_are_replaced_and_missing_ones_removed(tmp_path, embedder, papers):
    counting = CountingEmbedder(embedder)
    store = make(tmp_path, counting)
    store.ingest(papers, source="src")
    before = counting.embedded
    edited = replace(papers[0], abstract="A completely rewritten abstract about graph "
                     "neural networks for weather forecasting. It is short.")
    report = store.ingest([edited, *papers[1:4]], source="src")
    assert (report.updated, report.removed, report.unchanged) == (1, 2, 3)
    assert counting.embedded - before == report.chunks_embedded == 1
    stored = {p.paper_id: p for p in store.papers()}
    assert set(stored) == {p.paper_id for p in [edited, *papers[1:4]]}
    assert stored[edited.paper_id].abstract.startswith("A completely rewritten")
    # the old chunks of the edited paper are gone: only one chunk remains for it
    ids = [cid for cid, _, _ in store.chunks() if cid.startswith(edited.paper_id)]
    assert ids == [f"{edited.paper_id}::0"]


def test_other_sources_are_left_alone_and_no_prune_keeps_papers(tmp_path, embedder, papers):
    store = make(tmp_path, embedder)
    store.ingest(papers[:3], source="a")
    store.ingest(papers[3:], source="b")
    assert store.paper_count() == 6
    report = store.ingest(papers[:1], source="a", prune=False)
    assert report.removed == 0 and store.paper_count() == 6
    store.ingest(papers[:1], source="a")
    assert store.paper_count() == 4


def test_a_failed_ingest_leaves_the_store_as_it_was(tmp_path, embedder, papers):
    counting = CountingEmbedder(embedder)
    store = make(tmp_path, counting)
    store.ingest(papers[:3], source="src")
    snapshot = sorted(cid for cid, _, _ in store.chunks())
    counting.fail_after = counting.embedded + 2
    with pytest.raises(EmbeddingError):
        store.ingest(papers, source="src")  # would add 3 and keep 3
    assert sorted(cid for cid, _, _ in store.chunks()) == snapshot
    assert store.paper_count() == 3


def _stored_chunks(store):
    by_paper: dict[str, list[int]] = {}
    for _, _, meta in store.chunks():
        by_paper.setdefault(meta["paper_id"], []).append(meta["chunk"])
    return by_paper


def test_an_interrupted_ingest_keeps_whole_papers_and_resumes(tmp_path, embedder):
    papers = bundled_papers()
    counting = CountingEmbedder(embedder)
    store = make(tmp_path, counting)
    counting.fail_after = 12  # dies while embedding the third group of 2 papers
    with pytest.raises(EmbeddingError):
        ingest.run(store, papers, source="src", group=2)
    kept = _stored_chunks(store)
    assert 0 < len(kept) < len(papers)
    whole = {p.paper_id: len(chunk_paper(p, max_tokens=120, overlap=20)) for p in papers}
    assert all(sorted(c) == list(range(whole[pid])) for pid, c in kept.items())
    done = counting.embedded
    counting.fail_after = None
    report = ingest.run(store, papers, source="src", group=2)
    assert report.unchanged == len(kept) and report.added == len(papers) - len(kept)
    assert counting.embedded - done == sum(n for pid, n in whole.items() if pid not in kept)
    assert {pid: sorted(c) for pid, c in _stored_chunks(store).items()} == {
        pid: list(range(n)) for pid, n in whole.items()}


def test_a_paper_missing_a_chunk_is_repaired(tmp_path, embedder):
    papers = bundled_papers()
    counting = CountingEmbedder(embedder)
    store = make(tmp_path, counting)
    store.ingest(papers, source="src")
    long = next(p for p in papers if len(chunk_paper(p, max_tokens=120, overlap=20)) >= 2)
    store.collection().delete(ids=[f"{long.paper_id}::1"])  # as a kill mid-write once could
    before = counting.embedded
    report = store.ingest(papers, source="src")
    assert (report.updated, report.unchanged) == (1, len(papers) - 1)
    assert counting.embedded - before == report.chunks_embedded == len(
        chunk_paper(long, max_tokens=120, overlap=20))
    assert f"{long.paper_id}::1" in {cid for cid, _, _ in store.chunks()}


class ShortEmbedder(CountingEmbedder):
    """An endpoint that drops the last vector of a batch, or returns the wrong width."""

    def __init__(self, inner, mode):
        super().__init__(inner)
        self.mode = mode

    def embed(self, texts, *, progress=None):
        out = self.inner.embed(texts)
        return out[:-1] if self.mode == "short" else out[:, :100]


@pytest.mark.parametrize("mode", ["short", "narrow"])
def test_wrong_vectors_are_never_written(tmp_path, embedder, papers, mode):
    store = make(tmp_path, embedder)
    store.ingest(papers[:2], source="src")
    snapshot = sorted(cid for cid, _, _ in store.chunks())
    bad = make(tmp_path, ShortEmbedder(embedder, mode))
    with pytest.raises(EmbeddingError, match="nothing was written"):
        bad.ingest(papers, source="src")
    assert sorted(cid for cid, _, _ in store.chunks()) == snapshot


def test_querying_with_another_model_is_a_clear_error(tmp_path, embedder, papers):
    make(tmp_path, embedder).ingest(papers[:2], source="src")
    other = PaperStore(collection="test-coll", embedder=CountingEmbedder(embedder, "other-model"),
                       path=tmp_path / "s")
    with pytest.raises(EmbeddingMismatch, match="re-ingest"):
        other.count()


def test_missing_store_and_collection(tmp_path, embedder):
    with pytest.raises(StoreNotFound, match="assistant ingest"):
        PaperStore(collection="abc", embedder=embedder, path=tmp_path / "none").count()
    make(tmp_path, embedder).ingest(bundled_papers()[:1], source="x")
    with pytest.raises(StoreNotFound, match="no collection 'other'"):
        PaperStore(collection="other", embedder=embedder, path=tmp_path / "s").count()


def test_dense_search_aggregates_chunks_to_papers(bundled_store):
    from assistant.search.retrieval import Retriever

    result = Retriever(store=bundled_store).search(
        "ultra-high-resolution image generation with diffusion transformers", k=5)
    assert "DyPE" in result.papers[0].paper.title
    assert len({rp.paper.paper_id for rp in result.papers}) == len(result.papers) == 5
    assert [rp.rank for rp in result.papers] == [1, 2, 3, 4, 5]
    assert result.papers[0].score >= result.papers[1].score


@pytest.mark.parametrize("damage", ["overwrite", "truncate"])
def test_a_damaged_derived_index_is_rebuilt(bundled_store_dir, tmp_path, embedder, damage):
    import shutil

    from assistant.index.chunk_index import index_dir
    from assistant.search.retrieval import Retriever

    path = tmp_path / "copy"
    shutil.copytree(bundled_store_dir, path)
    store = PaperStore(collection="icml2026", embedder=embedder, path=path)
    question = "watermarking text generated by large language models"
    assert "IPMark" in Retriever(store=store).search(question, k=1).papers[0].paper.title
    vectors = index_dir(store) / "vectors.npy"
    data = vectors.read_bytes()
    if damage == "overwrite":  # same size, other numbers: silently wrong ranks before
        vectors.write_bytes(data[:128] + bytes(reversed(data[128:])))
    else:
        vectors.write_bytes(data[: len(data) // 2])
    found = Retriever(store=store).search(question, k=1).papers[0]
    assert "IPMark" in found.paper.title
    assert vectors.read_bytes() == data  # rebuilt from the collection


def test_two_ingests_into_one_store_wait_for_each_other(tmp_path):
    """The test holds the store's write lock, starts two ingests (both wait, and say so), then
    lets go: both finish, and the store holds both lists."""
    import fcntl
    import json
    import os
    import subprocess
    import sys
    import time

    store = tmp_path / "shared-store"
    store.mkdir()
    other = tmp_path / "other.jsonl"
    other.write_text("\n".join(json.dumps({"id": f"o{i}", "title": f"Other {i}", "abstract":
                                           f"Another abstract number {i} about graph kernels."})
                               for i in range(3)))
    env = {**os.environ, "ASSISTANT_STORE": str(store)}
    logs = [tmp_path / "a.err", tmp_path / "b.err"]
    with (store / ".write.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        procs = [subprocess.Popen([sys.executable, "-m", "assistant", "ingest", *extra],
                                  env=env, stdout=subprocess.DEVNULL, stderr=log.open("w"))
                 for extra, log in (([], logs[0]), ([str(other)], logs[1]))]
        deadline = time.monotonic() + 300
        while not all("waiting for another ingest" in log.read_text() for log in logs):
            assert time.monotonic() < deadline, [log.read_text() for log in logs]
            assert all(p.poll() is None for p in procs), [log.read_text() for log in logs]
            time.sleep(0.2)
        fcntl.flock(lock, fcntl.LOCK_UN)
    assert [p.wait(timeout=300) for p in procs] == [0, 0], [log.read_text() for log in logs]
    from assistant.index.embeddings import LocalEmbedder

    papers = PaperStore(collection="icml2026", embedder=LocalEmbedder(), path=store).papers()
    assert len(papers) == 19 + 3


@pytest.mark.shared
def test_searching_while_an_ingest_writes_keeps_working(bundled_store_dir, tmp_path, capsys):
    """An ingest of 400 real papers runs in another process; searches of the same store made
    while its chunk count grows all answer (the write lock never blocks readers)."""
    import json
    import os
    import shutil
    import sqlite3
    import subprocess
    import sys
    import time
    from pathlib import Path

    from assistant.cli.main import main
    from assistant.evaluation.splits import corpus_part

    corpus = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "ml-abstracts.jsonl"
    store = tmp_path / "busy"
    shutil.copytree(bundled_store_dir, store)
    part = tmp_path / "part.jsonl"
    with corpus.open() as fh:
        lines = (line for line in fh if corpus_part(json.loads(line)) == "dev")
        part.write_text("".join(next(lines) for _ in range(400)))  # fit-venue dev papers

    def chunks() -> int:
        with sqlite3.connect(f"file:{store / 'chroma.sqlite3'}?mode=ro", uri=True) as con:
            return int(con.execute("SELECT count(*) FROM embeddings").fetchone()[0])

    start = chunks()
    proc = subprocess.Popen([sys.executable, "-m", "assistant", "ingest", str(part), "--store",
                             str(store), "--no-prune"], env=os.environ.copy(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen: list[int] = []
    deadline = time.monotonic() + 600
    while proc.poll() is None and time.monotonic() < deadline:
        if chunks() > start and (not seen or chunks() > seen[-1]):
            seen.append(chunks())
            assert main(["search", "diffusion transformers at high resolution", "--store",
                         str(store), "--json", "--k", "3"]) == 0
            found = json.loads(capsys.readouterr().out)
            assert found["papers"], "a search during the ingest found nothing"
        time.sleep(0.1)
    assert proc.wait(timeout=600) == 0, proc.stderr.read() if proc.stderr else ""
    assert seen, "no search ran while the ingest was writing"
    assert main(["papers", "--store", str(store), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) > 19


def test_a_long_record_is_stored_in_pieces_and_read_back_whole(tmp_path, embedder, papers):
    """Chunk 0 keeps the packed record in pieces of at most PIECE characters (a longer string
    metadata costs Chroma an overflow page); the papers and the derived index's records read
    back the same, and an older store's single-piece record still reads."""
    import json

    from assistant.index.chunk_index import ensure_index
    from assistant.index.records import PIECE, chunk_meta, pack, unpack

    long = replace(papers[0], abstract=" ".join(f"w{i}x{i * 7919 % 1000}" for i in range(1500)))
    store = make(tmp_path, embedder)
    store.ingest([long, *papers[1:]], source="src")
    first = store.collection().get(where={"$and": [{"chunk": 0}, {"paper_id": long.paper_id}]},
                                   include=["metadatas"])["metadatas"][0]
    parts = sorted(k for k in first if k.startswith("paper_z"))
    assert len(parts) > 2 and all(len(first[k]) <= PIECE for k in parts)
    assert "title" not in first and "authors" not in first  # in the record only
    got = {p.paper_id: p for p in store.papers()}
    assert got[long.paper_id].to_dict() == long.to_dict()
    index = ensure_index(store)
    assert [p.to_dict() for p in index.papers([long.paper_id, papers[1].paper_id])] == [
        long.to_dict(), papers[1].to_dict()]
    old = chunk_meta(long, chunk_paper(long, max_tokens=120, overlap=20)[0], "src", "h",
                     nchunks=1)
    old = {k: v for k, v in old.items() if not k.startswith("paper_z")}
    assert unpack({**old, "paper_z": pack(long)}).to_dict() == long.to_dict()
    assert unpack({**old, "paper": json.dumps(long.to_dict())}).to_dict() == long.to_dict()
