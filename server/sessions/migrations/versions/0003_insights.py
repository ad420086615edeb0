"""What the author's insights read: each question's book, page, highlighted passage, outcome and
(for a question the book did not answer) its vector and nearest sections; the pages and sections
each answer cited; indexes for reading them by time. Questions kept from before are given the
outcome and citations their state and answer tell, and the personal details in what readers
wrote are masked as new ones are.

Revision ID: 0003
Revises: 0002
"""
import sqlalchemy as sa
from alembic import op

from server.text.privacy import mask

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_BATCH = 1000


def upgrade() -> None:
    with op.batch_alter_table("queries") as queries:
        queries.add_column(sa.Column("book_id", sa.String(200)))
        queries.add_column(sa.Column("page_url", sa.String(2000)))
        queries.add_column(sa.Column("page_title", sa.String(500)))
        queries.add_column(sa.Column("passage_fingerprint", sa.String(32)))
        queries.add_column(sa.Column("passage_section", sa.String(500)))
        queries.add_column(sa.Column("passage_url", sa.String(4000)))
        queries.add_column(sa.Column("outcome", sa.String(16)))
        queries.add_column(sa.Column("gap_vector", sa.LargeBinary))
        queries.add_column(sa.Column("nearest", sa.JSON))
    op.create_index("ix_queries_page_url", "queries", ["page_url"])
    op.create_index("ix_queries_passage_fingerprint", "queries", ["passage_fingerprint"])
    op.create_index("ix_queries_outcome", "queries", ["outcome"])
    op.create_index("ix_queries_created_at", "queries", ["created_at"])
    op.create_index("ix_feedback_message_id", "feedback", ["message_id"])
    op.create_table(
        "citations",
        sa.Column("query_id", sa.String(64), sa.ForeignKey("queries.id", ondelete="CASCADE"), nullable=False),
        sa.Column("page_url", sa.String(2000), nullable=False),
        sa.Column("section", sa.String(500)),
        sa.Column("section_url", sa.String(2000)),
    )
    op.create_index("ix_citations_query_id", "citations", ["query_id"])
    op.create_index("ix_citations_page_url", "citations", ["page_url"])
    _backfill(op.get_bind())


def _backfill(conn) -> None:
    conn.execute(sa.text(
        "UPDATE queries SET outcome = CASE WHEN state = 'COMPLETED' THEN 'answered' "
        "WHEN state = 'REFUSED' AND selected_text IS NOT NULL AND selection_mode = 'exclusive' THEN 'declined' "
        "WHEN state = 'REFUSED' THEN 'refused' END"))
    conn.execute(sa.text("UPDATE queries SET book_id = (SELECT book_id FROM chat_sessions "
                         "WHERE chat_sessions.id = queries.session_id)"))
    messages = sa.table("chat_messages", sa.column("id"), sa.column("role"), sa.column("content"),
                        sa.column("query_id"), sa.column("source_references", sa.JSON))
    queries = sa.table("queries", sa.column("id"), sa.column("question"))
    feedback = sa.table("feedback", sa.column("id"), sa.column("comment"))
    citations = sa.table("citations", sa.column("query_id"), sa.column("page_url"), sa.column("section"),
                         sa.column("section_url"))
    for row in conn.execute(sa.select(queries.c.id, queries.c.question)).all():
        if mask(row.question) != row.question:
            conn.execute(queries.update().where(queries.c.id == row.id).values(question=mask(row.question)))
    for row in conn.execute(sa.select(feedback.c.id, feedback.c.comment).where(feedback.c.comment.isnot(None))).all():
        if mask(row.comment) != row.comment:
            conn.execute(feedback.update().where(feedback.c.id == row.id).values(comment=mask(row.comment)))
    cited = []
    for row in conn.execute(sa.select(messages.c.id, messages.c.role, messages.c.content, messages.c.query_id,
                                      messages.c.source_references)).all():
        if row.role == "user" and mask(row.content) != row.content:
            conn.execute(messages.update().where(messages.c.id == row.id).values(content=mask(row.content)))
        if row.role != "assistant" or not row.query_id:
            continue
        for ref in row.source_references or []:
            url = (ref or {}).get("url") or ""
            if url and (ref.get("source_file") or "") != "":  # a highlighted passage is no page of the book
                cited.append({"query_id": row.query_id, "page_url": url.split("#", 1)[0],
                              "section": ref.get("source_location"), "section_url": url})
        if len(cited) >= _BATCH:
            conn.execute(citations.insert(), cited)
            cited = []
    if cited:
        conn.execute(citations.insert(), cited)


def downgrade() -> None:
    op.drop_table("citations")
    op.drop_index("ix_feedback_message_id", "feedback")
    for index in ("ix_queries_created_at", "ix_queries_outcome", "ix_queries_passage_fingerprint", "ix_queries_page_url"):
        op.drop_index(index, "queries")
    with op.batch_alter_table("queries") as queries:
        for column in ("nearest", "gap_vector", "outcome", "passage_url", "passage_section", "passage_fingerprint",
                       "page_title", "page_url", "book_id"):
            queries.drop_column(column)
