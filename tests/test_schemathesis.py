"""schemathesis against the real server: every operation, positive and negative data, the
stateful phase (a session created, read, asked about, deleted) and every check it has, seeded
and bounded. BENCHMARKS.md records a fuller run."""
from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from server.serving.wsgi import make_server

SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
SEED = "1"
EXAMPLES = "20"  # per operation and phase: about a minute here


def test_schemathesis_finds_nothing(chat_app, database_url, tmp_path):
    """On SQLite and on PostgreSQL: a value one database stores and the other refuses (a NUL) is a
    400 on both, never a 5xx."""
    app = chat_app(database_url=database_url)
    server = make_server(app, "127.0.0.1", 0, threads=8)
    loop = threading.Thread(target=server.run, daemon=True)
    loop.start()
    try:
        run = subprocess.run(
            [str(SCHEMATHESIS), "run", f"http://127.0.0.1:{server.effective_port}/openapi.json",
             "--checks", "all", "--mode", "all", "--seed", SEED, "--max-examples", EXAMPLES,
             "--generation-database", "none", "--no-color"],
            capture_output=True, text=True, timeout=900, cwd=tmp_path)
    finally:
        server.trigger.pull_trigger(server._map.clear)
        loop.join(10)
        server.close()
    report = run.stdout[-6000:]
    assert run.returncode == 0, report
    for phase in ("Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in report or f"✅  {phase}" in report, report
    # (its warnings may say "Authentication failed": a conversation's requests need its secret)
    assert " passed" in report and "❌" not in report and "Failures:" not in report, report
