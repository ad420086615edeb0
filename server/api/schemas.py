"""Marshmallow schemas: they validate every request, shape every response and generate the
OpenAPI document. Rules come from DESIGN.md §2 (which reconciles the seed data models)."""
from __future__ import annotations

from datetime import datetime, timezone

from marshmallow import Schema, ValidationError, fields, post_dump, pre_dump, pre_load, validate, validates_schema

from server.question import markers
from server.question.context import HighlightedPassage
from server.question import AnswerMode
from server.api.errors import STATUS
from server.api.text import NOT_ONLY_WHITESPACE, Trimmed

SELECTION_MODES = ("exclusive", "combined")
SOURCE_TYPES = ("database", "selected_text")
MAX_QUESTION = 1000
MAX_SELECTION = 8000


class _Score(fields.Float):
    """A score in [0, 1], shown to four decimals."""

    def __init__(self, **kwargs):
        super().__init__(validate=validate.Range(0.0, 1.0), **kwargs)

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else round(float(value), 4)


class UtcTime(fields.String):
    """A moment as ISO 8601 in UTC to the millisecond, e.g. 2026-11-26T10:55:06.123Z."""

    def _serialize(self, value, attr, obj, **kwargs):
        if isinstance(value, datetime):
            value = value.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        return super()._serialize(value, attr, obj, **kwargs)


class FiltersSchema(Schema):
    book_id = fields.String(validate=validate.Length(1, 200))
    module = fields.String(validate=validate.Length(1, 300))
    chapter = fields.String(validate=validate.Length(1, 300))
    source_file = fields.String(validate=validate.Length(1, 500), metadata={"description": "path prefix inside the book"})
    locale = fields.String(validate=validate.Length(1, 35), metadata={"description": "only pages of this locale"})
    version = fields.String(validate=validate.Length(1, 100), metadata={"description": "only this docs version"})


class UserPreferencesSchema(Schema):
    level = fields.String(validate=validate.OneOf(["beginner", "advanced"]))
    answer_length = fields.String(validate=validate.OneOf(["short", "normal", "detailed"]))


class QueryMetadataSchema(Schema):
    page_url = fields.String(validate=validate.Length(max=2000))
    page_title = fields.String(validate=validate.Length(max=500))
    client_time = fields.String(validate=validate.Length(max=64))
    locale = fields.String(validate=validate.Length(1, 35),
                           metadata={"description": "the page's locale; answers cite pages of this locale first"})
    docs_version = fields.String(validate=validate.Length(1, 100),
                                 metadata={"description": "the page's docs version; answers cite it first"})


class QuizAnswerSchema(Schema):
    quiz_id = fields.String(required=True, validate=validate.Length(1, 64),
                            metadata={"description": "the `quiz.id` of the answer that posed the quiz"})
    item = fields.Integer(required=True, strict=True, validate=validate.Range(1, 200),
                          metadata={"description": "the item's `n`"})


class QuerySchema(Schema):
    """POST /chat request."""

    question = Trimmed(required=True, validate=validate.Length(1, MAX_QUESTION), metadata={
        "pattern": NOT_ONLY_WHITESPACE, "description": "trimmed; at least one character that is not white space"})
    selected_text = Trimmed(validate=validate.Length(max=MAX_SELECTION), allow_none=True, metadata={
        "description": "the highlighted passage, trimmed; white space alone counts as no selection"})
    selection_mode = fields.String(load_default="exclusive", validate=validate.OneOf(SELECTION_MODES))
    selected_code_language = fields.String(validate=validate.Regexp(r"^[A-Za-z0-9#+._-]{1,40}$"), allow_none=True,
                                           metadata={"description": "the highlighted code's block language (`python`)"})
    session_id = fields.String(validate=validate.Length(1, 64), allow_none=True)
    max_chunks = fields.Integer(strict=True, validate=validate.Range(1, 10))
    similarity_threshold = fields.Float(validate=validate.Range(0.0, 1.0))
    filters = fields.Nested(FiltersSchema)
    user_preferences = fields.Nested(UserPreferencesSchema)
    metadata = fields.Nested(QueryMetadataSchema)
    quiz_answer = fields.Nested(QuizAnswerSchema, metadata={
        "description": "The student's answer (`question`: a choice's letter or words, or a short answer) to one "
                       "item of a quiz given in the conversation `session_id`; the reply's `feedback` says whether it is "
                       "right (a quiz the conversation does not hold is refused)."})
    tutor = fields.Boolean(metadata={
        "description": "Hints first: the reply is a hint (`status: \"hint\"`) that says where to read and asks a "
                       "guiding question; \"another hint\" narrows it, \"show me the answer\" gives the answer."})

    @pre_load
    def _question_type(self, data, **kwargs):
        if not isinstance(data, dict):
            raise ValidationError("The request body must be a JSON object.", "_schema")
        return data


