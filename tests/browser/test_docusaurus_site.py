"""End to end: a real Docusaurus site, built from npm with our plugin, answers a question in Chromium.

The site is tests/docusaurus-site (Docusaurus 3: core, the classic theme, the docs plugin and
Docusaurus Faster; exact versions in its package-lock.json). The module:

1. runs `npm ci` there when node_modules is missing or does not match package-lock.json
   (tests/docusaurus_site.py),
2. starts a static file server for the build and the real chat server (sample book, extractive
   answers, CORS open to the static server's origin),
3. builds the site with TEXTBOOK_CHAT_API pointing at the chat server, so the plugin's script tag (data-api)
   points there,
4. opens a built page in Chromium, asks a question through the widget and checks the answer.

Cost: `npm ci` takes one to two minutes with an empty npm cache (about 340 MB of node_modules),
the build about ten seconds (Docusaurus Faster). Without npm, the tests fail.
"""
from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import threading
from dataclasses import dataclass
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from apps import index_book, make_app
from docusaurus_site import SITE, install_packages
from server.serving.wsgi import make_server

BOOK_ID = "sample-book"  # docusaurus.config.js
QUESTION = "What is the Nyquist rate?"
INSIGHTS_TOKEN = "the-author-of-this-site"
TIMEOUT_MS = 30_000
PRODUCTION = "https://textbook-chat.example.org"  # docusaurus.config.js url; the test serves the build on 127.0.0.1


def _run(command: list[str], timeout_s: int, env: dict | None = None) -> None:
    """Run a command in the site folder; on failure, fail the test with the end of its output."""
    try:
        result = subprocess.run(command, cwd=SITE, env=env, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        pytest.fail(f"`{' '.join(command)}` took more than {timeout_s} s")
    if result.returncode != 0:
        output = (result.stdout + "\n" + result.stderr).strip()[-4000:]
        pytest.fail(f"`{' '.join(command)}` failed with exit code {result.returncode}:\n{output}")


def _node_env(**extra: str) -> dict:
    return {**os.environ, "NO_UPDATE_NOTIFIER": "1", "npm_config_update_notifier": "false",
            "npm_config_fund": "false", "npm_config_audit": "false", **extra}


@pytest.fixture(scope="module")
def site_packages() -> None:
    """node_modules matching package-lock.json (made ahead while other tests run: tests/builds_ahead.py)."""
    install_packages()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        pass


@dataclass
class Site:
    url: str  # the static server's origin
    api_url: str  # the chat server's origin, baked into the build
    build_dir: Path


@pytest.fixture(scope="module")
def docusaurus(site_packages, sample_book, tmp_path_factory):
    """The built site on a static server, and the chat server it talks to."""
    build_dir = tmp_path_factory.mktemp("docusaurus-build")
    static = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(build_dir)))
    static.daemon_threads = True
    site_url = f"http://127.0.0.1:{static.server_address[1]}"
    threading.Thread(target=static.serve_forever, daemon=True, name="docusaurus-static").start()

    # The real app: the indexed sample book, the extractive generator (no API key in these
    # settings), and CORS open to the site's origin only.
    app = make_app(sample_book, tmp_path_factory.mktemp("docusaurus-api") / "data", allowed_origins=(site_url,),
                   insights_token=INSIGHTS_TOKEN)
    api = make_server(app, "127.0.0.1", 0, threads=4)
    threading.Thread(target=api.run, daemon=True, name="docusaurus-api").start()
    api_url = f"http://127.0.0.1:{api.effective_port}"

    try:
        _run(["npm", "run", "build", "--", "--out-dir", str(build_dir)], timeout_s=900,
             env=_node_env(TEXTBOOK_CHAT_API=api_url))
        yield Site(site_url, api_url, build_dir)
    finally:
        api.close()
        static.shutdown()
        static.server_close()


def _widget_messages(page: Page) -> list[str]:
    """Console messages of any type that the widget wrote (they all start with its tag)."""
    messages: list[str] = []
    page.on("console", lambda m: m.text.startswith("[textbook-chat]") and messages.append(f"{m.type}: {m.text}"))
    return messages


