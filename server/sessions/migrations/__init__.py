"""Alembic migrations of the sessions database (applied by server.sessions.migrate)."""
