"""The server's own time per /chat, excluding generation (embed, search, rank, persist),
measured with a real HTTP client against `textbook-chat serve` on the Rust book.

The server reports its stages in the Server-Timing header (prepare = session, store user
message, embed, search, rank; persist = store the answer). Overhead = prepare + persist.
The server process's CPU time per request (from /proc, all threads) is reported beside it:
two checkouts compared on a busy host differ in wall time by the host, in CPU time by the code.

    PYTHONPATH=<checkout> .venv/bin/python benchmarks/chat_overhead.py [DATA_DIR]  # another checkout's server

    .venv/bin/python benchmarks/chat_overhead.py
    .venv/bin/python benchmarks/chat_overhead.py DATA_DIR QUESTIONS.jsonl  # another book's index and questions

Run it from outside the checkout (cd /tmp): the server is started with `python -c`, which puts the
working directory's `server` package before PYTHONPATH's.
"""
from __future__ import annotations

import json
import os
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import StealMeter, EVAL, MODELS_DIR, cpu_ms, indexed_rust_book, machine, median, percentile, save_result, serving  # noqa: E402



def _post(url: str, body: dict) -> tuple[dict, dict, float]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as response:
        data = json.loads(response.read())
        elapsed = (time.perf_counter() - started) * 1000
        timing = {part.split(";dur=")[0].strip(): float(part.split(";dur=")[1])
                  for part in response.headers["Server-Timing"].split(",")}
    return data, timing, elapsed


def main(data_dir: Path | None = None, questions_file: Path | None = None) -> dict:
    data_dir = data_dir or indexed_rust_book()
    env = {**os.environ, "TEXTBOOK_CHAT_DATA_DIR": str(data_dir), "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR),
           "RATE_LIMIT": "100000 per minute"}
    env.pop("GEMINI_API_KEY", None)
    with serving(env) as (server, port):
        base = f"http://127.0.0.1:{port}"
        questions = [json.loads(line)["question"] for line in open(questions_file or EVAL / "rust-book.jsonl")]
        for question in questions[:3]:
            _post(base + "/chat", {"question": question})  # warm-up
        overhead, prepare, client, generate, cpu = [], [], [], [], []
        steal = StealMeter()
        for round_ in range(4):
            for question in questions:
                # a new wording each round so the query-embedding cache does not help
                before = cpu_ms(server.pid)
                _data, timing, elapsed = _post(base + "/chat", {"question": f"{question} ({round_})"})
                cpu.append(cpu_ms(server.pid) - before)
                overhead.append(timing.get("prepare", 0) + timing.get("persist", 0))
                prepare.append(timing.get("prepare", 0))
                generate.append(timing.get("generate", 0))
                client.append(elapsed)
    result = {
        "machine": machine(), "cpu_steal_share": steal.share(), "requests": len(overhead),
        "overhead_ms_p50": round(median(overhead), 2), "overhead_ms_p95": round(percentile(overhead, 0.95), 2),
        "prepare_ms_p50": round(median(prepare), 2),
        "server_cpu_ms_p50": round(median(cpu), 2), "server_cpu_ms_mean": round(sum(cpu) / len(cpu), 2),
        "extractive_generation_ms_p50": round(median(generate), 2),
        "client_total_ms_p50": round(median(client), 2), "client_total_ms_p95": round(percentile(client, 0.95), 2),
    }
    save_result("chat_overhead", result)
    return result


if __name__ == "__main__":
    # optionally a data dir that already holds the Rust book's index (e.g. the eval's)
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else None, Path(sys.argv[2]) if len(sys.argv) > 2 else None)
