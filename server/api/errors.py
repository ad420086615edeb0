"""Every error leaves as ErrorResponse JSON {error, code, details} with the right status.

`STATUS` is the one table from error code to HTTP status: domain errors (server/errors.py)
carry a code, HTTP-level errors are named by their status, and the OpenAPI error schema
lists exactly these codes.
"""
from __future__ import annotations

import logging

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from server.errors import TextbookChatError

log = logging.getLogger("textbook_chat.api")

STATUS = {
    "VALIDATION_ERROR": 400,
    "UNAUTHORIZED": 401,
    "UNAUTHORIZED": 401,
    "FORBIDDEN": 403,
    "NOT_FOUND": 404,
    "UNKNOWN_BOOK": 404,
    "METHOD_NOT_ALLOWED": 405,
    "EMBEDDING_MISMATCH": 409,
    "CONFLICT": 409,
    "PAYLOAD_TOO_LARGE": 413,
    "UNSUPPORTED_MEDIA_TYPE": 415,
    "RATE_LIMITED": 429,
    "HEADERS_TOO_LARGE": 431,
    "INTERNAL": 500,
    "NOT_IMPLEMENTED": 501,
    "INDEX_EMPTY": 503,
    "STORE_UNAVAILABLE": 503,
    "DATABASE_UNAVAILABLE": 503,
}
_HTTP_CODES = {400: "VALIDATION_ERROR", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED", 413: "PAYLOAD_TOO_LARGE",
               415: "UNSUPPORTED_MEDIA_TYPE", 422: "VALIDATION_ERROR", 429: "RATE_LIMITED"}
MESSAGES = {
    400: "The request is not valid.", 404: "Not found.", 405: "Method not allowed.",
    413: "The request body is too large.", 429: "Too many requests; slow down and retry shortly.",
}


def too_large_message(limit_bytes: int) -> str:
    """The 413 message, quoting the limit as set (MAX_REQUEST_BYTES)."""
    return f"The request body is larger than the limit of {limit_bytes} bytes."


class ApiError(TextbookChatError):
    """An error only the web layer knows (an unknown message id, the widget not built)."""

    def __init__(self, code: str, message: str, details: dict | None = None):
        super().__init__(message, code=code, details=details)


def error_body(error: str, code: str, details=None) -> dict:
    """The one error shape; `details` is always an object (empty when there is nothing to add)."""
    if details is None:
        details = {}
    elif not isinstance(details, dict):
        details = {"_schema": details if isinstance(details, list) else [str(details)]}
    return {"error": error, "code": code, "details": details}


def error_response(exc: TextbookChatError) -> tuple[dict, int]:
    """The body and status of a domain error."""
    return error_body(exc.message, exc.code, exc.details), STATUS.get(exc.code, 500)


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(TextbookChatError)
    def _domain_error(exc: TextbookChatError):
        body, status = error_response(exc)
        if status >= 500:
            log.warning("%s: %s", exc.code, exc.diagnosis)
        response = jsonify(body)
        response.status_code = status
        if status == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="session"'
        if getattr(exc, "retry_after", None):
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        status = exc.code or 500
        data = getattr(exc, "data", None) or {}
        details = data.get("messages", data.get("details"))
        if isinstance(details, dict) and set(details) == {"json"}:
            details = details["json"]  # webargs nests by location; there is only one
        message = MESSAGES.get(status, exc.description or "Request failed.")
        if status == 413 and isinstance(details, dict) and "limit_bytes" in details:
            message = too_large_message(details["limit_bytes"])
        if status == 429 and exc.description:
            details = {"limit": str(exc.description)}
        response = jsonify(error_body(message, _HTTP_CODES.get(status, "INTERNAL"), details))
        response.status_code = 400 if status == 422 else status
        original = exc.get_response().headers
        for header in ("Retry-After", "Allow"):  # 429 says when to come back, 405 what is allowed
            if original.get(header):
                response.headers[header] = original[header]
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unhandled error")
        return jsonify(error_body("Something went wrong on the server.", "INTERNAL")), 500
