"""A session is bound to its reader by a secret (only its hash is kept); sessions from before
have none until their reader claims one. One rating per answer: the latest one a reader gave
is kept, the others removed.

Revision ID: 0006
Revises: 0005
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat_sessions") as sessions:
        sessions.add_column(sa.Column("secret_hash", sa.String(64)))
    feedback = sa.table("feedback", sa.column("id"), sa.column("message_id"), sa.column("created_at"))
    newer = sa.table("feedback", sa.column("id"), sa.column("message_id"), sa.column("created_at")).alias("newer")
    # a rating with a later one of the same answer goes (ties: the larger id stays)
    later = sa.select(newer.c.id).where(
        (newer.c.message_id == feedback.c.message_id)
        & ((newer.c.created_at > feedback.c.created_at)
           | ((newer.c.created_at == feedback.c.created_at) & (newer.c.id > feedback.c.id))))
    op.execute(feedback.delete().where(sa.exists(later)))
    op.drop_index("ix_feedback_message_id", "feedback")
    op.create_index("uq_feedback_message_id", "feedback", ["message_id"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_feedback_message_id", "feedback")
    op.create_index("ix_feedback_message_id", "feedback", ["message_id"])
    with op.batch_alter_table("chat_sessions") as sessions:
        sessions.drop_column("secret_hash")
