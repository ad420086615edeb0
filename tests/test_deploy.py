"""docs/deploy.md followed on 127.0.0.1: the commands of every block the guide marks for this test
(`<!-- deploy-test: NAME -->`) run as written, on a machine whose /etc and /var are a scratch
folder and whose /opt/textbook-chat is this checkout, with stand-ins for what needs root, systemd
or the network (bin/ below: `runuser`, `chown`, `systemctl reload nginx`, `ssh` into this machine,
and a `certbot` that serves its challenge through nginx's port 80, fetches it as Let's Encrypt
does, and writes a certificate made here).

So: the folders and the settings file (mode 600), the model, the CI job's key in authorized_keys,
the first index by the CI job's own steps (rsync, then update-index.sh and the build published
with rsync) before the server starts, the server started as the systemd unit's ExecStart,
nginx's plain-HTTP site (`nginx -t` with no certificate), the certificate through it, the HTTPS
site, a second site with its own book beside the first, `status` and `backup`. Then, through
nginx: the ACME challenge answered on port 80 and everything else redirected, a question answered
as JSON and streamed (the first event arrives while the model is still writing), JSON and scripts
gzip-compressed, a body over nginx's limit and one over the server's both JSON 413, the author's
insights under the prefix, the second site's page and book on their own origin, a reader who
forges X-Forwarded-For still counted as themselves, index updates picked up without a restart
leaving only the generations in use (checking only their own book in an index of two), and a
stopped server a JSON 503."""
from __future__ import annotations

import gzip
import http.client
import json
import os
import pwd
import re
import shutil
import signal
import socket
import ssl
import stat
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest
import yaml

from built_sites import built_site
from fake_gemini import gemini_subprocess_env
from places import MODELS_DIR, REPO
from processes import free_port, wait_until

pytestmark = pytest.mark.needs_build  # a Docusaurus build, made ahead (tests/builds_ahead.py)

INSIGHTS_TOKEN = "the-authors-token"

DOC = REPO / "docs" / "deploy.md"
DEPLOY = REPO / "deploy"
CLI = Path(sys.executable).with_name("textbook-chat")
RATE = 40  # requests per minute per reader: more than the test asks before its forged-address check
CHAPTER = "docs/chapter-01-introduction"
PHYSICS_PAGE = "docs/chapter-03-hardware"  # the second site's one page (aibook's, under another projectName)


# --- the guide's blocks ------------------------------------------------------------------------

@dataclass
class Block:
    name: str | None  # None: not run, for `reason`
    reason: str
    lang: str
    body: str


def doc_blocks() -> list[Block]:
    blocks = []
    for found in re.finditer(r"<!-- deploy-test: (?P<marker>[^\n]*?) -->\n```(?P<lang>\w+)\n(?P<body>.*?)\n```",
                             DOC.read_text(), re.S):
        marker = found["marker"].strip()
        skipped = marker.startswith("not run:")
        blocks.append(Block(None if skipped else marker.split()[0], marker.removeprefix("not run:").strip(),
                            found["lang"], found["body"]))
    return blocks


def test_every_command_block_of_the_guide_is_run_here_or_says_why():
    text = DOC.read_text()
    opened = re.findall(r"^```(?:bash|sh|shell|yaml)$", text, re.M)
    blocks = doc_blocks()
    assert len(blocks) == len(opened), "a ```bash or ```yaml block of docs/deploy.md has no <!-- deploy-test: … --> above it"
    names = [b.name for b in blocks if b.name]
    assert len(names) == len(set(names)) and all(b.reason for b in blocks if b.name is None)
    packages = next(b.body for b in blocks if "apt-get install" in b.body).split()
    assert {"git", "make", "python3-venv", "nginx", "certbot", "rsync"} <= set(packages)


# --- this machine as the guide's server ---------------------------------------------------------

