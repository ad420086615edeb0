"""/chat, /sessions, /feedback, /health, /widget.js and its parts."""
from __future__ import annotations

import time

from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView
from flask_smorest import Blueprint

from server import __version__
from server.composition import Components
from server.errors import DatabaseUnavailable, StoreUnavailable, TextbookChatError
from server.sessions.recording import vector_bytes
from server.sessions import NewSession
from server.sessions.access import claim, new_secret
from server.api.access import SECURITY, WithSecret, authorize, authorize_message, with_secret
from server.api.disconnect import client_gone_check
from server.api.errors import ApiError, error_response
from server.api.parser import JsonParser, unstorable
from server.api.presenter import database_health, question_from, server_timing, sse_event
from server.api.schemas import ChatResponseSchema, ErrorResponseSchema, HealthSchema, QuerySchema
from server.api.session_schemas import ChatSessionSchema, FeedbackResultSchema, FeedbackSchema, SessionSecretSchema
from server.api.sse import format_event, sse_stream
from server.api.widget_files import SCRIPTS


class ApiBlueprint(Blueprint):
    ARGUMENTS_PARSER = JsonParser()


blp = ApiBlueprint("api", __name__, description="Ask the book; keep the conversation.")


def parts() -> Components:
    return current_app.extensions["textbook_chat"]


def _require_index() -> None:
    if parts().index_size.get() == 0:  # StoreUnavailable when the store does not answer
        raise ApiError("INDEX_EMPTY", "The book index is empty: run `textbook-chat ingest PATH` first.")


def _checked_id(session_id: str) -> str:
    """A session id from the path, refused as the same id in a body would be."""
    problem = unstorable(session_id)
    if problem:
        raise ApiError("VALIDATION_ERROR", "The request is not valid.", {"session_id": [f"session_id {problem}"]})
    return session_id


def _wants_stream() -> bool:
    """An event stream when the client names it (not through */*) and prefers it to JSON."""
    accept = request.accept_mimetypes
    named = any(value.lower() == "text/event-stream" and quality > 0 for value, quality in accept)
    return named and accept["text/event-stream"] >= accept["application/json"]


# the answer's id is what /feedback rates (a link, so that clients and API testers can follow it)
_RATE_THE_ANSWER = {"operationRef": "#/paths/~1feedback/post", "description": "Rate this answer.",
                    "requestBody": {"message_id": "$response.body#/assistant_message_id", "rating": "up"}}


@blp.route("/chat")
class Chat(MethodView):
    @blp.arguments(QuerySchema)
    @blp.response(200, ChatResponseSchema)
    @blp.doc(responses={200: {"links": {"RateTheAnswer": _RATE_THE_ANSWER}}})
    @blp.alt_response(400, schema=ErrorResponseSchema, description="Invalid query")
    @blp.alt_response(401, schema=ErrorResponseSchema, description="`session_id` without its secret")
    @blp.alt_response(404, schema=ErrorResponseSchema,
                      description="Unknown session or wrong secret (NOT_FOUND), or unknown book (UNKNOWN_BOOK)")
    @blp.doc(security=[{}, *SECURITY])
    @blp.alt_response(413, schema=ErrorResponseSchema, description="Body too large")
    @blp.alt_response(429, schema=ErrorResponseSchema, description="Rate limited")
    @blp.alt_response(500, schema=ErrorResponseSchema, description="No answer could be written (question kept)")
    @blp.alt_response(503, schema=ErrorResponseSchema, description="Index empty or store unavailable")
    def post(self, query):
        """Ask a question, optionally about a highlighted passage.

        Send `Accept: text/event-stream` to receive SSE events `meta`, `token`, `done`
        (the same ChatResponse as the JSON reply) and `error`. Markers are numbered in the order
        first cited: when that reorders the sources, another `meta` carries them renumbered, and
        later tokens' `[n]` cite that list. Without `session_id`, a new
        conversation is started and the reply (`meta` and `done`) carries its `session_secret`;
        with one, send `Authorization: Bearer <session_secret>`.
        """
        _require_index()
        sessions, pipeline, secret, started = parts().sessions, parts().pipeline, None, None
        if query.get("session_id"):
            authorize(sessions, query["session_id"])
        else:  # the conversation is made with the question, in one transaction
            secret, hashed = new_secret()
            started = NewSession(secret_hash=hashed)
        try:
            turn = pipeline.begin(question_from(query, parts().settings, parts().threshold), started)  # UnknownBook: 404
        except TextbookChatError:
            if started is not None:  # its reader is not given its secret: the conversation is not kept
                sessions.delete_session(started.id)
            raise
        if _wants_stream():
            return _stream_response(pipeline, turn, secret)
        answer = None
        try:
            for event in pipeline.stream(turn):  # GenerationFailed: 500, the question kept
                answer = getattr(event, "answer", answer)
        except TextbookChatError as exc:
            raise with_secret(exc, secret)
        return WithSecret(answer, secret), 200, {"Server-Timing": server_timing(answer)}  # shaped by ChatResponseSchema


