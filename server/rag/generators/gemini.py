"""Answers from Gemini through `google-genai`, with the extractive generator as the safety net.

One request has one deadline (`GEMINI_TIMEOUT_S`) covering every attempt and every wait: each
HTTP attempt gets the time that is left, and the stream is read on a worker thread so that
waiting for the next chunk is bounded too. 408, 429, 5xx and transport errors are retried
with backoff while time remains and nothing has been shown to the reader; after that the
extractive generator answers and the response says why (`fallback_reason`).

What the model writes is checked on its way out: a leading `NOT_IN_BOOK` makes the answer a
refusal (the sentinel is never shown), [n] markers that point at no passage are dropped, an
empty answer falls back. In agent mode the model may call `search_textbook` a few times; the
loop is driven here, not by the SDK, so the limit and the numbering of sources stay ours.
"""
from __future__ import annotations

import importlib
import logging
import queue
import random
import re
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Iterator

import tenacity
from google import genai
from google.genai import errors, types

from ...settings import Settings
from ..context import Source
from ..pipeline import fix_markers, map_prose
from . import prompt
from .base import Generation, GenerationInput, Generator

log = logging.getLogger("textbook_chat.gemini")

MAX_SEARCHES = 3  # search_textbook calls per question
MIN_ATTEMPT_S = 0.25  # an attempt with less time left than this is not started
REWRITE_DEADLINE_S = 5.0
RETRYABLE_STATUS = {408, 429}
SEARCH_TOOL = types.Tool(function_declarations=[types.FunctionDeclaration(
    name="search_textbook",
    description="Search this textbook for passages about a topic. Returns numbered passages to cite by number.",
    parameters_json_schema={
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to look for, in the book's own terms."},
            "module": {"type": "string",
                       "description": "Optional: only search this module (part) of the book, named as in a "
                                      "passage's module attribute."},
        },
        "required": ["query"],
    })])


class DeadlineExceeded(TimeoutError):
    """The request's time budget ran out."""

    def __init__(self, message: str = "no reply within GEMINI_TIMEOUT_S"):
        super().__init__(message)


def _http_modules() -> list:
    """The SDK's HTTP library raises its own errors unwrapped: httpx2 since google-genai 3, httpx before."""
    found = []
    for name in ("httpx2", "httpx"):
        try:
            found.append(importlib.import_module(name))
        except ImportError:
            continue
    return found


TIMEOUT_ERRORS = tuple(m.TimeoutException for m in _http_modules())
TRANSPORT_ERRORS = tuple(m.TransportError for m in _http_modules())


# --- classifying faults ------------------------------------------------------------------------

def is_bad_key(exc: BaseException) -> bool:
    if not isinstance(exc, errors.APIError) or exc.code not in (400, 401, 403):
        return False
    error = exc.details.get("error", exc.details) if isinstance(exc.details, dict) else {}
    details = error.get("details") if isinstance(error, dict) else None
    reasons = {d.get("reason") for d in details or [] if isinstance(d, dict)}
    return "API_KEY_INVALID" in reasons or (exc.code == 400 and "api key not valid" in (exc.message or "").lower())


def fault_reason(exc: BaseException) -> str:
    """A short machine-readable name for why Gemini did not answer."""
    if isinstance(exc, (DeadlineExceeded, *TIMEOUT_ERRORS)):
        return "timeout"
    if isinstance(exc, errors.APIError):
        if is_bad_key(exc):
            return "invalid_api_key"
        if exc.code == 429:
            return "rate_limited"
        if exc.code == 408:
            return "timeout"
        if exc.code == 404:
            return "model_not_found"
        if exc.code >= 500:
            return "server_error"
        return "request_rejected"
    if isinstance(exc, TRANSPORT_ERRORS):
        return "unreachable"
    return "error"


def is_retryable(exc: BaseException) -> bool:
    if isinstance(exc, DeadlineExceeded):
        return False
    if isinstance(exc, errors.APIError):
        return exc.code in RETRYABLE_STATUS or exc.code >= 500
    return isinstance(exc, TRANSPORT_ERRORS)