# Stand-ins for what the guide runs as root or over the network, one script under several names
# (bin/runuser, bin/chown, …); bin/machine.json says where this machine's /etc and /var are.
STAND_INS = r'''
import http.client, json, os, re, shutil, signal, subprocess, sys, time
from pathlib import Path

HERE = Path(sys.argv[0]).parent
M = json.loads((HERE / "machine.json").read_text())
ROOT = Path(M["root"])


def log(line):
    with open(ROOT / "stand-ins.log", "a") as out:
        out.write(line + "\n")


def localize(text):
    """An nginx file of deploy/ with this machine's ports and folders."""
    text = text.replace("listen 80;", f"listen 127.0.0.1:{M['http']};")
    text = text.replace("listen 443 ssl;", f"listen 127.0.0.1:{M['tls']} ssl;")
    text = text.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{M['app']};")
    return re.sub(r"(?<![\w.~#-])/(var|etc/letsencrypt)/", lambda m: f"{ROOT}/{m[1]}/", text)


def workers(master):
    found = set()
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(entry.read_text().rsplit(")", 1)[1].split()[1]) == master:
                found.add(int(entry.parent.name))
        except (OSError, IndexError, ValueError):
            pass
    return found


def nginx(args):
    for conf in [*(ROOT / "etc/nginx/conf.d").glob("*.conf"), *(ROOT / "etc/nginx/sites-available").glob("*")]:
        conf.write_text(localize(conf.read_text()))
    if args == ["-t"]:
        sys.exit(subprocess.run([M["nginx"], "-p", M["prefix"], "-c", M["conf"], "-t"]).returncode)
    if args == ["-s", "reload"]:  # and wait until the new configuration answers (its workers alone run)
        master = int((Path(M["prefix"]) / "nginx.pid").read_text())
        old = workers(master)
        os.kill(master, signal.SIGHUP)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            now = workers(master)
            if now and not now & old:
                return
            time.sleep(0.02)
        sys.exit("nginx did not reload (see its error log)")
    sys.exit(f"nginx {args}: not on this machine")


def systemctl(args):
    if args == ["reload", "nginx"]:
        return nginx(["-s", "reload"])
    sys.exit(f"systemctl {args}: not on this machine")


def certbot(args):
    """certonly --webroot -w WEBROOT -d HOST --deploy-hook HOOK, with Let's Encrypt's part played
    here: the challenge fetched over plain HTTP, by the host's name, following no redirect."""
    assert args[:2] == ["certonly", "--webroot"], args
    options = dict(zip(args[2::2], args[3::2]))
    host, token = options["-d"], os.urandom(8).hex()
    challenge = Path(options["-w"]) / ".well-known" / "acme-challenge" / token
    challenge.parent.mkdir(parents=True, exist_ok=True)
    challenge.write_text(token + ".key-thumbprint")
    connection = http.client.HTTPConnection("127.0.0.1", M["http"], timeout=10)
    connection.request("GET", f"/.well-known/acme-challenge/{token}", headers={"Host": host})
    answer = connection.getresponse()
    body = answer.read().decode(errors="replace")
    challenge.unlink()
    if (answer.status, body) != (200, token + ".key-thumbprint"):
        sys.exit(f"certbot: the challenge for {host} was answered {answer.status} {answer.getheader('Location')} {body[:200]!r}")
    live = ROOT / "etc/letsencrypt/live" / host
    live.mkdir(parents=True, exist_ok=True)
    shutil.copy(M["cert"], live / "fullchain.pem")
    shutil.copy(M["key"], live / "privkey.pem")
    log(f"certbot: {host} validated over port 80")
    subprocess.run(["bash", "-c", options["--deploy-hook"]], check=True)


def runuser(args):  # runuser -u USER -- COMMAND…: this machine has no such user; the command runs as the test
    command = args[args.index("--") + 1:]
    os.execvp(command[0], command)


def chown(args):
    log(f"chown {' '.join(args)}")


def ssh(args):  # ssh USER@HOST 'COMMAND': the server is this machine
    os.execvp("bash", ["bash", "-e", "-o", "pipefail", "-c", args[1]])


{"nginx": nginx, "systemctl": systemctl, "certbot": certbot, "runuser": runuser, "chown": chown,
 "ssh": ssh}[Path(sys.argv[0]).name](sys.argv[1:])
'''


