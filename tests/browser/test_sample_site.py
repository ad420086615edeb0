"""The sample book's real Docusaurus build in Chromium: the script tag the plugin wrote loads the
loader copied into the build (so the bubble shows even with the chat server down) and talks to the
chat server; `?rerender=1` makes the article re-render after load, for tests of sites that do.
"""
from __future__ import annotations

import re
from urllib.parse import urlparse

from playwright.sync_api import expect

from processes import free_port
from sample_site import SITE_URL, StaticSite
from widget_pages import DEMO_PAGE, QUESTION, ask, open_demo, wait_done

expect.set_options(timeout=15_000)
BOOK_ID = "sample-book"


def _loaded(page) -> list[str]:
    return page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")


def test_a_built_page_loads_the_widget_from_the_site_and_asks_the_chat_server(page, live):
    open_demo(page, live)
    expect(page.locator("h1")).to_have_text("Sampling and Aliasing")
    tag = page.locator('script[src*="/textbook-chat/widget.js"]')  # as the plugin wrote it
    expect(tag).to_have_count(1)
    assert re.fullmatch(r"/textbook-chat/widget\.js\?v=[0-9a-f]{10}", tag.get_attribute("src"))
    assert tag.get_attribute("data-api") == live.api_url  # the test's chat server, on another port
    assert tag.get_attribute("data-book-id") == BOOK_ID and tag.get_attribute("data-site-url") == SITE_URL
    assert page.evaluate("textbookChat.config.api") == live.api_url

    page.locator("#tc-bubble").click()
    expect(page.locator("#tc-panel")).to_be_visible()
    ask(page, QUESTION)
    answer = wait_done(page)
    expect(answer).not_to_have_class(re.compile(r"\brefused\b"))
    expect(answer.locator(".sources a.source").first).to_be_visible()
    scripts = [urlparse(u) for u in _loaded(page) if re.search(r"/widget(-panel)?\.js", u)]
    assert {(u.netloc, u.path) for u in scripts} == {(urlparse(live.url).netloc, "/textbook-chat/widget.js"),
                                                     (urlparse(live.url).netloc, "/textbook-chat/widget-panel.js")}
    assert page.errors == [], page.errors


def test_with_the_chat_server_down_the_bubble_shows_and_the_panel_opens(new_page, sample_site_build):
    down = StaticSite(sample_site_build, f"http://127.0.0.1:{free_port()}")  # nothing listens there
    try:
        page = new_page()
        page.goto(down.url + DEMO_PAGE)
        bubble = page.locator("#tc-bubble")
        expect(bubble).to_be_visible()
        bubble.click()
        expect(page.locator("#tc-panel")).to_be_visible()
        expect(page.locator("#tc-input")).to_be_visible()
    finally:
        down.close()


CAPTURE_FIRST = """addEventListener('DOMContentLoaded', () => {
    window.__first = document.querySelector('main article p');
});"""


def test_rerender_re_mounts_the_article_after_load_for_the_rest_of_the_tab(new_page, live):
    page = new_page()
    page.add_init_script(CAPTURE_FIRST)
    open_demo(page, live, DEMO_PAGE + "?rerender=1")
    expect(page.locator("html")).to_have_attribute("data-rerendered", "1")
    # the server's paragraph is gone, an equal one in its place; the widget is still there
    assert page.evaluate("window.__first !== null && !document.contains(window.__first)")
    assert page.evaluate("document.querySelector('main article p').textContent === window.__first.textContent")
    expect(page.locator("#tc-bubble")).to_be_visible()

    # a page opened later in the tab (a citation link, say) re-renders too, without the parameter
    page.goto(live.page_url("/book/docs/intro"))
    expect(page.locator("html")).to_have_attribute("data-rerendered", "1")
    assert page.evaluate("!document.contains(window.__first)")
    # ?rerender=0 turns it off again
    page.goto(live.page_url("/book/docs/intro?rerender=0"))
    page.wait_for_function("document.documentElement.dataset.hasHydrated === 'true'")
    page.wait_for_timeout(600)
    expect(page.locator("html")).not_to_have_attribute("data-rerendered", re.compile("."))
    assert page.evaluate("document.contains(window.__first)")
    assert page.errors == [], page.errors
