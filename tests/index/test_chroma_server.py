"""The server path: a real `chroma run` on 127.0.0.1, reached through HttpClient."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from assistant.errors import StoreError
from assistant.index.store import PaperStore
from assistant.search.retrieval import Retriever
from assistant.sources.corpus import bundled_papers

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def chroma_url(tmp_path_factory):
    exe = shutil.which("chroma") or str(Path(__import__("sys").executable).parent / "chroma")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = tmp_path_factory.mktemp("chroma-server")
    proc = subprocess.Popen([exe, "run", "--path", str(data), "--host", "127.0.0.1",
                             "--port", str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                with urllib.request.urlopen(f"{url}/api/v2/heartbeat", timeout=1):
                    break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError("chroma run exited") from None
                time.sleep(0.25)
        else:
            raise RuntimeError("chroma run did not start in 30 s")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_ingest_and_search_through_a_chroma_server(chroma_url, embedder):
    store = PaperStore(collection="icml2026", embedder=embedder, url=chroma_url, create=True)
    report = store.ingest(bundled_papers(), source="bundled:icml2026")
    assert report.added == 19
    again = PaperStore(collection="icml2026", embedder=embedder, url=chroma_url)
    assert again.ingest(bundled_papers(), source="bundled:icml2026").chunks_embedded == 0
    result = Retriever(store=again).search("watermarking text from language models", k=3)
    assert "IPMark" in result.papers[0].paper.title


def test_an_unreachable_server_is_a_clear_error(embedder):
    store = PaperStore(collection="icml2026", embedder=embedder, url="http://127.0.0.1:9")
    with pytest.raises(StoreError, match="cannot reach the Chroma server"):
        store.count()


def test_every_command_switches_to_the_server(chroma_url, capsys, tmp_path):
    """ingest, collections, search and ask with --chroma-url: nothing is written to the
    default store; the derived index is rebuilt from the server's collection in the cache."""
    import json
    import os

    from assistant.cli.main import main

    url = ["--chroma-url", chroma_url]
    assert main(["ingest", *url, "--collection", "server-icml"]) == 0
    capsys.readouterr()
    assert main(["collections", *url, "--json"]) == 0
    listed = {c["name"]: c for c in json.loads(capsys.readouterr().out)}
    assert listed["server-icml"]["papers"] == 19 and listed["server-icml"]["bytes_on_disk"] is None
    assert main(["search", "watermarking text from language models", *url,
                 "--collection", "server-icml", "--json", "--k", "3"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert "IPMark" in found["papers"][0]["title"]
    assert main(["ask", "Which paper watermarks LLM text for IP protection?", *url,
                 "--collection", "server-icml", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["outcome"] == "answered" and "IPMark" in answer["citations"][0]["title"]
    assert not Path(os.environ["ASSISTANT_STORE"]).exists()
    assert (tmp_path / "cache" / "assistant" / "index").is_dir()
