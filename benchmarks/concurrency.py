"""50 concurrent streamed chats against `textbook-chat serve`, with a fake Gemini that streams
at a fixed pace. Reports the time the server adds before the first token (client time to first
token minus the fake model's own delay before its first chunk), errors, and server memory.

    .venv/bin/python benchmarks/concurrency.py [--streams 50] [--workers 1 2] [--repeats 3] [--data-dir DIR]
    PYTHONPATH=<checkout> ... --data-dir DIR  # another checkout's server, on an index it built

`--repeats` runs per server process count (`serve --workers N`), interleaved; the summary
gives the median of the runs' figures.
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import re
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from benchmarks.common import StealMeter, EVAL, MODELS_DIR, indexed_rust_book, machine, median, percentile, save_result, serving  # noqa: E402
from fake_gemini import FakeGemini  # noqa: E402

FIRST_CHUNK_DELAY_S = 0.1  # the fake model sends its first chunk after this long (the same pace as the rest)
CHUNKS = 20
CHUNK_INTERVAL_S = FIRST_CHUNK_DELAY_S
_TAG = re.compile(r"\[([sb]\d+)\]")  # each stream's question ends with its tag, e.g. [s12]


def _rss_kb(pid: int, field: str) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field):
            return int(line.split()[1])
    return 0


def _stream(port: int, question: str, results: list, barrier: threading.Barrier, delay_s: float = 0.0) -> None:
    body = json.dumps({"question": question})
    barrier.wait()
    time.sleep(delay_s)
    started = time.monotonic()  # the fake model's clock, to split the time by stage
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("POST", "/chat", body, {"Content-Type": "application/json", "Accept": "text/event-stream"})
        response = conn.getresponse()
        if response.status != 200:
            results.append({"error": f"HTTP {response.status}"})
            return
        meta = first = None
        buffer = b""
        while True:
            data = response.read1(8192)
            if not data:
                break
            buffer += data
            if meta is None and b"event: meta" in buffer:
                meta = time.monotonic()
            if first is None and b"event: token" in buffer:
                first = time.monotonic()
        done = b"event: done" in buffer
        error = b"event: error" in buffer
        fallback = b'"fallback_reason":"' in buffer
        results.append({"question": question, "started": started, "meta_at": meta, "token_at": first,
                        "ttft_s": None if first is None else first - started, "total_s": time.monotonic() - started,
                        "error": "error event" if error else (None if done else "no done event"),
                        "fallback": fallback})
    except Exception as exc:  # counted, reported
        results.append({"error": f"{type(exc).__name__}: {exc}"})


def _run(port: int, streams: int, spread_s: float, questions: list[str], tag: str) -> list[dict]:
    """`streams` chats; stream i starts at i * spread_s / streams (0: all at once)."""
    results: list[dict] = []
    barrier = threading.Barrier(streams)
    threads = [threading.Thread(target=_stream, args=(port, f"{questions[i % len(questions)]} [{tag}{i}]", results,
                                                      barrier, i * spread_s / streams)) for i in range(streams)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def _ms(values: list[float]) -> dict:
    return {"p50": round(median(values), 1), "p95": round(percentile(values, 0.95), 1)} if values else {}


def _summary(results: list[dict], model_calls: dict[str, float]) -> dict:
    """`model_calls`: when the fake model received each question. The added time splits into
    the server before the `meta` event (session, embed, search), from there to the model call,
    and from the model's first chunk to the reader (relay)."""
    ok = [r for r in results if not r.get("error") and r.get("ttft_s") is not None]
    added_ms = [max(0.0, (r["ttft_s"] - FIRST_CHUNK_DELAY_S) * 1000) for r in ok]
    for r in ok:
        r["tag"] = _TAG.findall(r["question"])[-1]
    staged = [r for r in ok if r["meta_at"] is not None and r["tag"] in model_calls]
    return {
        "completed": len(ok), "errors": len(results) - len(ok),
        "fallbacks": sum(bool(r.get("fallback")) for r in results),
        "error_kinds": sorted({r["error"] for r in results if r.get("error")}),
        "added_before_first_token_ms_p50": round(median(added_ms), 1) if added_ms else None,
        "added_before_first_token_ms_p95": round(percentile(added_ms, 0.95), 1) if added_ms else None,
        "stages_ms": {
            "to_meta": _ms([(r["meta_at"] - r["started"]) * 1000 for r in staged]),
            "meta_to_model_call": _ms([(model_calls[r["tag"]] - r["meta_at"]) * 1000 for r in staged]),
            "first_chunk_to_reader": _ms([(r["token_at"] - model_calls[r["tag"]] - FIRST_CHUNK_DELAY_S) * 1000
                                          for r in staged]),
        },
        "stream_total_s_p50": round(median([r["total_s"] for r in ok]), 2) if ok else None,
    }


def _fake_model(streams: int, ready, calls) -> None:
    """The fake Gemini in a process of its own, so that pacing 50 streams does not take the
    interpreter lock from the clients whose clocks measure the server. Sends back its URL, then,
    when asked, stream tag -> when it received that stream's question."""
    fake = FakeGemini()
    paced = {"stream": [f"word{i} " for i in range(CHUNKS - 1)] + ["done [1]."], "delay": CHUNK_INTERVAL_S}
    fake.script(*[dict(paced) for _ in range(streams * 3)])
    ready.send(fake.url)
    ready.recv()
    received = {}
    for record in fake.requests:
        for tag in _TAG.findall(record.user_text):
            received.setdefault(tag, record.at)
    calls.send(received)
    fake.close()


