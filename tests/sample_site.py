"""The sample book as a real Docusaurus 3 site, built with the textbook chat plugin installed from
its npm package; made once and cached by content. `make sample-site` and the tests use it.

Under ~/.cache/textbook-chat/sites/ (TEXTBOOK_CHAT_SITE_CACHE), as tests/built_sites.py keeps the
corpora's builds:

    sample-site-<hash of sample-book's package.json, package-lock.json, .npmrc>/
        server/static/ widget/docusaurus-plugin/ sample-book/   laid out as the repository is
        sample-book/node_modules/                              `npm ci`, once per lock file
        builds/<hash of all that goes into a build>/           one built site each

A build copies the checkout's sample book, plugin folder and built widget scripts
(server/static/widget*.js) into the workspace, packs the plugin (`npm pack`, whose prepare copies
the scripts into the package) and installs the tarball (`npm install --no-save`), then runs
`docusaurus build`. A cold workspace takes one to two minutes (about 340 MB from the npm registry), a
build 10 to 30 s, a cached build nothing; a fresh clone on the same machine finds them by content.

The pages of a build talk to the chat server named at build time (API below, `make run`'s, unless
TEXTBOOK_CHAT_API is set); StaticSite serves a build as a static host does and points its pages
at another one.

    python tests/sample_site.py [--out DIR]    build (or find) it, print its folder, copy it to DIR
"""
from __future__ import annotations

import argparse
import fcntl
import functools
import hashlib
import mimetypes
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable
from urllib.parse import unquote, urlsplit

REPO = Path(__file__).resolve().parents[1]
SAMPLE_BOOK = REPO / "sample-book"
PLUGIN = REPO / "widget" / "docusaurus-plugin"
STATIC = REPO / "server" / "static"
CACHE = Path(os.environ.get("TEXTBOOK_CHAT_SITE_CACHE", Path.home() / ".cache" / "textbook-chat" / "sites"))
API = "http://127.0.0.1:8000"  # the sample site's default apiUrl (docusaurus.config.mjs), `make run`'s server
SITE_URL = "http://127.0.0.1:8000/"  # its url + baseUrl: the plugin's data-site-url
PLUGIN_NAME = "docusaurus-plugin-textbook-chat"
LOADER = "textbook-chat/widget.js"  # where the plugin copies the loader in the build (index.js FOLDER)
_SKIP = {"node_modules", "build", ".docusaurus", "dist"}
_SCRIPT = re.compile(r"^widget(?:-[\w.-]+)?\.js(?:\.gz|\.br)?$")  # the plugin's SCRIPT
_DEPENDENCIES = ("package.json", "package-lock.json", ".npmrc")
_KEEP_BUILDS_S = 24 * 3600  # older builds of a workspace are removed when a new one is made


from server.ingest.build import SiteBuildError, run_node  # noqa: E402


def _files(folder: Path, pattern: re.Pattern | None = None) -> list[Path]:
    """The files of a folder that go into a build, without installs and outputs."""
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if (rel.parts[0] in _SKIP or not path.is_file() or path.suffix == ".tgz"
                or (pattern and not pattern.match(path.name))):
            continue
        found.append(path)
    return found


def _sources(root: Path = REPO) -> dict[str, list[Path]]:
    """The folders a build is made of, and their files under `root` (the checkout or a workspace)."""
    return {"sample-book": _files(root / "sample-book"), "widget/docusaurus-plugin": _files(root / "widget" / "docusaurus-plugin"),
            "server/static": _files(root / "server" / "static", _SCRIPT)}