def _retry_delay_hint(exc: BaseException) -> float:
    """Seconds from a google.rpc.RetryInfo detail (`"retryDelay": "1.5s"`), or 0."""
    if not isinstance(exc, errors.APIError) or not isinstance(exc.details, dict):
        return 0.0
    error = exc.details.get("error", exc.details)
    for detail in (error.get("details") or []) if isinstance(error, dict) else []:
        delay = detail.get("retryDelay") if isinstance(detail, dict) else None
        if isinstance(delay, str) and delay.endswith("s"):
            try:
                return float(delay[:-1])
            except ValueError:
                return 0.0
    return 0.0


# --- reading the model's output ----------------------------------------------------------------

def _text_of(response) -> str:
    """The answer text of a response or stream chunk (thought summaries and calls skipped)."""
    candidates = getattr(response, "candidates", None) or []
    if not candidates or not candidates[0].content or not candidates[0].content.parts:
        return ""
    return "".join(p.text for p in candidates[0].content.parts if p.text and not p.thought)


def usage_dict(meta) -> dict | None:
    if meta is None:
        return None
    prompt_tokens = meta.prompt_token_count
    output = (meta.candidates_token_count or 0) + (meta.thoughts_token_count or 0)
    total = meta.total_token_count
    if prompt_tokens is None and not output and total is None:
        return None
    return {"prompt_tokens": prompt_tokens, "output_tokens": output if output or total else None,
            "total_tokens": total if total is not None else (prompt_tokens or 0) + output}


def _add_usage(a: dict | None, b: dict | None) -> dict | None:
    if a is None or b is None:
        return a or b
    return {k: (a.get(k) or 0) + (b.get(k) or 0) for k in ("prompt_tokens", "output_tokens", "total_tokens")}


_MARKER_LIST = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)+)\]")
_MARKER_RANGE = re.compile(r"\[(\d+)\s*[-–]\s*(\d+)\]")
_OPEN_MARKER_TAIL = re.compile(r"\[[\d\s,;\-–]{0,12}$")
_DECORATION = " \t\r\n*_`\"'"  # what may wrap a bare sentinel


def clean_answer(text: str, n_sources: int) -> str:
    """The sentinel removed, `[1, 2]` and `[1-3]` spelled `[1][2]…`, markers to no passage dropped
    (code spans and blocks are left as written)."""
    def expand(m: re.Match) -> str:
        low, high = int(m.group(1)), int(m.group(2))
        return "".join(f"[{n}]" for n in range(low, high + 1)) if 0 < high - low <= 10 else m.group(0)

    def spell_out(prose: str) -> str:
        prose = _MARKER_LIST.sub(lambda m: "".join(f"[{n}]" for n in re.split(r"\s*[,;]\s*", m.group(1))), prose)
        return _MARKER_RANGE.sub(expand, prose)

    return fix_markers(map_prose(text.replace(prompt.REFUSAL_SENTINEL, ""), spell_out), n_sources)