class _Scripts(HTMLParser):
    """The attributes of every <script> in a page (the minified HTML leaves most unquoted)."""

    def __init__(self, html: str):
        super().__init__()
        self.scripts: list[dict] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.scripts.append(dict(attrs))


def test_the_build_has_the_plugin_script_tag_on_every_page(docusaurus):
    pages = sorted(docusaurus.build_dir.rglob("index.html"))
    assert {p.parent.relative_to(docusaurus.build_dir).as_posix() for p in pages} >= {".", "sampling", "filters"}
    for html in pages:
        scripts = _Scripts(html.read_text(encoding="utf-8")).scripts
        tags = [s for s in scripts if re.search(r"/widget\.js(\?|$)", s.get("src") or "")]
        assert len(tags) == 1, f"{html}: {scripts}"
        assert tags[0].keys() == {"src", "defer", "data-api", "data-book-id", "data-site-url"}, tags[0]
        assert tags[0]["data-site-url"] == PRODUCTION + "/"  # the config's url and baseUrl
        # the loader copied into the build (a translation's under its own base), the API the chat server's
        locale = "/ur" if html.relative_to(docusaurus.build_dir).parts[0] == "ur" else ""
        assert re.fullmatch(rf"{locale}/textbook-chat/widget\.js\?v=[0-9a-f]{{10}}", tags[0]["src"]), tags[0]
        assert tags[0]["data-api"] == docusaurus.api_url and tags[0]["data-book-id"] == BOOK_ID
    for folder in ("", "ur/"):
        assert {p.name for p in (docusaurus.build_dir / folder / "textbook-chat").iterdir()} >= {
            "widget.js", "widget-panel.js", "widget-insights.js"}


def test_a_docusaurus_page_loads_the_widget_and_answers(docusaurus, new_page):
    page = new_page()
    widget_messages = _widget_messages(page)
    page.goto(docusaurus.url + "/sampling/")
    expect(page.locator("h1")).to_have_text("Sampling")

    # The tag the plugin injected, as the browser sees it
    script = page.locator('script[src*="/widget.js"]')
    expect(script).to_have_count(1)
    assert script.get_attribute("src").startswith("/textbook-chat/widget.js?v=")  # from the site itself
    assert script.get_attribute("data-api") == docusaurus.api_url
    assert script.get_attribute("data-book-id") == BOOK_ID

    # The widget mounted in its open shadow root (locators pierce it)
    expect(page.locator("div#textbook-chat")).to_have_count(1, timeout=TIMEOUT_MS)
    assert page.evaluate("document.getElementById('textbook-chat').shadowRoot.mode") == "open"
    assert page.evaluate("textbookChat.config.bookId") == BOOK_ID
    bubble = page.locator("#tc-bubble")
    expect(bubble).to_be_visible()

    bubble.click()
    page.locator("#tc-input").fill(QUESTION)
    page.locator("#tc-input").press("Enter")
    answer = page.locator("article.msg.bot").last
    expect(answer).to_have_class(re.compile(r"\bdone\b"), timeout=TIMEOUT_MS)
    expect(answer).not_to_have_class(re.compile(r"\brefused\b"))
    text = answer.locator(".answer").inner_text().strip()
    assert "Nyquist" in text, text
    sources = answer.locator(".sources a.source")
    assert sources.count() >= 1
    assert any("sampling-and-aliasing" in (sources.nth(i).get_attribute("href") or "")
               for i in range(sources.count()))

    # Docusaurus client-side navigation keeps the widget and the conversation
    page.locator("nav a.menu__link", has_text="Filters").click()
    expect(page.locator("h1")).to_have_text("Filters")
    assert page.url == docusaurus.url + "/filters"
    expect(page.locator("div#textbook-chat")).to_have_count(1)
    expect(page.locator("article.msg.bot.done")).to_have_count(1)
    expect(page.locator("#tc-bubble")).to_be_visible()

    assert page.errors == [], page.errors  # console errors (React hydration too) and uncaught exceptions
    assert widget_messages == [], widget_messages


