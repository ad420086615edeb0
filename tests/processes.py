"""Other processes and waiting on them: free ports, spawned processes' exit codes, polling."""
from __future__ import annotations

import multiprocessing
import random
import socket
import time
from pathlib import Path
from typing import Callable


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (right now), below the kernel's range of ports
    for outgoing connections: a port from that range (what binding port 0 gives) can be taken by
    another test's outgoing connection before the server started on it binds it."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    for _ in range(100):
        port = random.randint(10_000, max(10_001, low - 1))
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def exit_codes_of_processes(target: Callable, arguments: list[tuple], timeout_s: float = 120.0) -> list[int | None]:
    """Run `target(*args)` in one fresh (spawned) process per tuple, all at once; their exit codes."""
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=target, args=args) for args in arguments]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout_s)
    return [process.exitcode for process in processes]


def wait_until(condition: Callable[[], object], timeout_s: float = 30.0, what: str = "condition",
               poll_s: float = 0.02):
    """Poll `condition` until it returns something truthy (returned); fail after `timeout_s`.
    The timeout only bounds a hang: no test passes or fails on how fast something happened."""
    deadline = time.monotonic() + timeout_s
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(poll_s)