def _hash(parts: list[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256()
    for name, data in parts:
        digest.update(name.encode() + b"\0" + data + b"\0")
    return digest.hexdigest()[:12]


def dependencies_key() -> str:
    """What `npm ci` installs depends on: the site's package.json, lock file and npm settings."""
    return _hash([(name, (SAMPLE_BOOK / name).read_bytes()) for name in _DEPENDENCIES if (SAMPLE_BOOK / name).is_file()])


def build_key(root: Path = REPO, api_url: str = API) -> str:
    """Everything a build is made of: the sample book, the plugin, the widget scripts (under `root`,
    the checkout or a workspace), the API URL."""
    parts = [("api", api_url.encode())]
    for folder, files in _sources(root).items():
        parts += [(f"{folder}/{p.relative_to(root / folder).as_posix()}", p.read_bytes()) for p in files]
    return _hash(parts)


_run = run_node  # the product's own runner of npm and npx (server/ingest/build.py)


def _copy_sources(workspace: Path) -> None:
    """Put the checkout's sources in the workspace (its node_modules/ stays)."""
    for folder, files in _sources().items():
        target, root = workspace / folder, REPO / folder
        if target.is_dir():
            for child in target.iterdir():
                if child.name != "node_modules":
                    shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
        for path in files:
            dest = target / path.relative_to(root)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)


def pack_plugin(destination: Path, plugin_dir: Path = PLUGIN, log: Callable[[str], None] = lambda _m: None) -> Path:
    """`npm pack` of the plugin's folder into `destination`: the tarball. Its prepare script takes the
    widget scripts from the server/static folder two levels up (a checkout, or a workspace here)."""
    destination.mkdir(parents=True, exist_ok=True)
    for old in destination.glob(f"{PLUGIN_NAME}-*.tgz"):
        old.unlink()
    _run(["npm", "pack", "--pack-destination", str(destination.resolve())], plugin_dir, log, timeout_s=300)
    tarballs = sorted(destination.glob(f"{PLUGIN_NAME}-*.tgz"))
    if len(tarballs) != 1:
        raise SiteBuildError(f"npm pack left {[t.name for t in tarballs]} in {destination}")
    return tarballs[0]


def _prune(builds: Path, keep: Path) -> None:
    for build in builds.iterdir() if builds.is_dir() else []:
        stamp = build / ".textbook-chat-built"
        if build != keep and (not stamp.is_file() or time.time() - stamp.stat().st_mtime > _KEEP_BUILDS_S):
            shutil.rmtree(build, ignore_errors=True)


def sample_site(api_url: str = API, log: Callable[[str], None] = lambda _m: None) -> Path:
    """The folder of the sample site's build (index.html, book/docs/…, textbook-chat/widget.js)."""
    if not shutil.which("npm"):
        raise SiteBuildError("npm is not installed: Node.js 20+ builds the sample site")
    workspace = CACHE / f"sample-site-{dependencies_key()}"
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / f"{workspace.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time per workspace, across test processes
        site = workspace / "sample-book"
        installed = workspace / ".npm-installed"
        if not installed.is_file():
            shutil.rmtree(workspace, ignore_errors=True)
            _copy_sources(workspace)
            # the plugin, a file: dependency, is packed by npm (.npmrc: install-links)
            _run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], site, log, timeout_s=1200)
            installed.write_text("ok\n")
        # the key of what is copied (the widget scripts may be rebuilt in the checkout meanwhile)
        _copy_sources(workspace)
        build = workspace / "builds" / build_key(workspace, api_url)
        if (build / ".textbook-chat-built").is_file():
            return build
        shutil.rmtree(workspace / "packs", ignore_errors=True)  # a tarball path of its own: npm installs it anew
        tarball = pack_plugin(workspace / "packs" / build.name, workspace / "widget" / "docusaurus-plugin", log)
        _run(["npm", "install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", str(tarball)],
             site, log, timeout_s=600)
        installed_plugin = site / "node_modules" / PLUGIN_NAME
        for rel, source in (("index.js", workspace / "widget" / "docusaurus-plugin" / "index.js"),
                            ("dist/widget.js", workspace / "server" / "static" / "widget.js")):
            if (installed_plugin / rel).read_bytes() != source.read_bytes():
                raise SiteBuildError(f"{installed_plugin / rel} is not the checkout's {source} after npm install")
        shutil.rmtree(build, ignore_errors=True)
        try:
            _run(["npx", "--no-install", "docusaurus", "build", "--out-dir", str(build)], site, log, timeout_s=900,
                 TEXTBOOK_CHAT_API=api_url)
        except BaseException:
            shutil.rmtree(build, ignore_errors=True)
            raise
        (build / ".textbook-chat-built").write_text(f"{tarball.name}\n")
        _prune(workspace / "builds", build)
    return build


