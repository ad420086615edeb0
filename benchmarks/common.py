"""Helpers shared by the benchmark scripts."""
from __future__ import annotations

import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPORA = SHARED / "corpora"
EVAL = SHARED / "eval"
MODELS_DIR = Path(os.environ.get("TEXTBOOK_CHAT_MODELS_DIR") or Path.home() / ".cache" / "textbook-chat" / "models")  # as the Makefile
OUT = REPO / "benchmarks" / "out"


def machine() -> str:
    mem = ""
    try:
        kb = int(next(line for line in open("/proc/meminfo") if line.startswith("MemTotal")).split()[1])
        mem = f", {kb / 1024 / 1024:.0f} GiB"
    except (OSError, StopIteration, ValueError):
        pass
    return f"{platform.machine()}, {os.cpu_count()} cores{mem}, Python {platform.python_version()}"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def median(values: list[float]) -> float:
    return statistics.median(values)


def save_result(name: str, result) -> None:
    """Write a benchmark's figures to benchmarks/out/<name>.json and print them."""
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


@contextmanager
def serving(env: dict, *options: str) -> Iterator[tuple[subprocess.Popen, int]]:
    """`textbook-chat serve` on a free port, once its /health answers; stopped afterwards. The
    server is this interpreter's `server` package, so PYTHONPATH picks the checkout measured."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-c", "from server.cli import main; main()", "serve", "--port", str(port), *options],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        yield server, port
    finally:
        server.terminate()
        server.wait(timeout=30)


def indexed_rust_book() -> Path:
    """A data dir with the Rust book indexed, shared by the server benchmarks (incremental:
    the first call embeds the book, later calls only check it)."""
    import subprocess

    data_dir = OUT / "rust-book-index" / "data"
    env = {**os.environ, "TEXTBOOK_CHAT_DATA_DIR": str(data_dir), "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR)}
    subprocess.run([str(REPO / ".venv" / "bin" / "textbook-chat"), "ingest", str(CORPORA / "rust-book")],
                   env=env, check=True, capture_output=True)
    return data_dir


def cpu_ms(pid: int) -> float:
    """CPU time a process has used so far (all its threads, user and system), in ms: unlike wall
    time it hardly moves with what else the host runs."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


class StealMeter:
    """The share of CPU time the host gave to other guests while a benchmark ran ("steal" in
    /proc/stat). On a shared virtual machine this is what makes two runs differ."""

    def __init__(self):
        self._start = self._read()

    @staticmethod
    def _read() -> tuple[int, int]:
        try:
            fields = [int(v) for v in open("/proc/stat").readline().split()[1:]]
        except (OSError, ValueError):
            return 0, 0
        return (fields[7] if len(fields) > 7 else 0), sum(fields[:8])

    def share(self) -> float | None:
        steal, total = self._read()
        if total <= self._start[1]:
            return None
        return round((steal - self._start[0]) / (total - self._start[1]), 3)
