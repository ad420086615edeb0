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
    except BaseException:
        log(f"{what}: failed after {time.monotonic() - started:.1f} s")
        raise
    log(f"{what}: done in {time.monotonic() - started:.1f} s")
