"""/llms.txt and /llms-full.txt (llmstxt.org): the book for a reader's own AI tools, for the
index's only book at the root and for any book under /books/<book_id>/."""
from __future__ import annotations

from flask import Response, current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from server.library.llms_txt import llms_full_txt, llms_txt
from server.api.parser import JsonParser
from server.api.schemas import ErrorResponseSchema


class _Blueprint(Blueprint):
    ARGUMENTS_PARSER = JsonParser()


blp = _Blueprint("llms", __name__, description="The book as Markdown for language models (llmstxt.org).")

_TEXT = {"description": "Markdown", "content": {"text/plain": {"schema": {"type": "string"}}}}


def _markdown(text: str) -> Response:
    response = Response(text, mimetype="text/plain")  # what llmstxt.org readers and static hosts use
    response.headers["Cache-Control"] = "public, max-age=300"
    response.headers["Access-Control-Allow-Origin"] = "*"  # the book's own text, public like its pages
    return response


def _outline(book_id: str | None):
    return current_app.extensions["textbook_chat"].bookshelf.outline(book_id)


def _documented(view):
    view = blp.doc(responses={200: _TEXT})(view)
    view = blp.alt_response(400, schema=ErrorResponseSchema,
                            description="Several books are indexed and none is named (VALIDATION_ERROR)")(view)
    view = blp.alt_response(404, schema=ErrorResponseSchema, description="Unknown book (UNKNOWN_BOOK)")(view)
    return blp.alt_response(503, schema=ErrorResponseSchema, description="Index empty or store unavailable")(view)


@blp.route("/llms.txt")
class LlmsTxt(MethodView):
    @_documented
    def get(self):
        """The book's title, summary and pages as Markdown links, grouped by part (the index's only book)."""
        return _markdown(llms_txt(_outline(None)))


@blp.route("/llms-full.txt")
class LlmsFullTxt(MethodView):
    @_documented
    def get(self):
        """Every page's text in reading order (the index's only book)."""
        return _markdown(llms_full_txt(_outline(None)))


@blp.route("/books/<book_id>/llms.txt")
class BookLlmsTxt(MethodView):
    @_documented
    def get(self, book_id: str):
        """llms.txt of one book."""
        return _markdown(llms_txt(_outline(book_id)))


@blp.route("/books/<book_id>/llms-full.txt")
class BookLlmsFullTxt(MethodView):
    @_documented
    def get(self, book_id: str):
        """llms-full.txt of one book."""
        return _markdown(llms_full_txt(_outline(book_id)))


def register(app, api, components) -> None:
    api.register_blueprint(blp)