class CitationSchema(Schema):
    text = fields.String(required=True)
    source = fields.String(required=True)
    url = fields.String()


class ChunkSchema(Schema):
    chunk_id = fields.String(required=True)
    content = fields.String(required=True, validate=validate.Length(min=1))
    content_hash = fields.String()
    book_id = fields.String()
    book_title = fields.String()
    source_file = fields.String()
    url = fields.String()
    module = fields.String()
    chapter = fields.String()
    section = fields.String()
    heading = fields.String()
    section_hierarchy = fields.List(fields.String())
    page = fields.Integer()
    source_location = fields.String()
    citation = fields.String()
    labels = fields.List(fields.String(), metadata={"description": "breadcrumbs, ending with the page's own label"})
    locale = fields.String()
    version = fields.String()
    score = _Score(required=True)
    created_at = fields.String()
    updated_at = fields.String()


# a chunk's fields no API response shows: hashes, the text the model embedded, index bookkeeping
_INTERNAL = frozenset({"embed_text", "file_hash", "token_count", "path_prefixes", "page_key", "position"})


def _shown(piece) -> dict:
    """The fields a response shows of a source: a book chunk's own, or those a piece of the
    highlighted passage stands in for (it has no book, file or heading of its own)."""
    if isinstance(piece, HighlightedPassage):
        return {"chunk_id": piece.chunk_id, "content": piece.content, "url": piece.page_url,
                "chapter": piece.page_title, "heading": "Highlighted passage",
                "source_location": piece.source_location, "citation": piece.citation}
    return {name: (list(value) if isinstance(value, list) else value)
            for name, value in vars(piece).items() if name not in _INTERNAL}


class SourceSchema(ChunkSchema):
    """A Source of an answer; a list of them is numbered [1]..[n] in order."""

    source_type = fields.String(required=True, validate=validate.OneOf(SOURCE_TYPES))
    number = fields.Integer(metadata={"description": "the n of [n] markers in the answer"})

    @pre_dump(pass_collection=True)
    def _flatten(self, sources, many, **kwargs):
        """Sources are numbered by their place in the list they are dumped in."""
        items = sources if many else [sources]
        flat = [{**_shown(s.chunk), "score": s.score, "source_type": s.source_type, "number": n}
                for n, s in enumerate(items, 1)]
        return flat if many else flat[0]


class SelectedTextChunkSchema(Schema):
    content = fields.String(required=True, attribute="chunk.content")
    similarity_score = _Score(attribute="score")


class DatabaseChunkSchema(Schema):
    content = fields.String(required=True, attribute="chunk.content")
    score = _Score()
    source = fields.String(attribute="chunk.source_location")


class CombinedContextSchema(Schema):
    content = fields.String(required=True, attribute="chunk.content")
    score = _Score()
    source_type = fields.String(validate=validate.OneOf(SOURCE_TYPES))
    source = fields.Function(lambda s: s.chunk.source_location or "highlighted passage", deserialize=str)


class QueryContextSchema(Schema):
    """The highlighted passage's pieces, the book's chunks, and both ranked together."""

    selected_text_chunks = fields.List(fields.Nested(SelectedTextChunkSchema), attribute="selected")
    database_chunks = fields.List(fields.Nested(DatabaseChunkSchema), attribute="database")
    combined_context = fields.List(fields.Nested(CombinedContextSchema), attribute="combined")


class UsageSchema(Schema):
    prompt_tokens = fields.Integer(allow_none=True)
    output_tokens = fields.Integer(allow_none=True)
    total_tokens = fields.Integer(allow_none=True)


