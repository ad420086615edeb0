"""Browser tests: the sample book's real Docusaurus build (`make sample-site`, tests/sample_site.py:
the plugin installed from its npm pack tarball, cached by content) served as a static host serves
it, its pages talking to the real chat server (waitress, in a thread) on another port, driven by
headless Chromium through Playwright.

The pages are the build's own, with the script tag the plugin wrote (the loader copied into the
build, /textbook-chat/widget.js); the static server only points its data-api at the test's chat
server. `?rerender=1` on a page makes its article re-render 200 ms after load, for that page and
every page opened after it in the tab (sample-book/src/theme/DocItem/Content): <html
data-rerendered="1"> once it has.

One indexed sample book, two chat servers each with its site, and one browser per session; a fresh
browser context (so fresh localStorage) per test. Screenshots of failed tests go to tests/artifacts/.

Chromium: $TEXTBOOK_CHAT_CHROMIUM, else a `chromium` on PATH, else Playwright's own browser.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, sync_playwright

from apps import index_book, make_app
from fakes import RecordingGenerator
from places import SAMPLE_BOOK
from processes import free_port
from sample_site import StaticSite, sample_site
from server.ingest.indexer import default_book_id
from server.ingest.site import detect_site
from server.serving.wsgi import make_server
from widget_pages import DEMO_PAGE, without_site_scripts

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
# A page a test serves itself (Playwright's route.fulfill) has no address space of its own, and
# Chromium's local network access checks then refuse its requests to the chat server on loopback;
# pages from the sample site's server are on loopback, as the chat server is.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests"]

# A host page that tries hard to break everything it can reach.
HOSTILE_CSS = """<style>
* { all: unset !important; font-size: 40px !important; color: red !important; display: block !important;
    line-height: 3 !important; letter-spacing: 4px !important; text-transform: uppercase !important;
    box-sizing: content-box !important; pointer-events: none !important; }
div { position: static !important; width: 10px !important; visibility: hidden !important; }
button { display: none !important; }
svg, path { width: 300px !important; height: 300px !important; }
textarea, input { visibility: hidden !important; }
</style>"""


@dataclass
class LiveServer:
    """The chat server (`api_url`) and the sample site whose pages talk to it (`url`)."""
    app: Flask
    site: StaticSite
    generator: object = None
    server: object = field(default=None, repr=False)

    @property
    def url(self) -> str:
        """The origin the book's pages are served from (what the reader's browser is on)."""
        return self.site.url

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.server.effective_port}"

    @property
    def state(self):
        return self.app.extensions["textbook_chat"]

    def page_url(self, path: str = DEMO_PAGE) -> str:
        return self.url + path

    def close(self) -> None:
        self.site.close()
        self.server.close()

    def storage_key(self) -> str:
        return f"textbook-chat:v1:{self.url}:{self.book_id}"

    @property
    def book_id(self) -> str:
        return default_book_id(detect_site(SAMPLE_BOOK))


def origins(site_port: int) -> tuple[str, ...]:
    """The origins a site on this port is opened from: the chat server allows them (CORS)."""
    return (f"http://127.0.0.1:{site_port}", f"http://localhost:{site_port}")


def _hostile(site: StaticSite):
    """/hostile: the built page of DEMO_PAGE as a static page (the site's own scripts left out, the
    widget's tag kept) with CSS that tries to break everything, and a policy of its own that lets
    its inline styles apply."""
    def page():
        html = without_site_scripts(site.html(DEMO_PAGE)).replace("</head>", HOSTILE_CSS + "</head>", 1)
        return 200, {"Content-Type": "text/html; charset=utf-8",
                     "Content-Security-Policy": "script-src 'self'; style-src 'self' 'unsafe-inline'"}, html.encode()
    return page


def _start(app: Flask, build: Path, site_port: int, generator=None) -> LiveServer:
    server = make_server(app, "127.0.0.1", free_port(), threads=8)
    threading.Thread(target=server.run, daemon=True, name=f"waitress-{server.effective_port}").start()
    site = StaticSite(build, f"http://127.0.0.1:{server.effective_port}", port=site_port)
    site.routes["/hostile"] = _hostile(site)
    return LiveServer(app, site, generator, server)


@pytest.fixture(scope="session")
def sample_site_build() -> Path:
    """The sample book's Docusaurus build (cached by content: tests/sample_site.py)."""
    return sample_site(log=lambda m: print(m, file=sys.stderr))


@pytest.fixture(scope="session")
def live_port() -> int:
    # The sample site's port, chosen before indexing: the index records absolute page URLs, and
    # citation links must open this site's pages.
    return free_port()


@pytest.fixture(scope="session")
def served_book(tmp_path_factory, embedder, live_port):
    """The sample book indexed with the live site's address, so citations open its built pages."""
    book = index_book(tmp_path_factory.mktemp("browser-index") / "data", embedder, SAMPLE_BOOK,
                      site_url=f"http://127.0.0.1:{live_port}")
    yield book
    book.index.close()


@pytest.fixture(scope="session")
def live(tmp_path_factory, served_book, live_port, sample_site_build):
    """The real app with the extractive generator (answers quoted from the book), and the sample
    site on live_port talking to it."""
    app = make_app(served_book, tmp_path_factory.mktemp("live") / "data", allowed_origins=origins(live_port))
    server = _start(app, sample_site_build, live_port)
    yield server
    server.close()


@pytest.fixture(scope="session")
def _scripted_server(tmp_path_factory, served_book, sample_site_build):
    generator = RecordingGenerator()
    site_port = free_port()
    app = make_app(served_book, tmp_path_factory.mktemp("scripted") / "data", generator, allowed_origins=origins(site_port))
    server = _start(app, sample_site_build, site_port, generator)
    yield server
    server.close()


@pytest.fixture
def scripted(_scripted_server):
    """The real app with a RecordingGenerator: set `.generator.answer` / `.delay_s` in the test."""
    generator = _scripted_server.generator
    yield _scripted_server
    generator.answer, generator.delay_s = "Here is the answer [1].", 0.0
    generator.inputs.clear()
    generator.cancelled.clear()


@pytest.fixture(scope="session")
def browser() -> Browser:
    executable = os.environ.get("TEXTBOOK_CHAT_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def on_console(page: Page, message) -> None:
    url = message.location.get("url", "")
    # The demo pages have no icon; the browser's own request for one is not the widget's doing.
    if message.type == "error" and not url.endswith("/favicon.ico"):
        page.errors.append(f"console: {message.text} ({url})")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture
def new_page(browser, request):
    """new_page(width=1280, height=800) -> a page in a fresh context; `page.errors` collects
    console errors and uncaught exceptions. Failed tests leave screenshots in tests/artifacts/."""
    contexts = []

    def make(width: int = 1280, height: int = 800, **options) -> Page:
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []  # console errors and uncaught exceptions, as text
        page.on("console", lambda m: on_console(page, m))
        page.on("pageerror", lambda e: page.errors.append(f"pageerror: {e}"))
        return page

    yield make
    failed = any(getattr(getattr(request.node, f"rep_{w}", None), "failed", False) for w in ("setup", "call"))
    for i, context in enumerate(contexts):
        if failed:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            name = re.sub(r"[^\w.-]+", "_", request.node.name)
            for j, page in enumerate(context.pages):
                try:
                    page.screenshot(path=ARTIFACTS / f"{name}-{i}-{j}.png")
                except Exception:  # a crashed or closed page: nothing to show
                    pass
        context.close()


@pytest.fixture
def page(new_page) -> Page:
    return new_page()
