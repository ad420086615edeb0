"""Faults a hostile or unlucky world brings, against `textbook-chat serve` on the sample book:

- Gemini unreachable (a closed port, so every connection is refused): 8 questions at once;
  when the first answer arrives, and how long /health takes while they are in flight; the same
  without a Gemini key (the extractive generator alone) as the baseline;
- a body announced as 100 MB with 1 MB sent: how long until the 413.

    .venv/bin/python benchmarks/faults.py
"""
from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import MODELS_DIR, machine, percentile, save_result, serving  # noqa: E402

QUESTIONS = 8


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ask(port: int, question: str, started: float, answers: list) -> None:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/chat", data=json.dumps({"question": question}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        body = json.load(response)
    answers.append((time.monotonic() - started, body["fallback_reason"]))


def eight_questions(env: dict) -> dict:
    """8 questions at once, /health asked over and over while they are in flight, then one more."""
    with serving(env, "--threads", "8") as (_, port):
        answers: list = []
        started = time.monotonic()
        askers = [threading.Thread(target=_ask, args=(port, f"What is the Nyquist rate? ({n})", started, answers))
                  for n in range(QUESTIONS)]
        for asker in askers:
            asker.start()
        health = []
        while any(a.is_alive() for a in askers):
            t0 = time.monotonic()
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=60).read()
            health.append(time.monotonic() - t0)
            time.sleep(0.25)  # a load balancer asks every few seconds; this is plenty
        for asker in askers:
            asker.join()
        later = []
        _ask(port, "What is aliasing?", time.monotonic(), later)
    times = sorted(t for t, _ in answers)
    return {
        "questions": QUESTIONS,
        "first_answer_s": round(times[0], 2), "last_answer_s": round(times[-1], 2),
        "fallback_reasons": sorted({reason for _, reason in answers}),
        "health_checks_in_flight": len(health),
        "health_max_s": round(max(health), 3) if health else None,
        "health_p50_s": round(percentile(health, 0.5), 3) if health else None,
        "next_answer_s": round(later[0][0], 2), "next_fallback_reason": later[0][1],
    }


def huge_body(env: dict) -> dict:
    with serving(env) as (_, port):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            started = time.monotonic()
            sock.sendall(b"POST /chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 104857600\r\n\r\n")
            try:
                sock.sendall(b"x" * (1 << 20))
            except OSError:
                pass  # the server answered and closed first
            reply = sock.recv(65536)
            elapsed = time.monotonic() - started
    head, _, body = reply.partition(b"\r\n\r\n")
    return {"status": head.split(b"\r\n")[0].decode(), "seconds": round(elapsed, 3), "body": body.decode()}


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="faults-") as folder:
        env = {**os.environ, "TEXTBOOK_CHAT_DATA_DIR": str(Path(folder) / "data"),
               "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR), "RATE_LIMIT": "10000 per minute"}
        import subprocess

        subprocess.run([str(ROOT / ".venv" / "bin" / "textbook-chat"), "ingest", str(ROOT / "sample-book")],
                       env=env, check=True, capture_output=True)
        unreachable = {**env, "GEMINI_API_KEY": "benchmark-key",
                       "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{_closed_port()}"}
        without_key = {k: v for k, v in env.items() if k not in ("GEMINI_API_KEY", "GOOGLE_API_KEY")}
        load = os.getloadavg()[0]
        result = {"machine": machine(), "load_average_1min": round(load, 1),
                  "gemini_unreachable": eight_questions(unreachable),
                  "no_gemini_key_baseline": eight_questions(without_key), "huge_body": huge_body(env)}
    save_result("faults", result)


if __name__ == "__main__":
    main()
