"""Screenshots of the widget's states for docs/widget-*.png, desktop (1280×800) and phone
(390×844; the README's own docs/screenshot.png comes from scripts/readme_screenshot.py), taken
from the real server: the sample book indexed into a temporary folder, `textbook-chat serve
--demo`, headless Chromium. Answers are the extractive ones (no API key), so they are the same
on every run.

    make screenshots        # or: .venv/bin/python widget/scripts/screenshots.py
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
BOOK = REPO / "sample-book"
CLI = REPO / ".venv" / "bin" / "textbook-chat"
PAGE = "/book/docs/foundations/sampling-and-aliasing"
QUESTION = "What is aliasing?"
DESKTOP, PHONE = (1280, 800), (390, 844)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(data: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "TEXTBOOK_CHAT_DATA_DIR": str(data), "TEXTBOOK_CHAT_MODELS_DIR": os.environ.get("TEXTBOOK_CHAT_MODELS_DIR") or str(Path.home() / ".cache" / "textbook-chat" / "models"),
           "RATE_LIMIT": "1000 per minute"}
    env.pop("GEMINI_API_KEY", None), env.pop("GOOGLE_API_KEY", None)
    subprocess.run([str(CLI), "ingest", str(BOOK), "--site-url", f"http://127.0.0.1:{port}"], env=env, check=True,
                   capture_output=True)
    server = subprocess.Popen([str(CLI), "serve", "--port", str(port), "--demo", str(BOOK)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1)
            return server
        except OSError:
            time.sleep(0.1)
    server.terminate()
    sys.exit("the server did not start")


def ask(page: Page, question: str) -> None:
    page.locator("#tc-input").fill(question)
    page.locator("#tc-input").press("Enter")
    expect(page.locator("article.msg.bot").last).to_have_class(re.compile(r"\b(done|refused)\b"), timeout=30_000)


def shoot(page: Page, name: str, top: bool = True) -> None:
    """Save docs/<name>.png, the log scrolled to its start and no focus ring or hover."""
    page.evaluate("""(top) => {
        const root = document.getElementById('textbook-chat').shadowRoot;
        root.activeElement && root.activeElement.blur();
        const log = root.getElementById('tc-log');
        if (log && top) log.scrollTop = 0;
        return document.fonts.ready;
    }""", top)
    page.mouse.move(0, 0)
    page.screenshot(path=DOCS / f"{name}.png")
    print(f"docs/{name}.png")


def urdu(route) -> None:
    html = route.fetch().text()
    route.fulfill(body=re.sub(r' data-title="[^"]*"', "", html).replace('<html lang="en"', '<html lang="ur"', 1),
                  content_type="text/html")


def states(browser, base: str) -> None:
    def new(size, **options) -> Page:
        context = browser.new_context(viewport={"width": size[0], "height": size[1]}, **options)
        context.set_default_timeout(30_000)
        return context.new_page()

    page = new(DESKTOP)  # suggested questions, and an answer the book does not cover
    page.goto(base + PAGE)
    page.locator("#tc-bubble").click()
    expect(page.locator("#tc-suggest .chip").first).to_be_visible()
    shoot(page, "widget-suggested-questions")
    ask(page, QUESTION)  # (an answer with its sources: docs/screenshot.png, by make screenshot)
    ask(page, "What is the capital of Australia?")
    shoot(page, "widget-not-covered", top=False)
    page.context.close()

    page = new(DESKTOP)  # a selection made with the keyboard, and the tooltip's shortcut
    page.goto(base + PAGE)
    page.evaluate("""() => {
        const p = [...document.querySelectorAll('main article p')].find((e) => e.textContent.includes('does not disappear'));
        p.scrollIntoView({block: 'center'});
        const t = p.firstChild;
        getSelection().setBaseAndExtent(t, 0, t, t.data.indexOf('disappear.') + 10);
    }""")
    expect(page.locator("#tc-ask")).to_be_visible()
    shoot(page, "widget-ask-about-this")
    page.locator("#tc-ask").click()
    ask(page, "Why does this happen?")
    shoot(page, "widget-passage-asked")
    page.context.close()

    page = new(DESKTOP)  # math quoted from the book
    page.goto(base + "/book/docs/practice/formula-sheet")
    page.locator("#tc-bubble").click()
    ask(page, "What is the wavelength of a sound tone?")
    shoot(page, "widget-math")
    page.context.close()

    page = new(PHONE, has_touch=True)  # phone: full-screen panel, then an Urdu page right to left
    page.goto(base + PAGE)
    page.locator("#tc-bubble").click()
    ask(page, QUESTION)
    shoot(page, "widget-phone")
    page.context.close()
    page = new(PHONE, has_touch=True)
    page.route(base + PAGE, urdu)
    page.goto(base + PAGE)
    page.locator("#tc-bubble").click()
    expect(page.locator("#tc-suggest .chip").first).to_be_visible()
    shoot(page, "widget-phone-urdu")
    page.context.close()


def main() -> None:
    port = free_port()
    data = Path(tempfile.mkdtemp(prefix="tc-screenshots-"))
    server = start_server(data / "data", port)
    try:
        with sync_playwright() as p:
            executable = os.environ.get("TEXTBOOK_CHAT_CHROMIUM") or shutil.which("chromium")
            browser = p.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox", "--disable-gpu"])
            DOCS.mkdir(exist_ok=True)
            states(browser, f"http://127.0.0.1:{port}")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
