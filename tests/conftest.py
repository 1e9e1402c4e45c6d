from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from wire_server import WireServer

from assistant.index.embeddings import LocalEmbedder
from assistant.index.store import PaperStore
from assistant.paper import Paper
from assistant.search.retrieval import Retriever
from assistant.sources.corpus import bundled_papers

_ENV_KEYS = ("OPENAI_API_KEY", "OPENAI_BASE_URL")
SHARED = Path(__file__).resolve().parents[2] / "shared"
_shared_counts = {"ran": 0, "skipped": 0}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test marked ``shared`` reads ../shared (the real corpus, SciFact): skipped, and
    counted, where it is absent."""
    if SHARED.is_dir():
        return
    skip = pytest.mark.skip(reason="needs ../shared (the shared corpus), which is absent")
    for item in items:
        if item.get_closest_marker("shared"):
            item.add_marker(skip)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "shared" not in report.keywords:
        return
    if report.when == "call":
        _shared_counts["ran"] += 1
    elif report.when == "setup" and report.skipped:
        _shared_counts["skipped"] += 1


def pytest_terminal_summary(terminalreporter: object, exitstatus: int,
                            config: pytest.Config) -> None:
    ran, skipped = _shared_counts["ran"], _shared_counts["skipped"]
    where = "present" if SHARED.is_dir() else "absent"
    print(f"\ntests that need ../shared ({where}): {ran} ran, {skipped} skipped"
          + (" because it is absent" if skipped and not SHARED.is_dir() else ""))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """CI has ../shared beside the clone: a skipped shared test there is a failure."""
    if os.environ.get("CI") and _shared_counts["skipped"] and exitstatus == 0:
        print(f"\nCI: {_shared_counts['skipped']} tests that need ../shared were skipped")
        session.exitstatus = 1


@pytest.fixture(autouse=True)
def env_setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every user path points into tmp_path; no ambient endpoint or key leaks in."""
    for key in list(os.environ):
        if key.startswith("ASSISTANT_") or key in _ENV_KEYS:
            monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("ASSISTANT_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("ASSISTANT_HISTORY", str(tmp_path / "history.db"))
    monkeypatch.setenv("ASSISTANT_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.fixture(scope="session")
def embedder() -> LocalEmbedder:
    return LocalEmbedder()


@pytest.fixture(scope="session")
def bundled_store_dir(tmp_path_factory: pytest.TempPathFactory, embedder: LocalEmbedder) -> Path:
    """The bundled ICML 2026 list ingested once into a real Chroma store."""
    path = tmp_path_factory.mktemp("bundled") / "store"
    store = PaperStore(collection="icml2026", embedder=embedder, path=path, create=True)
    store.ingest(bundled_papers(), source="bundled:icml2026")
    return path


@pytest.fixture
def bundled_store(bundled_store_dir: Path, embedder: LocalEmbedder,
                  monkeypatch: pytest.MonkeyPatch) -> PaperStore:
    monkeypatch.setenv("ASSISTANT_STORE", str(bundled_store_dir))
    return PaperStore(collection="icml2026", embedder=embedder, path=bundled_store_dir)


def _retriever(papers: Iterable[Paper], path: Path, embedder: LocalEmbedder,
               collection: str) -> Retriever:
    store = PaperStore(collection=collection, embedder=embedder, path=path, create=True)
    store.ingest(list(papers), source=f"test:{collection}")
    return Retriever(store=store)


@pytest.fixture
def retriever_over(tmp_path: Path, embedder: LocalEmbedder) -> Callable[..., Retriever]:
    """``retriever_over(papers, collection=...)``: a retriever over these papers, ingested
    into a real Chroma store in tmp_path."""
    def over(papers: Iterable[Paper], *, collection: str = "test") -> Retriever:
        return _retriever(papers, tmp_path / "store", embedder, collection)
    return over


@pytest.fixture(scope="module")
def module_retriever_over(tmp_path_factory: pytest.TempPathFactory, embedder: LocalEmbedder
                          ) -> Callable[..., Retriever]:
    """``retriever_over`` made once a module: a collection that many tests ask."""
    def over(papers: Iterable[Paper], *, collection: str = "test") -> Retriever:
        return _retriever(papers, tmp_path_factory.mktemp(collection), embedder, collection)
    return over


@pytest.fixture
def wire() -> WireServer:
    with WireServer() as server:
        yield server
