"""Published copies of an embedded index, and each reading process's own replica of one.

A Qdrant Edge shard can be open in one process only (its write-ahead log is locked), and a
shard opened before fork() does not work in the child. So the process that writes (ingest)
keeps the shard in `writer/`, and publishes a copy of it as a numbered generation under
`published/` when it has finished; `published/CURRENT` names the newest. Every process that
serves reads from a replica: its own copy of a generation under `replicas/`, opened after any
fork, and replaced when a newer generation is published. Readers therefore never see an ingest
half done, and an ingest can run while the server answers.

A generation is read only while a replica (or a backup) copies it, under a shared lock on
`published/.<name>.lock`; a publication removes every older generation nobody is copying.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; the previous generation is kept for a reader copying it
    fcntl = None

RECORD = "collection.json"  # the embedding model and vector size the chunks were made with
OUTLINES = "outlines"  # each book's outline (server/book/outline.py), published with the chunks
_READERS = itertools.count(1)  # stores in one process over one folder (a command run inside a server) keep apart


class Layout:
    def __init__(self, root: Path):
        self.root = root
        self.writer = root / "writer"
        self.published = root / "published"
        self.replicas = root / "replicas"
        self.reader = next(_READERS)

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

    def marker(self) -> tuple[int, int, int] | None:
        """What `published/CURRENT` is now, by one stat() (no open, no read): every publication
        (and a restore) replaces the file, so this changes with each. None before the first."""
        try:
            found = os.stat(self.published / "CURRENT")
        except FileNotFoundError:
            return None
        return found.st_ino, found.st_mtime_ns, found.st_size

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
        self.sweep_generations()
        return self.published / name

    def generations(self) -> list[Path]:
        return sorted(p for p in self.published.glob("g[0-9]*") if p.is_dir())

    @contextmanager
    def reading(self) -> Iterator[Path | None]:
        """The newest generation, kept from removal while the caller copies it."""
        for _ in range(5):  # a publication may remove the one named between reading CURRENT and locking
            generation = self.current()
            if generation is None:
                break
            with self._lock(generation, shared=True):
                if generation.is_dir():
                    yield generation
                    return
        yield None

    def sweep_generations(self) -> None:
        """Remove the generations older than the current one that no process is copying."""
        current = self.current()
        older = [g for g in self.generations() if current is not None and g.name < current.name]
        if fcntl is None:
            older = older[:-1]
        for generation in older:
            lock = self._lock_file(generation)
            with open(lock, "a") as handle:
                try:
                    if fcntl is not None:
                        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue  # a reader is copying it: the next publication removes it
                shutil.rmtree(generation, ignore_errors=True)
                lock.unlink(missing_ok=True)
        for staging in self.published.glob(".g[0-9]*.*"):  # a publication that was killed
            pid = staging.name.rsplit(".", 1)[-1]
            if staging.is_dir() and pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(staging, ignore_errors=True)
            elif pid == "lock" and not (self.published / staging.name[1:-len(".lock")]).exists():
                staging.unlink(missing_ok=True)  # of a generation gone (a reader came too late)

    @staticmethod
    def _lock_file(generation: Path) -> Path:
        return generation.parent / f".{generation.name}.lock"

    @contextmanager
    def _lock(self, generation: Path, *, shared: bool) -> Iterator[None]:
        if fcntl is None:
            yield
            return
        with open(self._lock_file(generation), "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
            yield

    # --- replicas -------------------------------------------------------------------------
    def make_replica(self, generation: Path) -> Path:
        """This process's own copy of a published generation (the newest, if `generation` has
        been removed since it was named)."""
        self.replicas.mkdir(parents=True, exist_ok=True)
        self.sweep_replicas()
        with self._lock(generation, shared=True):
            if generation.is_dir():
                return self._copy_replica(generation)
        with self.reading() as newest:
            if newest is None:
                raise FileNotFoundError(f"no published generation in {self.published}")
            return self._copy_replica(newest)

    def _copy_replica(self, generation: Path) -> Path:
        target = self.replicas / replica_name(os.getpid(), generation.name, self.reader)
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
            owner = replica_owner(folder.name)
            if owner is not None and not _alive(owner[0]):
                shutil.rmtree(folder, ignore_errors=True)


def replica_name(pid: int, generation: str, reader: int) -> str:
    return f"{pid}-{generation}-{reader}"


def replica_owner(name: str) -> tuple[int, str] | None:
    """The process and generation of a replica folder's name (None for anything else)."""
    parts = name.lstrip(".").split("-")
    return (int(parts[0]), parts[1]) if len(parts) == 3 and parts[0].isdigit() else None


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
