"""A fake Gemini API on 127.0.0.1 that the real `google-genai` client talks to.

It speaks the REST shapes the SDK sends and accepts (`/{version}/models/{model}:generateContent`
and `:streamGenerateContent?alt=sse`), answers from a script of behaviours, one per request,
and records every request so tests can assert on what the model was sent.

Behaviours (dicts), consumed in order; when the script is empty the default answer is used:
  {"text": "…" | callable(body) -> str}           an answer (one SSE event when streamed)
  {"stream": ["…", …], "delay": s, "hang_after": k}  chunks, `delay` seconds apart; after k chunks, hang
  {"status": 429 | 500 | …, "retry_delay": "1s"}  an error in Google's JSON shape
  {"hang": s}                                      send nothing for s seconds
  {"bad_key": True}                                400 INVALID_ARGUMENT, reason API_KEY_INVALID
  {"function_call": {"name": …, "args": {…}}}      a tool call (a list for several)
Any behaviour may carry "usage": {"prompt": p, "output": o} for usageMetadata.
"""
from __future__ import annotations

import json
import os
import re
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from places import REPO

_PATH = re.compile(r"^/v1[^/]*/models/(?P<model>[^:/]+):(?P<method>generateContent|streamGenerateContent)$")
_STATUS_NAMES = {400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 408: "DEADLINE_EXCEEDED",
                 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}
DEFAULT_ANSWER = "Default answer from the fake [1]."
# Environment that would send the Gemini SDK somewhere other than the fake (or to Vertex AI).
_GEMINI_ENV = ("GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_ENTERPRISE", "GOOGLE_API_KEY", "GEMINI_API_KEY",
               "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION")


@dataclass
class Recorded:
    path: str
    model: str
    method: str  # "generateContent" | "streamGenerateContent"
    headers: dict
    body: dict
    at: float = field(default_factory=time.monotonic)
    wall: float = field(default_factory=time.time)  # the clock of logging records' `created`

    @property
    def streamed(self) -> bool:
        return self.method == "streamGenerateContent"

    @property
    def system_text(self) -> str:
        return "".join(p.get("text", "") for p in (self.body.get("systemInstruction") or {}).get("parts", []))

    @property
    def contents(self) -> list[dict]:
        return self.body.get("contents", [])

    def texts(self, role: str | None = None) -> list[str]:
        """The text of each turn (optionally one role's), oldest first."""
        return ["".join(p.get("text", "") for p in c.get("parts", []))
                for c in self.contents if role is None or c.get("role") == role]

    @property
    def user_text(self) -> str:
        """The current (last) user turn's text."""
        return self.texts("user")[-1] if self.texts("user") else ""

    @property
    def function_responses(self) -> list[dict]:
        return [p["functionResponse"] for c in self.contents for p in c.get("parts", []) if "functionResponse" in p]

    @property
    def calling_mode(self) -> str | None:
        return ((self.body.get("toolConfig") or {}).get("functionCallingConfig") or {}).get("mode")


def _usage(behaviour: dict) -> dict | None:
    usage = behaviour.get("usage")
    if not usage:
        return None
    return {"promptTokenCount": usage["prompt"], "candidatesTokenCount": usage["output"],
            "totalTokenCount": usage["prompt"] + usage["output"]}


def _candidate(parts: list[dict], finish: str | None = "STOP") -> dict:
    candidate: dict = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    return candidate


