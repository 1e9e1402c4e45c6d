"""A real HTTP server on 127.0.0.1 that speaks the OpenAI wire format, scripted by tests.

    with WireServer() as server:
        server.script(["DyPE [1]", " works [7]."])      # next chat reply, streamed in chunks
        server.fail(401)                                  # or: next request answers 401
        ... OPENAI_BASE_URL=server.base_url ...
        server.requests[-1]["body"]                       # what the client sent

Chat completions stream as server-sent events exactly as the OpenAI API does (``data: {...}``
lines, a usage chunk when ``stream_options.include_usage`` is set, then ``data: [DONE]``).
Embeddings are deterministic hashed bag-of-words vectors.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return  # the client stopped reading mid-stream (a test that stops an answer)
        super().handle_error(request, client_address)


class WireServer:
    def __init__(self, model: str = "wire-model", delay: float = 0.0) -> None:
        self.model = model
        self.delay = delay
        self.replies: list[list[str]] = []
        self.failures: list[int] = []
        self.fail_message = ""  # the message a scripted failure carries
        self.requests: list[dict[str, Any]] = []
        self.default_reply = ["NONE: the provided papers are about other things."]
        # "short" | "mixed" | "html" | "hang" | "nonjson" | "nan" | "wide": a broken
        # embeddings reply
        self.embedding_fault = ""
        # "cut" | "drop" (cut inside chunked encoding) | "malformed" | "nostream" | "html" |
        # "hang": a broken chat reply
        self.chat_fault = ""
        self.released = threading.Event()  # "hang" answers nothing until this is set
        self._httpd: ThreadingHTTPServer | None = None

    # -- scripting ---------------------------------------------------------------------
    def script(self, chunks: list[str] | str) -> WireServer:
        self.replies.append([chunks] if isinstance(chunks, str) else list(chunks))
        return self

    def fail(self, status: int) -> WireServer:
        self.failures.append(status)
        return self

    @property
    def base_url(self) -> str:
        assert self._httpd is not None
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def chat_requests(self) -> list[dict[str, Any]]:
        return [r["body"] for r in self.requests if r["path"].endswith("/chat/completions")]

    # -- lifecycle ---------------------------------------------------------------------
    def __enter__(self) -> WireServer:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _json(self, status: int, obj: Any) -> None:
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _html(self, page: bytes) -> None:  # a login page where JSON was expected
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._json(200, {"object": "list", "data": [
                        {"id": server.model, "object": "model", "owned_by": "test"}]})
                else:
                    self._json(404, {"error": {"message": "not found", "type": "not_found"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append({"path": self.path, "body": body,
                                        "auth": self.headers.get("Authorization")})
                if server.failures:
                    status = server.failures.pop(0)
                    kinds = {401: "invalid_api_key", 404: "model_not_found",
                             429: "rate_limit_exceeded"}
                    self._json(status, {"error": {"message": server.fail_message
                                                  or f"scripted {status}",
                                                  "type": kinds.get(status, "server_error"),
                                                  "code": kinds.get(status)}})
                    return
                if self.path.endswith("/chat/completions"):
                    self._chat(body)
                elif self.path.endswith("/embeddings"):
                    inputs = body.get("input")
                    inputs = [inputs] if isinstance(inputs, str) else inputs
                    vectors = [hashed_vector(t) for t in inputs]
                    fault = server.embedding_fault
                    if fault == "html":
                        self._html(b"<html><body>Gateway login</body></html>")
                        return
                    if fault == "hang":  # accepts, then says nothing
                        server.released.wait(120)
                        return
                    if fault == "nonjson":
                        page = b"upstream error: model overloaded"
                        self.send_response(200)
                        self.send_header("Content-Type", "application/json")
                        self.send_header("Content-Length", str(len(page)))
                        self.end_headers()
                        self.wfile.write(page)
                        return
                    if fault == "short":
                        vectors = vectors[:-1]
                    elif fault == "mixed" and vectors:
                        vectors[0] = vectors[0][:32]
                    elif fault == "nan":
                        vectors = [[math.nan] * len(v) for v in vectors]
                    elif fault == "wide":  # another model's width
                        vectors = [hashed_vector(t, 96) for t in inputs]
                    self._json(200, {"object": "list", "model": body.get("model"), "data": [
                        {"object": "embedding", "index": i, "embedding": v}
                        for i, v in enumerate(vectors)],
                        "usage": {"prompt_tokens": 1, "total_tokens": 1}})
                else:
                    self._json(404, {"error": {"message": "unknown path", "type": "not_found"}})

            def _chat(self, body: dict[str, Any]) -> None:
                chunks = server.replies.pop(0) if server.replies else list(server.default_reply)
                created = int(time.time())
                fault = server.chat_fault
                if fault == "hang":  # accepts, then says nothing
                    server.released.wait(120)
                    return
                if fault == "html":
                    self._html(b"<html><body>Please log in</body></html>")
                    return
                if not body.get("stream") or fault == "nostream":
                    self._json(200, {"id": "cmpl-1", "object": "chat.completion",
                                     "created": created, "model": body.get("model"),
                                     "choices": [{"index": 0, "finish_reason": "stop",
                                                  "message": {"role": "assistant",
                                                              "content": "".join(chunks)}}],
                                     "usage": {"prompt_tokens": 10, "completion_tokens": 5,
                                               "total_tokens": 15}})
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                chunked = fault == "drop"  # as uvicorn or llama.cpp send it
                if chunked:
                    self.send_header("Transfer-Encoding", "chunked")
                else:
                    self.send_header("Connection", "close")
                self.end_headers()

                def event(obj: Any) -> None:
                    data = f"data: {json.dumps(obj)}\n\n".encode()
                    if chunked:
                        data = f"{len(data):x}\r\n".encode() + data + b"\r\n"
                    self.wfile.write(data)
                    self.wfile.flush()

                base = {"id": "chatcmpl-1", "object": "chat.completion.chunk",
                        "created": created, "model": body.get("model")}
                event({**base, "choices": [{"index": 0, "delta": {"role": "assistant",
                                                                  "content": ""},
                                            "finish_reason": None}]})
                for i, c in enumerate(chunks):
                    if server.delay:
                        time.sleep(server.delay)
                    if i == len(chunks) // 2 and fault == "malformed":
                        self.wfile.write(b"data: {this is not json\n\n")
                        self.wfile.flush()
                    if i == len(chunks) // 2 and fault in ("cut", "drop"):
                        self.close_connection = True
                        self.wfile.flush()
                        self.connection.shutdown(2)  # the connection drops mid-answer
                        return
                    event({**base, "choices": [{"index": 0, "delta": {"content": c},
                                                "finish_reason": None}]})
                event({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
                if (body.get("stream_options") or {}).get("include_usage"):
                    event({**base, "choices": [], "usage": {
                        "prompt_tokens": 100, "completion_tokens": len(chunks),
                        "total_tokens": 100 + len(chunks)}})
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

        self._httpd = _Server(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.released.set()
        if self._httpd:
            self._httpd.shutdown()
            self._httpd.server_close()


def hashed_vector(text: str, dim: int = 64) -> list[float]:
    vec = [0.0] * dim
    for word in re.findall(r"\w+", text.lower()):
        h = int(hashlib.md5(word.encode()).hexdigest(), 16)
        vec[h % dim] += 1.0 if (h >> 8) & 1 else -1.0
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]
