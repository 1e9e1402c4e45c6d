from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from wire_server import WireServer

from assistant.index.embeddings import LocalEmbedder
from assistant.index.store import PaperStore
from assistant.sources.corpus import bundled_papers

_ENV_KEYS = ("OPENAI_API_KEY", "OPENAI_BASE_URL")


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


@pytest.fixture
def wire() -> WireServer:
    with WireServer() as server:
        yield server