def _stream_response(pipeline, turn, secret: str | None) -> Response:
    client_gone = client_gone_check(request.environ)
    keepalive = current_app.config.get("SSE_KEEPALIVE_S", 10.0)

    def events():
        told = False
        try:
            for event in pipeline.stream(turn):
                name, data = sse_event(event)
                if secret and (name == "done" or name == "meta" and not told):
                    data, told = {**data, "session_secret": secret}, told or name == "meta"
                yield format_event(name, data)
        except TextbookChatError as exc:  # no answer written, the session deleted meanwhile, the database down
            yield format_event("error", error_response(with_secret(exc, secret))[0])

    body = sse_stream(events(), keepalive_s=keepalive, client_gone=client_gone)
    return Response(stream_with_context(body), mimetype="text/event-stream", headers={
        "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"})


@blp.route("/sessions")
class Sessions(MethodView):
    @blp.arguments(ChatSessionSchema, required=False)
    @blp.response(201, ChatSessionSchema)
    def post(self, body):
        """Start a conversation. The reply's `session_secret` is asked for by every later
        request about it (`Authorization: Bearer <session_secret>`); only its reader has it."""
        secret, hashed = new_secret()
        created = parts().sessions.create_session(user_id=body.get("user_id"), book_id=body.get("book_id"),
                                                   secret_hash=hashed)
        return WithSecret(created, secret)  # shaped by ChatSessionSchema


_SESSION_ERRORS = {400: "A session id that cannot be stored", 401: "No `Authorization: Bearer <session_secret>`",
                   404: "Unknown session, or a secret that is not its own"}


def _session_errors(view):
    for status, description in _SESSION_ERRORS.items():
        view = blp.alt_response(status, schema=ErrorResponseSchema, description=description)(view)
    return blp.doc(security=SECURITY)(view)


@blp.route("/sessions/<session_id>")
class SessionById(MethodView):
    @blp.response(200, ChatSessionSchema)
    @_session_errors
    def get(self, session_id):
        """A conversation with its messages in order."""
        authorize(parts().sessions, _checked_id(session_id))
        session = parts().sessions.get_session(session_id)
        if session is None:
            raise ApiError("NOT_FOUND", "Unknown session.", {"session_id": session_id})
        return session  # shaped by ChatSessionSchema

    @blp.response(204)
    @_session_errors
    def delete(self, session_id):
        """Forget a conversation."""
        authorize(parts().sessions, _checked_id(session_id))
        if not parts().sessions.delete_session(session_id):
            raise ApiError("NOT_FOUND", "Unknown session.", {"session_id": session_id})


@blp.route("/sessions/<session_id>/secret")
class SessionSecret(MethodView):
    @blp.response(201, SessionSecretSchema)
    @blp.alt_response(400, schema=ErrorResponseSchema, description="A session id that cannot be stored")
    @blp.alt_response(404, schema=ErrorResponseSchema, description="Unknown session")
    @blp.alt_response(409, schema=ErrorResponseSchema, description="The session has its secret already (CONFLICT)")
    def post(self, session_id):
        """The secret of a conversation started before conversations had secrets, given once:
        whoever claims it first holds it, and the conversation is bound like any other."""
        return {"session_id": session_id, "session_secret": claim(parts().sessions, _checked_id(session_id))}