class Machine:
    """The server of docs/deploy.md: /etc and /var under `root`, /opt/textbook-chat this checkout."""

    def __init__(self, tmp: Path, env: dict, cert: Path, key: Path):
        self.root = tmp / "machine"
        self.root.mkdir()
        self.http, self.tls, self.app = free_port(), free_port(), free_port()
        self.prefix = tmp / "nginx"
        self.blocks = {b.name: b for b in doc_blocks() if b.name}
        self.ran: set[str] = set()
        bin_dir = tmp / "bin"
        bin_dir.mkdir()
        (bin_dir / "stand_ins.py").write_text(f"#!{sys.executable}\n" + STAND_INS)
        for name in ("nginx", "systemctl", "certbot", "runuser", "chown", "ssh"):
            shutil.copy(bin_dir / "stand_ins.py", bin_dir / name)
            (bin_dir / name).chmod(0o755)
        (bin_dir / "machine.json").write_text(json.dumps({
            "root": str(self.root), "http": self.http, "tls": self.tls, "app": self.app, "nginx": _nginx(),
            "prefix": str(self.prefix), "conf": str(self.prefix / "nginx.conf"), "cert": str(cert), "key": str(key)}))
        self.env = {**env, "PATH": f"{bin_dir}:{env.get('PATH', os.defpath)}"}

    def path(self, production: str) -> Path:
        return Path(self.localize(production))

    def localize(self, text: str) -> str:
        """A command of the guide on this machine: /etc and /var under root, /opt/textbook-chat this
        checkout, no owner to give (no such user here), rsync's remote side this machine. (Paths
        right after a sed delimiter '#' are sed's patterns over deploy/'s files: left as written.)"""
        text = text.replace("/opt/textbook-chat", str(REPO)).replace(" -o textbook-chat -g textbook-chat", "")
        text = re.sub(r"textbook-chat@[\w.-]+:(?=/)", "", text)
        return re.sub(r"(?<![\w.~#-])/(etc|var)/", lambda m: f"{self.root}/{m[1]}/", text)

    def run(self, name: str, cwd: Path | None = None, script: str | None = None, check: bool = True):
        """The block NAME of the guide (or `script`, one of its parts), run as bash runs it."""
        body = self.blocks[name].body if script is None else script
        self.ran.add(name)
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", self.localize(body)], cwd=cwd or self.root,
                              env=self.env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0 or not check, f"{name}: {done.stderr}{done.stdout}"
        return done

    def job(self, checkout: Path, *, update: bool = True):
        """The CI job's steps that reach the server, from the checkout (built as on the runner)."""
        steps = {s.get("name"): s["run"] for s in yaml.safe_load(self.blocks["ci-job"].body)["jobs"]["publish"]["steps"]
                 if "run" in s}
        self.run("ci-job", checkout, steps["copy the site (sources and build) to the server"])
        if update:
            return self.run("ci-job", checkout, steps["update the chat index, check it against the build, then publish the build"])

    def settings(self, *lines: str) -> None:
        """Step 3, "edit it": this machine's data folder, and what the test needs."""
        env_file = self.path("/etc/textbook-chat/env")
        text = env_file.read_text().replace("/var/lib/textbook-chat", str(self.path("/var/lib/textbook-chat")))
        env_file.write_text(text + "".join(line + "\n" for line in lines))

    def start_nginx(self) -> subprocess.Popen:
        """nginx as Debian's package leaves it: running, including conf.d/ and sites-enabled/."""
        nginx_etc = self.root / "etc" / "nginx"
        for folder in ("conf.d", "sites-available", "sites-enabled"):
            (nginx_etc / folder).mkdir(parents=True)
        (self.prefix / "logs").mkdir(parents=True)
        (self.prefix / "nginx.conf").write_text(f"""
user {pwd.getpwuid(os.getuid()).pw_name};
worker_processes 1;
pid {self.prefix}/nginx.pid;
error_log {self.prefix}/logs/error.log warn;
events {{ worker_connections 64; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path {self.prefix}/body; proxy_temp_path {self.prefix}/proxy;
    fastcgi_temp_path {self.prefix}/fastcgi; uwsgi_temp_path {self.prefix}/uwsgi; scgi_temp_path {self.prefix}/scgi;
    include {nginx_etc}/conf.d/*.conf;
    include {nginx_etc}/sites-enabled/*;
}}
""")
        nginx = subprocess.Popen([_nginx(), "-p", str(self.prefix), "-c", str(self.prefix / "nginx.conf"),
                                  "-g", "daemon off;"], stdout=subprocess.DEVNULL,
                                 stderr=(self.prefix / "logs" / "stderr").open("w"))
        wait_until(lambda: nginx.poll() is not None or (self.prefix / "nginx.pid").exists(), 30, "nginx")
        assert nginx.poll() is None, (self.prefix / "logs" / "stderr").read_text()
        return nginx

    def start_service(self, log: Path) -> subprocess.Popen:
        """What systemd does with deploy/textbook-chat.service: its ExecStart, in its WorkingDirectory."""
        unit = dict(re.findall(r"^(\w+)=(.*)$", (DEPLOY / "textbook-chat.service").read_text(), re.M))
        command = self.localize(unit["ExecStart"])
        assert command.count(" --port 8000") == 1  # the port nginx-upstream.conf names
        cwd = self.path(unit["WorkingDirectory"])
        return subprocess.Popen(command.replace(" --port 8000", f" --port {self.app}").split(), env=self.env,
                                cwd=cwd, stdout=log.open("w"), stderr=subprocess.STDOUT)


