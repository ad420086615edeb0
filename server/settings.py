"""All configuration, read once from the environment (a `.env` file is honoured).

Every setting has an environment name and a default; the README lists them.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from pathlib import Path

from dotenv import load_dotenv


class SettingsError(ValueError):
    """A setting has a value that cannot work."""


def _env(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    return value if value not in (None, "") else default


def _float(name: str, default: float) -> float:
    raw = _env(name)
    try:
        return float(raw) if raw is not None else default
    except ValueError as exc:
        raise SettingsError(f"{name} must be a number, got {raw!r}") from exc


def _int(name: str, default: int) -> int:
    raw = _env(name)
    try:
        return int(raw) if raw is not None else default
    except ValueError as exc:
        raise SettingsError(f"{name} must be an integer, got {raw!r}") from exc


def _bool(name: str, default: bool) -> bool:
    raw = _env(name)
    if raw is None:
        return default
    return raw.strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class Settings:
    data_dir: Path = Path("data")
    models_dir: Path | None = None  # default: <data_dir>/models
    embedding_model: str = "sentence-transformers/all-MiniLM-L6-v2"
    embedding_batch_size: int = 16
    embedding_threads: int | None = None  # onnxruntime's choice; `serve --workers` sets 1 (see wsgi.py)
    qdrant_url: str | None = None
    qdrant_api_key: str | None = None
    collection: str = "textbook_chunks"
    database_url: str | None = None  # default: sqlite file in data_dir
    similarity_threshold: float = 0.30
    max_chunks: int = 5
    allowed_origins: tuple[str, ...] = ("http://localhost:3000", "http://127.0.0.1:3000")
    gemini_api_key: str | None = None
    gemini_model: str = "gemini-flash-latest"
    gemini_temperature: float = 0.2
    gemini_max_output_tokens: int = 1024
    gemini_timeout_s: float = 20.0
    agent_mode: bool = False
    max_request_bytes: int = 64 * 1024
    rate_limit: str = "30 per minute;500 per day"
    rate_limit_storage: str = "memory://"

    @property
    def model_dir_root(self) -> Path:
        return self.models_dir or self.data_dir / "models"

    @property
    def qdrant_path(self) -> Path:
        return self.data_dir / "qdrant"

    @property
    def sqlalchemy_url(self) -> str:
        return self.database_url or f"sqlite:///{(self.data_dir / 'sessions.db').resolve()}"

    def with_overrides(self, **kwargs) -> "Settings":
        known = {f.name for f in fields(self)}
        unknown = set(kwargs) - known
        if unknown:
            raise SettingsError(f"unknown settings: {sorted(unknown)}")
        return replace(self, **kwargs)


def load_settings(env_file: str | os.PathLike | None = ".env") -> Settings:
    """Build Settings from the environment, after loading `.env` (real env wins)."""
    if env_file and Path(env_file).is_file():
        load_dotenv(env_file, override=False)
    origins = _env("ALLOWED_ORIGINS")
    threshold = _float("SIMILARITY_THRESHOLD", Settings.similarity_threshold)
    if not 0.0 <= threshold <= 1.0:
        raise SettingsError(f"SIMILARITY_THRESHOLD must be in [0, 1], got {threshold}")
    models_dir = _env("TEXTBOOK_CHAT_MODELS_DIR")
    return Settings(
        data_dir=Path(_env("TEXTBOOK_CHAT_DATA_DIR", "data")),
        models_dir=Path(models_dir) if models_dir else None,
        embedding_model=_env("EMBEDDING_MODEL", Settings.embedding_model),
        embedding_batch_size=_int("EMBEDDING_BATCH_SIZE", Settings.embedding_batch_size),
        qdrant_url=_env("QDRANT_URL"),
        qdrant_api_key=_env("QDRANT_API_KEY"),
        collection=_env("QDRANT_COLLECTION", Settings.collection),
        database_url=_env("DATABASE_URL"),
        similarity_threshold=threshold,
        max_chunks=_int("MAX_CHUNKS", Settings.max_chunks),
        allowed_origins=tuple(o.strip() for o in origins.split(",") if o.strip())
        if origins
        else Settings.allowed_origins,
        gemini_api_key=_env("GEMINI_API_KEY") or _env("GOOGLE_API_KEY"),
        gemini_model=_env("GEMINI_MODEL", Settings.gemini_model),
        gemini_temperature=_float("GEMINI_TEMPERATURE", Settings.gemini_temperature),
        gemini_max_output_tokens=_int("GEMINI_MAX_OUTPUT_TOKENS", Settings.gemini_max_output_tokens),
        gemini_timeout_s=_float("GEMINI_TIMEOUT_S", Settings.gemini_timeout_s),
        agent_mode=_bool("AGENT_MODE", False),
        max_request_bytes=_int("MAX_REQUEST_BYTES", Settings.max_request_bytes),
        rate_limit=_env("RATE_LIMIT", Settings.rate_limit),
        rate_limit_storage=_env("RATE_LIMIT_STORAGE", Settings.rate_limit_storage),
    )