@blp.route("/feedback")
class Feedback(MethodView):
    @blp.arguments(FeedbackSchema)
    @blp.response(201, FeedbackResultSchema)
    @blp.alt_response(401, schema=ErrorResponseSchema, description="No `Authorization: Bearer <session_secret>`")
    @blp.alt_response(404, schema=ErrorResponseSchema,
                      description="Unknown answer, or a secret that is not its conversation's")
    @blp.doc(security=SECURITY)
    def post(self, body):
        """Thumbs up or down on an assistant message (of the conversation whose secret is sent).
        One rating per answer: a later one replaces it."""
        sessions = parts().sessions
        if not authorize_message(sessions, body["message_id"]):
            raise ApiError("NOT_FOUND", "Unknown assistant message.", {"message_id": body["message_id"]})
        recorded = sessions.add_feedback(body["message_id"], body["rating"], body.get("comment"))
        if body["rating"] == "down":  # the question joins the coverage gaps (insights)
            sessions.keep_gap_vector(body["message_id"], lambda text: vector_bytes(parts().embedder.embed_query(text)))
        return recorded  # shaped by FeedbackResultSchema


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    @blp.alt_response(503, schema=HealthSchema,
                      description="The store or the sessions database does not answer (status `degraded`, `failing` names which; "
                                  "a failing `rate_limit_storage` alone is `degraded` with 200)")
    def get(self):
        """Store, sessions database, index size, embedding model and generator."""
        chat = parts()
        started = time.perf_counter()
        try:
            size, books = chat.index_size.get(fresh=True), chat.store.books()
            status, reason = ("ok" if size else "empty"), None
        except StoreUnavailable as exc:
            size, books, status, reason = 0, [], "degraded", exc.message
        failing = ["store"] if status == "degraded" else []
        try:
            database = database_health(chat.sessions.check())
        except DatabaseUnavailable as exc:
            database, status = {"kind": chat.sessions.dialect, "error": exc.message}, "degraded"
            failing.append("database")
        if not _rate_limits_counted():  # degraded, not down: readers are answered, counted per process
            failing.append("rate_limit_storage")
            status = "degraded"
        store = chat.store
        body = {
            "status": status, "failing": failing, "database": database,
            "store": {"kind": "local" if store.local else "server", "collection": store.collection,
                      "latency_ms": round((time.perf_counter() - started) * 1000, 2),
                      **({"error": reason} if reason else {})},
            "index_size": size, "books": books,
            "embedding_model": chat.embedder.model_name,
            "generator": chat.generator.name, "version": __version__,
        }
        return body, 503 if {"store", "database"} & set(failing) else 200


def _rate_limits_counted() -> bool:
    """Whether the rate limits' shared store (Redis) answers; a process's memory always does."""
    for limiter in current_app.extensions.get("limiter", ()):
        storage = limiter.storage
        if storage is not None and not storage.check():
            return False
    return True


# widget/scripts/build.mjs: widget-<part>.js, loaded by widget.js; a language's words (i18n.js's LANGUAGE_PARTS)
WIDGET_PARTS = ("panel", "insights", "quiz", "ur", "es", "ja", "zh")


def _script(name: str) -> Response:
    """Compressed as the browser accepts (br, then gzip), kept a year when asked for by its content
    hash (?v=, as widget.js asks for its parts), else five minutes (api/widget_files.py)."""
    script = SCRIPTS.get(name)
    if script is None:
        raise ApiError("NOT_FOUND", "The widget has not been built.")
    return script.response(request)


@blp.route("/widget.js")
class Widget(MethodView):
    @blp.doc(responses={200: {"description": "The widget script", "content": {"application/javascript": {}}}})
    def get(self):
        """The embeddable widget (a classic script: bubble, shortcut, "Ask about this")."""
        return _script("widget.js")


@blp.route("/widget-<part>.js")
class WidgetPart(MethodView):
    @blp.doc(responses={200: {"description": "A part of the widget", "content": {"application/javascript": {}}}})
    def get(self, part: str):
        """A part of the widget that widget.js loads when it is first needed (`panel`: the chat panel;
        `insights`: the author's view, with ?textbook-chat=insights; `quiz`: a quiz's cards; `ur`, `es`,
        `ja`, `zh`: the panel's words in that language)."""
        if part not in WIDGET_PARTS:
            raise ApiError("NOT_FOUND", f"No widget part named {part!r}.")
        return _script(f"widget-{part}.js")