class AnswerFilter:
    """Turns the model's raw deltas into what the reader sees.

    Text is held back while it could still be the refusal sentinel or an unfinished [n] marker;
    what is released is always a prefix of the cleaned full answer, so the streamed tokens add
    up to the answer the `done` event carries.
    """

    def __init__(self, n_sources: int):
        self.n_sources = n_sources
        self.raw = ""
        self.emitted = ""
        self.refused = False

    def feed(self, delta: str) -> str:
        if self.refused or not delta:
            return ""
        self.raw += delta
        head = self.raw.lstrip(_DECORATION)
        if head.startswith(prompt.REFUSAL_SENTINEL):
            self.refused = True
            return ""
        if prompt.REFUSAL_SENTINEL.startswith(head):
            return ""  # could still become the sentinel
        safe = self.raw
        open_marker = _OPEN_MARKER_TAIL.search(safe)
        if open_marker:
            safe = safe[:open_marker.start()]
        last_line = safe[safe.rfind("\n") + 1:]
        if last_line.replace("```", "").count("`") % 2:  # inside inline code: wait for it to close
            safe = safe[:safe.rfind("`")]
        for k in range(len(prompt.REFUSAL_SENTINEL) - 1, 0, -1):
            if safe.endswith(prompt.REFUSAL_SENTINEL[:k]):
                safe = safe[:-k]
                break
        return self._release(clean_answer(safe.rstrip(), self.n_sources))

    def finish(self) -> str:
        if self.refused:
            return ""
        head = self.raw.strip(_DECORATION)
        if head and prompt.REFUSAL_SENTINEL.startswith(head):
            self.refused = True  # the stream ended on the sentinel's first letters
            return ""
        full = clean_answer(self.raw, self.n_sources)
        if full.startswith(self.emitted):
            return self._release(full)
        log.debug("cleaned answer diverged from the streamed prefix")
        self.emitted = full
        return ""

    @property
    def text(self) -> str:
        return self.emitted

    def _release(self, cleaned: str) -> str:
        if len(cleaned) <= len(self.emitted) or not cleaned.startswith(self.emitted):
            return ""
        delta = cleaned[len(self.emitted):]
        self.emitted = cleaned
        return delta


# --- bounded calls -----------------------------------------------------------------------------

_CHUNK, _END, _ERROR = "chunk", "end", "error"


