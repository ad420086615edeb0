"""Every error leaves as ErrorResponse JSON {error, code, details} with the right status."""
from __future__ import annotations

import logging

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

log = logging.getLogger("textbook_chat.api")

CODES = {
    400: "VALIDATION_ERROR", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED", 413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE", 422: "VALIDATION_ERROR", 429: "RATE_LIMITED", 503: "STORE_UNAVAILABLE",
}
MESSAGES = {
    400: "The request is not valid.", 404: "Not found.", 405: "Method not allowed.",
    413: "The request body is too large.", 429: "Too many requests; slow down and retry shortly.",
}


class ApiError(Exception):
    def __init__(self, status: int, error: str, code: str | None = None, details=None):
        super().__init__(error)
        self.status = status
        self.error = error
        self.code = code or CODES.get(status, "INTERNAL")
        self.details = details


def error_body(error: str, code: str, details=None) -> dict:
    body = {"error": error, "code": code}
    if details is not None:
        body["details"] = details
    return body


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        return jsonify(error_body(exc.error, exc.code, exc.details)), exc.status

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        status = exc.code or 500
        data = getattr(exc, "data", None) or {}
        details = data.get("messages")
        if isinstance(details, dict) and set(details) == {"json"}:
            details = details["json"]  # webargs nests by location; there is only one
        message = MESSAGES.get(status, exc.description or "Request failed.")
        if status == 429 and exc.description:
            details = {"limit": str(exc.description)}
        response = jsonify(error_body(message, CODES.get(status, "INTERNAL"), details))
        response.status_code = 400 if status == 422 else status
        if status == 429 and exc.get_response().headers.get("Retry-After"):
            response.headers["Retry-After"] = exc.get_response().headers["Retry-After"]
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unhandled error")
        return jsonify(error_body("Something went wrong on the server.", "INTERNAL")), 500
