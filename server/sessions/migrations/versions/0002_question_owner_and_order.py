"""Which server answers a question (so that one starting up marks only its own unfinished
questions INTERRUPTED), unfinished questions found by state, and one message per place in a
conversation's order.

Revision ID: 0002
Revises: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("queries") as queries:
        queries.add_column(sa.Column("server", sa.String(300)))
    op.create_index("ix_queries_state", "queries", ["state"])
    op.create_index("uq_chat_messages_session_seq", "chat_messages", ["session_id", "seq"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_chat_messages_session_seq", "chat_messages")
    op.drop_index("ix_queries_state", "queries")
    with op.batch_alter_table("queries") as queries:
        queries.drop_column("server")
