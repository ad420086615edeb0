"""Take the README's screenshot (docs/screenshot.png): the sample book's demo page with the
chat panel open and a streamed, cited answer from the extractive generator.

    make screenshot            # or: .venv/bin/python scripts/readme_screenshot.py [--out FILE]

Everything is real: the sample book is indexed into a temporary folder, served by waitress
with its demo pages on one origin, and driven by headless Chromium through Playwright
(`$TEXTBOOK_CHAT_CHROMIUM`, else a `chromium` on PATH, else Playwright's own browser).
Run it after changing how the widget looks; review the new image before committing it.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import sys
import tempfile
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE_BOOK = REPO / "sample-book"
PAGE = "/book/docs/foundations/sampling-and-aliasing"
QUESTION = "What is aliasing?"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve_sample_book(data_dir: Path, port: int):
    """The real app over a fresh index of the sample book, with its demo pages, on `port`."""
    from server.app import create_app
    from server.composition import Components, Index
    from server.serving.demo import register_demo
    from server.embedding.embedder import load_embedder
    from server.ingest.indexer import ingest
    from server.ingest.site import detect_site
    from server.settings import load_settings
    from server.store import ChunkStore
    from server.serving.wsgi import make_server

    configured = load_settings()
    settings = configured.with_overrides(data_dir=data_dir, models_dir=configured.model_dir_root.resolve(),
                                         qdrant_url=None, database_url=None, gemini_api_key=None)
    embedder = load_embedder(settings, log=lambda line: print(line, file=sys.stderr))
    store = ChunkStore.open(settings, embedder.model_name, embedder.dim)
    # the index records absolute page URLs: citation links must open this server's pages
    ingest(detect_site(SAMPLE_BOOK, site_url=f"http://127.0.0.1:{port}"), store, embedder, progress=False)
    index = Index(embedder, store)
    app = create_app(settings, components=Components.build(settings, index=index))
    register_demo(app, str(SAMPLE_BOOK))
    server = make_server(app, "127.0.0.1", port, threads=4)
    threading.Thread(target=server.run, daemon=True, name="waitress").start()
    return server, index


def take(url: str, out: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    executable = os.environ.get("TEXTBOOK_CHAT_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
            page.set_default_timeout(30_000)
            page.goto(url)
            page.locator("#tc-bubble").click()
            page.locator("#tc-input").fill(QUESTION)
            page.locator("#tc-input").press("Enter")
            answer = page.locator("article.msg.bot").last
            expect(answer).to_have_class(re.compile(r"\bdone\b"), timeout=60_000)
            expect(answer.locator(".sources a.source").first).to_be_visible()
            # Start the log at the question (it is pinned to the end of the answer), without focus rings.
            page.evaluate("""() => {
                const root = document.getElementById('textbook-chat').shadowRoot;
                root.activeElement && root.activeElement.blur();
                root.getElementById('tc-log').scrollTop = 0;
                return document.fonts.ready;
            }""")
            page.mouse.move(0, 0)
            out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=out)
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshot.png", help="where to write the PNG")
    args = parser.parse_args(argv)
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="textbook-chat-screenshot-") as data_dir:
        server, index = serve_sample_book(Path(data_dir), port)
        try:
            take(f"http://127.0.0.1:{port}{PAGE}", args.out)
        finally:
            server.close()
            index.close()
    size = args.out.stat().st_size
    if size < 20_000:
        print(f"{args.out}: only {size} bytes, the page did not render as expected", file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