def _nginx() -> str:
    found = shutil.which("nginx", path="/usr/sbin:/sbin:/usr/bin:/bin")
    if found is None and shutil.which("apt-get"):  # as `make services` does
        _apt_install("nginx")
        found = shutil.which("nginx", path="/usr/sbin:/sbin")
    assert found, "nginx is not installed: `make services` installs it (Debian: apt-get install nginx)"
    return found


def _apt_install(package: str) -> None:
    subprocess.run(["apt-get", "install", "-y", "-qq", package], capture_output=True, timeout=300,
                   env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def _tools() -> None:
    """What the guide's commands run here besides nginx: rsync (the CI job copies with it) and
    ssh-keygen (the CI job's key), installed as `make services` installs nginx when missing."""
    for tool, package in (("rsync", "rsync"), ("ssh-keygen", "openssh-client")):
        if shutil.which(tool) is None and shutil.which("apt-get"):
            _apt_install(package)
        assert shutil.which(tool), f"{tool} is not installed (Debian: apt-get install {package}): docs/deploy.md runs it"


def _checkouts(tmp: Path) -> tuple[Path, Path]:
    """Two sites' repositories as the CI runner has them after `npm ci && npm run build` (without
    node_modules): aibook's real build cut to three pages of its introduction, and the same site
    under another projectName cut to one page of another chapter (lean to embed)."""
    source = built_site("aibook")
    book, physics = tmp / "checkouts" / "book", tmp / "checkouts" / "physics"
    keep = {book: ("chapter-01-introduction", {"history-evolution", "ethics-and-society"}),
            physics: ("chapter-03-hardware", set())}
    for site, (chapter, pages) in keep.items():
        shutil.copytree(source, site, ignore=shutil.ignore_patterns("node_modules", ".docusaurus", "build"))
        shutil.copytree(source / "build", site / "build")
        docs = site / "build" / "docs"
        for folder in [*docs.iterdir(), *(docs / chapter).iterdir()]:
            if folder.is_dir() and folder.name != chapter and folder.name not in pages:
                shutil.rmtree(folder)
    config = physics / "docusaurus.config.ts"
    assert config.read_text().count("projectName: 'AIbook'") == 1
    config.write_text(config.read_text().replace("projectName: 'AIbook'", "projectName: 'physics'"))
    return book, physics


def _certificate(tmp: Path) -> tuple[Path, Path]:
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True, timeout=60)
    return cert, key


