"""The Flask application factory: the web layer around the parts the composition root built."""
from __future__ import annotations

from flask import Flask, request
from flask_cors import CORS
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_smorest import Api
from werkzeug.routing import UnicodeConverter

from server import __version__
from server.api.body_limit import refuse_large_bodies
from server.api.client_address import ClientAddress
from server.api.errors import register_error_handlers
from server.api.failures import EXTENSION as FAILURES, FailureBudget
from server.api.access import SCHEME as SESSION_SECRET
from server.api.headers import add_security_headers
from server.api.routes import blp
from server.api.schemas import ErrorResponseSchema
from server.api.text import STORABLE, storable_text
from server.composition import Components
from server.insights import web as insights_web
from server.library import web as library_web
from server.mcp_server import web as mcp_web
from server.settings import Settings, load_settings

EXTENSION = "textbook_chat"
FEATURES = (insights_web, library_web, mcp_web)  # the author's insights, llms.txt, /mcp
REDIS_TIMEOUT_S = 0.5  # app.extensions[EXTENSION] holds the Components


class ChatApi(Api):
    """flask-smorest, documenting every error response with the shape the server sends."""

    ERROR_SCHEMA = ErrorResponseSchema


def create_app(settings: Settings | None = None, *, components: Components | None = None,
               config: dict | None = None) -> Flask:
    """An app over `components` (built from `settings` when not given)."""
    settings = settings or (components.settings if components else load_settings())
    app = Flask(__name__)
    app.config.update(
        API_TITLE="textbook chat", API_VERSION=__version__, OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/", OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=settings.max_request_bytes, JSON_SORT_KEYS=False,
        # one budget per reader across every write (not one per endpoint)
        RATELIMIT_APPLICATION=settings.rate_limit, RATELIMIT_STORAGE_URI=settings.rate_limit_storage,
        RATELIMIT_HEADERS_ENABLED=True, SSE_KEEPALIVE_S=10.0,
        # a shared store (Redis) that stops answering: each process counts on its own meanwhile
        RATELIMIT_SWALLOW_ERRORS=True, RATELIMIT_IN_MEMORY_FALLBACK_ENABLED=True,
    )
    if settings.rate_limit_storage.startswith(("redis", "rediss")):
        # a Redis that hangs (rather than refusing) costs a request this much before the
        # in-memory fallback takes over; /health says it is failing
        app.config["RATELIMIT_STORAGE_OPTIONS"] = {"socket_timeout": REDIS_TIMEOUT_S,
                                                   "socket_connect_timeout": REDIS_TIMEOUT_S}
    app.config.update(config or {})

    CORS(app, origins=list(settings.allowed_origins), supports_credentials=False,
         expose_headers=["Retry-After", "X-RateLimit-Remaining"])
    api = ChatApi(app)
    api.spec.components.security_scheme("session_secret", SESSION_SECRET)
    api.ma_plugin.converter.add_attribute_function(storable_text)
    api.register_converter(UnicodeConverter, lambda converter: {"type": "string", "pattern": STORABLE})
    add_security_headers(app)  # before the limiter (see there)
    # per reader (api/client_address.py), only where a request costs real work or storage: not
    # health checks, the script, reading a session, or the browser's CORS preflight
    Limiter(get_remote_address, app=app, application_limits_exempt_when=_exempt_from_limits)
    refuse_large_bodies(app, settings.max_request_bytes)  # before the limiter's hook
    api.register_blueprint(blp)
    components = app.extensions[EXTENSION] = components or Components.build(settings)
    app.before_request(lambda: _follow_index(components))
    for feature in FEATURES:  # each feature plugs in its own pages
        feature.register(app, api, components)
    register_error_handlers(app)
    app.wsgi_app = ClientAddress(app.wsgi_app, settings.trusted_proxies)
    app.extensions[FAILURES] = FailureBudget(settings.auth_failure_limit, settings.rate_limit_storage,
                                             **app.config.get("RATELIMIT_STORAGE_OPTIONS", {}))
    return app


def _follow_index(components: Components) -> None:
    """Before a request that may read the index: switch to the newest publication if there is
    one (a stat() when there is none), so that it is answered from what was last published."""
    if not request.path.startswith(NOT_READING_THE_INDEX):
        components.index.follow()


NOT_READING_THE_INDEX = ("/widget", "/static/", "/openapi.json")

# POST /insights: guessing the token costs a try like a question does
LIMITED = {("POST", "/chat"), ("POST", "/feedback"), ("POST", "/sessions"), ("POST", "/insights")}


def _exempt_from_limits() -> bool:
    """Every write counts (a session's secret claimed, a session deleted too); reads do not."""
    if request.method in ("POST", "DELETE") and request.path.startswith("/sessions/"):
        return False
    return (request.method, request.path) not in LIMITED
