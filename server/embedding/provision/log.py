"""How provisioning reports progress: one line per step, with its duration."""
from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Callable, Iterator

Log = Callable[[str], None]


@contextmanager
def step(log: Log, what: str) -> Iterator[None]:
    log(f"{what} ...")
    started = time.monotonic()
    try:
        yield
    except BaseException as exc:
        ended = "stopped" if isinstance(exc, KeyboardInterrupt) else "failed"  # Ctrl-C or SIGTERM: no failure
        log(f"{what}: {ended} after {time.monotonic() - started:.1f} s")
        raise
    log(f"{what}: done in {time.monotonic() - started:.1f} s")
