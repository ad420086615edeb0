"""Both production servers (`serve` and `serve --workers 2`) against clients an attacker or a
broken proxy would be: malformed and oversized requests get the API's JSON error, slow and
idle connections hold neither /health nor readers' questions up, and every response carries
the security headers. One server of each kind serves the whole module."""
from __future__ import annotations

import json
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from fake_gemini import FakeGemini, gemini_subprocess_env
from places import MODELS_DIR, SAMPLE_BOOK
from processes import free_port, wait_until

CLI = Path(sys.executable).with_name("textbook-chat")
READ_TIMEOUT_S = 2.0
THREADS = 4
MAX_CONNECTIONS = 500  # per process
PER_ADDRESS = 250
PROCESSES: dict[int, int] = {}  # port → serving processes


@pytest.fixture(scope="module")
def indexed_data(indexed_folder) -> Path:
    """A data folder with the sample book indexed, copied for each server."""
    return indexed_folder(SAMPLE_BOOK).data_dir


def start_server(data: Path, fake: FakeGemini, log: Path, *args: str, **env: str) -> tuple[subprocess.Popen, int]:
    """`textbook-chat serve ARGS` on a free port, once /health says ok."""
    port = free_port()
    environment = gemini_subprocess_env(fake, TEXTBOOK_CHAT_DATA_DIR=str(data), TEXTBOOK_CHAT_MODELS_DIR=str(MODELS_DIR),
                                        RATE_LIMIT="100000 per minute", REQUEST_READ_TIMEOUT_S=str(READ_TIMEOUT_S), **env)
    with log.open("w") as out:
        process = subprocess.Popen([str(CLI), "serve", "--port", str(port), "--threads", str(THREADS), *args],
                                   env=environment, stdout=out, stderr=subprocess.STDOUT)

    def healthy() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"the server exited: {log.read_text()[-2000:]}")
        try:
            return get(port, "/health")[0] == 200
        except OSError:
            return False

    wait_until(healthy, timeout_s=120, what="the server to answer /health", poll_s=0.2)
    return process, port


