"""The Flask application factory."""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

from flask import Flask, request
from flask_cors import CORS
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_smorest import Api

from . import __version__
from .api.errors import register_error_handlers
from .api.routes import blp
from .rag.generators.base import Generator
from .rag.pipeline import ChatPipeline
from .retrieval import Retriever
from .services import Services, build_services
from .sessions import SessionStore
from .settings import Settings, load_settings


@dataclass
class ChatState:
    """Everything a request needs, built once per process (see app.extensions)."""

    services: Services
    sessions: SessionStore
    pipeline: ChatPipeline
    generator_name: str
    _size: tuple[float, int] = (0.0, -1)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def index_size(self, fresh: bool = False) -> int:
        with self._lock:
            checked, size = self._size
            if fresh or size <= 0 or time.monotonic() - checked > 30:
                self._size = (time.monotonic(), self.services.store.count())
            return self._size[1]

    def warm_up(self) -> None:
        """Load what the first question would otherwise wait for: the book's vocabulary, the
        English word list behind the unknown-term gate, and the model's first run."""
        self.index_size(fresh=True)
        self.pipeline.vocabulary.warm_up()
        self.services.embedder.embed_query("warm-up")

    def after_fork(self) -> None:
        """In a forked worker process: connections of its own. The local index (in memory) and
        the model (loaded with one thread, so no thread pool to lose in the fork) are shared."""
        self.sessions.after_fork()
        self.services.store.after_fork()

    def close(self) -> None:
        self.sessions.close()
        self.services.close()


def make_generator(settings: Settings, embedder) -> Generator:
    if settings.gemini_api_key:
        from .rag.generators.gemini import GeminiGenerator
        from .rag.generators.extractive import ExtractiveGenerator

        return GeminiGenerator(settings, fallback=ExtractiveGenerator(embedder))
    from .rag.generators.extractive import ExtractiveGenerator

    return ExtractiveGenerator(embedder)


def create_app(settings: Settings | None = None, *, services: Services | None = None,
               generator: Generator | None = None, config: dict | None = None) -> Flask:
    settings = settings or load_settings()
    app = Flask(__name__)
    app.config.update(
        API_TITLE="textbook chat", API_VERSION=__version__, OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/", OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=settings.max_request_bytes, JSON_SORT_KEYS=False,
        RATELIMIT_DEFAULT=settings.rate_limit, RATELIMIT_STORAGE_URI=settings.rate_limit_storage,
        RATELIMIT_HEADERS_ENABLED=True, SSE_KEEPALIVE_S=10.0,
    )
    app.config.update(config or {})
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # one line per answer is ours ("gemini completed … tokens"); the SDK's and its HTTP client's
    # per-request lines only repeat it
    for chatty in ("google_genai", "httpx", "httpx2"):
        logging.getLogger(chatty).setLevel(logging.WARNING)

    services = services or build_services(settings)
    sessions = SessionStore(settings.sqlalchemy_url)
    generator = generator or make_generator(settings, services.embedder)
    pipeline = ChatPipeline(settings, Retriever(services.store, services.embedder), services.embedder,
                            generator, sessions)
    app.extensions["textbook_chat"] = ChatState(services, sessions, pipeline, getattr(generator, "name", "custom"))

    CORS(app, origins=list(settings.allowed_origins), supports_credentials=False,
         expose_headers=["Retry-After", "X-RateLimit-Remaining"])
    api = Api(app)
    # only the endpoints that cost real work are limited; health checks and the script are not
    Limiter(get_remote_address, app=app, default_limits_exempt_when=lambda: request.path not in ("/chat", "/feedback"))
    api.register_blueprint(blp)
    register_error_handlers(app)
    return app