def _pss_kb(pids: list[int]) -> int:
    """Proportional set size: shared pages (the forked workers share the index and model) counted once."""
    total = 0
    for pid in pids:
        for line in open(f"/proc/{pid}/smaps_rollup"):
            if line.startswith("Pss:"):
                total += int(line.split()[1])
    return total


def _children(pid: int) -> list[int]:
    return [int(p) for p in open(f"/proc/{pid}/task/{pid}/children").read().split()]


def run(workers: int, streams: int, spread_s: float, data_dir: Path | None = None) -> dict:
    data_dir = data_dir or indexed_rust_book()
    context = multiprocessing.get_context("spawn")
    ready, ready_child = context.Pipe()
    calls, calls_child = context.Pipe()
    model = context.Process(target=_fake_model, args=(streams * 2 + 10, ready_child, calls_child), daemon=True)
    model.start()
    env = {**os.environ, "TEXTBOOK_CHAT_DATA_DIR": str(data_dir), "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR),
           "RATE_LIMIT": "100000 per minute", "GEMINI_API_KEY": "bench-key", "GOOGLE_GEMINI_BASE_URL": ready.recv(),
           "GEMINI_TIMEOUT_S": "30"}
    env.pop("GOOGLE_API_KEY", None)
    env.pop("GOOGLE_GENAI_USE_VERTEXAI", None)
    # threads per process: every stream holds one while it lasts, plus room for health checks
    threads = -(-streams // workers) + 14
    try:
        with serving(env, "--threads", str(threads), "--workers", str(workers)) as (server, port):
            processes = [server.pid, *(_children(server.pid) if workers > 1 else [])]
            questions = [json.loads(line)["question"] for line in open(EVAL / "rust-book.jsonl")]
            pss_idle = _pss_kb(processes)
            _run(port, 2 * workers, 0.0, questions, "w")  # warm-up: lazy imports, each worker's first model call
            steal = StealMeter()
            # arrivals spread so that all streams are open together by the end (each lasts ~2 s), then a burst
            spread_results = _run(port, streams, spread_s, questions, "s")
            burst_results = _run(port, streams, 0.0, questions, "b")
            steal_share = steal.share()
            pss_after = _pss_kb(processes)
            rss_peak = max(_rss_kb(pid, "VmHWM") for pid in processes)
    finally:
        ready.send("report")
        received = calls.recv() if model.is_alive() else {}
        model.join(timeout=10)
    return {
        "workers": workers, "threads_per_worker": threads, "cpu_steal_share": steal_share,
        f"arrivals_over_{spread_s:g}s": _summary(spread_results, received),
        "all_at_once": _summary(burst_results, received),
        "server_pss_idle_mb": round(pss_idle / 1024, 1), "server_pss_after_mb": round(pss_after / 1024, 1),
        "server_rss_peak_per_process_mb": round(rss_peak / 1024, 1),
    }


def _medians(runs: list[dict], workers: tuple[int, ...], scenarios: tuple[str, ...]) -> dict:
    """Per process count and scenario: the median over the repeats of each run's p50 and p95,
    and all errors. One run's tail moves a lot on a shared host; the median of runs less."""
    def mid(values: list) -> float | None:
        known = [v for v in values if v is not None]
        return median(known) if known else None

    summary = {}
    for n in workers:
        mine = [r for r in runs if r["workers"] == n]
        summary[f"{n}_workers"] = {scenario: {
            "added_before_first_token_ms_p50": mid([r[scenario]["added_before_first_token_ms_p50"] for r in mine]),
            "added_before_first_token_ms_p95": mid([r[scenario]["added_before_first_token_ms_p95"] for r in mine]),
            "errors": sum(r[scenario]["errors"] for r in mine),
        } for scenario in scenarios}
    return summary


def main(streams: int = 50, spread_s: float = 1.5, workers: tuple[int, ...] = (1, 2), repeats: int = 3,
         data_dir: Path | None = None) -> dict:
    runs = [run(n, streams, spread_s, data_dir) for _ in range(repeats) for n in workers]  # interleaved: noise hits both
    result = {
        "machine": machine(), "streams": streams, "repeats": repeats,
        "fake_model": f"its own process; first chunk after {FIRST_CHUNK_DELAY_S * 1000:.0f} ms, {CHUNKS} chunks "
                      f"{CHUNK_INTERVAL_S * 1000:.0f} ms apart",
        "medians": _medians(runs, workers, (f"arrivals_over_{spread_s:g}s", "all_at_once")),
        "runs": runs,
    }
    save_result("concurrency", result)
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", type=int, default=50)
    parser.add_argument("--spread", type=float, default=1.5, help="seconds over which the streams start")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="server processes, one run each")
    parser.add_argument("--repeats", type=int, default=3, help="runs per process count")
    parser.add_argument("--data-dir", type=Path, help="a data folder holding the Rust book's index (default: built here)")
    args = parser.parse_args()
    main(args.streams, args.spread, tuple(args.workers), args.repeats, args.data_dir)
