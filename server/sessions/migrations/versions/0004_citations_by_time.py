"""Citations carry their question's book and time, so the insights count a page's citations for
a book and a period without joining every citation to its question; one index serves counting
the questions that cited each page. The questions' counts by page, outcome and day are read from
one covering index instead of the table (whose rows hold texts and vectors).

Revision ID: 0004
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("citations") as citations:
        citations.add_column(sa.Column("book_id", sa.String(200)))
        citations.add_column(sa.Column("created_at", sa.DateTime(timezone=True)))
    op.execute("UPDATE citations SET book_id = (SELECT book_id FROM queries WHERE queries.id = citations.query_id), "
               "created_at = (SELECT created_at FROM queries WHERE queries.id = citations.query_id)")
    op.drop_index("ix_citations_page_url", "citations")
    op.create_index("ix_citations_page_url_query_id", "citations", ["page_url", "query_id"])
    op.create_index("ix_citations_created_at", "citations", ["created_at"])
    op.drop_index("ix_queries_page_url", "queries")
    op.create_index("ix_queries_counts", "queries", ["page_url", "page_title", "outcome", "created_at", "book_id"])


def downgrade() -> None:
    op.drop_index("ix_queries_counts", "queries")
    op.create_index("ix_queries_page_url", "queries", ["page_url"])
    op.drop_index("ix_citations_created_at", "citations")
    op.drop_index("ix_citations_page_url_query_id", "citations")
    op.create_index("ix_citations_page_url", "citations", ["page_url"])
    with op.batch_alter_table("citations") as citations:
        citations.drop_column("created_at")
        citations.drop_column("book_id")