# --- serving a build ------------------------------------------------------------------------

Route = Callable[[], tuple[int, dict, bytes]]  # () -> (status, headers, body)


class StaticSite:
    """A build served as a static host serves it (nginx `try_files $uri $uri/index.html $uri.html`,
    else 404.html), its pages pointed at the chat server `api_url`: the plugin wrote the build's
    API into every page's script tag (data-api), and each HTML response names `api_url` instead.
    `routes` add pages of a test's own, by path."""

    def __init__(self, build: Path, api_url: str, *, port: int = 0, built_api: str = API,
                 routes: dict[str, Route] | None = None):
        self.build = Path(build).resolve()
        self.api_url = api_url.rstrip("/")
        self.routes = dict(routes or {})
        self._data_api = re.compile(r"""\bdata-api=(["']?)""" + re.escape(built_api.rstrip("/")) + r"""\1(?=[\s>])""")
        self.server = ThreadingHTTPServer(("127.0.0.1", port), functools.partial(_Handler, self))
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True, name=f"static-{self.url}").start()

    def file_of(self, path: str) -> Path | None:
        rel = unquote(urlsplit(path).path).lstrip("/")
        for candidate in (rel, f"{rel.rstrip('/')}/index.html", f"{rel}.html"):
            file = (self.build / candidate).resolve()
            if file.is_file() and file.is_relative_to(self.build):
                return file
        return None

    def html(self, path: str) -> str:
        """The page at `path` as the server sends it."""
        file = self.file_of(path)
        assert file is not None and file.suffix == ".html", f"no page at {path}"
        return self._data_api.sub(f'data-api="{self.api_url}"', file.read_text(encoding="utf-8"))

    def response(self, path: str) -> tuple[int, dict, bytes]:
        route = self.routes.get(unquote(urlsplit(path).path))
        if route is not None:
            return route()
        file = self.file_of(path)
        status = 200
        if file is None:
            status, file = 404, self.build / "404.html"
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        body = self.html(file.relative_to(self.build).as_posix()).encode() if file.suffix == ".html" else file.read_bytes()
        return status, {"Content-Type": kind + ("; charset=utf-8" if kind.startswith("text/") else "")}, body

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class _Handler(BaseHTTPRequestHandler):
    def __init__(self, site: StaticSite, *args, **kwargs):
        self.site = site
        super().__init__(*args, **kwargs)

    def do_GET(self):  # noqa: N802 - the base class's naming
        self._send(head=False)

    def do_HEAD(self):  # noqa: N802
        self._send(head=True)

    def _send(self, head: bool) -> None:
        status, headers, body = self.site.response(self.path)
        self.send_response(status)
        for name, value in {"Cache-Control": "no-cache", **headers, "Content-Length": str(len(body))}.items():
            self.send_header(name, value)
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description="Build (or find in the cache) the sample book's Docusaurus site.")
    parser.add_argument("--out", type=Path, help="copy the build to this folder (replacing it)")
    parser.add_argument("--api", default=os.environ.get("TEXTBOOK_CHAT_API", API),
                        help="the chat server the pages talk to (default: $TEXTBOOK_CHAT_API, else %(default)s)")
    args = parser.parse_args()
    started = time.monotonic()
    try:
        build = sample_site(args.api, log=lambda m: print(m, file=sys.stderr))
    except SiteBuildError as exc:
        sys.exit(f"sample site: {exc}")
    if args.out:
        shutil.rmtree(args.out, ignore_errors=True)
        shutil.copytree(build, args.out, ignore=shutil.ignore_patterns(".textbook-chat-built"))
        build = args.out
    print(f"sample site built in {time.monotonic() - started:.0f} s (its pages talk to {args.api}):", file=sys.stderr)
    print(build)


if __name__ == "__main__":
    main()