class ChatResponseSchema(Schema):
    """An Answer, as JSON and as the SSE `done` event."""

    query_id = fields.String(required=True)
    session_id = fields.String(required=True)
    assistant_message_id = fields.String()
    query = fields.String(required=True, attribute="question")
    status = fields.String(required=True, validate=validate.OneOf(["completed", "refused", "hint"]), metadata={
        "description": "completed, refused, or hint (tutor mode: where to read and a guiding question, no answer)"})
    answer = fields.String(required=True, validate=validate.Length(min=1), attribute="text")
    sources = fields.Nested(SourceSchema, many=True, required=True)
    references = fields.List(fields.String())
    citations = fields.List(fields.Nested(CitationSchema))
    confidence = _Score(required=True)
    timestamp = UtcTime(required=True)
    mode = fields.Enum(AnswerMode, by_value=True)
    generator = fields.String()
    fallback_reason = fields.String(allow_none=True)
    usage = fields.Nested(UsageSchema, allow_none=True)
    context = fields.Nested(QueryContextSchema)
    intent = fields.String(allow_none=True, metadata={
        "description": "What the reader asked of the highlighted passage: explain, summarize, simplify, example, "
                       "define, jargon, language or code (of highlighted code), or question; null without one."})
    corrections = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "Misspelt words of the question and the book's words that were searched for instead."})
    session_secret = fields.String(metadata={
        "description": "Only when this reply started the conversation: the secret every later request about "
                       "it must send (`Authorization: Bearer <session_secret>`). Keep it; it is not shown again."})
    offer_book_search = fields.Boolean(metadata={
        "description": "The highlighted passage does not answer the question: offer to search the whole book."})
    course = fields.Dict(allow_none=True, metadata={
        "description": "A question about the book as a course: its task (overview, summarize, contents, locate, "
                       "order, objectives, quiz, answers), scope (book, part, page), the page and the part."})
    quiz = fields.Dict(metadata={
        "description": "Only in an answer that posed a quiz (\"quiz me …\"): {id, page, items: [{n, question, "
                       "choices, kind: choice | short}]}, without its answers; answer an item with `quiz_answer` "
                       "{quiz_id: id, item: n}."})
    feedback = fields.Dict(metadata={
        "description": "Only in an answer to `quiz_answer`: the check of the student's answer to a quiz item, "
                       "{item, verdict: correct | partly | incorrect, expected: the book's answer}."})
    cited_sources = fields.Method("_cited_sources", "_numbers", metadata={
        "description": "The numbers of the sources the answer cites with [n] markers, in the order it first cites "
                       "them: what the answer used (the other sources were retrieved but not quoted)."})

    @post_dump
    def _practice_when_practised(self, data, **kwargs):
        """`quiz` and `feedback` only in the answers that have one (other answers stay as they were)."""
        for name in ("quiz", "feedback"):
            if data.get(name) is None:
                data.pop(name, None)
        return data

    def _cited_sources(self, answer) -> list[int]:
        return [n for n in markers.cited_in_order(answer.text) if n <= len(answer.sources)]

    def _numbers(self, value) -> list[int]:  # a response read back: source numbers from 1
        if not isinstance(value, list) or not all(type(n) is int and n >= 1 for n in value):
            raise ValidationError("a list of source numbers (1, 2, …)")
        return value

    @validates_schema
    def _rules(self, data, **kwargs):
        if data.get("status") == "completed" and not data.get("sources"):
            raise ValidationError("a completed answer cites at least one source", "sources")
        if data.get("confidence", 0) > 0.5 and not data.get("sources"):
            raise ValidationError("at least one source is required when confidence > 0.5", "sources")


class HealthSchema(Schema):
    status = fields.String()
    failing = fields.List(fields.String(), metadata={"description": "The parts that do not answer: store, database, rate_limit_storage"})
    store = fields.Dict()
    database = fields.Dict()
    index_size = fields.Integer()
    books = fields.List(fields.String())
    embedding_model = fields.String()
    generator = fields.String()
    version = fields.String()


class SourcesEventSchema(Schema):
    """The SSE `meta` event: the sources an answer will cite, before its text; sent again, renumbered,
    when the order the answer first cites them in moves them (`[n]` cites the n-th of the latest)."""

    query_id = fields.String(required=True)
    session_id = fields.String(required=True)
    sources = fields.Nested(SourceSchema, many=True, required=True)
    session_secret = fields.String(metadata={
        "description": "Only when this reply started the conversation: the secret every later request about "
                       "it must send (`Authorization: Bearer <session_secret>`). Keep it; it is not shown again."})


class ErrorResponseSchema(Schema):
    """Every error: a sentence for people, a code for programs, and what it concerns."""

    error = fields.String(required=True)
    code = fields.String(required=True, validate=validate.OneOf(list(STATUS)))
    details = fields.Dict(required=True, metadata={
        "description": "what the error concerns, e.g. the invalid fields and why; empty when nothing more is known"})
