"""`textbook-chat insights` over 100,000 recorded questions, on SQLite and on PostgreSQL.

The questions are written straight into a sessions database at its current schema (as the
server records them): 180 days of questions on 40 pages, 15 % refused, 3 % declined, 2 %
fallback, a quarter about one of 400 highlighted passages, answers citing one to three
sections, 6 % rated (a third of them down); refused and rated-down questions carry a vector
drawn around one of 60 topics. Then the report is read in the process (`read_insights`, median
of 5) and by the command itself (`textbook-chat insights --json`, with the interpreter's start,
median of 3), for everything kept and for the last 30 days: wall and CPU seconds, and the
machine's load average (a shared machine's wall times count waiting for a core).

    .venv/bin/python benchmarks/insights_scale.py [--questions 100000]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from benchmarks.common import REPO, machine  # noqa: E402
from server.insights.report import Window, read_insights  # noqa: E402
from server.sessions import SessionStore  # noqa: E402
from server.sessions.schema import (citations_table, feedback_table, messages_table, queries_table,  # noqa: E402
                                    sessions_table)

SITE = "https://book.example.org/docs"


def fill(store: SessionStore, n: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    vectors = np.random.default_rng(seed)
    topics = vectors.normal(size=(60, 384)).astype(np.float32)
    pages = [f"{SITE}/chapter-{i // 8}/page-{i}" for i in range(40)]
    now = datetime.now(timezone.utc)
    batch: dict[str, list] = {"s": [], "q": [], "m": [], "c": [], "f": []}

    def flush():
        with store.engine.begin() as conn:
            for key, table in (("s", sessions_table), ("q", queries_table), ("m", messages_table),
                               ("c", citations_table), ("f", feedback_table)):
                if batch[key]:
                    conn.execute(table.insert(), batch[key])
                    batch[key] = []

    for i in range(n):
        when = now - timedelta(seconds=rng.random() * 180 * 86400)
        session, query = str(uuid.uuid4()), str(uuid.uuid4())
        page = rng.choice(pages)
        roll = rng.random()
        outcome = "refused" if roll < 0.15 else "declined" if roll < 0.18 else "fallback" if roll < 0.20 else "answered"
        passage = rng.randrange(400) if rng.random() < 0.25 else None
        rated = rng.choice(("up", "up", "down")) if rng.random() < 0.06 else None
        topic = rng.randrange(60)
        gap = None
        if outcome == "refused" or rated == "down":
            gap = (topics[topic] + vectors.normal(scale=0.6, size=384)).astype(np.float16).tobytes()
        batch["s"].append({"id": session, "book_id": "book", "created_at": when, "updated_at": when})
        batch["q"].append({
            "id": query, "session_id": session, "question": f"question {topic} about {page[-7:]} number {i}",
            "selected_text": f"passage {passage} of the book" if passage is not None else None,
            "selection_mode": "combined", "state": "REFUSED" if outcome in ("refused", "declined") else "COMPLETED",
            "states": [["CREATED", when.isoformat()]], "created_at": when, "updated_at": when, "book_id": "book",
            "page_url": page, "page_title": page.rsplit("/", 1)[-1],
            "passage_fingerprint": f"{passage:032d}" if passage is not None else None,
            "passage_section": "A section" if passage is not None else None,
            "passage_url": f"{page}#s:~:text=passage%20{passage}" if passage is not None else None,
            "outcome": outcome, "gap_vector": gap,
            "nearest": [{"section": f"Section {topic}", "url": f"{page}#s{topic}"}] if gap else None})
        user, answer = str(uuid.uuid4()), str(uuid.uuid4())
        batch["m"] += [{"id": user, "session_id": session, "seq": 1, "role": "user", "content": "q", "timestamp": when,
                        "query_id": query, "status": "answered", "source_references": []},
                       {"id": answer, "session_id": session, "seq": 2, "role": "assistant", "content": "an answer",
                        "timestamp": when, "query_id": query, "status": "completed", "source_references": []}]
        if outcome in ("answered", "fallback"):
            for cited in rng.sample(pages, rng.randint(1, 3)):
                batch["c"].append({"query_id": query, "page_url": cited, "section": "A section", "section_url": cited + "#a",
                                   "book_id": "book", "created_at": when})
        if rated:
            batch["f"].append({"id": str(uuid.uuid4()), "message_id": answer, "rating": rated,
                               "comment": "unclear" if rated == "down" else None, "created_at": when})
        if len(batch["q"]) >= 5000:
            flush()
    flush()
    if store.dialect == "postgresql":
        with store.engine.begin() as conn:
            conn.exec_driver_sql("ANALYZE")


def median_s(run, times: int) -> tuple[float, float]:
    """Median wall time and median CPU time (this process's and its children's) of `run`: on a
    shared, busy machine the wall time also counts waiting for a core."""
    walls, cpus = [], []
    for _ in range(times):
        started, cpu = time.perf_counter(), _cpu()
        run()
        walls.append(time.perf_counter() - started)
        cpus.append(_cpu() - cpu)
    return round(statistics.median(walls), 3), round(statistics.median(cpus), 3)


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(url: str, n: int) -> dict:
    store = SessionStore(url)
    started = time.perf_counter()
    fill(store, n)
    filled = time.perf_counter() - started
    result = {"filled_s": round(filled, 1)}
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-c", "from server.cli import main; main()", "insights", "--json"]
    for since in ("all", "30d"):
        since_at = None if since == "all" else datetime.now(timezone.utc) - timedelta(days=30)
        report = read_insights(store, Window(None, since_at))
        result[since] = {
            "questions": report.questions, "gaps": len(report.gaps), "pages": len(report.pages),
            "read_insights_wall_cpu_s": median_s(lambda: read_insights(store, Window(None, since_at)), 5),
            "command_wall_cpu_s": median_s(lambda: subprocess.run([*command, "--since", since], env=env, check=True,
                                                                  capture_output=True), 3)}
    result["load_average"] = os.getloadavg()
    store.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=100_000)
    args = parser.parse_args()
    from backing_services import Postgres

    results = {"machine": machine(), "questions": args.questions}
    with tempfile.TemporaryDirectory() as folder:
        results["sqlite"] = measure(f"sqlite:///{Path(folder) / 'sessions.db'}", args.questions)
    postgres = Postgres()
    try:
        results["postgresql"] = measure(postgres.new_database(), args.questions)
    finally:
        postgres.stop()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
