"""A Flask test client that acts as a reader's browser does with conversations: it keeps each
one's `session_secret` from the response that started it and shows it again."""
from __future__ import annotations

from sse import read_sse


def reader_client_class():
    """A Flask test client that keeps each conversation's `session_secret`, as the widget does,
    and shows it (`Authorization: Bearer …`) with every request about that conversation, unless
    the request sets Authorization itself."""
    from flask.testing import FlaskClient

    class ReaderClient(FlaskClient):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.secrets: dict[str, str] = {}  # session id → its secret
            self.answers: dict[str, str] = {}  # assistant message id → its session id

        def open(self, *args, **kwargs):
            path = args[0] if args and isinstance(args[0], str) else kwargs.get("path", "")
            body = kwargs.get("json") if isinstance(kwargs.get("json"), dict) else {}
            session = (path.split("/")[2] if path.startswith("/sessions/") else body.get("session_id")
                       or self.answers.get(body.get("message_id")))
            headers = dict(kwargs.pop("headers", None) or {})
            if session in self.secrets and "Authorization" not in headers:
                headers["Authorization"] = f"Bearer {self.secrets[session]}"
            response = super().open(*args, headers=headers, **kwargs)
            if response.mimetype == "text/event-stream":  # read as the test reads it
                response.response = self._events(response.response)
            elif response.is_json and isinstance(response.get_json(silent=True), dict):
                self._remember([response.get_json()])
            return response

        def _events(self, chunks):
            pending = ""
            for chunk in chunks:
                yield chunk
                pending += chunk.decode() if isinstance(chunk, bytes) else chunk
                complete, _, pending = pending.rpartition("\n\n")
                if complete:
                    self._remember([data for _, data in read_sse(complete + "\n\n")])

        def _remember(self, found: list[dict]) -> None:
            found += [data["details"] for data in found if isinstance(data.get("details"), dict)]  # errors
            for data in found:
                session = data.get("session_id") or data.get("id")
                if data.get("session_secret") and session:
                    self.secrets[session] = data["session_secret"]
                if data.get("assistant_message_id") and data.get("session_id"):
                    self.answers[data["assistant_message_id"]] = data["session_id"]
                for message in data.get("messages") or []:
                    if isinstance(message, dict) and message.get("role") == "assistant" and session:
                        self.answers[message["id"]] = session

    return ReaderClient
