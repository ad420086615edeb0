"""One question, end to end, with its lifecycle recorded:
CREATED → RETRIEVING → GENERATING → COMPLETED, or → REFUSED (or FAILED on an error)."""
from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Iterator

from ..retrieval import Retriever
from ..sessions import SessionStore
from ..settings import Settings
from ..store import Filters
from .context import QueryContext, Source, database_sources, selection_sources
from .followup import looks_like_follow_up, retrieval_query
from .generators.base import Generation, GenerationInput, Generator
from .refusal import book_refusal, selection_refusal
from .vocabulary import StoreVocabulary

log = logging.getLogger("textbook_chat.pipeline")
_MARKER = re.compile(r"[ \t]*\[(\d+)\](?!\()")  # a citation marker (not a link), with the space before it
# a question naming a term the book never uses is refused unless retrieval is this sure anyway
UNKNOWN_TERM_CEILING = 0.6
_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`", re.S)  # fenced blocks and inline code: `x[0]` is not a marker


class SessionNotFound(LookupError):
    pass


class GenerationFailed(RuntimeError):
    def __init__(self, message: str, *, session_id: str, query_id: str):
        super().__init__(message)
        self.session_id = session_id
        self.query_id = query_id


@dataclass
class Turn:
    query: dict
    query_id: str
    session_id: str
    user_message_id: str
    mode: str
    context: QueryContext = field(default_factory=QueryContext)
    sources: list[Source] = field(default_factory=list)
    nearest: list = field(default_factory=list)
    candidates: list = field(default_factory=list)  # every retrieved chunk, before the gate
    history: list[dict] = field(default_factory=list)
    retrieval_text: str = ""
    unknown_terms: list = field(default_factory=list)  # specialist words the book never uses
    timings: dict = field(default_factory=dict)  # milliseconds per stage, for Server-Timing
    states: list = field(default_factory=list)  # lifecycle after CREATED, written when the turn closes
    generator: str | None = None

    def mark(self, state: str) -> None:
        self.states.append([state, _now()])

    @property
    def refused(self) -> bool:
        return not self.sources


def map_prose(text: str, fix) -> str:
    """Apply `fix` to the text outside code (fenced blocks and inline code are left as written)."""
    parts, last = [], 0
    for code in _CODE.finditer(text):
        parts += [fix(text[last:code.start()]), code.group(0)]
        last = code.end()
    parts.append(fix(text[last:]))
    return "".join(parts)


def fix_markers(answer: str, n_sources: int) -> str:
    """Drop [n] markers that point at no source, with the space before them; code is untouched."""
    def fix(prose: str) -> str:
        return _MARKER.sub(lambda m: m.group(0) if 1 <= int(m.group(1)) <= n_sources else "", prose)
    return map_prose(answer, fix).strip()


def confidence_of(sources: list[Source]) -> float:
    if not sources:
        return 0.0
    scores = [s.score for s in sources]
    return round(min(1.0, 0.6 * scores[0] + 0.4 * sum(scores) / len(scores)), 4)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class ChatPipeline:
    def __init__(self, settings: Settings, retriever: Retriever, embedder, generator: Generator,
                 sessions: SessionStore, *, book_title: str = "", vocabulary: StoreVocabulary | None = None):
        self.settings = settings
        self.retriever = retriever
        self.embedder = embedder
        self.generator = generator
        self.sessions = sessions
        self.book_title = book_title
        self.vocabulary = vocabulary if vocabulary is not None else StoreVocabulary(retriever.store)

    # --- stage 1: accept, store, retrieve, gate -----------------------------------------------
    def begin(self, query: dict) -> Turn:
        started = time.perf_counter()
        session_id = query.get("session_id")
        if session_id and not self.sessions.exists(session_id):
            raise SessionNotFound(session_id)
        history = self.sessions.recent_messages(session_id, limit=6) if session_id else []
        selected = query.get("selected_text")
        mode = "book" if not selected else f"selection_{query['selection_mode']}"
        opened = self.sessions.open_turn(session_id, query["question"], selected, query["selection_mode"],
                                         book_id=(query.get("filters") or {}).get("book_id"))
        turn = Turn(query=query, query_id=opened["query_id"], session_id=opened["session_id"],
                    user_message_id=opened["user_message_id"], mode=mode, history=history)
        try:
            turn.mark("RETRIEVING")
            self._build_context(turn)
        except Exception as exc:
            self._fail(turn, exc)
            raise
        turn.timings["prepare"] = (time.perf_counter() - started) * 1000
        return turn

    def _build_context(self, turn: Turn) -> None:
        query = turn.query
        threshold = query.get("similarity_threshold", self.settings.similarity_threshold)
        max_chunks = query.get("max_chunks", self.settings.max_chunks)
        selected = query.get("selected_text")
        turn.retrieval_text = self._retrieval_text(query["question"], turn.history)
        question_vector = self.embedder.embed_query(turn.retrieval_text)
        if selected:
            # the reader chose the passage: its pieces only need to clear the seed's 0.1 floor
            turn.context.selected = selection_sources(selected, question_vector, self.embedder, query.get("metadata"))
        if turn.mode != "selection_exclusive":
            filters = Filters(**(query.get("filters") or {}))
            # "explain this" says little on its own: in combined mode the passage steers retrieval
            text = f"{turn.retrieval_text}\n{selected[:600]}" if selected else turn.retrieval_text
            candidates = self.retriever.retrieve(text, max_chunks=max_chunks, similarity_threshold=0.0,
                                                 filters=filters)
            turn.candidates = candidates
            turn.nearest = candidates[:3]
            turn.context.database = database_sources([c for c in candidates if c.score >= threshold])
            if turn.mode == "book":
                turn.unknown_terms = self.vocabulary.get().unknown_terms(query["question"])
                if turn.unknown_terms and (not candidates or candidates[0].score < UNKNOWN_TERM_CEILING):
                    turn.context.database = []  # it asks about something the book never names
        ranked = turn.context.combined[:max_chunks]
        if turn.context.selected and not any(s.source_type == "selected_text" for s in ranked):
            ranked = [turn.context.selected[0], *ranked[: max_chunks - 1]]  # the highlight always takes part
        turn.sources = ranked

    def _retrieval_text(self, question: str, history: list[dict]) -> str:
        """A follow-up is rewritten into a stand-alone query by the generator when it can;
        otherwise (or on any failure) the previous question is prepended."""
        rewrite = getattr(self.generator, "rewrite_query", None)
        if rewrite is not None and any(m["role"] == "user" for m in history) and looks_like_follow_up(question):
            try:
                rewritten = rewrite(question, history)
            except Exception:
                log.warning("follow-up rewrite failed; using the heuristic query", exc_info=True)
                rewritten = None
            if rewritten and rewritten.strip():
                return rewritten.strip()
        return retrieval_query(question, history)

    # --- stage 2: generate ----------------------------------------------------------------
    def generation_input(self, turn: Turn) -> GenerationInput:
        return GenerationInput(
            question=turn.query["question"], sources=turn.sources, history=turn.history,
            preferences=turn.query.get("user_preferences") or {},
            selection_only=turn.mode == "selection_exclusive", selected_text=turn.query.get("selected_text"),
            search=None if turn.mode == "selection_exclusive" else self._book_search(turn))

    def _book_search(self, turn: Turn):
        """The agent's search_textbook: the request's filters and threshold, optionally one module."""
        threshold = turn.query.get("similarity_threshold", self.settings.similarity_threshold)
        max_chunks = turn.query.get("max_chunks", self.settings.max_chunks)
        request_filters = {k: v for k, v in (turn.query.get("filters") or {}).items() if v}

        def search(query: str, module: str | None = None) -> list[Source]:
            filters = Filters(**{**({"module": module} if module else {}), **request_filters})
            return database_sources(self.retriever.retrieve(query, max_chunks=max_chunks,
                                                            similarity_threshold=threshold, filters=filters))
        return search

    def start_generation(self, turn: Turn) -> Generation | None:
        """None when the gate refused: no model is called."""
        if turn.refused:
            return None
        turn.mark("GENERATING")
        turn.generator = getattr(self.generator, "name", None)
        try:
            return self.generator.start(self.generation_input(turn))
        except Exception as exc:
            self._fail(turn, exc)
            raise GenerationFailed(str(exc), session_id=turn.session_id, query_id=turn.query_id) from exc

    def refusal_text(self, turn: Turn) -> str:
        if turn.mode == "selection_exclusive":
            return selection_refusal()
        return book_refusal(self.book_title or (turn.nearest[0].book_title if turn.nearest else ""), turn.nearest,
                            unknown_terms=turn.unknown_terms)

    def stream(self, turn: Turn) -> Iterator[tuple[str, dict]]:
        """("meta", …), ("token", …)…, ("done", response). Raises GenerationFailed."""
        generating = time.perf_counter()
        generation = self.start_generation(turn)
        yield "meta", {"query_id": turn.query_id, "session_id": turn.session_id,
                       "sources": self._sources(turn.sources if generation else [])}
        if generation is None:
            text = self.refusal_text(turn)
            yield "token", {"text": text}
            yield "done", self.finish(turn, text, None)
            return
        parts: list[str] = []
        try:
            for delta in generation.tokens:
                parts.append(delta)
                yield "token", {"text": delta}
        except GeneratorExit:
            generation.cancel()
            self._cancelled(turn, "".join(parts))
            raise
        except Exception as exc:
            self._fail(turn, exc)
            raise GenerationFailed(str(exc), session_id=turn.session_id, query_id=turn.query_id) from exc
        turn.timings["generate"] = (time.perf_counter() - generating) * 1000
        text = "".join(parts)
        if not text.strip():  # a refusal with nothing streamed: stream the refusal text itself
            text = self.refusal_text(turn)
            yield "token", {"text": text}
        yield "done", self.finish(turn, text, generation)

    # --- stage 3: validate and persist ----------------------------------------------------
    def finish(self, turn: Turn, text: str, generation: Generation | None) -> dict:
        finishing = time.perf_counter()
        try:
            return self._finish(turn, text, generation)
        finally:
            turn.timings["persist"] = (time.perf_counter() - finishing) * 1000

    def _finish(self, turn: Turn, text: str, generation: Generation | None) -> dict:
        if generation is not None and generation.extra_sources:  # found by the agent, numbered after ours
            turn.sources = turn.sources + generation.extra_sources
        refused = generation is None or generation.refused or not text.strip()
        sources = [] if refused else turn.sources
        answer = (fix_markers(text, len(sources)) if sources else text.strip()) or self.refusal_text(turn)
        confidence = confidence_of(sources) if sources else round(min(0.5, 0.5 * max((c.score for c in turn.nearest), default=0.0)), 4)
        turn.mark("REFUSED" if refused else "COMPLETED")
        assistant = self.sessions.close_turn(
            turn.query_id, turn.states, session_id=turn.session_id, user_message_id=turn.user_message_id,
            user_status="answered", generator=turn.generator, assistant={
                "content": answer, "status": "refused" if refused else "completed",
                "source_references": [{
                    "source_file": s.chunk.source_file, "source_location": s.chunk.source_location,
                    "content_snippet": s.chunk.content[:240], "confidence": round(s.score, 4),
                    "retrieved_content_id": s.chunk.chunk_id, "url": s.chunk.url} for s in sources]})
        return {
            "query_id": turn.query_id,
            "session_id": turn.session_id,
            "assistant_message_id": assistant["id"],
            "query": turn.query["question"],
            "status": "refused" if refused else "completed",
            "answer": answer,
            "sources": self._sources(sources),
            "references": list(dict.fromkeys(s.chunk.citation for s in sources)),
            "citations": [{"text": f"[{n}]", "source": s.chunk.source_location, "url": s.chunk.url}
                          for n, s in enumerate(sources, 1)],
            "confidence": confidence,
            "timestamp": _now(),
            "mode": turn.mode,
            "generator": generation.generator if generation else "none",
            "fallback_reason": generation.fallback_reason if generation else None,
            "usage": generation.usage if generation else None,
            "context": turn.context.to_dict(),
        }

    @staticmethod
    def _sources(sources: list[Source]) -> list[dict]:
        return [{**s.chunk.public(), "score": round(s.score, 4), "source_type": s.source_type, "number": n}
                for n, s in enumerate(sources, 1)]

    def _fail(self, turn: Turn, exc: BaseException) -> None:
        log.exception("query %s failed", turn.query_id, exc_info=exc)
        turn.mark("FAILED")
        self.sessions.close_turn(turn.query_id, turn.states, session_id=turn.session_id,
                                 user_message_id=turn.user_message_id, user_status="failed", generator=turn.generator,
                                 error=f"{type(exc).__name__}: {exc}")

    def _cancelled(self, turn: Turn, partial: str) -> None:
        turn.mark("CANCELLED")
        self.sessions.close_turn(turn.query_id, turn.states, session_id=turn.session_id,
                                 user_message_id=turn.user_message_id, user_status="received", generator=turn.generator,
                                 assistant={"content": partial.strip(), "status": "cancelled"} if partial.strip() else None)
