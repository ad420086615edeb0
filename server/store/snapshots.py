"""Published copies of an embedded index, and each reading process's own replica of one.

A Qdrant Edge shard can be open in one process only (its write-ahead log is locked), and a
shard opened before fork() does not work in the child. So the process that writes (ingest)
keeps the shard in `writer/`, and publishes a copy of it as a numbered generation under
`published/` when it has finished; `published/CURRENT` names the newest. Every process that
serves reads from a replica: its own copy of a generation under `replicas/`, opened after any
fork, and replaced when a newer generation is published. Readers therefore never see an ingest
half done, and an ingest can run while the server answers.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

KEEP_GENERATIONS = 2  # a reader copying the previous one while a new one is published still finds it
RECORD = "collection.json"  # the embedding model and vector size the chunks were made with
OUTLINES = "outlines"  # each book's outline (course/outline.py), published with the chunks


class Layout:
    def __init__(self, root: Path):
        self.root = root
        self.writer = root / "writer"
        self.published = root / "published"
        self.replicas = root / "replicas"

    @property
    def writer_shard(self) -> Path:
        return self.writer / "shard"

    def has_data(self) -> bool:
        return self.writer_shard.exists() or self.current() is not None

    # --- the record -----------------------------------------------------------------------
    @staticmethod
    def read_record(folder: Path) -> dict | None:
        try:
            return json.loads((folder / RECORD).read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return None

    @staticmethod
    def write_record(folder: Path, record: dict) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{RECORD}.{os.getpid()}"
        tmp.write_text(json.dumps(record, indent=2))
        os.replace(tmp, folder / RECORD)

    # --- outlines -------------------------------------------------------------------------
    @staticmethod
    def outline_file(folder: Path, book_id: str) -> Path:
        return folder / OUTLINES / f"{hashlib.sha256(book_id.encode()).hexdigest()[:24]}.json"

    @classmethod
    def read_outline(cls, folder: Path, book_id: str) -> dict | None:
        try:
            return json.loads(cls.outline_file(folder, book_id).read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError):
            return None

    @classmethod
    def write_outline(cls, folder: Path, book_id: str, outline: dict | None) -> bool:
        """Store (or with None remove) a book's outline; False when it is already so."""
        path = cls.outline_file(folder, book_id)
        if cls.read_outline(folder, book_id) == outline:
            return False
        if outline is None:
            path.unlink(missing_ok=True)
            return True
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        tmp.write_text(json.dumps(outline, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
        return True

    # --- generations ----------------------------------------------------------------------
    def current(self) -> Path | None:
        """The newest published generation, if any."""
        try:
            name = (self.published / "CURRENT").read_text().strip()
        except FileNotFoundError:
            return None
        folder = self.published / name
        return folder if name and folder.is_dir() else None

    def publish(self, shard: Path, record: dict) -> Path:
        """Copy the (flushed, idle) writer shard as the next generation and make it current."""
        self.published.mkdir(parents=True, exist_ok=True)
        numbers = [int(p.name[1:]) for p in self.published.glob("g[0-9]*") if p.name[1:].isdigit()]
        name = f"g{max(numbers, default=0) + 1:06d}"
        staging = self.published / f".{name}.{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        _copy(shard, staging / "shard")
        if (shard.parent / OUTLINES).is_dir():
            shutil.copytree(shard.parent / OUTLINES, staging / OUTLINES)
        self.write_record(staging, record)
        os.replace(staging, self.published / name)
        tmp = self.published / f".CURRENT.{os.getpid()}"
        tmp.write_text(name)
        os.replace(tmp, self.published / "CURRENT")
        for old in sorted(self.published.glob("g[0-9]*"))[:-KEEP_GENERATIONS]:
            shutil.rmtree(old, ignore_errors=True)
        return self.published / name

    # --- replicas -------------------------------------------------------------------------
    def make_replica(self, generation: Path) -> Path:
        """This process's own copy of a published generation."""
        self.replicas.mkdir(parents=True, exist_ok=True)
        self.sweep_replicas()
        target = self.replicas / f"{os.getpid()}-{generation.name}"
        if target.exists():
            shutil.rmtree(target)
        staging = self.replicas / f".{target.name}"
        shutil.rmtree(staging, ignore_errors=True)
        _copy(generation, staging)
        os.replace(staging, target)
        return target

    def sweep_replicas(self) -> None:
        """Remove the replicas of processes that are gone (a worker that was killed)."""
        for folder in self.replicas.glob("*-g*"):
            pid = folder.name.lstrip(".").split("-", 1)[0]
            if pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(folder, ignore_errors=True)


def _copy(source: Path, target: Path) -> None:
    """Copy a folder keeping sparse files sparse: the shard's preallocated files are mostly
    holes, and a plain copy writes them out in full (20 times the disk, measured)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if sys.platform.startswith("linux"):
        done = subprocess.run(["cp", "-r", "--sparse=always", str(source), str(target)], capture_output=True)
        if done.returncode == 0:
            return
        shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
