"""The deployment of docs/deploy.md, brought up on 127.0.0.1 as documented: the chat server
started by deploy/serve.sh (what the systemd unit runs), nginx with TLS (a certificate made here)
in front with deploy/nginx.conf, the site at / and the API under /chat-api/, the index brought
up to date by deploy/update-index.sh (the CI step) from a real Docusaurus build.

Asked through nginx: a question answered as JSON and streamed (the first event arrives while
the model is still writing), a body over nginx's limit and one over the server's both JSON 413,
a reader who forges X-Forwarded-For still counted as themselves, three index updates picked up
without a restart leaving only the generations in use, and a stopped server a JSON 503."""
from __future__ import annotations

import json
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from built_sites import built_site
from fake_gemini import gemini_subprocess_env
from places import MODELS_DIR, REPO
from processes import free_port, wait_until

INSIGHTS_TOKEN = "the-authors-token"

DEPLOY = REPO / "deploy"
CLI = Path(sys.executable).with_name("textbook-chat")
RATE = 40  # requests per minute per reader: more than the test asks before its forged-address check
CHAPTER = "docs/chapter-01-introduction"


def _nginx() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if found is None and shutil.which("apt-get"):  # as `make services` does
        subprocess.run(["apt-get", "install", "-y", "-qq", "nginx"], capture_output=True, timeout=300,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        found = shutil.which("nginx", path="/usr/sbin:/sbin")
    assert found, "nginx is not installed: `make services` installs it (Debian: apt-get install nginx)"
    return found


def _site(tmp: Path) -> Path:
    """aibook's real build, cut to three pages of its introduction (lean to embed)."""
    source = built_site("aibook")
    site = tmp / "site"
    shutil.copytree(source, site, ignore=shutil.ignore_patterns("node_modules", ".docusaurus", "build"))
    shutil.copytree(source / "build", site / "build")
    for folder in [*(site / "build" / "docs").iterdir(), *(site / "build" / CHAPTER).iterdir()]:
        if folder.is_dir() and folder.name not in ("chapter-01-introduction", "history-evolution", "ethics-and-society"):
            shutil.rmtree(folder)
    return site


def _certificate(tmp: Path) -> tuple[Path, Path]:
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key


def _server_block(tls_port: int, http_port: int, app_port: int, cert: Path, key: Path, root: Path) -> str:
    """deploy/nginx.conf with this machine's values in place of the documented examples."""
    text = (DEPLOY / "nginx.conf").read_text()
    for example, value in [("server 127.0.0.1:8000;", f"server 127.0.0.1:{app_port};"),
                           ("listen 80;", f"listen 127.0.0.1:{http_port};"),
                           ("listen 443 ssl;", f"listen 127.0.0.1:{tls_port} ssl;"),
                           ("/etc/letsencrypt/live/book.example.org/fullchain.pem", str(cert)),
                           ("/etc/letsencrypt/live/book.example.org/privkey.pem", str(key)),
                           ("root /var/www/book;", f"root {root};")]:
        assert text.count(example) == 1, example  # the documented file still has what the test replaces
        text = text.replace(example, value)
    return text


def _start_nginx(tmp: Path, server_block: str) -> subprocess.Popen:
    prefix = tmp / "nginx"
    (prefix / "logs").mkdir(parents=True)
    (prefix / "textbook-chat.conf").write_text(server_block)
    (prefix / "nginx.conf").write_text(f"""
user {pwd.getpwuid(os.getuid()).pw_name};
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/logs/error.log warn;
events {{ worker_connections 64; }}
http {{
    include /etc/nginx/mime.types;
    access_log off;
    client_body_temp_path {prefix}/body; proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi; uwsgi_temp_path {prefix}/uwsgi; scgi_temp_path {prefix}/scgi;
    include {prefix}/textbook-chat.conf;
}}
""")
    return subprocess.Popen([_nginx(), "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=(prefix / "logs" / "stderr").open("w"))


class Through:
    """HTTPS requests to nginx, trusting only the certificate made for the test."""

    def __init__(self, port: int, cert: Path):
        self.base = f"https://127.0.0.1:{port}"
        self.port = port
        self.tls = ssl.create_default_context(cafile=str(cert))

    def request(self, path: str, body: dict | None = None, headers: dict | None = None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, headers={
            "Content-Type": "application/json", "Origin": self.base, **(headers or {})})
        try:
            with urllib.request.urlopen(request, context=self.tls, timeout=60) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def json(self, path: str, body: dict | None = None, headers: dict | None = None):
        status, headers, raw = self.request(path, body, headers)
        assert headers.get("Content-Type", "").startswith("application/json"), (status, raw[:200])
        return status, json.loads(raw)

    def socket(self) -> ssl.SSLSocket:
        return self.tls.wrap_socket(socket.create_connection(("127.0.0.1", self.port), timeout=60),
                                    server_hostname="127.0.0.1")

    def announce(self, path: str, length: int, sent: bytes) -> tuple[str, dict]:
        """A POST announcing `length` bytes, of which only `sent` are sent; the reply."""
        with self.socket() as sock:
            sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         f"Content-Length: {length}\r\nConnection: close\r\n\r\n".encode() + sent)
            reply = b""
            while chunk := sock.recv(65536):
                reply += chunk
        head, body = reply.split(b"\r\n\r\n", 1)
        assert b"application/json" in head, head
        return head.split(b"\r\n")[0].decode(), json.loads(body)


def _stream_first_then_rest(through: Through, question: str) -> tuple[bytes, bytes]:
    body = json.dumps({"question": question}).encode()
    with through.socket() as sock:
        sock.sendall(b"POST /chat-api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Accept: text/event-stream\r\nConnection: close\r\nContent-Length: "
                     + str(len(body)).encode() + b"\r\n\r\n" + body)
        first = b""
        while b"event: token" not in first:
            chunk = sock.recv(65536)
            assert chunk, first
            first += chunk
        rest = b""
        while chunk := sock.recv(65536):
            rest += chunk
    return first, rest


def _generations(data: Path) -> tuple[list[str], list[str]]:
    index = data / "index" / "textbook_chunks"
    return (sorted(p.name for p in (index / "published").glob("g*")),
            sorted(p.name for p in (index / "replicas").glob("[0-9]*")))


def test_the_documented_deployment_answers_through_nginx_with_tls(tmp_path, fake):
    site = _site(tmp_path)
    data = tmp_path / "data"
    env_file = tmp_path / "textbook-chat.env"
    tls_port, http_port, app_port = free_port(), free_port(), free_port()
    origin = f"https://127.0.0.1:{tls_port}"
    documented = (DEPLOY / "textbook-chat.env").read_text()
    assert "ALLOWED_ORIGINS=https://book.example.org" in documented and "TRUSTED_PROXIES=127.0.0.1" in documented
    env_file.write_text(documented.replace("/var/lib/textbook-chat", str(data))
                        .replace("https://book.example.org", origin)
                        + f"TEXTBOOK_CHAT_MODELS_DIR={MODELS_DIR}\nRATE_LIMIT=\"{RATE} per minute\"\nGEMINI_TIMEOUT_S=4\n"
                        + f"INSIGHTS_TOKEN={INSIGHTS_TOKEN}\n")
    env = gemini_subprocess_env(fake, TEXTBOOK_CHAT_BIN=str(CLI))

    updated = subprocess.run([str(DEPLOY / "update-index.sh"), str(env_file), str(site)], env=env,
                             capture_output=True, text=True, timeout=600)
    assert updated.returncode == 0, updated.stderr + updated.stdout
    assert "nothing missing" in updated.stdout
    pages = len(list((site / "build" / CHAPTER).rglob("index.html")))
    assert f"AIbook): {pages} pages: {pages} added" in updated.stdout

    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen([str(DEPLOY / "serve.sh"), str(env_file), "--host", "127.0.0.1", "--port", str(app_port)],
                              env=env, stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path)
    cert, key = _certificate(tmp_path)
    nginx = _start_nginx(tmp_path, _server_block(tls_port, http_port, app_port, cert, key, site / "build"))
    through = Through(tls_port, cert)
    try:
        wait_until(lambda: server.poll() is not None or _answers(through), 300, "the server behind nginx")
        assert server.poll() is None, (tmp_path / "serve.log").read_text()
        _ask_and_stream(through, fake, origin)
        _bodies_too_large(through)
        _insights_under_the_prefix(through)
        _updates_without_a_restart(through, site, env, env_file, data, server.pid)
        _forged_addresses_count_as_the_reader(through)
        server.send_signal(signal.SIGTERM)  # what systemd sends on stop
        assert server.wait(timeout=90) == 0, (tmp_path / "serve.log").read_text()
        status, stopped = through.json("/chat-api/chat", {"question": "What is a humanoid robot?"})
        assert (status, stopped["code"]) == (503, "SERVICE_UNAVAILABLE")
    finally:
        for process in (server, nginx):
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=30)
        log.close()
    assert _generations(data)[1] == []  # the stopped server removed its replica


def _insights_under_the_prefix(through: Through) -> None:
    """The author signs in to /chat-api/insights as a browser does: the form, the redirect and
    the page's assets stay under nginx's prefix, and the cookie is sent back there."""
    import http.cookiejar
    from urllib.parse import urlencode, urlsplit

    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPSHandler(context=through.tls),
                                          urllib.request.HTTPCookieProcessor(jar))
    try:
        browser.open(through.base + "/chat-api/insights", timeout=60)
        raise AssertionError("the page opened without the token")
    except urllib.error.HTTPError as error:
        assert error.code == 401
    form = urllib.request.Request(through.base + "/chat-api/insights", data=urlencode({"token": INSIGHTS_TOKEN}).encode(),
                                  headers={"Origin": through.base})
    with browser.open(form, timeout=60) as page:  # 303, followed by the browser
        assert urlsplit(page.url).path == "/chat-api/insights"
        html = page.read().decode()
    assert "What students ask" in html and [c.path for c in jar] == ["/chat-api"]
    with browser.open(through.base + "/chat-api/insights/assets/insights.css", timeout=60) as css:
        assert css.status == 200 and 'href="insights/assets/insights.css"' in html