def test_the_widget_on_a_docusaurus_page_keyboard_suggestions_and_what_it_sends(docusaurus, new_page):
    page = new_page()
    page.goto(docusaurus.url + "/sampling/")
    bubble = page.locator("#tc-bubble")
    expect(bubble).to_be_visible(timeout=TIMEOUT_MS)
    # First in the tab order, before the theme's own skip link; the shortcut in its tooltip
    page.keyboard.press("Tab")
    expect(bubble).to_be_focused()
    expect(bubble).to_have_attribute("aria-keyshortcuts", "Control+/")
    page.keyboard.press("Enter")
    expect(page.locator("#tc-input")).to_be_focused()
    # Suggested questions: about the page itself, then from its headings (without the theme's "#" permalinks)
    chip = page.locator("#tc-suggest button.chip").nth(2)
    expect(chip).to_have_text("Explain “The sampling theorem”")
    with page.expect_request(lambda r: r.url.endswith("/chat") and r.method == "POST") as sent:
        chip.click()
    body = json.loads(sent.value.post_data)
    assert body["filters"] == {"book_id": BOOK_ID}
    assert body["metadata"]["locale"] == "en" and body["metadata"]["docs_version"] == "current"
    answer = page.locator("article.msg.bot").last
    expect(answer).to_have_class(re.compile(r"\bdone\b"), timeout=TIMEOUT_MS)
    assert page.errors == [], page.errors


def test_a_line_of_a_docusaurus_code_block_is_asked_about_with_the_blocks_language(docusaurus, new_page):
    page = new_page()
    page.goto(docusaurus.url + "/filters/")
    expect(page.locator("#tc-bubble")).to_be_visible(timeout=TIMEOUT_MS)
    line = 'return np.convolve(x, np.ones(n) / n, mode="valid")'
    # the theme splits a highlighted line into token spans: the selection starts inside one of them
    select = """(line) => {
        const el = [...document.querySelectorAll('pre code .token-line')].find((l) => l.textContent.trim() === line);
        const range = document.createRange();
        range.setStart(el.querySelector('.token').firstChild, 0);
        range.setEnd(el.lastChild.firstChild || el.lastChild, (el.lastChild.firstChild || el.lastChild).length);
        el.scrollIntoView({block: 'center'});
        getSelection().removeAllRanges();
        getSelection().addRange(range);
    }"""
    ask = page.locator("#tc-ask")
    for _ in range(3):  # React's hydration may replace the block's nodes, and with them the selection, once
        page.evaluate(select, line)
        try:
            expect(ask).to_be_visible(timeout=5_000)
            break
        except AssertionError:
            continue
    ask.click()
    expect(page.locator("#tc-quote blockquote")).to_contain_text("np.convolve")
    with page.expect_request(lambda r: r.url.endswith("/chat") and r.method == "POST") as sent:
        page.locator("#tc-input").fill("What programming language is used in this code?")
        page.locator("#tc-input").press("Enter")
    body = json.loads(sent.value.post_data)
    assert "np.convolve" in body["selected_text"] and body["selected_code_language"] == "python", body
    answer = page.locator("article.msg.bot").last
    expect(answer).to_have_class(re.compile(r"\bdone\b"), timeout=TIMEOUT_MS)
    expect(answer).to_contain_text("Python")
    assert page.errors == [], page.errors


