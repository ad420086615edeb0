"""What the data folder holds: each part with its size on disk, the index's generations and
replicas, the books, the embedding model and the sessions database."""
from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import func, inspect, select

from server.embedding.provision import is_provisioned, safe_name
from server.embedding.e5 import packaged
from server.store import model_in_use
from server.settings import Settings
from server.store.snapshots import Layout, _alive, replica_owner

PARTS = {  # entry of the data folder -> what it is (README "The data folder")
    "index": "the book index (Qdrant Edge)",
    "sessions.db": "the sessions database (SQLite)",
    "sessions.db-wal": "the database's write-ahead log",
    "sessions.db-shm": "the database's shared-memory index",
    "sessions.db.write-lock": "taken by the processes that write to the database",
    "models": "the embedding model, its build log and lock",
    "eval": "private indexes of `textbook-chat eval`",
    "qdrant": "the previous store's index (moved into index/ on first use)",
}


def disk_size(path: Path) -> int:
    """Bytes on disk (the index's files are sparse: their length says little)."""
    if not path.exists():
        return 0
    if path.is_file() or path.is_symlink():
        return path.lstat().st_blocks * 512
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_blocks * 512
            except FileNotFoundError:  # removed while counted (a replica replaced)
                pass
    return total


def human(size: int) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{size:.1f} GB"


def index_state(settings: Settings) -> dict:
    layout = Layout(settings.index_path / settings.collection)
    current = layout.current()
    replicas = []
    for folder in sorted(layout.replicas.glob("[0-9]*-g*")):
        owner = replica_owner(folder.name)
        if owner is None:
            continue
        pid, generation = owner
        replicas.append({"process": pid, "generation": generation, "running": _alive(pid),
                         "bytes": disk_size(folder)})
    return {
        "folder": str(layout.root.resolve()),
        "writer_bytes": disk_size(layout.writer),
        "published_bytes": disk_size(layout.published),
        "generations": [g.name for g in layout.generations()],
        "current": current.name if current else None,
        "replicas": replicas,
        "record": Layout.read_record(current) if current else Layout.read_record(layout.writer),
    }


def model_state(settings: Settings) -> dict:
    model = model_in_use(settings)
    folder = packaged(model) or settings.model_dir_root / safe_name(model)
    return {"name": model, "folder": str(folder.resolve()),
            "provisioned": packaged(model) is not None or is_provisioned(folder, model), "bytes": disk_size(folder)}


def database_state(settings: Settings) -> dict:
    """The database's address, schema and contents, read without changing it (no migration)."""
    from server.sessions.database import describe, make_engine, parse_url, sqlite_file
    from server.sessions.migrate import current, head
    from server.sessions.schema import messages_table, sessions_table

    url = parse_url(settings.sqlalchemy_url)
    state: dict = {"url": describe(url), "kind": url.get_backend_name(), "schema_expected": head()}
    file = sqlite_file(url)
    if file is not None and not file.is_file():
        state["problem"] = "not created yet (`serve` or `migrate` creates it)"
        return state
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            state["schema"] = current(conn)
            if inspect(conn).has_table(sessions_table.name):
                state["sessions"] = conn.execute(select(func.count()).select_from(sessions_table)).scalar()
                state["messages"] = conn.execute(select(func.count()).select_from(messages_table)).scalar()
    except Exception as exc:  # a database that does not answer is part of the status, not its end
        state["problem"] = str(exc).splitlines()[0]
    finally:
        engine.dispose()
    return state


def data_folder_state(settings: Settings) -> dict:
    data = settings.data_dir
    parts = []
    if data.is_dir():
        for entry in sorted(data.iterdir()):
            parts.append({"name": entry.name + ("/" if entry.is_dir() else ""), "bytes": disk_size(entry),
                          "what": PARTS.get(entry.name, "not made by textbook chat")})
    return {"folder": str(data.resolve()), "bytes": sum(p["bytes"] for p in parts), "parts": parts}