def _answers(through: Through) -> bool:
    try:
        return through.request("/chat-api/health")[0] == 200
    except OSError:
        return False


def _ask_and_stream(through: Through, fake, origin: str) -> None:
    status, headers, page = through.request("/docs/chapter-01-introduction/")
    assert status == 200 and b"docs-doc-page" in page  # the site, from the same host
    status, headers, script = through.request("/chat-api/widget.js")
    assert status == 200 and "javascript" in headers["Content-Type"] and len(script) > 1000

    fake.script({"text": "A humanoid robot has a body shaped like a person's [1]."})
    status, headers, raw = through.request("/chat-api/chat", {"question": "What is a humanoid robot?"})
    answer = json.loads(raw)
    assert status == 200 and answer["status"] == "completed" and answer["generator"].startswith("gemini"), answer
    assert answer["sources"] and all(s["url"].startswith("http") for s in answer["sources"])
    assert headers["Access-Control-Allow-Origin"] == origin  # ALLOWED_ORIGINS as documented

    # the model sends its first words, then nothing: through nginx they reach the reader at once
    fake.script({"stream": ["Humanoid robots walk on two legs [1]. ", "never sent"], "hang_after": 1})
    first, rest = _stream_first_then_rest(through, "How do humanoid robots move?")
    assert b"text/event-stream" in first and b"Humanoid robots walk" in first
    assert b"event: done" not in first and b"event: done" in rest  # done came later (a partial answer kept)


