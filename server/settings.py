"""All configuration, read once from the environment (a `.env` file is honoured).

Each setting is declared once, in its concern's group below, with its environment name(s),
its default and how its text is read; `load_settings` reads them all from those declarations.
The README lists them.
"""
from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit

from dotenv import load_dotenv


class SettingsError(ValueError):
    """A setting has a value that cannot work."""


def _float(name: str, raw: str) -> float:
    try:
        return float(raw)
    except ValueError as exc:
        raise SettingsError(f"{name} must be a number, got {raw!r}") from exc


def _int(name: str, raw: str) -> int:
    try:
        return int(raw)
    except ValueError as exc:
        raise SettingsError(f"{name} must be an integer, got {raw!r}") from exc


def _positive(read: Callable[[str, str], Any]) -> Callable[[str, str], Any]:
    def positive(name: str, raw: str):
        value = read(name, raw)
        if value <= 0:
            raise SettingsError(f"{name} must be more than 0, got {raw!r}")
        return value
    return positive


_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}


def _bool(name: str, raw: str) -> bool:
    word = raw.strip().lower()
    if word not in _TRUE | _FALSE:
        raise SettingsError(f"{name} must be true or false (also 1/0, yes/no, on/off), got {raw!r}")
    return word in _TRUE


def _list(name: str, raw: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in raw.split(",") if item.strip())


def _path(name: str, raw: str) -> Path:
    path = Path(raw).expanduser()
    if path.exists() and not path.is_dir():
        raise SettingsError(f"{name} must name a folder, but {raw} is a file")
    return path


def _text(name: str, raw: str) -> str:
    return raw


def _fraction(name: str, raw: str) -> float:
    value = _float(name, raw)
    if not 0.0 <= value <= 1.0:
        raise SettingsError(f"{name} must be in [0, 1], got {value}")
    return value


def _database_url(name: str, raw: str) -> str:
    from server.sessions.database import DatabaseUrlError, parse_url

    try:
        parse_url(raw)
    except DatabaseUrlError as exc:
        raise SettingsError(str(exc)) from None
    return raw


def _chunk_count(name: str, raw: str) -> int:
    value = _int(name, raw)
    if not 1 <= value <= 10:  # a request may ask for 1 to 10 (api/schemas.py)
        raise SettingsError(f"{name} must be between 1 and 10, got {value}")
    return value


def _days(name: str, raw: str) -> int:
    value = _int(name, raw)
    if value < 0:
        raise SettingsError(f"{name} must be a number of days (0 keeps everything), got {value}")
    return value


def _rate_limit(name: str, raw: str) -> str:
    from limits import parse_many

    try:
        parse_many(raw)
    except ValueError:
        raise SettingsError(f"{name} must be limits like '30 per minute;500 per day', got {raw!r}") from None
    return raw


def _temperature(name: str, raw: str) -> float:
    value = _float(name, raw)
    if not 0.0 <= value <= 2.0:
        raise SettingsError(f"{name} must be in [0, 2], got {value}")
    return value


def _http_url(name: str, raw: str) -> str:
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SettingsError(f"{name} must be an http(s) URL such as http://localhost:6333, got {raw!r}")
    return raw


def _origins(name: str, raw: str) -> tuple[str, ...]:
    """Browsers send an origin as scheme://host[:port], nothing after it: an entry with a path
    or a trailing slash would never match one."""
    origins = _list(name, raw)
    for origin in origins:
        parts = urlsplit(origin)
        if origin != "*" and (parts.scheme not in ("http", "https") or not parts.hostname
                              or parts.path or parts.query or parts.fragment):
            raise SettingsError(f"{name} must list origins like https://book.example.org (scheme, host and port "
                                f"only, no path or trailing slash), got {origin!r}")
    return origins


