"""What `serve` and `ingest` check and say before they start: where the data lives, what is
missing there and will be made, and whether the address to listen on is free; and SIGTERM
stopping them like Ctrl-C, so that a model build's child processes and folders go too."""
from __future__ import annotations

import errno
import signal
import socket
import sys

from server.embedding.provision import is_provisioned, safe_name
from server.embedding.e5 import packaged
from server.store import model_in_use
from server.settings import Settings


class StartupError(Exception):
    """Something outside the settings stops the start: one line naming it and the fix."""


def where(settings: Settings) -> list[str]:
    """Lines saying which folders are used, and what is not there yet and will be created."""
    data = settings.data_dir.resolve()
    lines = [f"data folder: {data} (TEXTBOOK_CHAT_DATA_DIR)"]
    if settings.qdrant_url:
        lines.append(f"book index: Qdrant server at {settings.qdrant_url} (QDRANT_URL)")
    elif not (settings.index_path / settings.collection).exists():
        index = (settings.index_path / settings.collection).resolve()
        if settings.qdrant_path.exists():
            lines.append(f"the previous store's index in {settings.qdrant_path.resolve()} is moved into {index} "
                         "now (nothing is embedded again)")
        else:
            lines.append(f"no book index in {index} yet: an empty one is created "
                         "(add a book with `textbook-chat ingest PATH`)")
    models = settings.model_dir_root.resolve()
    model = model_in_use(settings)
    if packaged(model) is None and not is_provisioned(models / safe_name(model), model):
        lines.append(f"embedding model {model} is not in {models} yet: it is provisioned "
                     "there now, which can take minutes (TEXTBOOK_CHAT_MODELS_DIR may name a folder that has it)")
    return lines


def check_port(host: str, port: int) -> None:
    """StartupError unless `host`:`port` can be listened on (checked before minutes of loading)."""
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise StartupError(f"--host {host}: not an address of this machine ({exc.strerror})") from None
    for family, kind, proto, _, address in addresses:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers do
            try:
                probe.bind(address)
            except OSError as exc:
                raise StartupError(bind_problem(host, port, exc)) from None


def bind_problem(host: str, port: int, exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return f"port {port} on {host} is in use by another program: stop it, or choose another with --port"
    if exc.errno == errno.EACCES:
        return f"port {port} needs administrator rights: choose one above 1023 with --port"
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"--host {host}: not an address of this machine"
    return f"cannot listen on {host}:{port}: {exc.strerror}"


def stop_on_sigterm() -> None:
    """SIGTERM ends the process as Ctrl-C does, through every `finally`: a running subprocess
    (subprocess.run kills it) and a half-built model folder do not outlive it."""

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    if sys.platform != "win32":
        signal.signal(signal.SIGTERM, interrupt)


def allow_connections(count: int) -> None:
    """Raise this process's limit on open files (each connection is one) as far as allowed."""
    try:
        import resource
    except ImportError:  # Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count + 256  # the index, the database, the model
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted if hard == resource.RLIM_INFINITY else min(wanted, hard), hard))
