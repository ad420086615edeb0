"""Backing up and restoring a data folder, safe while `serve` and `ingest` run.

A backup holds the newest published index generation (copied under the readers' lock, so a
publication cannot remove it midway), the SQLite sessions database copied with SQLite's online
backup API (a consistent copy while the server writes), optionally the embedding model, and
`backup.json` saying what is inside. PostgreSQL sessions and a Qdrant server's index are backed
up with their own tools (pg_dump, Qdrant snapshots): the backup says so.
"""
from __future__ import annotations

import json
import shutil
import sqlite3
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Callable

from server.embedding.e5 import packaged
from server.embedding.provision import is_provisioned, safe_name
from server.settings import Settings
from server.store import model_in_use
from server.store.snapshots import Layout, _copy

MANIFEST = "backup.json"
FORMAT = 1

Log = Callable[[str], None]


class BackupError(Exception):
    """A backup or restore that cannot be done: one line saying why and what to do."""


def _sqlite_file(settings: Settings) -> Path | None:
    from server.sessions.database import parse_url, sqlite_file

    return sqlite_file(parse_url(settings.sqlalchemy_url))


def _copy_database(source: Path, target: Path) -> None:
    """SQLite's online backup: a consistent copy even while other connections write."""
    src = sqlite3.connect(source, timeout=30)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


def _version() -> str:
    try:
        return version("textbook-chat")
    except PackageNotFoundError:
        return "unknown"


def backup(settings: Settings, target: Path, *, with_model: bool = False, log: Log = print) -> dict:
    if target.exists() and any(target.iterdir()):
        raise BackupError(f"{target} is not empty: give a new folder for the backup")
    target.mkdir(parents=True, exist_ok=True)
    manifest: dict = {"format": FORMAT, "textbook_chat": _version(),
                      "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                      "collection": settings.collection, "index": None, "sessions": None, "model": None}
    if settings.qdrant_url:
        log(f"index: on the Qdrant server at {settings.qdrant_url}, not copied: use Qdrant's snapshots")
    else:
        layout = Layout(settings.index_path / settings.collection)
        with layout.reading() as generation:
            if generation is None:
                log("index: nothing published yet, not copied")
            else:
                published = target / "index" / settings.collection / "published"
                _copy(generation, published / generation.name)
                (published / "CURRENT").write_text(generation.name)
                manifest["index"] = {"generation": generation.name, "record": Layout.read_record(generation)}
                log(f"index: generation {generation.name} copied")
    database = _sqlite_file(settings)
    if database is None:
        log(f"sessions: in {settings.sqlalchemy_url.split('://', 1)[0]}, not copied: back them up with pg_dump")
    elif not database.is_file():
        log(f"sessions: {database} does not exist yet, nothing to copy")
    else:
        _copy_database(database, target / "sessions.db")
        manifest["sessions"] = {"file": "sessions.db"}
        log(f"sessions: {database} copied")
    model = model_in_use(settings)
    if with_model and packaged(model) is not None:
        log(f"model: {model} ships in its package, nothing to copy")
    elif with_model:
        folder = settings.model_dir_root / safe_name(model)
        if not is_provisioned(folder, model):
            raise BackupError(f"the model {model} is not in {folder}: run `textbook-chat model`")
        shutil.copytree(folder, target / "models" / folder.name)
        manifest["model"] = {"name": model, "folder": f"models/{folder.name}"}
        log(f"model: {model} copied")
    (target / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def restore(settings: Settings, source: Path, *, log: Log = print) -> dict:
    """Into a data folder that holds no index and no sessions yet (never over live data)."""
    try:
        manifest = json.loads((source / MANIFEST).read_text())
    except (OSError, ValueError):
        raise BackupError(f"{source}: not a backup made by `textbook-chat backup` (no readable {MANIFEST})") from None
    index = settings.index_path / settings.collection
    database = _sqlite_file(settings)
    there = [str(p) for p in (index, database) if p is not None and p.exists()]
    if there:
        raise BackupError(f"{' and '.join(there)} already exist: restore into an empty data folder "
                          "(TEXTBOOK_CHAT_DATA_DIR) and start the server on it")
    if manifest.get("index"):
        if settings.qdrant_url:
            raise BackupError("QDRANT_URL is set: the index in this backup is for the embedded store; unset it")
        _copy(source / "index" / manifest["collection"] / "published", index / "published")
        log(f"index: generation {manifest['index']['generation']} restored into {index}")
    if manifest.get("sessions"):
        if database is None:
            raise BackupError("DATABASE_URL names PostgreSQL: the sessions in this backup are a SQLite file; "
                              "unset DATABASE_URL to restore them")
        database.parent.mkdir(parents=True, exist_ok=True)
        _copy_database(source / manifest["sessions"]["file"], database)
        log(f"sessions: restored into {database}")
    if manifest.get("model"):
        folder = settings.model_dir_root / Path(manifest["model"]["folder"]).name
        if not is_provisioned(folder, manifest["model"]["name"]):
            shutil.rmtree(folder, ignore_errors=True)
            shutil.copytree(source / manifest["model"]["folder"], folder)
            log(f"model: {manifest['model']['name']} restored into {folder}")
    return manifest