def _collection(name: str, raw: str) -> str:
    """A collection is also a folder of the data folder: a plain name."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}", raw):
        raise SettingsError(f"{name} must be a name of letters, digits, '_' and '-', got {raw!r}")
    return raw


def _rate_limit_storage(name: str, raw: str) -> str:
    from limits.storage import SCHEMES

    scheme = raw.split("://", 1)[0] if "://" in raw else ""
    if scheme not in SCHEMES or scheme.startswith("async+"):
        raise SettingsError(f"{name} must be memory:// or a shared store's URL such as redis://localhost:6379, "
                            f"got {raw!r}")
    return raw


def _networks(name: str, raw: str) -> tuple[str, ...]:
    entries = _list(name, raw)
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise SettingsError(f"{name} must list IP addresses or networks (e.g. 10.0.0.5, 10.0.0.0/8), "
                                f"got {entry!r}") from None
    return entries


def _setting(default: Any, *env: str, concern: str, read: Callable[[str, str], Any] = _text):
    """A setting of `concern`, read from the first of the `env` names that is set (none: code only)."""
    kwargs = {"default_factory": lambda: default} if isinstance(default, (list, dict)) else {"default": default}
    return field(metadata={"env": env, "concern": concern, "read": read}, **kwargs)


@dataclass(frozen=True)
class Settings:
    # --- files ---------------------------------------------------------------------------
    data_dir: Path = _setting(Path("data"), "TEXTBOOK_CHAT_DATA_DIR", concern="files", read=_path)
    models_dir: Path | None = _setting(None, "TEXTBOOK_CHAT_MODELS_DIR", concern="files", read=_path)  # default: <data_dir>/models
    # --- embedding -----------------------------------------------------------------------
    # "auto": the model the index was made with, else the one its first book calls for (embedding/choice.py)
    embedding_model: str = _setting("auto", "EMBEDDING_MODEL", concern="embedding")
    embedding_batch_size: int = _setting(16, "EMBEDDING_BATCH_SIZE", concern="embedding", read=_positive(_int))
    # onnxruntime's choice; `serve --workers` sets 1 (see wsgi.py)
    embedding_threads: int | None = _setting(None, concern="embedding", read=_int)
    # --- store ---------------------------------------------------------------------------
    qdrant_url: str | None = _setting(None, "QDRANT_URL", concern="store", read=_http_url)
    qdrant_api_key: str | None = _setting(None, "QDRANT_API_KEY", concern="store")
    collection: str = _setting("textbook_chunks", "QDRANT_COLLECTION", concern="store", read=_collection)
    # --- sessions ------------------------------------------------------------------------
    database_url: str | None = _setting(None, "DATABASE_URL", concern="sessions", read=_database_url)  # default: sqlite file in data_dir
    # names this server in the questions it answers, so that at start-up it marks its own
    # unfinished ones INTERRUPTED; default: host name and data folder
    server_name: str | None = _setting(None, "TEXTBOOK_CHAT_SERVER_NAME", concern="sessions")
    # questions older than this many days are deleted (sessions/retention.py); 0 keeps them
    retention_days: int = _setting(180, "RETENTION_DAYS", concern="sessions", read=_days)
    # --- retrieval -----------------------------------------------------------------------
    # unset: the gate calibrated for the index's model (embedding/choice.py THRESHOLDS)
    similarity_threshold: float | None = _setting(None, "SIMILARITY_THRESHOLD", concern="retrieval", read=_fraction)
    max_chunks: int = _setting(5, "MAX_CHUNKS", concern="retrieval", read=_chunk_count)
    # --- generation ----------------------------------------------------------------------
    gemini_api_key: str | None = _setting(None, "GEMINI_API_KEY", "GOOGLE_API_KEY", concern="generation")
    gemini_model: str = _setting("gemini-flash-latest", "GEMINI_MODEL", concern="generation")
    gemini_temperature: float = _setting(0.2, "GEMINI_TEMPERATURE", concern="generation", read=_temperature)
    gemini_max_output_tokens: int = _setting(1024, "GEMINI_MAX_OUTPUT_TOKENS", concern="generation", read=_positive(_int))
    gemini_timeout_s: float = _setting(20.0, "GEMINI_TIMEOUT_S", concern="generation", read=_positive(_float))
    agent_mode: bool = _setting(False, "AGENT_MODE", concern="generation", read=_bool)
    # --- web -----------------------------------------------------------------------------
    allowed_origins: tuple[str, ...] = _setting(("http://localhost:3000", "http://127.0.0.1:3000"),
                                                "ALLOWED_ORIGINS", concern="web", read=_origins)
    max_request_bytes: int = _setting(64 * 1024, "MAX_REQUEST_BYTES", concern="web", read=_positive(_int))
    # a request's headers and body must have arrived this long after its first byte (slow clients)
    request_read_timeout_s: float = _setting(10.0, "REQUEST_READ_TIMEOUT_S", concern="web", read=_positive(_float))
    # open connections per server process; more wait to be accepted
    max_connections: int = _setting(1000, "MAX_CONNECTIONS", concern="web", read=_positive(_int))
    # of those, from one address (a trusted proxy's excepted); at most half of MAX_CONNECTIONS
    max_connections_per_address: int = _setting(250, "MAX_CONNECTIONS_PER_ADDRESS", concern="web",
                                                read=_positive(_int))
    rate_limit: str = _setting("30 per minute;500 per day", "RATE_LIMIT", concern="web", read=_rate_limit)
    rate_limit_storage: str = _setting("memory://", "RATE_LIMIT_STORAGE", concern="web", read=_rate_limit_storage)
    # wrong tokens and session secrets per address, across every endpoint, before all are refused (api/failures.py)
    auth_failure_limit: str = _setting("10 per 15 minutes", "AUTH_FAILURE_LIMIT", concern="web", read=_rate_limit)
    # reverse proxies whose X-Forwarded-For is believed (api/client_address.py)
    trusted_proxies: tuple[str, ...] = _setting((), "TRUSTED_PROXIES", concern="web", read=_networks)
    # the author's token for /insights and the widget's author view; unset: they do not exist (404)
    insights_token: str | None = _setting(None, "INSIGHTS_TOKEN", concern="web")
    # /mcp on `serve`, the MCP tools for readers' AI tools over HTTP; off: /mcp does not exist (404)
    mcp_enabled: bool = _setting(False, "MCP_ENABLED", concern="web", read=_bool)

    @property
    def model_dir_root(self) -> Path:
        return self.models_dir or self.data_dir / "models"

    @property
    def index_path(self) -> Path:
        """The embedded index (Qdrant Edge), one folder per collection."""
        return self.data_dir / "index"

    @property
    def qdrant_path(self) -> Path:
        """Where the previous embedded store (qdrant-client's local mode) kept its index."""
        return self.data_dir / "qdrant"

    @property
    def sqlalchemy_url(self) -> str:
        return self.database_url or f"sqlite:///{(self.data_dir / 'sessions.db').resolve()}"

    def concern(self, name: str) -> dict[str, Any]:
        """The settings of one concern ("store", "generation", …) by field name."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.metadata["concern"] == name}

    def with_overrides(self, **kwargs) -> "Settings":
        known = {f.name for f in fields(self)}
        unknown = set(kwargs) - known
        if unknown:
            raise SettingsError(f"unknown settings: {sorted(unknown)}")
        return replace(self, **kwargs)


def environment_names() -> dict[str, str]:
    """Every environment name a setting is read from, and the setting's field name."""
    return {env: f.name for f in fields(Settings) for env in f.metadata["env"]}


def load_settings(env_file: str | os.PathLike | None = ".env") -> Settings:
    """Build Settings from the environment, after loading `.env` (real env wins)."""
    if env_file and Path(env_file).is_file():
        load_dotenv(env_file, override=False)
    values = {}
    for setting in fields(Settings):
        for name in setting.metadata["env"]:
            raw = os.environ.get(name)
            if raw not in (None, ""):
                values[setting.name] = setting.metadata["read"](name, raw)
                break
    return Settings(**values)