class _Pump:
    """Runs a blocking iterator on a worker thread; the reader waits at most until a deadline."""

    def __init__(self, open_iterator: Callable[[], Iterator]):
        self._queue: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(open_iterator,), name="gemini-call", daemon=True)
        self._thread.start()

    def _run(self, open_iterator) -> None:
        iterator = None
        try:
            iterator = open_iterator()
            for item in iterator:
                if self._stop.is_set():
                    break
                self._queue.put((_CHUNK, item))
            self._queue.put((_END, None))
        except BaseException as exc:  # handed to the reader
            self._queue.put((_ERROR, exc))
        finally:
            close = getattr(iterator, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:  # closing an abandoned stream is best effort
                    pass

    def next(self, deadline: float):
        """The next item, None at the end; raises the worker's error or DeadlineExceeded."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise DeadlineExceeded()
        try:
            kind, value = self._queue.get(timeout=remaining)
        except queue.Empty:
            raise DeadlineExceeded() from None
        if kind == _ERROR:
            raise value
        return None if kind == _END else value

    def abandon(self) -> None:
        """Stop reading; the worker ends at its next chunk or when its HTTP timeout fires."""
        self._stop.set()


@dataclass
class _Run:
    """One question's state while Gemini answers it."""

    request: GenerationInput
    generation: Generation
    deadline: float
    started: float = field(default_factory=time.monotonic)
    attempts: int = 0
    searches: int = 0
    retried_fault: str | None = None  # why the last retried attempt failed

    def remaining(self) -> float:
        return self.deadline - time.monotonic()


class GeminiGenerator:
    name = "gemini"

    def __init__(self, settings: Settings, fallback: Generator, *, client: genai.Client | None = None,
                 backoff_s: float = 0.5, max_backoff_s: float = 4.0):
        self.settings = settings
        self.fallback = fallback
        self.model = settings.gemini_model
        self.timeout_s = float(settings.gemini_timeout_s)
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        # the Gemini Developer API, never Vertex; GOOGLE_GEMINI_BASE_URL (the SDK's own) may point elsewhere
        self.client = client or genai.Client(api_key=settings.gemini_api_key, vertexai=False)
        self._key_rejected = False
        self._lock = threading.Lock()

    # --- the Generator interface -------------------------------------------------------------
    def start(self, request: GenerationInput) -> Generation:
        generation = Generation(tokens=iter(()), generator=self.model)
        run = _Run(request, generation, deadline=time.monotonic() + self.timeout_s)
        generation.tokens = self._answer(run)
        return generation

    def rewrite_query(self, question: str, history: list[dict]) -> str | None:
        """A stand-alone version of a follow-up question, for retrieval; None if not available."""
        if self._key_rejected or not history:
            return None
        deadline = time.monotonic() + min(REWRITE_DEADLINE_S, self.timeout_s)
        config = self._config(deadline, system=prompt.REWRITE_INSTRUCTION, temperature=0.0, max_output_tokens=256)
        try:
            response = self._call(prompt.rewrite_message(question, history), config, deadline)
        except Exception as exc:
            self._note_fault(exc)
            log.info("follow-up rewrite failed (%s); retrieving with the heuristic query", fault_reason(exc))
            return None
        lines = [line.strip().strip('"“”').strip() for line in _text_of(response).splitlines() if line.strip()]
        rewritten = lines[0] if lines else ""
        if not rewritten or prompt.REFUSAL_SENTINEL in rewritten or len(rewritten) > 500:
            return None
        log.info("follow-up %r rewritten for retrieval as %r", question, rewritten)
        return rewritten

    # --- one answer ----------------------------------------------------------------------------
    def _answer(self, run: _Run) -> Iterator[str]:
        if self._key_rejected:
            yield from self._fall_back(run, "invalid_api_key", quiet=True)
            return
        agent = self.settings.agent_mode and run.request.search is not None
        shown = False
        answer = AnswerFilter(len(run.request.sources))
        deltas = self._agent_deltas(run) if agent else self._stream_deltas(run)
        try:
            for delta in deltas:
                if run.generation.cancelled.is_set():
                    return
                if agent:
                    answer.n_sources = len(run.request.sources) + len(run.generation.extra_sources)
                piece = answer.feed(delta)  # after a refusal the rest is read (for usage) but not shown
                if piece:
                    shown = True
                    yield piece
            tail = answer.finish()
        except Exception as exc:
            reason = fault_reason(exc)
            if reason == "timeout" and run.retried_fault:
                reason = run.retried_fault  # the deadline ran out while retrying: name what was retried
            self._note_fault(exc)
            if answer.refused:
                log.info("Gemini refused; the rest of its reply was cut short (%s)", reason)
                run.generation.refused = True
                self._log_usage(run, outcome="refused")
                return
            if not shown:
                yield from self._fall_back(run, reason, error=exc)
                return
            # part of the answer is already on the reader's screen: keep it, say it was cut short
            tail = answer.finish()
            if tail:
                yield tail
            run.generation.fallback_reason = f"partial_{reason}"
            log.warning("Gemini stopped mid-answer (%s: %s) after %.2fs; keeping the partial answer",
                        reason, exc, time.monotonic() - run.started)
            self._log_usage(run, outcome=f"partial_{reason}")
            return
        finally:
            deltas.close()
        if answer.refused:
            run.generation.refused = True
            self._log_usage(run, outcome="refused")
            return
        if tail:
            shown = True
            yield tail
        if not answer.text.strip():
            yield from self._fall_back(run, "empty_answer")
            return
        if not re.search(r"\[\d+\]", answer.text):
            log.warning("Gemini answered without citing a passage")
        self._log_usage(run, outcome="completed")

    def _stream_deltas(self, run: _Run) -> Iterator[str]:
        request = run.request
        contents = self._contents(request)
        system = prompt.system_instruction(request.preferences, selection_only=request.selection_only)

        def open_stream() -> tuple[_Pump, object]:
            config = self._config(run.deadline, system=system)
            pump = _Pump(lambda: self.client.models.generate_content_stream(
                model=self.model, contents=contents, config=config))
            try:
                return pump, pump.next(run.deadline)
            except BaseException:
                pump.abandon()
                raise

        pump, chunk = self._with_retries(run, open_stream, "stream")
        try:
            while chunk is not None:
                if chunk.usage_metadata is not None:
                    run.generation.usage = usage_dict(chunk.usage_metadata) or run.generation.usage
                yield _text_of(chunk)
                chunk = pump.next(run.deadline)
        finally:
            pump.abandon()

    def _agent_deltas(self, run: _Run) -> Iterator[str]:
        """Tool rounds (non-streamed) until the model answers; the answer in word-sized deltas."""
        request = run.request
        sources = list(request.sources)
        seen = {s.chunk.chunk_id: n for n, s in enumerate(sources, 1)}
        contents = self._contents(request)
        system = prompt.system_instruction(request.preferences, selection_only=request.selection_only, agent=True)
        response = None
        for round_number in range(1, MAX_SEARCHES + 3):
            allow_search = run.searches < MAX_SEARCHES
            mode = types.FunctionCallingConfigMode.AUTO if allow_search else types.FunctionCallingConfigMode.NONE
            config = self._config(run.deadline, system=system, tools=[SEARCH_TOOL], tool_config=types.ToolConfig(
                function_calling_config=types.FunctionCallingConfig(mode=mode)))
            response = self._with_retries(run, lambda: self._call(contents, config, run.deadline), "agent")
            run.generation.usage = _add_usage(run.generation.usage, usage_dict(response.usage_metadata))
            calls = response.function_calls or []
            if not calls or round_number == MAX_SEARCHES + 2:
                break
            contents.append(response.candidates[0].content)
            replies = []
            for call in calls:
                replies.append(self._tool_reply(run, call, sources, seen))
            run.generation.extra_sources = sources[len(request.sources):]  # kept even if a later round fails
            contents.append(types.Content(role="user", parts=replies))
        for piece in re.findall(r"\S+\s*|\s+", _text_of(response) if response is not None else ""):
            yield piece

    def _tool_reply(self, run: _Run, call, sources: list[Source], seen: dict[str, int]) -> types.Part:
        args = dict(call.args or {})
        query = str(args.get("query") or "").strip()
        module = str(args.get("module") or "").strip() or None
        if call.name != "search_textbook":
            return types.Part.from_function_response(name=call.name or "unknown", response={
                "error": f"There is no tool named {call.name!r}; only search_textbook."})
        if run.searches >= MAX_SEARCHES:
            log.info("agent search refused: the limit of %d searches is reached (%r)", MAX_SEARCHES, query)
            return types.Part.from_function_response(name=call.name, response={
                "error": f"Search limit of {MAX_SEARCHES} reached. Answer now from the passages you have."})
        run.searches += 1
        found = run.request.search(query, module) if query else []
        numbered, added = [], 0
        for source in found:
            number = seen.get(source.chunk.chunk_id)
            if number is None:
                sources.append(source)
                number = seen[source.chunk.chunk_id] = len(sources)
                added += 1
            numbered.append((number, source))
        log.info("agent search %d: %r module=%r -> %d passages (%d new)", run.searches, query, module, len(found),
                 added)
        return types.Part.from_function_response(name=call.name, response={
            "result": prompt.search_results(numbered, query)})

    # --- faults ----------------------------------------------------------------------------------
    def _with_retries(self, run: _Run, attempt: Callable, what: str):
        def stop(state: tenacity.RetryCallState) -> bool:
            if run.generation.cancelled.is_set():
                return True
            return run.remaining() - (state.upcoming_sleep or 0.0) < MIN_ATTEMPT_S

        def wait(state: tenacity.RetryCallState) -> float:
            backoff = min(self.max_backoff_s, self.backoff_s * 2 ** (state.attempt_number - 1))
            backoff *= 0.75 + 0.5 * random.random()
            hint = _retry_delay_hint(state.outcome.exception()) if state.outcome else 0.0
            return max(backoff, hint)

        def before_sleep(state: tenacity.RetryCallState) -> None:
            exc = state.outcome.exception()
            run.retried_fault = fault_reason(exc)
            log.warning("Gemini %s attempt %d failed (%s: %s); retrying in %.2fs", what, state.attempt_number,
                        fault_reason(exc), exc, state.upcoming_sleep)

        def counted():
            run.attempts += 1
            if run.remaining() < MIN_ATTEMPT_S:
                raise DeadlineExceeded()
            return attempt()

        retrying = tenacity.Retrying(retry=tenacity.retry_if_exception(is_retryable), stop=stop, wait=wait,
                                     before_sleep=before_sleep, reraise=True,
                                     sleep=lambda seconds: run.generation.cancelled.wait(seconds))
        return retrying(counted)

    def _note_fault(self, exc: BaseException) -> None:
        if not is_bad_key(exc):
            return
        with self._lock:
            first = not self._key_rejected
            self._key_rejected = True
        if first:
            log.warning("Gemini rejected GEMINI_API_KEY (API_KEY_INVALID); answering with the extractive "
                        "generator until the key is fixed")

    def _fall_back(self, run: _Run, reason: str, *, error: BaseException | None = None,
                   quiet: bool = False) -> Iterator[str]:
        if not quiet and reason != "invalid_api_key":
            log.warning("Gemini did not answer (%s%s) after %.2fs and %d attempt(s); answering with the "
                        "extractive generator", reason, f": {error}" if error else "",
                        time.monotonic() - run.started, run.attempts)
        request = run.request
        if run.generation.extra_sources:
            request = replace(request, sources=request.sources + run.generation.extra_sources)
        fallback = self.fallback.start(request)
        generation = run.generation
        generation.generator = fallback.generator
        generation.fallback_reason = reason
        generation.refused = False
        for token in fallback.tokens:
            if generation.cancelled.is_set():
                fallback.cancel()
                return
            yield token
        generation.refused = fallback.refused

    # --- building requests -------------------------------------------------------------------------
    def _config(self, deadline: float, *, system: str, temperature: float | None = None,
                max_output_tokens: int | None = None, **extra) -> types.GenerateContentConfig:
        remaining_ms = max(1, int((deadline - time.monotonic()) * 1000))
        if "tools" in extra:
            extra["automatic_function_calling"] = types.AutomaticFunctionCallingConfig(disable=True)
        return types.GenerateContentConfig(
            system_instruction=system,
            temperature=self.settings.gemini_temperature if temperature is None else temperature,
            max_output_tokens=max_output_tokens or self.settings.gemini_max_output_tokens,
            http_options=types.HttpOptions(timeout=remaining_ms),
            **extra)

    def _call(self, contents, config: types.GenerateContentConfig, deadline: float):
        """One non-streamed generate_content, bounded by the deadline."""
        config = config.model_copy(update={"http_options": types.HttpOptions(
            timeout=max(1, int((deadline - time.monotonic()) * 1000)))})
        pump = _Pump(lambda: iter([self.client.models.generate_content(
            model=self.model, contents=contents, config=config)]))
        try:
            return pump.next(deadline)
        finally:
            pump.abandon()

    @staticmethod
    def _contents(request: GenerationInput) -> list[types.Content]:
        """Recent turns (answered ones only, markers stripped), then the fenced passages and question."""
        turns: list[types.Content] = []
        history = request.history
        for i, message in enumerate(history):
            if message["role"] == "user":
                answered = i + 1 < len(history) and history[i + 1]["role"] == "assistant"
                if answered and message["content"].strip():
                    turns.append(types.Content(role="user", parts=[types.Part(text=message["content"])]))
            elif turns and turns[-1].role == "user":
                text = re.sub(r"\s*\[\d+\]", "", message["content"]).strip()
                turns.append(types.Content(role="model", parts=[types.Part(text=text or "…")]))
        if turns and turns[-1].role == "user":
            turns.pop()
        turns.append(types.Content(role="user", parts=[types.Part(text=prompt.user_message(
            request.question, request.sources, selected_text=request.selected_text,
            selection_only=request.selection_only))]))
        return turns

    def _log_usage(self, run: _Run, *, outcome: str) -> None:
        usage = run.generation.usage or {}
        log.info("gemini %s model=%s prompt_tokens=%s output_tokens=%s total_tokens=%s attempts=%d searches=%d "
                 "time=%.2fs", outcome, self.model, usage.get("prompt_tokens"), usage.get("output_tokens"),
                 usage.get("total_tokens"), run.attempts, run.searches, time.monotonic() - run.started)