class Through:
    """HTTPS requests to nginx, trusting only the certificate made for the test. Without a Host
    header they reach the first site (nginx's default server for the port)."""

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
        """A POST announcing `length` bytes, of which only `sent` are sent; the reply (read to its
        own length: nginx keeps the connection open a while for the body it was promised)."""
        with self.socket() as sock:
            sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         f"Content-Length: {length}\r\nConnection: close\r\n\r\n".encode() + sent)
            reply = b""
            while b"\r\n\r\n" not in reply or len(reply.split(b"\r\n\r\n", 1)[1]) < _length(reply):
                chunk = sock.recv(65536)
                assert chunk, reply
                reply += chunk
        head, body = reply.split(b"\r\n\r\n", 1)
        assert b"application/json" in head, head
        return head.split(b"\r\n")[0].decode(), json.loads(body)


def _length(reply: bytes) -> int:
    found = re.search(rb"\r\ncontent-length: *(\d+)", reply.split(b"\r\n\r\n", 1)[0], re.I)
    assert found, reply
    return int(found[1])


def _stream_first_then_rest(through: Through, question: str) -> tuple[bytes, bytes]:
    body = json.dumps({"question": question, "filters": {"book_id": "AIbook"}}).encode()
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


def test_the_guide_followed_on_this_machine(tmp_path, fake):
    _tools()
    book, physics = _checkouts(tmp_path)
    machine = Machine(tmp_path, gemini_subprocess_env(fake, TEXTBOOK_CHAT_BIN=str(CLI)), *_certificate(tmp_path))
    through = Through(machine.tls, Path(tmp_path / "cert.pem"))
    data = machine.path("/var/lib/textbook-chat/data")
    nginx = machine.start_nginx()
    server = None
    try:
        # § 2-5: the folders, the settings, the model, the CI job's key
        machine.run("folders")
        env_file = machine.path("/etc/textbook-chat/env")
        assert stat.S_IMODE(env_file.stat().st_mode) == 0o600
        assert stat.S_IMODE(machine.path("/etc/textbook-chat").stat().st_mode) == 0o700
        two_origins = re.search(r"^ALLOWED_ORIGINS=.*physics.*$", DOC.read_text(), re.M)[0]
        machine.settings(two_origins.replace("https://book.example.org", through.base),  # § 10, ahead of the start
                         f"TEXTBOOK_CHAT_MODELS_DIR={MODELS_DIR}", f'RATE_LIMIT="{RATE} per minute"',
                         "GEMINI_TIMEOUT_S=4", f"INSIGHTS_TOKEN={INSIGHTS_TOKEN}")
        machine.run("model")
        laptop = tmp_path / "laptop"
        laptop.mkdir()
        machine.run("ci-key", laptop)
        machine.run("authorized-keys", laptop)
        keys = machine.path("/var/lib/textbook-chat/.ssh/authorized_keys")
        assert keys.read_text() == (laptop / "book-deploy-key.pub").read_text()
        assert (stat.S_IMODE(keys.stat().st_mode), stat.S_IMODE(keys.parent.stat().st_mode)) == (0o600, 0o700)

        # § 6-7: the first index, by the CI job's steps, before the server starts
        first = machine.job(book)
        assert "nothing missing" in first.stdout, first.stdout
        pages = len(list((book / "build" / CHAPTER).rglob("index.html")))
        assert f"AIbook): {pages} pages: {pages} added" in first.stdout
        assert (machine.path("/var/www/book") / CHAPTER / "index.html").is_file()  # published

        # § 8: the service; § 9-10: nginx, the certificates, the second site, while it starts
        server = machine.start_service(tmp_path / "serve.log")
        machine.run("nginx-http")
        machine.run("certificate")
        machine.run("nginx-tls")
        machine.run("second-site")
        second = machine.run("second-site-job", physics)  # a second book while the first is served
        assert "physics): 1 pages: 1 added" in second.stdout and "nothing missing" in second.stdout, second.stdout
        assert (machine.root / "stand-ins.log").read_text().count("validated over port 80") == 2
        wait_until(lambda: server.poll() is not None or _answers(through), 300, "the server behind nginx")
        assert server.poll() is None, (tmp_path / "serve.log").read_text()

        looked = {}
        looking = threading.Thread(target=_look, args=(machine, looked))
        looking.start()  # § 7, 11 and 13 while readers ask (done before the updates: a backup holds the generation it copies)
        _plain_http(machine)
        _ask_and_stream(through, fake, through.base)
        _compressed(through)
        _bodies_too_large(through)
        _insights_under_the_prefix(through)
        _second_site(through)
        looking.join()
        assert set(looked) == {"books", "status", "backup"}, looked
        assert "AIbook" in looked["books"].stdout and "physics" in looked["books"].stdout
        status = looked["status"].stdout
        assert f"data folder: {data.resolve()}" in status and "AIbook" in status and "physics" in status, status
        assert (machine.path("/var/backups/textbook-chat") / date.today().isoformat() / "backup.json").is_file()
        _updates_without_a_restart(machine, through, book, data, server.pid)
        _forged_addresses_count_as_the_reader(through)

        server.send_signal(signal.SIGTERM)  # what systemd sends on stop
        assert server.wait(timeout=90) == 0, (tmp_path / "serve.log").read_text()
        status, stopped = through.json("/chat-api/chat", {"question": "What is a humanoid robot?"})
        assert (status, stopped["code"]) == (503, "SERVICE_UNAVAILABLE")
    finally:
        for process in (server, nginx):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=30)
    assert _generations(data)[1] == []  # the stopped server removed its replica
    assert machine.ran == set(machine.blocks), set(machine.blocks) - machine.ran  # every block the guide marks


