"""Engine and client errors translated into domain errors at the store's edge.

`guarded` wraps every public method of a store class: a refused connection, a timeout, a
locked index folder, a full disk or a server's 5xx leaves as StoreUnavailable; a 4xx stays
what it is (a bug of ours, not an outage).
"""
from __future__ import annotations

import functools
import inspect

from server.errors import StoreUnavailable, TextbookChatError


def _outage(exc: BaseException) -> str | None:
    """Why the store did not answer, or None if `exc` is not an outage."""
    if isinstance(exc, OSError) and not isinstance(exc, (ConnectionError, TimeoutError)):
        return f"the index folder cannot be used ({exc})"
    from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

    if isinstance(exc, UnexpectedResponse):
        return f"the index server answered {exc.status_code}" if exc.status_code >= 500 else None
    if isinstance(exc, ResponseHandlingException):
        return f"the index server did not answer ({exc.source or exc})"
    if isinstance(exc, (ConnectionError, TimeoutError)):
        return f"the index server did not answer ({exc})"
    try:
        import httpx
    except ImportError:  # pragma: no cover - qdrant-client depends on it
        return None
    if isinstance(exc, (httpx.TransportError, httpx.TimeoutException)):
        return f"the index server did not answer ({exc})"
    if isinstance(exc, RuntimeError) and "already accessed" in str(exc):
        return "the local index is open in another process"
    return None


def translate(exc: BaseException) -> BaseException:
    if isinstance(exc, TextbookChatError):
        return exc
    if type(exc) is Exception and "WouldBlock" in str(exc):  # Qdrant Edge: the writer's log is locked
        return StoreUnavailable("Another ingest (or remove-book) is writing this index now: wait for it to "
                                "finish, then run this again.", details={"reason": "index locked by another writer"})
    reason = _outage(exc)
    if reason is None:
        return exc
    # what the client library said (addresses, folders) is for the operator, not the reader
    public = reason.split(" (", 1)[0]
    return StoreUnavailable(f"The book index is not reachable: {public}.", details={"reason": public},
                            diagnosis=f"The book index is not reachable: {reason}.")


def guarded(cls):
    """Class decorator: every public method translates client errors (see `translate`)."""
    for name, member in list(vars(cls).items()):
        if name.startswith("_") or not inspect.isfunction(member):
            continue
        setattr(cls, name, _guard(member))
    return cls


def _guard(method):
    @functools.wraps(method)
    def call(*args, **kwargs):
        try:
            return method(*args, **kwargs)
        except Exception as exc:
            translated = translate(exc)
            if translated is exc:
                raise
            raise translated from exc
    return call
