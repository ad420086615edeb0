"""/chat, /sessions, /feedback, /health, /widget.js."""
from __future__ import annotations

import time
from importlib import resources

from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView
from flask_smorest import Blueprint
from webargs.flaskparser import FlaskParser

from .. import __version__
from ..rag.pipeline import GenerationFailed, SessionNotFound
from ..store import StoreError
from .errors import ApiError, error_body
from .schemas import (ChatResponseSchema, ChatSessionSchema, ErrorResponseSchema, FeedbackResultSchema,
                      FeedbackSchema, HealthSchema, QuerySchema)
from .sse import format_event, sse_stream


class _Parser(FlaskParser):
    DEFAULT_VALIDATION_STATUS = 400


class ApiBlueprint(Blueprint):
    ARGUMENTS_PARSER = _Parser()


blp = ApiBlueprint("api", __name__, description="Ask the book; keep the conversation.")


def chat_state():
    return current_app.extensions["textbook_chat"]


def _require_index() -> None:
    state = chat_state()
    try:
        size = state.index_size()
    except StoreError as exc:
        raise ApiError(503, "The book index is not reachable.", "STORE_UNAVAILABLE", {"reason": str(exc)}) from exc
    if size == 0:
        raise ApiError(503, "The book index is empty: run `textbook-chat ingest PATH` first.", "INDEX_EMPTY")


def _wants_stream() -> bool:
    return "text/event-stream" in (request.headers.get("Accept") or "")


@blp.route("/chat")
class Chat(MethodView):
    @blp.arguments(QuerySchema)
    @blp.response(200, ChatResponseSchema)
    @blp.alt_response(400, schema=ErrorResponseSchema, description="Invalid query")
    @blp.alt_response(404, schema=ErrorResponseSchema, description="Unknown session")
    @blp.alt_response(413, schema=ErrorResponseSchema, description="Body too large")
    @blp.alt_response(429, schema=ErrorResponseSchema, description="Rate limited")
    @blp.alt_response(503, schema=ErrorResponseSchema, description="Index empty or store unavailable")
    def post(self, query):
        """Ask a question, optionally about a highlighted passage.

        Send `Accept: text/event-stream` to receive SSE events `meta`, `token`, `done`
        (the same ChatResponse as the JSON reply) and `error`.
        """
        _require_index()
        pipeline = chat_state().pipeline
        try:
            turn = pipeline.begin(query)
        except SessionNotFound as exc:
            raise ApiError(404, "Unknown session.", "NOT_FOUND", {"session_id": str(exc)}) from exc
        if _wants_stream():
            return _stream_response(pipeline, turn)
        try:
            response = None
            for event, data in pipeline.stream(turn):
                if event == "done":
                    response = data
        except GenerationFailed as exc:
            raise ApiError(500, "The answer could not be generated; your message was saved.", "INTERNAL",
                           {"session_id": exc.session_id, "query_id": exc.query_id}) from exc
        timing = ", ".join(f"{name};dur={ms:.2f}" for name, ms in turn.timings.items())
        return response, 200, {"Server-Timing": timing}


_DONE = ChatResponseSchema()  # dumping keeps no state, and building a schema copies its fields


def _stream_response(pipeline, turn) -> Response:
    environ = request.environ
    client_gone = environ.get("waitress.client_disconnected") or (lambda: False)
    keepalive = current_app.config.get("SSE_KEEPALIVE_S", 10.0)

    def events():
        try:
            for event, data in pipeline.stream(turn):
                yield format_event(event, _DONE.dump(data) if event == "done" else data)
        except GenerationFailed as exc:
            yield format_event("error", error_body("The answer could not be generated; your message was saved.",
                                                   "INTERNAL", {"session_id": exc.session_id, "query_id": exc.query_id}))

    body = sse_stream(events(), keepalive_s=keepalive, client_gone=client_gone)
    return Response(stream_with_context(body), mimetype="text/event-stream", headers={
        "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"})


@blp.route("/sessions")
class Sessions(MethodView):
    @blp.arguments(ChatSessionSchema)
    @blp.response(201, ChatSessionSchema)
    def post(self, body):
        """Start a conversation."""
        return chat_state().sessions.create_session(user_id=body.get("user_id"), book_id=body.get("book_id"))


@blp.route("/sessions/<session_id>")
class SessionById(MethodView):
    @blp.response(200, ChatSessionSchema)
    @blp.alt_response(404, schema=ErrorResponseSchema)
    def get(self, session_id):
        """A conversation with its messages in order."""
        session = chat_state().sessions.get_session(session_id)
        if session is None:
            raise ApiError(404, "Unknown session.", "NOT_FOUND", {"session_id": session_id})
        return session

    @blp.response(204)
    @blp.alt_response(404, schema=ErrorResponseSchema)
    def delete(self, session_id):
        """Forget a conversation."""
        if not chat_state().sessions.delete_session(session_id):
            raise ApiError(404, "Unknown session.", "NOT_FOUND", {"session_id": session_id})


@blp.route("/feedback")
class Feedback(MethodView):
    @blp.arguments(FeedbackSchema)
    @blp.response(201, FeedbackResultSchema)
    @blp.alt_response(404, schema=ErrorResponseSchema)
    def post(self, body):
        """Thumbs up or down on an assistant message."""
        sessions = chat_state().sessions
        if not sessions.message_exists(body["message_id"], role="assistant"):
            raise ApiError(404, "Unknown assistant message.", "NOT_FOUND", {"message_id": body["message_id"]})
        return sessions.add_feedback(body["message_id"], body["rating"], body.get("comment"))


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    def get(self):
        """Store, index size, embedding model and generator."""
        state = chat_state()
        started = time.perf_counter()
        try:
            size, books, status = state.index_size(fresh=True), state.services.store.books(), "ok"
        except StoreError:
            size, books, status = 0, [], "degraded"
        store = state.services.store
        return {
            "status": status if size else "empty",
            "store": {"kind": "local" if store.local else "server", "collection": store.collection,
                      "latency_ms": round((time.perf_counter() - started) * 1000, 2)},
            "index_size": size, "books": books,
            "embedding_model": state.services.embedder.model_name,
            "generator": state.generator_name, "version": __version__,
        }


@blp.route("/widget.js")
class Widget(MethodView):
    @blp.doc(responses={200: {"description": "The widget script", "content": {"application/javascript": {}}}})
    def get(self):
        """The embeddable widget (one classic script)."""
        script = resources.files("server").joinpath("static/widget.js")
        if not script.is_file():
            raise ApiError(404, "The widget has not been built.", "NOT_FOUND")
        response = Response(script.read_bytes(), mimetype="application/javascript")
        response.headers["Cache-Control"] = "public, max-age=300"
        response.headers["Access-Control-Allow-Origin"] = "*"
        return response
