"""Alembic's entry point for the sessions database: runs on the connection that
`server.sessions.migrate` hands over (or, from the `alembic` command line, on `sqlalchemy.url`)."""
from alembic import context
from sqlalchemy import create_engine

from server.sessions.schema import metadata

config = context.config
connection = config.attributes.get("connection")


def _run(conn) -> None:
    # batch mode: SQLite changes a table by copying it, which Alembic does for us
    context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if connection is not None:
    _run(connection)
else:
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    with create_engine(url).connect() as conn:
        _run(conn)
        conn.commit()
