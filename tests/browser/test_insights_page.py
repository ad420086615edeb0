"""/insights in Chromium, over questions asked through the real /chat and /feedback: the token
form, the charts drawn on the server, sorting, and the page read with JavaScript off.

INSIGHTS_SCREENSHOT=path writes the page's screenshot there (docs/insights.png is made so)."""
from __future__ import annotations

import os
import threading

import pytest
from playwright.sync_api import expect

from apps import make_app
from processes import free_port
from server.serving.wsgi import make_server

TOKEN = "the-author's-token"
PAGE = "/book/docs/foundations/sampling-and-aliasing"
QUESTIONS = [
    ("What is aliasing?", None), ("What is the Nyquist rate?", None), ("Why do we sample at 44.1 kHz?", None),
    ("explain this", "A tone above the Nyquist frequency does not disappear."),
    ("what does this mean?", "A tone above the Nyquist frequency does not disappear."),
    ("How do I bake sourdough bread?", None), ("What is the best recipe for sourdough bread?", None),
    ("What is the offside rule in football?", None), ("How does offside work in soccer?", None),
]


@pytest.fixture(scope="module")
def insights_server(tmp_path_factory, served_book, live_port):
    app = make_app(served_book, tmp_path_factory.mktemp("insights-page") / "data", insights_token=TOKEN)
    client = app.test_client()
    for question, passage in QUESTIONS:
        body = {"question": question, "metadata": {"page_url": f"http://127.0.0.1:{live_port}{PAGE}"}}
        if passage:
            body |= {"selected_text": passage, "selection_mode": "combined"}
        answer = client.post("/chat", json=body).get_json()
        if question.startswith("Why do we"):
            client.post("/feedback", json={"message_id": answer["assistant_message_id"], "rating": "down",
                                           "comment": "Too vague, and it never says why 44.1"})
    server = make_server(app, "127.0.0.1", free_port(), threads=4)
    threading.Thread(target=server.run, daemon=True, name="insights-page").start()
    yield f"http://127.0.0.1:{server.effective_port}"
    server.close()


def test_the_insights_page_in_chromium(insights_server, new_page):
    page = new_page(width=1280, height=900)
    response = page.goto(insights_server + "/insights?since=all")
    assert response.status == 401
    page.locator("#token").fill("wrong")
    page.locator("button[type=submit]").click()
    expect(page.locator(".error")).to_have_text("That is not the insights token.")
    page.locator("#token").fill(TOKEN)
    page.locator("button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("What students ask")
    expect(page.locator("#questions")).to_have_text(str(len(QUESTIONS)))
    # the charts: one bar group per day with questions, one dot per day on the refusal line
    expect(page.locator("#trend svg")).to_have_count(2)
    expect(page.locator("#trend svg rect.asked")).to_have_count(1)
    expect(page.locator("#trend svg circle.rate")).to_have_count(1)
    gaps = page.locator("#gaps tbody tr")
    expect(gaps).to_have_count(3)  # bread, football, the rated-down question
    expect(page.locator("#passages .count").first).to_have_text("2×")
    link = page.locator("#passages a").first
    assert ":~:text=A%20tone%20above%20the%20Nyquist" in link.get_attribute("href")
    expect(page.locator("#rated-down blockquote")).to_have_text("Too vague, and it never says why 44.1")
    # sorting (JavaScript): the gaps by size, ascending then descending
    header = page.locator("#gaps th").first
    sizes = lambda: [int(t) for t in page.locator("#gaps tbody tr td:first-child").all_inner_texts()]  # noqa: E731
    header.click()
    expect(header).to_have_attribute("aria-sort", "descending")
    assert sizes() == sorted(sizes(), reverse=True)
    header.click()
    expect(header).to_have_attribute("aria-sort", "ascending")
    assert sizes() == sorted(sizes()) and sizes()[0] < sizes()[-1]
    requested = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert all(url.startswith(insights_server) for url in requested), requested  # nothing from another host
    if os.environ.get("INSIGHTS_SCREENSHOT"):
        page.screenshot(path=os.environ["INSIGHTS_SCREENSHOT"], full_page=True)
    # the browser reports the token form's own 401 and 403; nothing else went wrong
    assert [e for e in page.errors if "status of 401" not in e and "status of 403" not in e] == [], page.errors


def test_the_insights_page_without_javascript(insights_server, browser):
    context = browser.new_context(java_script_enabled=False,
                                  extra_http_headers={"Authorization": f"Bearer {TOKEN}"})
    try:
        page = context.new_page()
        assert page.goto(insights_server + "/insights?since=all").status == 200
        expect(page.locator("#trend svg rect.asked")).to_have_count(1)
        expect(page.locator("#pages tbody tr").first).to_contain_text("Sampling")
        expect(page.locator("#gaps tbody tr")).to_have_count(3)
    finally:
        context.close()
