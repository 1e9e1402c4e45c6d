"""The verifier: a small cross-encoder that reads a question and a paper together and scores
how well the paper answers it (0-1). Trained by this project (train/train_verifier.py, from
the all-MiniLM-L6-v2 weights, on dev papers only), shipped as an int8 ONNX file in
assistant/data/ and run by onnxruntime: nothing downloads at run time.

It sees what the decision's other features cannot: whether a paper is *about this*, not only
about the same topic.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

from assistant.paper import Paper
from assistant.settings import PACKAGE_DIR

log = logging.getLogger(__name__)
MODEL = PACKAGE_DIR / "data" / "verifier-int8.onnx"
MAX_TOKENS = 160  # as trained (train/train_verifier.py --max-len)
QUESTION_CHARS = 120  # a question of one long token: never more than the pair can hold


class Scorer(Protocol):
    def score(self, question: str, passages: Sequence[str]) -> list[float]: ...


WINDOW_CHARS = 560  # about what the pair leaves the passage (MAX_TOKENS less a question)


def passage(paper: Paper, question: str = "") -> str:
    """What the verifier reads of a paper (as trained): its title, then its abstract from the
    sentence before the one that shares most words with the question (``window``): the pair
    holds MAX_TOKENS, about the first 120 words of an abstract, so a word found only at the
    end of a long abstract would otherwise never be read."""
    return f"{paper.title}. {window(paper.abstract, question)}"


def window(abstract: str, question: str) -> str:
    """The abstract rotated to start one sentence before its best match with the question (the
    sentences before it follow at the end); unchanged when it is short or nothing matches."""
    if not question or len(abstract) <= WINDOW_CHARS:
        return abstract
    from assistant.textutil import content_words, split_sentences, stem

    sents = split_sentences(abstract)
    asked = {stem(w) for w in content_words(question)}
    if len(sents) < 3 or not asked:
        return abstract
    shared = [len(asked & {stem(w) for w in content_words(s)}) for s in sents]
    chars, reach = 0, 0  # the sentences the pair reads as it is
    for s in sents:
        chars += len(s) + 1
        if chars > WINDOW_CHARS:
            break
        reach += 1
    best = max(range(len(sents)), key=lambda i: (shared[i], -i))
    if best < max(reach, 1) or shared[best] == 0:
        return abstract  # its best match is read already
    start = best - 1
    return " ".join(sents[start:] + sents[:start])


def available() -> bool:
    return MODEL.exists()


class Verifier:
    """``score(question, passages)`` -> one probability per passage ("title. abstract").

    Each pair runs alone on one thread, ``threads`` pairs at a time (one session, which
    onnxruntime lets several threads run): a pair of ~160 tokens keeps one core busy better
    than it keeps two, so two pairs side by side finish sooner than two pairs one after the
    other on two threads each (bench/rerank.py: the decision's p50)."""

    def __init__(self, *, model: Path = MODEL, threads: int = 2) -> None:
        self.model = model
        self.threads = max(1, threads)
        self._session: Any = None
        self._tokenizer: Any = None
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime as ort
            from tokenizers import Tokenizer

            from assistant.index.embeddings import LocalEmbedder

            _, tok_path = LocalEmbedder.files()  # the same uncased MiniLM vocabulary
            tok = Tokenizer.from_file(str(tok_path))
            tok.enable_truncation(max_length=MAX_TOKENS, strategy="only_second")
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = 1  # a pair a thread (the class's note)
            opts.inter_op_num_threads = 1
            self._session = ort.InferenceSession(str(self.model), opts,
                                                 providers=["CPUExecutionProvider"])
            self._tokenizer = tok
            if self.threads > 1:
                self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="verifier")

    def preload(self) -> None:
        """Load the model on a background thread (it overlaps with opening the store)."""
        if self._session is None:
            import onnxruntime  # noqa: F401  (C extensions import on the main thread)
            import tokenizers  # noqa: F401

            threading.Thread(target=self._load, daemon=True).start()

    def _question(self, question: str) -> str:
        """The question as the model reads it: a run of one word cut to two ("word word word"
        scored 0.99 against any paper), and cut short enough to leave room for the passage (the
        pair is truncated on the passage's side only: a longer question is an error)."""
        said = question.split()
        low = [w.lower() for w in said]
        words = [w for i, w in enumerate(said)  # a run of one word collapses to two
                 if i < 2 or not low[i] == low[i - 1] == low[i - 2]]
        while len(words) > 1:
            try:  # room for a line of the passage beside it
                if len(self._tokenizer.encode(" ".join(words), "x " * 16).ids) < MAX_TOKENS:
                    break
            except Exception:  # tokenizers: "too short to respect max_length"
                pass
            words = words[: max(1, len(words) * 3 // 4)]
        return " ".join(words)[:QUESTION_CHARS] if len(words) == 1 else " ".join(words)

    def score(self, question: str, passages: Sequence[str]) -> list[float]:
        """Each pair alone: the int8 model quantises its activations per input tensor, so a
        batch (padded to its longest pair) would make each pair's score depend on the others;
        alone, a pair always scores the same (and no time goes to padding)."""
        if not passages:
            return []
        self._load()
        question = self._question(question)
        pairs = self._tokenizer.encode_batch([(question, p) for p in passages])
        if self._pool is None or len(pairs) == 1:
            return [self._one(enc) for enc in pairs]
        return list(self._pool.map(self._one, pairs))

    def _one(self, enc: Any) -> float:
        import numpy as np

        feed = {"input_ids": np.array([enc.ids], dtype=np.int64),
                "attention_mask": np.array([enc.attention_mask], dtype=np.int64),
                "token_type_ids": np.array([enc.type_ids], dtype=np.int64)}
        z = float(self._session.run(None, feed)[0].reshape(-1)[0])
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


class Remembered:
    """A scorer that reads each pair once: the scores it has given are given again, the others
    asked of ``scorer`` (default: the shared verifier, loaded when first needed). A question's
    comparison reads each side's papers twice, to pick the paper a side stands for and to
    judge it; one of these for the question reads them once. A pair scores the same alone
    whenever it is read (``Verifier.score``), so what is remembered is what would be read."""

    def __init__(self, scorer: Scorer | None = None) -> None:
        self._scorer = scorer
        self._read: dict[tuple[str, str], float] = {}

    def score(self, question: str, passages: Sequence[str]) -> list[float]:
        new = [p for p in dict.fromkeys(passages) if (question, p) not in self._read]
        if new:
            scorer = self._scorer or shared()
            for p, v in zip(new, scorer.score(question, new), strict=True):
                self._read[(question, p)] = v
        return [self._read[(question, p)] for p in passages]


_shared: Verifier | None = None


def shared() -> Verifier:
    """One verifier a process (the model loads once)."""
    global _shared
    if _shared is None:
        _shared = Verifier()
    return _shared
