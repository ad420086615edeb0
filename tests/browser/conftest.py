"""Browser tests: the real server (waitress, in a thread) serving the sample book's demo pages,
the widget and the API on one origin, driven by headless Chromium through Playwright.

One indexed sample book, two servers and one browser per session; a fresh browser context
(so fresh localStorage) per test. Screenshots of failed tests go to tests/artifacts/.

Chromium: $TEXTBOOK_CHAT_CHROMIUM, else a `chromium` on PATH, else Playwright's own browser.
"""
from __future__ import annotations

import os
import re
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from flask import Flask, Response
from playwright.sync_api import Browser, Page, sync_playwright

from apps import index_book, make_app
from fakes import RecordingGenerator
from places import SAMPLE_BOOK
from processes import free_port
from server.serving.demo import register_demo
from server.ingest.indexer import default_book_id
from server.ingest.site import detect_site
from server.serving.wsgi import make_server
from widget_pages import DEMO_PAGE

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

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
    app: Flask
    port: int
    generator: object = None
    server: object = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def state(self):
        return self.app.extensions["textbook_chat"]

    def page_url(self, path: str = DEMO_PAGE) -> str:
        return self.url + path

    def storage_key(self) -> str:
        return f"textbook-chat:v1:{self.url}:{self.book_id}"

    @property
    def book_id(self) -> str:
        return default_book_id(detect_site(SAMPLE_BOOK))


def _start(app: Flask, port: int, generator=None) -> LiveServer:
    register_demo(app, str(SAMPLE_BOOK))
    demo_view = app.view_functions["demo_book"]

    def hostile():
        page = demo_view(rest=DEMO_PAGE.removeprefix("/book/"))
        # a host site's page, with a policy of its own that lets its inline styles apply
        return Response(page.get_data(as_text=True).replace("</head>", HOSTILE_CSS + "</head>", 1),
                        mimetype="text/html",
                        headers={"Content-Security-Policy": "script-src 'self'; style-src 'self' 'unsafe-inline'"})

    app.add_url_rule("/hostile", "hostile", hostile)
    server = make_server(app, "127.0.0.1", port, threads=8)
    threading.Thread(target=server.run, daemon=True, name=f"waitress-{port}").start()
    return LiveServer(app, int(server.effective_port), generator, server)


@pytest.fixture(scope="session")
def live_port() -> int:
    # Chosen before indexing: the index records absolute page URLs, and citation links must
    # open this server's demo pages.
    return free_port()


@pytest.fixture(scope="session")
def served_book(tmp_path_factory, embedder, live_port):
    """The sample book indexed with the live server's address, so citations open its demo pages."""
    book = index_book(tmp_path_factory.mktemp("browser-index") / "data", embedder, SAMPLE_BOOK,
                      site_url=f"http://127.0.0.1:{live_port}")
    yield book
    book.index.close()


@pytest.fixture(scope="session")
def live(tmp_path_factory, served_book, live_port):
    """The real app with the extractive generator (answers quoted from the book)."""
    server = _start(make_app(served_book, tmp_path_factory.mktemp("live") / "data"), live_port)
    yield server
    server.server.close()


@pytest.fixture(scope="session")
def _scripted_server(tmp_path_factory, served_book):
    generator = RecordingGenerator()
    server = _start(make_app(served_book, tmp_path_factory.mktemp("scripted") / "data", generator), free_port(), generator)
    yield server
    server.server.close()


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