def test_the_page_as_a_course_summary_quiz_with_answers_behind_a_follow_up_and_nested_contents(docusaurus, new_page):
    page = new_page()
    page.goto(docusaurus.url + "/sampling/")
    page.locator("#tc-bubble").click()
    chips = page.locator("#tc-suggest button.chip")
    expect(chips.nth(0)).to_have_text("Summarize this page")
    expect(chips.nth(1)).to_have_text("Quiz me on this page")

    with page.expect_request(lambda r: r.url.endswith("/chat") and r.method == "POST") as sent:
        chips.nth(1).click()
    assert json.loads(sent.value.post_data)["question"] == "Quiz me on this page"
    quiz = page.locator("article.msg.bot").last
    expect(quiz).to_have_class(re.compile(r"\bdone\b"), timeout=TIMEOUT_MS)
    questions = quiz.locator("section.quiz li.card")
    expect(questions.first).to_be_visible()
    asked = questions.count()
    assert asked >= 2  # a card for each of the book's questions
    reveal = quiz.locator("button.answers")
    expect(reveal).to_have_text("Show the answers")
    with page.expect_request(lambda r: r.url.endswith("/chat") and r.method == "POST") as sent:
        reveal.click()
    body = json.loads(sent.value.post_data)
    assert body["question"] == "Show the answers" and body["session_id"]
    answers = page.locator("article.msg.bot").last
    expect(answers).to_have_class(re.compile(r"\bdone\b"), timeout=TIMEOUT_MS)
    expect(answers.locator(".answer > ol > li")).to_have_count(asked)
    assert answers.locator(".answer strong").count() >= asked  # each answer given
    expect(reveal).to_have_count(0)  # asked once: the button is gone
    assert answers.locator(".sources a.source").count() >= 1

    page.locator("#tc-input").fill("What chapters are in this book?")
    page.locator("#tc-input").press("Enter")
    contents = page.locator("article.msg.bot").last
    expect(contents).to_have_class(re.compile(r"\bdone\b"), timeout=TIMEOUT_MS)
    nested = contents.locator(".answer ul > li > ul > li > a")  # a module's pages, inside the module
    assert nested.count() >= 4
    assert page.errors == [], page.errors


def test_citations_of_the_sites_own_build_open_on_the_origin_it_is_served_from(docusaurus, new_page, embedder,
                                                                               tmp_path_factory):
    """The build's own pages indexed (their URLs on the production host its config names), the
    build served on 127.0.0.1: every citation the reader sees, and the one clicked, stay here."""
    book = index_book(tmp_path_factory.mktemp("own-site") / "data", embedder, SITE, build_dir=docusaurus.build_dir)
    chunks = book.store.all_chunks()
    assert chunks and all(c.url.startswith(PRODUCTION + "/") for c in chunks)
    app = make_app(book, tmp_path_factory.mktemp("own-site-api") / "data", allowed_origins=(docusaurus.url,))
    api = make_server(app, "127.0.0.1", 0, threads=2)
    threading.Thread(target=api.run, daemon=True, name="own-site-api").start()
    try:
        page = new_page()
        page.goto(docusaurus.url + "/filters/")
        expect(page.locator("#tc-bubble")).to_be_visible(timeout=TIMEOUT_MS)
        page.evaluate("([api, book]) => { textbookChat.config.api = api; textbookChat.config.bookId = book; }",
                      [f"http://127.0.0.1:{api.effective_port}", chunks[0].book_id])
        page.locator("#tc-bubble").click()
        page.locator("#tc-input").fill(QUESTION)
        page.locator("#tc-input").press("Enter")
        answer = page.locator("article.msg.bot").last
        expect(answer).to_have_class(re.compile(r"\bdone\b"), timeout=TIMEOUT_MS)
        links = [*answer.locator(".answer a.cite").all(), *answer.locator(".sources a.source").all()]
        hrefs = [link.get_attribute("href") for link in links]
        assert hrefs and all(h.startswith(docusaurus.url + "/") for h in hrefs), hrefs
        assert any(h.startswith(docusaurus.url + "/sampling") for h in hrefs), hrefs
        answer.locator(".answer a.cite").first.click()
        page.wait_for_url(lambda url: url.startswith(docusaurus.url + "/sampling"))
        expect(page.locator("h1")).to_have_text("Sampling")
        assert page.errors == [], page.errors
    finally:
        api.close()
        book.index.close()


