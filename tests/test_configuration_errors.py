"""Configuration mistakes stop `serve` and `ingest` at once with one line naming the setting
and the fix, exit status 1 and no traceback; start-up says where the data lives and what it
is about to create; a server stopped while it builds the model leaves nothing running."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from places import MODELS_DIR, SAMPLE_BOOK
from processes import free_port, wait_until

CLI = Path(sys.executable).with_name("textbook-chat")


def _run(tmp_path, *args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "TEXTBOOK_CHAT_DATA_DIR": str(tmp_path / "data"),
                   "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR), **env}
    return subprocess.run([str(CLI), *args], env=environment, capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)


def _run_here(tmp_path, *args: str, **env: str):
    """The same command in this process (click's runner): a process start costs 2 to 5 s here, and
    the tests that need a real process (a port, a server, a signal) start one."""
    from click.testing import CliRunner

    from server.cli import main

    environment = {"TEXTBOOK_CHAT_DATA_DIR": str(tmp_path / "data"), "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR), **env}
    result = CliRunner().invoke(main, list(args), env=environment)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def _one_error_line(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and errors[0] == result.stderr.strip().splitlines()[-1], result.stderr
    return errors[0]


@pytest.mark.parametrize("env, says", [
    ({"RATE_LIMIT": "garbage"}, "RATE_LIMIT must be limits like '30 per minute;500 per day'"),
    ({"MAX_CHUNKS": "50"}, "MAX_CHUNKS must be between 1 and 10, got 50"),
    ({"TRUSTED_PROXIES": "proxy.example"}, "TRUSTED_PROXIES must list IP addresses or networks"),
    ({"SIMILARITY_THRESHOLD": "high"}, "SIMILARITY_THRESHOLD must be a number"),
    ({"RATE_LIMIT_STORAGE": "foo://"}, "RATE_LIMIT_STORAGE must be memory:// or a shared store's URL"),
    ({"EMBEDDING_BATCH_SIZE": "0"}, "EMBEDDING_BATCH_SIZE must be more than 0, got '0'"),
    ({"MAX_REQUEST_BYTES": "-5"}, "MAX_REQUEST_BYTES must be more than 0, got '-5'"),
])
def test_a_setting_that_cannot_work_is_one_line(tmp_path, env, says):
    for command in (["serve", "--port", str(free_port())], ["ingest", str(SAMPLE_BOOK)]):
        assert says in _one_error_line(_run_here(tmp_path, *command, **env))
    assert not (tmp_path / "data").exists()  # nothing was created on the way


def test_a_setting_that_cannot_work_stops_a_real_process_with_one_line(tmp_path):
    line = _one_error_line(_run(tmp_path, "ingest", str(SAMPLE_BOOK), MAX_CHUNKS="50"))
    assert line == "error: MAX_CHUNKS must be between 1 and 10, got 50"  # no traceback, exit status 1
    assert not (tmp_path / "data").exists()


def test_threads_must_be_one_or_more(tmp_path):
    assert "--threads must be 1 or more" in _one_error_line(_run_here(tmp_path, "serve", "--threads", "0"))


def test_a_port_in_use_is_one_line_before_anything_loads(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = _one_error_line(_run(tmp_path, "serve", "--port", str(port)))
    assert line == f"error: port {port} on 127.0.0.1 is in use by another program: stop it, or choose another with --port"
    assert not (tmp_path / "data").exists()


def test_ingest_with_an_unreachable_index_server_is_one_line(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    result = _run(tmp_path, "ingest", str(SAMPLE_BOOK), QDRANT_URL=f"http://127.0.0.1:{closed}")
    assert _one_error_line(result).startswith("error: The book index is not reachable")
    assert f"book index: Qdrant server at http://127.0.0.1:{closed} (QDRANT_URL)" in result.stderr


def _descendants(pid: int) -> set[int]:
    found, todo = set(), [pid]
    while todo:
        path = Path(f"/proc/{todo[0]}/task/{todo[0]}/children")
        todo.pop(0)
        children = {int(p) for p in path.read_text().split()} if path.exists() else set()
        found |= children
        todo.extend(children)
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads child processes from /proc")
def test_serve_says_where_its_data_is_and_stopping_a_model_build_leaves_nothing(tmp_path):
    models, scratch = tmp_path / "no-models", tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TEXTBOOK_CHAT_DATA_DIR": str(tmp_path / "data"), "TEXTBOOK_CHAT_MODELS_DIR": str(models),
           "HF_ENDPOINT": f"http://127.0.0.1:{free_port()}", "TMPDIR": str(scratch)}
    env.pop("HF_HUB_OFFLINE", None)
    log = (tmp_path / "serve.log").open("w+")
    server = subprocess.Popen([str(CLI), "serve", "--port", str(free_port())], env=env, cwd=tmp_path,
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until(lambda: _descendants(server.pid) or server.poll() is not None, 120, "the model build to start")
        time.sleep(0.5)  # let the build step start its own children
        building = _descendants(server.pid)
        assert building, Path(log.name).read_text()
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=60) == 1
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        log.close()
    said = Path(log.name).read_text()
    assert f"data folder: {tmp_path / 'data'} (TEXTBOOK_CHAT_DATA_DIR)" in said
    assert f"no book index in {tmp_path / 'data' / 'index' / 'textbook_chunks'} yet: an empty one is created" in said
    assert f"is not in {models} yet: it is provisioned there now" in said
    assert said.index("data folder:") < said.index("[1/6]")  # said before the build began
    assert "error: stopped before serving" in said and "Traceback" not in said
    assert ": stopped after" in said and "failed after" not in said  # a stop is not a failure
    assert not [pid for pid in building if _alive(pid)], "a build process outlived the server"
    assert not list(scratch.glob("textbook-chat-build-*")) and not list(models.glob(".staging-*"))  # folders removed