def _look(machine: Machine, looked: dict) -> None:
    for name in ("books", "status", "backup"):
        try:
            looked[name] = machine.run(name)
        except BaseException as exc:  # noqa: BLE001 (reported by the test's thread)
            looked[name + " failed"] = exc


def _answers(through: Through) -> bool:
    try:
        return through.request("/chat-api/health")[0] == 200
    except OSError:
        return False


def _plain_http(machine: Machine) -> None:
    """Port 80 answers the ACME challenge itself (certbot's stand-in fetched it) and sends every
    other path to HTTPS, for each site."""
    for host in ("book.example.org", "physics.example.org"):
        connection = http.client.HTTPConnection("127.0.0.1", machine.http, timeout=10)
        connection.request("GET", "/docs/intro?x=1", headers={"Host": host})
        answer = connection.getresponse()
        assert (answer.status, answer.getheader("Location")) == (301, f"https://{host}/docs/intro?x=1")


def _ask_and_stream(through: Through, fake, origin: str) -> None:
    status, headers, page = through.request("/docs/chapter-01-introduction/")
    assert status == 200 and b"docs-doc-page" in page  # the site, from the same host
    status, headers, script = through.request("/chat-api/widget.js")
    assert status == 200 and "javascript" in headers["Content-Type"] and len(script) > 1000

    fake.script({"text": "A humanoid robot has a body shaped like a person's [1]."})
    status, headers, raw = through.request("/chat-api/chat", {"question": "What is a humanoid robot?",
                                                              "filters": {"book_id": "AIbook"}})
    answer = json.loads(raw)
    assert status == 200 and answer["status"] == "completed" and answer["generator"].startswith("gemini"), answer
    assert answer["sources"] and all(s["url"].startswith("http") for s in answer["sources"])
    assert headers["Access-Control-Allow-Origin"] == origin  # ALLOWED_ORIGINS as documented

    # the model sends its first words, then nothing: through nginx they reach the reader at once
    fake.script({"stream": ["Humanoid robots walk on two legs [1]. ", "never sent"], "hang_after": 1})
    first, rest = _stream_first_then_rest(through, "How do humanoid robots move?")
    assert b"text/event-stream" in first and b"Humanoid robots walk" in first
    assert b"event: done" not in first and b"event: done" in rest  # done came later (a partial answer kept)