def stop_server(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(40)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module", params=["one process", "workers"])
def served(request, indexed_data, tmp_path_factory):
    """(port, fake Gemini) of a running server of each kind."""
    folder = tmp_path_factory.mktemp("served")
    shutil.copytree(indexed_data, folder / "data")
    fake = FakeGemini()
    args = ("--workers", "2") if request.param == "workers" else ()
    process, port = start_server(folder / "data", fake, folder / "serve.log", *args,
                                 MAX_CONNECTIONS=str(MAX_CONNECTIONS), MAX_CONNECTIONS_PER_ADDRESS=str(PER_ADDRESS))
    PROCESSES[port] = 2 if request.param == "workers" else 1
    yield port, fake
    stop_server(process)
    fake.close()


def get(port: int, path: str, headers: dict | None = None, timeout: float = 10) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def ask(port: int, question: str, headers: dict | None = None, timeout: float = 30) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/chat", data=json.dumps({"question": question}).encode(),
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def raw(port: int, data: bytes, timeout: float = 10) -> tuple[int, dict, dict]:
    """Send `data` as it is; the reply's status, headers and JSON body (the server closes)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        for start in range(0, len(data), 4096):  # what the server will not read is not sent once it has replied
            # (a moment for its reply before each further piece: bytes it never reads make its close a
            # reset, which would take the reply with it on a loaded machine)
            if select.select([sock], [], [], 0.05 if start else 0)[0]:
                break
            sock.sendall(data[start:start + 4096])
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    assert reply, "the server closed the connection without a reply"
    head, body = reply.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    return int(lines[0].split()[1]), headers, json.loads(body)


POST = b"POST /chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
MALFORMED = {
    "a header line without a colon": b"GET /health HTTP/1.1\r\nHost: x\r\nBad\r\n\r\n",
    "a NUL in a header": b"GET /health HTTP/1.1\r\nHost: x\r\nX-Note: a\x00b\r\n\r\n",
    "a bad request line": b"GARBAGE\r\n\r\n",
    "a bad chunk size": POST + b"Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
    "a bad Content-Length": POST + b"Content-Length: ten\r\n\r\n",
}


@pytest.mark.parametrize("what", MALFORMED)
def test_a_malformed_request_gets_a_json_400(served, what):
    port, _ = served
    status, headers, body = raw(port, MALFORMED[what])
    assert status == 400 and headers["content-type"] == "application/json", (what, status, body)
    assert body["code"] == "VALIDATION_ERROR" and set(body) == {"error", "code", "details"}
    assert headers["x-content-type-options"] == "nosniff"
    assert get(port, "/health")[0] == 200  # and the server goes on


def test_bodies_the_server_will_not_read_are_refused_in_the_api_shape(served):
    port, _ = served
    chunk = b"%x\r\n%s\r\n" % (4096, b"a" * 4096)
    status, _, body = raw(port, POST + b"Transfer-Encoding: chunked\r\n\r\n" + chunk * 20 + b"0\r\n\r\n")
    assert status == 413 and body["code"] == "PAYLOAD_TOO_LARGE" and body["details"] == {"limit_bytes": 65536}
    status, _, body = raw(port, POST + b"Transfer-Encoding: gzip\r\n\r\n")
    assert status == 501 and body["code"] == "NOT_IMPLEMENTED"
    status, _, body = raw(port, b"GET /health?" + b"q" * 9000 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert status == 200 and body["status"] == "ok"  # a long query string is no error of its own


def test_a_body_under_the_limit_sent_in_tiny_chunks_is_read(served):
    """The limit counts the body, not the chunked framing around it (six times the body here)."""
    port, _ = served
    body = json.dumps({"question": "What is the Nyquist rate?"}).encode() + b" " * 12000
    chunks = b"".join(b"1\r\n%s\r\n" % body[i:i + 1] for i in range(len(body)))
    assert len(chunks) > 65536
    status, _, answer = raw(port, POST + b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunks
                            + b"0\r\n\r\n")
    assert status == 200 and answer["answer"], answer


def test_security_headers_on_every_response_and_retry_after_only_on_refusals(served):
    port, _ = served
    for status, headers, _ in (get(port, "/health"), get(port, "/nowhere"), get(port, "/widget.js"),
                               ask(port, "What is the Nyquist rate?")):
        assert headers["X-Content-Type-Options"] == "nosniff" and headers["X-Frame-Options"] == "DENY"
        assert "Retry-After" not in headers, status
    assert "default-src 'none'" in get(port, "/health")[1]["Content-Security-Policy"]
    assert get(port, "/widget.js")[1]["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("accept, streams", [("text/event-stream", True), ("TEXT/EVENT-STREAM", True),
                                             ("text/event-stream;q=0", False), ("*/*", False),
                                             ("application/json;q=0.5, text/event-stream", True)])
def test_the_accept_header_is_read_as_http_says(served, accept, streams):
    port, _ = served
    status, headers, body = ask(port, "What is the Nyquist rate?", {"Accept": accept})
    assert status == 200 and headers["Content-Type"].startswith("text/event-stream" if streams else "application/json")


def _drip(sockets: list[socket.socket], stop: threading.Event) -> None:
    """Send one more header line on each socket every half second, as a slowloris does."""
    n = 0
    while not stop.wait(0.5):
        n += 1
        for sock in sockets:
            try:
                sock.sendall(b"X-Slow-%d: x\r\n" % n)
            except OSError:
                pass


def test_200_slow_connections_hold_up_neither_health_nor_questions(served):
    port, fake = served
    slow = []
    for n in range(200):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(b"POST /chat HTTP/1.1\r\nHost: x\r\n" if n % 2 else POST + b"Content-Length: 100\r\n\r\n{")
        slow.append(sock)
    stop = threading.Event()
    dripping = threading.Thread(target=_drip, args=(slow[1::2], stop), daemon=True)
    dripping.start()
    try:
        time.sleep(0.5)
        started = time.monotonic()
        assert get(port, "/health", timeout=5)[0] == 200
        health_s = time.monotonic() - started
        started = time.monotonic()
        status, _, body = ask(port, "What is the Nyquist rate?", timeout=10)
        question_s = time.monotonic() - started
        assert status == 200 and json.loads(body)["answer"]
        assert health_s < 1.0 and question_s < 2.0, (health_s, question_s)

        # each slow request is cut off once it has taken longer than the read timeout to arrive
        def all_closed() -> bool:
            for sock in slow:
                sock.settimeout(0.01)
                try:
                    while sock.recv(65536):
                        pass
                except socket.timeout:
                    return False
                except OSError:
                    pass
            return True
        wait_until(all_closed, timeout_s=READ_TIMEOUT_S + 10, what="the slow connections to be closed", poll_s=0.5)
    finally:
        stop.set()
        dripping.join()
        for sock in slow:
            sock.close()


def test_one_address_cannot_take_every_connection(served):
    """More connections from one address than every process could hold: those over its share are
    answered 503 at once, and a reader at another address is answered as if nothing happened."""
    port, _ = served
    processes = PROCESSES[port]
    flood = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(processes * MAX_CONNECTIONS + 50)]
    turned_away: set[int] = set()

    def count_refusals() -> bool:
        for n, sock in enumerate(flood):
            if n not in turned_away:
                sock.setblocking(False)  # a socket with a timeout would wait for it
                try:
                    if sock.recv(64).startswith(b"HTTP/1.1 503"):
                        turned_away.add(n)
                except OSError:  # nothing yet
                    pass
        return len(turned_away) >= len(flood) - processes * PER_ADDRESS

    try:
        wait_until(count_refusals, timeout_s=20, what="the connections over the address's share to be refused",
                   poll_s=0.2)
        with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.2", 0)) as other:
            other.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert other.recv(64).startswith(b"HTTP/1.1 200"), "a reader at another address was held up"
    finally:
        for sock in flood:
            sock.close()


def test_health_is_not_queued_behind_answers(served):
    port, fake = served
    fake.script(*[{"hang": 8} for _ in range(3 * THREADS)])
    askers = [threading.Thread(target=ask, args=(port, "What is the Nyquist rate?"), daemon=True)
              for _ in range(3 * THREADS)]
    for asker in askers:
        asker.start()
    wait_until(lambda: fake.pending <= 2 * THREADS, timeout_s=30, what="the model to be asked")
    for _ in range(5):
        started = time.monotonic()
        assert get(port, "/health", timeout=5)[0] == 200
        assert time.monotonic() - started < 1.0
    fake.forget_script()  # the answers still queued are not held for the model as well
    for asker in askers:
        asker.join(60)


def test_demo_pages_carry_a_policy_that_allows_only_their_own_style_and_scripts(chat_app):
    import base64
    import hashlib
    import re

    from server.serving.demo import register_demo

    app = chat_app()
    register_demo(app, str(SAMPLE_BOOK))
    page = app.test_client().get("/", follow_redirects=True)
    policy = page.headers["Content-Security-Policy"]
    css = re.search(r"<style>(.*?)</style>", page.get_data(as_text=True), re.DOTALL).group(1)
    assert f"'sha256-{base64.b64encode(hashlib.sha256(css.encode()).digest()).decode()}'" in policy
    assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy
    assert page.headers["X-Content-Type-Options"] == "nosniff"


def test_the_demo_shows_an_mdbooks_pages_too(chat_app):
    """An mdBook's pages sit at the top ("/01-about.html"): the demo's home leads to the first,
    and every page is there with the widget (it was a 404)."""
    from places import CORPORA
    from server.serving.demo import register_demo

    app = chat_app()
    paths = register_demo(app, str(CORPORA / "lhbg"))
    client = app.test_client()
    home = client.get("/", follow_redirects=True)
    assert home.status_code == 200 and 'src="/widget.js"' in home.get_data(as_text=True)
    assert all(client.get(path).status_code == 200 for path in paths[:5])


def test_the_demo_home_is_the_book_page_served_at_the_root(chat_app):
    """A book whose docs are served at the site's root (python-codex-i18n: routeBasePath "/", its
    README the page at "/") sent the demo's home to its first page, "/": a redirect to itself, so
    `make run` on that book opened on "too many redirects"."""
    from places import CORPORA
    from server.serving.demo import register_demo

    app = chat_app()
    paths = register_demo(app, str(CORPORA / "python-codex-i18n"))
    assert "/" in paths
    home = app.test_client().get("/")
    assert home.status_code == 200 and 'src="/widget.js"' in home.get_data(as_text=True)
    assert "<h1" in home.get_data(as_text=True)


def _children(pid: int) -> set[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return {int(p) for p in path.read_text().split()} if path.exists() else set()


def _stream(port: int, received: list[dict]) -> None:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/chat", headers={
        "Content-Type": "application/json", "Accept": "text/event-stream"},
        data=json.dumps({"question": "What is the Nyquist rate?"}).encode())
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            text = response.read().decode()
    except OSError:
        return
    if "event: done\ndata: " in text:
        received.append(json.loads(text.split("event: done\ndata: ")[1].split("\n")[0]))


def test_a_killed_master_loses_no_answer_a_reader_received(indexed_data, tmp_path):
    import signal
    import sqlite3

    shutil.copytree(indexed_data, tmp_path / "data")
    fake = FakeGemini().script(*[{"stream": ["The Nyquist ", "rate is twice ", "the bandwidth [1]."], "delay": 0.5}
                                 for _ in range(12)])
    master, port = start_server(tmp_path / "data", fake, tmp_path / "serve.log", "--workers", "2")
    workers = _children(master.pid)
    received: list[dict] = []
    readers = [threading.Thread(target=_stream, args=(port, received)) for _ in range(12)]
    try:
        for reader in readers:
            reader.start()
        wait_until(lambda: fake.pending <= 12 - 2 * THREADS, timeout_s=30, what="answers to be in flight")
        master.send_signal(signal.SIGKILL)
        master.wait()
        database = tmp_path / "data" / "sessions.db"

        def gone() -> bool:  # meanwhile another process opens and closes the database, again and again
            sqlite3.connect(database).execute("SELECT count(*) FROM chat_messages").fetchall()
            return not any(Path(f"/proc/{pid}").exists() for pid in workers)
        wait_until(gone, timeout_s=45, what="the workers to end after their master", poll_s=0.1)
        for reader in readers:
            reader.join(60)
    finally:
        for pid in workers:
            if Path(f"/proc/{pid}").exists():
                os.kill(pid, signal.SIGKILL)
        fake.close()
    assert len(received) >= 2 * THREADS, "the answers in flight were not finished"
    with sqlite3.connect(database) as conn:
        kept = {row[0] for row in conn.execute("SELECT id FROM chat_messages WHERE role = 'assistant'")}
    assert {answer["assistant_message_id"] for answer in received} <= kept


def test_the_demo_shows_a_translated_page_in_its_language(chat_app):
    """An Urdu page of the demo said `<html lang="en">` and no locale: the widget sent "en", the
    Urdu question was searched with the English model among English pages and refused. A page
    carries its locale and docs version as Docusaurus renders them, is laid out right to left in
    a language written so, and lists the pages of its own language."""
    from places import CORPORA
    from server.serving.demo import register_demo

    app = chat_app()
    paths = register_demo(app, str(CORPORA / "physical-ai-i18n"))
    client = app.test_client()
    urdu = next(p for p in paths if "/ur/" in p)
    text = client.get(urdu).get_data(as_text=True)
    assert '<html lang="ur" dir="rtl"' in text and '<meta name="docusaurus_locale" content="ur">' in text
    assert '<meta name="docusaurus_version" content="current">' in text
    nav = text.split("<nav", 1)[1].split("</nav>", 1)[0]
    assert nav.count("<a ") > 3 and all("/ur/" in href for href in re.findall(r'href="([^"]+)"', nav)), nav
    english = client.get(next(p for p in paths if "/ur/" not in p and p != "/")).get_data(as_text=True)
    assert '<html lang="en" dir="ltr"' in english and "/ur/" not in english.split("</nav>", 1)[0]


def test_the_demo_shows_a_page_read_from_a_sites_build():
    """A page whose text the index read from the site's build (a JSX page: the Urdu Gazebo page)
    has no markdown body: the demo showed an empty article, so a reader had nothing to highlight.
    Its headings and blocks are shown as the index read them, code without its fences, and what
    they say is text, never markup."""
    from server.ingest.html_text import Block, Heading
    from server.ingest.page import Page
    from server.serving.demo import render_page

    page = Page("module2/gazebo.mdx", "Gazebo", "https://x/ur/docs/module2/gazebo", [], 1, "", "h", locale="ur",
                sections=[Heading(2, "🏗️ Gazebo فن تعمیر", "arch"), Block("Gazebo کلائنٹ-سرور فن تعمیر کا استعمال کرتا ہے:"),
                          Block("- gzserver: فزکس لوپ\n- gzclient: <img src=x onerror=alert(1)>"),
                          Block("```bash\nros2 launch gazebo_ros gazebo.launch.py\n```", is_code=True),
                          Heading(3, "<script>alert(1)</script>", "")])
    shown = render_page(page)
    assert '<h2 id="arch">🏗️ Gazebo فن تعمیر</h2>' in shown and "<p>Gazebo کلائنٹ-سرور" in shown
    assert "<li>gzserver: فزکس لوپ</li>" in shown
    assert "<pre><code>ros2 launch gazebo_ros gazebo.launch.py</code></pre>" in shown
    assert "<img" not in shown and "<script>" not in shown and "&lt;script&gt;" in shown