def test_an_urdu_page_of_the_site_shows_urdu_strings_right_to_left(docusaurus, new_page):
    page = new_page()
    page.goto(docusaurus.url + "/ur/sampling/")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    bubble = page.locator("#tc-bubble")
    expect(bubble).to_have_accessible_name("کتاب سے پوچھیں", timeout=TIMEOUT_MS)
    assert page.evaluate("document.getElementById('textbook-chat').shadowRoot.querySelector('.tc').dir") == "rtl"
    assert bubble.bounding_box()["x"] < 100  # mirrored: bottom left
    bubble.click()
    expect(page.locator("#tc-title")).to_have_text("کتاب سے پوچھیں")
    expect(page.locator("#tc-log .empty")).to_contain_text("اس کتاب کے بارے میں")
    expect(page.locator("#tc-suggest button.chip").first).to_have_text("اس صفحے کا خلاصہ")
    expect(page.locator("#tc-suggest button.chip").nth(2)).to_have_text("“نمونہ بندی کا قضیہ” کی وضاحت کریں")
    with page.expect_request(lambda r: r.url.endswith("/chat") and r.method == "POST") as sent:
        page.locator("#tc-input").fill(QUESTION)
        page.locator("#tc-input").press("Enter")
    assert json.loads(sent.value.post_data)["metadata"]["locale"] == "ur"
    answer = page.locator("article.msg.bot").last
    expect(answer).to_have_class(re.compile(r"\bdone\b"), timeout=TIMEOUT_MS)
    expect(answer.locator(".sources h3")).to_have_text("حوالے")
    assert page.errors == [], page.errors


PASSAGE = ("A bandlimited signal can be rebuilt exactly from its samples when the sampling rate is more\n"
           "than twice its highest frequency.")


def test_the_author_sees_on_the_page_the_passage_students_asked_about(docusaurus, new_page):
    reader = new_page()
    reader.goto(docusaurus.url + "/sampling/")
    expect(reader.locator("#tc-bubble")).to_be_visible(timeout=TIMEOUT_MS)
    asked = ["why more than twice?", "what does bandlimited mean here?"]
    for n, question in enumerate(asked, 1):  # through the widget, as a reader asks about a highlighted passage
        reader.evaluate("([q, p]) => textbookChat.ask(q, {selectedText: p, mode: 'combined'})", [question, PASSAGE])
        expect(reader.locator("article.msg.bot.done")).to_have_count(n, timeout=TIMEOUT_MS)
    # readers never see the author's view, nor load it
    reader.reload()
    expect(reader.locator("#tc-bubble")).to_be_visible(timeout=TIMEOUT_MS)
    assert reader.locator("mark.textbook-chat-passage").count() == 0 and reader.locator("#tc-author").count() == 0
    assert not any("widget-insights" in e for e in reader.evaluate("performance.getEntriesByType('resource').map(e => e.name)"))

    author = new_page()
    author.goto(docusaurus.url + "/sampling/?textbook-chat=insights")
    author.locator("#tc-author-token").fill("not it")
    author.locator("#tc-author-token").press("Enter")
    expect(author.locator("#tc-author .error")).to_have_text("That is not the insights token.", timeout=TIMEOUT_MS)
    author.locator("#tc-author-token").fill(INSIGHTS_TOKEN)
    author.locator("#tc-author-token").press("Enter")
    marks = author.locator("mark.textbook-chat-passage")
    expect(marks.last).to_have_attribute("data-count", "2×", timeout=TIMEOUT_MS)
    assert " ".join("".join(marks.all_text_contents()).split()) == " ".join(PASSAGE.split())
    assert author.locator("mark.textbook-chat-passage").first.evaluate("m => m.closest('p') !== null")
    listed = author.locator("#tc-author-questions li").all_inner_texts()  # other tests ask on this page too
    assert {f"1× {q}" for q in asked} <= set(listed), listed
    # the token is kept: the next page opened so shows its view at once
    author.goto(docusaurus.url + "/sampling/?textbook-chat=insights")
    expect(author.locator("mark.textbook-chat-passage").last).to_have_attribute("data-count", "2×", timeout=TIMEOUT_MS)
    assert [e for e in author.errors if "status of 403" not in e] == [], author.errors
