"""All settings in one typed place.

Sources, strongest first: keyword arguments, ``ASSISTANT_*`` environment variables (plus the
standard ``OPENAI_API_KEY`` / ``OPENAI_BASE_URL``), a TOML file (``ASSISTANT_CONFIG`` or
``~/.config/assistant/config.toml``), then the defaults below.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field, SecretStr, ValidationError
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from assistant.errors import ConfigError

PACKAGE_DIR = Path(__file__).resolve().parent
BUNDLED_CORPUS = PACKAGE_DIR / "data" / "icml2026-abstracts.txt"
BUNDLED_SOURCE = "bundled:icml2026"  # the source name its papers are stored under
BUNDLED_COLLECTION = "icml2026"


def _checkout_root() -> Path | None:
    root = PACKAGE_DIR.parent
    return root if (root / "pyproject.toml").exists() and (root / "store").is_dir() else None


def default_store_dir() -> Path:
    """The repo's ``store/`` in a checkout, else a per-user data directory."""
    root = _checkout_root()
    if root is not None:
        return root / "store"
    base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
    return base / "assistant" / "store"


def default_history_path() -> Path:
    base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
    return base / "assistant" / "history.db"


def config_file() -> Path:
    env = os.environ.get("ASSISTANT_CONFIG")
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config"))
    return base / "assistant" / "config.toml"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="ASSISTANT_", extra="ignore", populate_by_name=True, validate_default=True
    )

    # -- store -----------------------------------------------------------------------------
    store: Path = Field(default_factory=default_store_dir, description="Chroma store directory.")
    chroma_url: str | None = Field(
        None, description="A Chroma server (http://host:port); when set, used instead of `store`."
    )
    collection: str = Field(BUNDLED_COLLECTION, description="Chroma collection name.")

    # -- embeddings ------------------------------------------------------------------------
    embedder: Literal["local", "openai"] = Field(
        "local", description="`local` ONNX MiniLM (offline) or an OpenAI-compatible endpoint."
    )
    embedding_model: str = Field(
        "text-embedding-3-small", description="Model name for the `openai` embedder."
    )
    embedding_base_url: str | None = Field(
        None, description="Embeddings endpoint; defaults to `base_url`."
    )
    embedding_batch: int = Field(4, ge=1, le=512, description=(
        "Texts per local embedding batch (4: the fastest on 2 cores, and onnxruntime's memory "
        "grows with it: 16 embeds 10% slower in twice the memory)."))

    # -- chunking --------------------------------------------------------------------------
    chunk_tokens: int = Field(200, ge=32, le=2000, description="Token bound of one chunk.")
    chunk_overlap: int = Field(40, ge=0, le=500, description="Tokens carried into the next chunk.")

    # -- generation ------------------------------------------------------------------------
    backend: Literal["auto", "llm", "extractive"] = Field(
        "auto",
        description="`auto` uses the LLM when an endpoint or key is configured, else extractive.",
    )
    base_url: str | None = Field(
        None,
        validation_alias=AliasChoices("ASSISTANT_BASE_URL", "OPENAI_BASE_URL", "base_url"),
        description="OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp server).",
    )
    api_key: SecretStr | None = Field(
        None,
        validation_alias=AliasChoices("ASSISTANT_API_KEY", "OPENAI_API_KEY", "api_key"),
        description="API key for the endpoint.",
    )
    model: str = Field("gpt-4o-mini", description="Chat model name.")
    temperature: float = Field(0.1, ge=0, le=2, description="Sampling temperature.")
    max_tokens: int = Field(700, ge=16, description="Most tokens in one answer.")
    timeout: float = Field(60.0, gt=0, description="Seconds before an LLM request fails.")
    context_tokens: int = Field(3000, ge=200, description="Token budget for the numbered sources.")
    prompts_dir: Path | None = Field(None, description="Folder of your own prompt templates.")
    rerank: bool = Field(False, description="Let the LLM re-order the retrieved papers before "
                         "answering (one extra call; off until measured on a real model).")

    # -- retrieval -------------------------------------------------------------------------
    k: int = Field(6, ge=1, le=50, description="Papers given to the answerer.")
    candidates: int = Field(200, ge=5, le=2000, description="Chunks fetched per retrieval side.")
    retrieval_mode: Literal["hybrid", "dense", "lexical"] = Field(
        "hybrid", description="Retrieval: dense + BM25 fused, or one side alone.")
    fusion: Literal["rrf", "score"] = Field(
        "score", description="Fusion: weighted reciprocal rank fusion, or normalised score sum.")
    w_dense: float = Field(1.0, ge=0, description="Fusion weight of the dense side.")
    w_lexical: float = Field(1.2, ge=0, description="Fusion weight of the BM25 side.")
    rrf_k: float = Field(60.0, gt=0, description="RRF rank constant.")
    # fitted on the dev part of SciFact train (bench/tune_fusion.py): score fusion, BM25 weighted
    # 1.2 against dense 1.0, k1 0.9, b 0.4
    mmr_lambda: float = Field(
        0.7, ge=0, le=1, description="Diversity (MMR) for 'which papers' questions; 1 = off.")
    bm25_k1: float = Field(0.9, gt=0, description="BM25 k1.")
    bm25_b: float = Field(0.4, ge=0, le=1, description="BM25 b.")
    multilingual_max_papers: int = Field(
        300, ge=0, description="Offline, a question no dictionary can translate (Japanese, "
        "Korean) is searched with multilingual-e5 vectors (one per paper, made on first use at "
        "~2-3 papers/s): the most papers it may embed at once. 0 turns it off.")

    # -- history ---------------------------------------------------------------------------
    history: Path = Field(
        default_factory=default_history_path,
        validation_alias=AliasChoices("ASSISTANT_HISTORY", "history"),
        description="SQLite file of saved conversations.",
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        toml = TomlConfigSettingsSource(settings_cls, toml_file=config_file())
        return (init_settings, env_settings, toml)

    @property
    def uses_llm(self) -> bool:
        if self.backend == "extractive":
            return False
        if self.backend == "llm":
            return True
        return bool(self.base_url or self.api_key)

    def masked(self) -> dict[str, Any]:
        """The effective settings as plain values, secrets masked."""
        out: dict[str, Any] = {}
        for name in type(self).model_fields:
            value = getattr(self, name)
            if isinstance(value, SecretStr):
                secret = value.get_secret_value()
                value = (secret[:3] + "…" + secret[-2:]) if len(secret) > 8 else "****"
            elif isinstance(value, Path):
                value = str(value)
            elif isinstance(value, str) and "://" in value:
                value = mask_url(value)
            out[name] = value
        out["effective_backend"] = "llm" if self.uses_llm else "extractive"
        return out


def mask_url(url: str | None) -> str:
    """A URL with any password (and token-like query values) replaced by ****, for printing:
    ``http://user:secret@host/v1`` -> ``http://user:****@host/v1``."""
    import re
    from urllib.parse import urlsplit, urlunsplit

    if not url:
        return url or ""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "****"
    netloc = parts.netloc
    if "@" in netloc:
        creds, host = netloc.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        netloc = f"{user}:****@{host}" if ":" in creds else f"****@{host}"
    query = re.sub(r"(?i)((?:key|token|secret|password|sig)[^=&]*=)[^&]*", r"\1****",
                   parts.query)
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


_KNOWN_SECRETS: set[str] = set()  # key values seen by load_settings, for redact()
_SECRET_ENV = ("OPENAI_API_KEY", "ASSISTANT_API_KEY", "ASSISTANT_EMBEDDING_API_KEY")


def redact(text: str) -> str:
    """Text with every secret masked, for anything printed, logged or stored: URL passwords
    (``user:****@``), bearer tokens, token-like query values, and the API key values this
    process was given (settings or environment)."""
    import os
    import re

    if not text:
        return text
    out = re.sub(r"(://[^/\s:@]*:)[^@\s/]+@", r"\1****@", text)
    out = re.sub(r"(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{6,}", r"\1****", out)
    out = re.sub(r"(?i)([?&](?:api[_-]?key|key|token|secret|password|sig)[^=&\s]*=)[^&\s]+",
                 r"\1****", out)
    known = _KNOWN_SECRETS | {v for k in _SECRET_ENV if len(v := os.environ.get(k, "")) >= 6}
    for secret in sorted(known, key=len, reverse=True):
        out = out.replace(secret, "****")
    return out


class RedactingFilter:
    """A logging filter (for a handler) that masks secrets in each record's message."""

    def filter(self, record: Any) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


def load_settings(**overrides: Any) -> Settings:
    """Settings from every source; bad values become one ConfigError line."""
    clean = {k: v for k, v in overrides.items() if v is not None}
    try:
        settings = Settings(**clean)
        for secret in (settings.api_key, getattr(settings, "embedding_api_key", None)):
            if isinstance(secret, SecretStr) and len(secret.get_secret_value()) >= 6:
                _KNOWN_SECRETS.add(secret.get_secret_value())
        return settings
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc", ())) or "settings"
        raise ConfigError(
            f"invalid setting {where}: {err.get('msg')} (check ASSISTANT_* variables and "
            f"{config_file()})"
        ) from None
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read settings: {exc} (check {config_file()})") from None
