"""Practice: an assistant message keeps what it practised (the quiz it posed, answers included;
the feedback it gave; the hint), so that any server continues a quiz; and one row per answered
quiz item or hint, for the author's insights (the items students miss, the hints they ask).

Revision ID: 0007
Revises: 0006
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat_messages") as messages:
        messages.add_column(sa.Column("practice", sa.JSON))
    op.create_table(
        "practised",
        sa.Column("query_id", sa.String(64), sa.ForeignKey("queries.id", ondelete="CASCADE"), nullable=False),
        sa.Column("book_id", sa.String(200)),
        sa.Column("page_url", sa.String(2000)),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("item", sa.Text, nullable=False),
        sa.Column("verdict", sa.String(16)),
        sa.Column("section", sa.String(500)),
        sa.Column("section_url", sa.String(2000)),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_practised_query_id", "practised", ["query_id"])
    op.create_index("ix_practised_page", "practised", ["page_url", "kind", "created_at", "book_id"])


def downgrade() -> None:
    op.drop_index("ix_practised_page", "practised")
    op.drop_index("ix_practised_query_id", "practised")
    op.drop_table("practised")
    with op.batch_alter_table("chat_messages") as messages:
        messages.drop_column("practice")