def _compressed(through: Through) -> None:
    """The chat server's scripts and JSON and the site's pages leave nginx gzip-compressed for a
    browser that accepts it, and as they are for one that does not."""
    for path in ("/chat-api/widget.js", "/chat-api/openapi.json", "/docs/chapter-01-introduction/"):
        status, plain_headers, plain = through.request(path)
        status, headers, packed = through.request(path, headers={"Accept-Encoding": "gzip"})
        assert status == 200 and headers.get("Content-Encoding") == "gzip", (path, headers)
        assert "Accept-Encoding" in headers.get("Vary", "") and "Content-Encoding" not in plain_headers, path
        assert gzip.decompress(packed) == plain and len(packed) < len(plain) / 2, path


def _bodies_too_large(through: Through) -> None:
    status, over_nginx = through.announce("/chat-api/chat", 2 * 1024 * 1024, b'{"question": "')
    assert status.startswith("HTTP/1.1 413") and over_nginx["code"] == "PAYLOAD_TOO_LARGE"
    assert over_nginx["details"] == {"limit_bytes": 65536}
    big = {"question": "What is this?", "selected_text": "x" * 100_000}
    status, over_server = through.json("/chat-api/chat", big)
    # just over the limit: refused by nginx too (the server, sent it, would close mid-body: nginx's 503)
    assert status == 413 and over_server == over_nginx, (status, over_server)


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


def _second_site(through: Through) -> None:
    """§ 10: physics.example.org, its own server block and root, its own origin, its own book."""
    site = {"Host": "physics.example.org", "Origin": "https://physics.example.org"}
    assert through.request(f"/{PHYSICS_PAGE}/", headers=site)[0] == 200
    assert through.request(f"/{CHAPTER}/", headers=site)[0] == 404  # the first site's page is not in its root
    status, headers, raw = through.request("/chat-api/chat", {"question": "What are the core hardware systems of a robot?",
                                                              "filters": {"book_id": "physics"}}, site)
    answer = json.loads(raw)
    assert status == 200 and answer["sources"], answer
    assert all(PHYSICS_PAGE in source["url"] for source in answer["sources"]), answer["sources"]
    assert headers["Access-Control-Allow-Origin"] == "https://physics.example.org"


def _updates_without_a_restart(machine: Machine, through: Through, book: Path, data: Path, pid: int) -> None:
    """Two updates of the first site while the server runs, by the CI job's steps: each checks
    only its own book (the index holds the second site's too), each is answered from at once. The
    second is checked against a build to deploy that lost a page the index still has: the step
    fails, saying which."""
    page = book / "build" / CHAPTER / "history-evolution" / "index.html"
    site = machine.path("/var/lib/textbook-chat/sites/book")
    for n in (1, 2):
        sentence = f"Update {n}: the Zorblat walker of 19{n}7 balanced on one leg."
        html = page.read_text(encoding="utf-8")
        page.write_text(html.replace("</p>", f"</p>\n<p>{sentence}</p>", 1), encoding="utf-8")  # after its first paragraph
        if n == 1:
            done = machine.job(book)
            assert done.returncode == 0 and "nothing missing" in done.stdout, done.stdout
            assert sentence in (machine.path("/var/www/book") / CHAPTER / "history-evolution" / "index.html").read_text()
        else:
            machine.job(book, update=False)  # the copy; then the update against another build to deploy
            deployed = site.parent / "deployed"
            shutil.copytree(site / "build", deployed)
            shutil.rmtree(deployed / CHAPTER / "ethics-and-society")
            done = subprocess.run([str(DEPLOY / "update-index.sh"), str(machine.path("/etc/textbook-chat/env")),
                                   str(site), str(deployed)], env=machine.env, capture_output=True, text=True, timeout=600)
            assert done.returncode == 1, done.stdout
            assert [line.split("/docs/", 1)[1] for line in done.stdout.splitlines() if "no such" in line] == \
                ["chapter-01-introduction/ethics-and-society: no such page"], done.stdout
        assert "1 updated" in done.stdout, done.stderr + done.stdout

        def answered_from_it():
            status, answer = through.json("/chat-api/chat", {"question": f"Which Zorblat walker of 19{n}7 balanced on one leg?",
                                                             "filters": {"book_id": "AIbook"}})
            return status == 200 and any(sentence in source["content"] for source in answer["sources"])
        wait_until(answered_from_it, 60, f"the server to answer from update {n}", poll_s=0.5)
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
