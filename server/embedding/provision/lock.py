"""One process provisions at a time: an exclusive file lock in the models folder."""
from __future__ import annotations

import fcntl
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from server.embedding.provision.log import Log


@contextmanager
def provisioning_lock(models_dir: Path, log: Log = print) -> Iterator[None]:
    """Exclusive lock on `<models_dir>/.lock`, held while a model is being provisioned."""
    with open(Path(models_dir) / ".lock", "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log(f"waiting for another process provisioning a model in {models_dir} ...")
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