class FakeGemini:
    def __init__(self):
        self.requests: list[Recorded] = []
        self._script: deque[dict] = deque()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):
                fake._handle(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, name="fake-gemini", daemon=True)
        self._thread.start()

    # --- test side ----------------------------------------------------------------------------
    def script(self, *behaviours: dict) -> "FakeGemini":
        with self._lock:
            self._script.extend(behaviours)
        return self

    def forget_script(self) -> None:
        """Drop the behaviours not yet used (the default answer follows)."""
        with self._lock:
            self._script.clear()

    @property
    def pending(self) -> int:
        return len(self._script)

    def close(self) -> None:
        self._closing.set()  # wakes any handler that is hanging
        self.server.shutdown()
        self.server.server_close()

    # --- server side --------------------------------------------------------------------------
    def _next(self) -> dict:
        with self._lock:
            return self._script.popleft() if self._script else {"text": DEFAULT_ANSWER}

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        url = urlsplit(handler.path)
        match = _PATH.match(url.path)
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        if not match:
            return self._json(handler, 404, {"error": {"code": 404, "message": f"no route {url.path}",
                                                       "status": "NOT_FOUND"}})
        body = json.loads(raw or b"{}")
        record = Recorded(path=handler.path, model=match["model"], method=match["method"],
                          headers={k.lower(): v for k, v in handler.headers.items()}, body=body)
        with self._lock:
            self.requests.append(record)
        behaviour = self._next()
        streamed = record.streamed

        if "hang" in behaviour:
            self._closing.wait(behaviour["hang"])
            behaviour = {"text": DEFAULT_ANSWER}
        if behaviour.get("bad_key"):
            return self._json(handler, 400, {"error": {
                "code": 400, "message": "API key not valid. Please pass a valid API key.", "status": "INVALID_ARGUMENT",
                "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",
                             "domain": "googleapis.com", "metadata": {"service": "generativelanguage.googleapis.com"}}]}})
        if "status" in behaviour:
            code = behaviour["status"]
            error = {"code": code, "message": behaviour.get("message", f"fake error {code}"),
                     "status": _STATUS_NAMES.get(code, "UNKNOWN")}
            if behaviour.get("retry_delay"):
                error["details"] = [{"@type": "type.googleapis.com/google.rpc.RetryInfo",
                                     "retryDelay": behaviour["retry_delay"]}]
            return self._json(handler, code, {"error": error})
        if "function_call" in behaviour:
            calls = behaviour["function_call"]
            calls = calls if isinstance(calls, list) else [calls]
            response = {"candidates": [_candidate([{"functionCall": c} for c in calls])],
                        "modelVersion": "fake-gemini-001"}
            if _usage(behaviour):
                response["usageMetadata"] = _usage(behaviour)
            return self._sse(handler, [response]) if streamed else self._json(handler, 200, response)

        if "stream" in behaviour:
            pieces = list(behaviour["stream"])
        else:
            text = behaviour.get("text", DEFAULT_ANSWER)
            pieces = [text(body) if callable(text) else text]
        if not streamed:
            response = {"candidates": [_candidate([{"text": "".join(pieces)}])], "modelVersion": "fake-gemini-001"}
            if _usage(behaviour):
                response["usageMetadata"] = _usage(behaviour)
            return self._json(handler, 200, response)
        events = []
        for i, piece in enumerate(pieces):
            last = i == len(pieces) - 1
            event = {"candidates": [_candidate([{"text": piece}], "STOP" if last else None)],
                     "modelVersion": "fake-gemini-001"}
            if last and _usage(behaviour):
                event["usageMetadata"] = _usage(behaviour)
            events.append(event)
        self._sse(handler, events, delay=behaviour.get("delay", 0.0), hang_after=behaviour.get("hang_after"))

    def _json(self, handler, code: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        try:
            handler.send_response(code)
            handler.send_header("Content-Type", "application/json; charset=UTF-8")
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up first

    def _sse(self, handler, events: list[dict], *, delay: float = 0.0, hang_after: int | None = None) -> None:
        try:
            handler.send_response(200)
            handler.send_header("Content-Type", "text/event-stream")
            handler.end_headers()
            for i, event in enumerate(events):
                if hang_after is not None and i == hang_after:
                    self._closing.wait(60)
                    return
                if delay and self._closing.wait(delay):
                    return
                handler.wfile.write(f"data: {json.dumps(event)}\r\n\r\n".encode())
                handler.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass


def gemini_env(monkeypatch, fake: FakeGemini) -> None:
    """Point the real `google-genai` client at `fake` and clear what would send it elsewhere."""
    for name in _GEMINI_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", fake.url)


def gemini_subprocess_env(fake: FakeGemini, **extra: str) -> dict:
    """The environment for a child process whose Gemini client talks to `fake`."""
    env = {k: v for k, v in os.environ.items() if k not in _GEMINI_ENV}
    # the `server` package of this checkout, whichever one the command's install points at
    return {**env, "PYTHONPATH": str(REPO), "GEMINI_API_KEY": "test-key", "GOOGLE_GEMINI_BASE_URL": fake.url, **extra}