def _bodies_too_large(through: Through) -> None:
    status, over_nginx = through.announce("/chat-api/chat", 2 * 1024 * 1024, b'{"question": "')
    assert status.startswith("HTTP/1.1 413") and over_nginx["code"] == "PAYLOAD_TOO_LARGE"
    assert over_nginx["details"] == {"limit_bytes": 65536}
    big = {"question": "What is this?", "selected_text": "x" * 100_000}
    status, over_server = through.json("/chat-api/chat", big)
    assert status == 413 and over_server == over_nginx  # the server's own answer, the same shape and words


def _updates_without_a_restart(through, site, env, env_file, data, pid) -> None:
    page = site / "build" / CHAPTER / "history-evolution" / "index.html"
    for n in range(1, 4):  # three updates of the site, each published while the server runs
        sentence = f"Update {n}: the Zorblat walker of 19{n}7 balanced on one leg."
        html = page.read_text(encoding="utf-8")
        page.write_text(html.replace("</p>", f"</p>\n<p>{sentence}</p>", 1), encoding="utf-8")  # after its first paragraph
        deployed = site / "build"
        if n == 3:  # the build to deploy lost a page the index still has: the CI step fails, saying which
            deployed = site / "deployed"
            shutil.copytree(site / "build", deployed)
            shutil.rmtree(deployed / CHAPTER / "ethics-and-society")
        done = subprocess.run([str(DEPLOY / "update-index.sh"), str(env_file), str(site), str(deployed)],
                              env=env, capture_output=True, text=True, timeout=600)
        assert "1 updated" in done.stdout, done.stderr + done.stdout
        if n < 3:
            assert done.returncode == 0 and "nothing missing" in done.stdout, done.stdout
        else:
            assert done.returncode == 1, done.stdout
            assert [line.split("/docs/", 1)[1] for line in done.stdout.splitlines() if "no such" in line] == \
                ["chapter-01-introduction/ethics-and-society: no such page"], done.stdout

        def answered_from_it():
            status, answer = through.json("/chat-api/chat", {"question": f"Which Zorblat walker of 19{n}7 balanced on one leg?"})
            return status == 200 and any(sentence in source["content"] for source in answer["sources"])
        wait_until(answered_from_it, 60, f"the server to answer from update {n}", poll_s=1.0)
    published, _ = _generations(data)
    assert len(published) == 1  # older generations removed
    # the replica replaced goes once the question reading it ends (its removal may still be running)
    wait_until(lambda: [r.rsplit("-", 1)[0] for r in _generations(data)[1]] == [f"{pid}-{published[0]}"], 30,
               "only the replica in use")


def _forged_addresses_count_as_the_reader(through: Through) -> None:
    statuses = []
    for n in range(RATE + 1):  # each request claims another address; nginx replaces the claim
        status, body = through.json("/chat-api/sessions", {}, {"X-Forwarded-For": f"203.0.113.{n}"})
        statuses.append((status, body.get("code")))
    assert (429, "RATE_LIMITED") in statuses
