"""The conversation's schemas: a session with its messages and the sources its answers cited,
a session's secret claimed, and a reader's rating of an answer (the sessions store's records)."""
from __future__ import annotations

from marshmallow import Schema, fields, post_dump, validate

from server.api.schemas import UtcTime
from server.question.practice import Practice


class SourceReferenceSchema(Schema):
    source_file = fields.String()
    source_location = fields.String()
    content_snippet = fields.String()
    confidence = fields.Float(validate=validate.Range(0.0, 1.0))
    retrieved_content_id = fields.String()
    url = fields.String()

    @post_dump
    def _known(self, data, **kwargs):
        """A conversation kept by an older version shows the fields it kept."""
        return {name: value for name, value in data.items() if value is not None}


class ChatMessageSchema(Schema):
    id = fields.String(required=True)
    role = fields.String(required=True, validate=validate.OneOf(["user", "assistant"]))
    content = fields.String(required=True)
    timestamp = UtcTime(required=True)
    query_id = fields.String(allow_none=True)
    status = fields.String(allow_none=True)
    source_references = fields.List(fields.Nested(SourceReferenceSchema))
    quiz = fields.Method("_quiz", metadata={"description": "A quiz this answer posed, without its answers"})
    feedback = fields.Method("_feedback", metadata={"description": "The check of a student's answer it gave"})

    def _quiz(self, message) -> dict | None:
        kept = Practice.from_stored(getattr(message, "practice", None))
        return kept.quiz.shown(message.id) if kept is not None and kept.quiz is not None else None

    def _feedback(self, message) -> dict | None:
        kept = Practice.from_stored(getattr(message, "practice", None))
        return kept.feedback.shown() if kept is not None and kept.feedback is not None else None


class ChatSessionSchema(Schema):
    id = fields.String(dump_only=True)
    user_id = fields.String(allow_none=True, validate=validate.Length(max=200))
    book_id = fields.String(allow_none=True, validate=validate.Length(max=200))
    created_at = UtcTime(dump_only=True)
    updated_at = UtcTime(dump_only=True)
    messages = fields.List(fields.Nested(ChatMessageSchema), dump_only=True)
    session_secret = fields.String(dump_only=True, metadata={
        "description": "Only when this reply started the conversation: the secret every later request about "
                       "it must send (`Authorization: Bearer <session_secret>`). Keep it; it is not shown again."})


class SessionSecretSchema(Schema):
    """The secret claimed for a conversation started before conversations had secrets."""

    session_id = fields.String(required=True)
    session_secret = fields.String(required=True)


class FeedbackSchema(Schema):
    message_id = fields.String(required=True, validate=validate.Length(1, 64))
    rating = fields.String(required=True, validate=validate.OneOf(["up", "down"]))
    comment = fields.String(validate=validate.Length(max=2000), allow_none=True)


class FeedbackResultSchema(Schema):
    id = fields.String()
    message_id = fields.String()
    rating = fields.String()
    comment = fields.String(allow_none=True)
    created_at = UtcTime()
