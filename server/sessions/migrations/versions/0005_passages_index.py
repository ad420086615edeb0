"""The most highlighted passages are counted from one covering index (passage, time, book)
instead of the questions' rows, and the index by time covers the counts of a period (page,
outcome, book) as the counts' own index covers everything kept.

Revision ID: 0005
Revises: 0004
"""
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_queries_passage_fingerprint", "queries")
    op.create_index("ix_queries_passages", "queries", ["passage_fingerprint", "created_at", "book_id"])
    op.drop_index("ix_queries_created_at", "queries")
    op.create_index("ix_queries_created_at", "queries", ["created_at", "page_url", "page_title", "outcome", "book_id"])


def downgrade() -> None:
    op.drop_index("ix_queries_created_at", "queries")
    op.create_index("ix_queries_created_at", "queries", ["created_at"])
    op.drop_index("ix_queries_passages", "queries")
    op.create_index("ix_queries_passage_fingerprint", "queries", ["passage_fingerprint"])
