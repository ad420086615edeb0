"""Between HTTP and the domain: a validated request becomes a Question, and the pipeline's
events become JSON bodies and server-sent events (shaped by the response schemas); the
sessions store's records are shaped by their schemas (session_schemas.py)."""
from __future__ import annotations

from server.text.privacy import mask
from server.question.events import Answer, Delta, Event, Finished, Sources
from server.question import Page, Preferences, Question, QuizAnswer, Selection, SelectionMode
from server.sessions import DatabaseCheck
from server.settings import Settings
from server.store import Filters
from server.api.schemas import ChatResponseSchema, SourcesEventSchema

# dumping keeps no state, and building a schema copies its fields: one of each
_ANSWER = ChatResponseSchema()
_SOURCES = SourcesEventSchema()


def question_from(body: dict, settings: Settings, threshold: float) -> Question:
    """A validated /chat request (QuerySchema) as a Question; unset limits take the configured defaults
    (`threshold`: the similarity gate of the index's model, or SIMILARITY_THRESHOLD)."""
    mode = SelectionMode(body.get("selection_mode", SelectionMode.EXCLUSIVE.value))
    selected = mask(body.get("selected_text"))
    preferences = body.get("user_preferences") or {}
    metadata = body.get("metadata") or {}
    return Question(
        # a reader's personal details reach neither the model nor the database (nor do a page's
        # URL's: only its path is kept, insights/asked.py)
        text=mask(body["question"]),
        max_chunks=body.get("max_chunks", settings.max_chunks),
        similarity_threshold=body.get("similarity_threshold", threshold),
        selection=Selection(selected, mode, body.get("selected_code_language")) if selected else None,
        selection_mode=mode,
        filters=Filters(**(body.get("filters") or {})),
        preferences=Preferences(level=preferences.get("level"),
                                answer_length=preferences.get("answer_length", "normal")),
        page=Page(url=metadata.get("page_url", ""), title=mask(metadata.get("page_title", "")),
                  locale=metadata.get("locale"), docs_version=metadata.get("docs_version")),
        session_id=body.get("session_id"),
        quiz_answer=QuizAnswer(**body["quiz_answer"]) if body.get("quiz_answer") else None,
        tutor=bool(body.get("tutor")),
    )


def answer_body(answer: Answer) -> dict:
    return _ANSWER.dump(answer)


def database_health(check: DatabaseCheck) -> dict:
    """/health's `database` when it answers."""
    return {"kind": check.kind, "latency_ms": check.latency_ms}


def server_timing(answer: Answer) -> str:
    return ", ".join(f"{name};dur={ms:.2f}" for name, ms in answer.timings.items())


def sse_event(event: Event) -> tuple[str, dict]:
    """The SSE event name and data of a pipeline event: `meta`, `token` or `done`."""
    if isinstance(event, Sources):
        return "meta", _SOURCES.dump(event)
    if isinstance(event, Delta):
        return "token", {"text": event.text}
    if isinstance(event, Finished):
        return "done", answer_body(event.answer)
    raise TypeError(f"not a pipeline event: {event!r}")
