"""pytest plugin: a throwaway PostgreSQL and Redis for the test session, started on first use.

PostgreSQL is Debian's (`make services` installs it and redis-server with apt): `initdb` into a
temporary folder (as the `postgres` user when the tests run as root, which PostgreSQL refuses
to be), one server on a free port of 127.0.0.1, and a fresh database for each test that asks.
Both are stopped and their folders removed when the session ends.

Fixtures: `postgres` (the server: `.new_database()` gives a URL), `own_postgres` (a server for
one test, which may stop it), `database_url` (parametrized: a SQLite file and a PostgreSQL
database), `redis_url`.
"""
from __future__ import annotations

import ctypes
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

INSTALL_HINT = "install it with `make services` (Debian: apt-get install postgresql redis-server)"


def _free_port() -> int:
    from processes import free_port  # below the range outgoing connections take their ports from

    return free_port()


def _wait_for_port(port: int, process: subprocess.Popen, what: str, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited at start: {log.read_text()[-2000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on port {port} within 60 s: {log.read_text()[-2000:]}")


def _die_with_parent(sig: int = signal.SIGINT) -> None:
    """In a child about to start a server: the server ends when the test run does, even a killed
    one (Linux; after any change of user, which clears the setting)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, int(sig))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _postgres_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent
    raise RuntimeError(f"PostgreSQL is not installed: {INSTALL_HINT}")


class Postgres:
    def __init__(self) -> None:
        binaries = _postgres_bin()
        self.folder = Path(tempfile.mkdtemp(prefix="textbook-chat-pg-"))
        self.port = _free_port()
        self.log = self.folder / "server.log"
        as_user = os.geteuid() == 0
        if as_user:  # PostgreSQL will not run as root
            account = pwd.getpwnam("postgres")
            os.chown(self.folder, account.pw_uid, account.pw_gid)
            self.log.touch()
            os.chown(self.log, account.pw_uid, account.pw_gid)
        demote = (lambda: (os.setgid(account.pw_gid), os.setuid(account.pw_uid), _die_with_parent())) if as_user \
            else _die_with_parent
        data = self.folder / "data"
        subprocess.run([str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                        "--no-sync"], check=True, capture_output=True, preexec_fn=demote, cwd=self.folder)
        # durability off: a throwaway server for tests
        self._command = [str(binaries / "postgres"), "-D", str(data), "-p", str(self.port), "-h", "127.0.0.1",
                         "-k", str(self.folder), "-c", "fsync=off", "-c", "synchronous_commit=off",
                         "-c", "full_page_writes=off", "-c", "max_connections=300"]
        self._demote = demote
        self.start()

    def start(self) -> None:
        with self.log.open("a") as log:
            self.process = subprocess.Popen(self._command, stdout=log, stderr=subprocess.STDOUT,
                                            preexec_fn=self._demote, cwd=self.folder)
        _wait_for_port(self.port, self.process, "PostgreSQL", self.log)
        self._wait_for_connections()

    def _wait_for_connections(self) -> None:
        """Listening is not answering: a starting server refuses connections for a moment."""
        import psycopg

        deadline = time.monotonic() + 60
        while True:
            try:
                psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres").close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def halt(self) -> None:
        """Stop the server, keeping its databases (start() again brings them back)."""
        self.process.send_signal(signal.SIGINT)  # "fast" shutdown: clients are disconnected
        self.process.wait(30)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The URL of a new, empty database on this server."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # "fast" shutdown; SIGTERM would wait for clients
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


class Redis:
    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError(f"redis-server is not installed: {INSTALL_HINT}")
        self.folder = Path(tempfile.mkdtemp(prefix="textbook-chat-redis-"))
        self.port = _free_port()
        self.log = self.folder / "server.log"
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                 "--dir", str(self.folder)], stdout=log, stderr=subprocess.STDOUT,
                preexec_fn=lambda: _die_with_parent(signal.SIGTERM))
        _wait_for_port(self.port, self.process, "redis-server", self.log)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(20)
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres():
    server = Postgres()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_server():
    server = Redis()
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server) -> str:
    import redis

    client = redis.Redis.from_url(redis_server.url)
    client.flushall()  # every test counts from zero
    client.close()
    return redis_server.url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    """A new, empty sessions database: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'sessions.db'}"
    return request.getfixturevalue("postgres").new_database()


@pytest.fixture
def own_postgres():
    """A PostgreSQL server for one test, which it may halt() and start() again."""
    server = Postgres()
    yield server
    server.stop()
