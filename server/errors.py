"""Domain errors: what went wrong, in the product's words. The web layer maps each `code` to an
HTTP status in one table (server/api/errors.py); the CLI prints the message."""
from __future__ import annotations


class TextbookChatError(Exception):
    """`message` and `details` are for whoever sent the request; `diagnosis` (the message when
    not given) is for the operator's log and console, and may name hosts, users and files."""

    code = "INTERNAL"

    def __init__(self, message: str, *, code: str | None = None, details: dict | None = None,
                 diagnosis: str | None = None):
        super().__init__(message)
        self.message = message
        self.code = code or type(self).code
        self.details = details or {}
        self.diagnosis = diagnosis or message


class StoreUnavailable(TextbookChatError):
    """The book index does not answer: connection refused, timeout, locked, server error."""

    code = "STORE_UNAVAILABLE"


class DatabaseUnavailable(TextbookChatError):
    """The sessions database does not answer. What `where` (the URL without its password) and
    `reason` (the driver's words, which may name the host) say stays in the diagnosis."""

    code = "DATABASE_UNAVAILABLE"

    def __init__(self, where: str, reason: str = "", *, state: str = "is not answering"):
        super().__init__(f"The sessions database {state}.",
                         diagnosis=f"The sessions database ({where}) {state}"
                                   + (f": {reason}" if reason and reason not in state else ""))


class EmbeddingMismatch(TextbookChatError):
    """The index was built with another embedding model."""

    code = "EMBEDDING_MISMATCH"


class UnknownBook(TextbookChatError):
    code = "UNKNOWN_BOOK"


class SessionNotFound(TextbookChatError):
    code = "NOT_FOUND"

    def __init__(self, session_id: str):
        super().__init__("Unknown session.", details={"session_id": session_id})
        self.session_id = session_id


class GenerationFailed(TextbookChatError):
    """No answer could be written; the question was kept."""

    code = "INTERNAL"

    def __init__(self, message: str, *, session_id: str, query_id: str):
        super().__init__(message, details={"session_id": session_id, "query_id": query_id})
        self.session_id = session_id
        self.query_id = query_id
