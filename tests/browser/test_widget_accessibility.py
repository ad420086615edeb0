"""Accessibility, measured (issue 38): axe-core finds no serious or critical WCAG 2.2 AA violation
in the widget closed, open, streaming, with an answer, with a quiz and with the author's marks, in
the site's light and dark themes; a streamed answer changes the live region outside aria-busy at
most six times; focus order and names; the author's panel below the site's navbar; the voice
buttons only where the browser can listen and speak.

The sample book's Docusaurus build and the real server (tests/browser/conftest.py), headless
Chromium; axe-core from npm (a devDependency).
"""
from __future__ import annotations

import json
import threading

import pytest
from playwright.sync_api import Page, expect

from apps import make_app
from axe_audit import WIDGET, audit_themes
from processes import free_port
from sample_site import StaticSite
from server.serving.wsgi import make_server
from widget_pages import DEMO_PAGE, QUESTION, ask, bot, focused, open_demo, wait_done

expect.set_options(timeout=15_000)


def passes(page: Page, state: str, include: tuple[str, ...] = WIDGET) -> None:
    """No serious or critical violation in the light theme or the dark one."""
    found = audit_themes(page, include)
    assert not found, f"{state}:\n" + "\n".join(found)


def test_no_serious_violation_closed_open_with_an_answer_and_a_quiz(page, live):
    open_demo(page, live)
    passes(page, "closed")
    page.locator("#tc-bubble").click()
    expect(page.locator("#tc-suggest")).to_be_visible()
    passes(page, "open")
    ask(page, QUESTION)
    answer = wait_done(page)
    expect(answer.locator(".sources a.source").first).to_be_visible()
    passes(page, "with an answer")
    page.locator("#tc-new").click()
    page.locator("#tc-suggest button.chip", has_text="Quiz me on this page").click()
    quiz = wait_done(page)
    cards = quiz.locator("section.quiz li.card")
    expect(cards.first).to_be_visible()  # the quiz cards (widget-quiz.js)
    passes(page, "with a quiz")
    first = cards.first.locator(".choices button")
    if first.count():
        first.first.click()
    else:
        cards.first.locator("input, textarea").first.fill("sampling")
        cards.first.locator("button.check").click()
    expect(cards.first.locator(".fb")).not_to_be_empty()
    passes(page, "a quiz item answered")
    assert page.errors == []


def test_a_streamed_answer_is_announced_once_and_audited_while_it_streams(page, scripted):
    scripted.generator.answer = " ".join(f"word{i}" for i in range(60)) + " [1]."
    scripted.generator.delay_s = 0.02
    open_demo(page, scripted)
    page.locator("#tc-bubble").click()
    expect(page.locator("#tc-panel")).to_be_visible()
    # every change to the live region (the log) that is not inside an element marked aria-busy:
    # what a screen reader would announce as it happens
    page.evaluate("""() => {
        const log = document.getElementById('textbook-chat').shadowRoot.getElementById('tc-log');
        const busy = (n) => !!(n.nodeType === 1 ? n : n.parentElement)?.closest('[aria-busy="true"]');
        window.__announced = [];
        new MutationObserver((records) => {
            for (const r of records) {
                if (r.type === 'attributes' || busy(r.target)) continue;
                if (r.type === 'childList' && [...r.addedNodes].every(busy) && !r.removedNodes.length) continue;
                window.__announced.push(r.type + ': ' + (r.target.className || r.target.id || r.target.nodeName));
            }
        }).observe(log, {subtree: true, childList: true, characterData: true, attributes: true});
    }""")
    ask(page, QUESTION)
    streaming = bot(page)
    expect(streaming.locator(".answer")).to_contain_text("word5 ")
    status = page.locator("#tc-panel p.sr[role=status]")
    expect(status).to_have_text("Answering…")
    passes(page, "streaming")
    wait_done(page)
    expect(status).to_have_text("")
    announced = page.evaluate("window.__announced")
    assert 1 <= len(announced) <= 6, announced
    assert page.errors == []


FAKE_RECOGNITION = """window.webkitSpeechRecognition = window.SpeechRecognition = class {
    start() { setTimeout(() => { this.onresult({results: [[{transcript: 'what is a Nyquist rate'}]]}); this.onend(); }, 10); }
    stop() {}
};"""


def test_focus_order_names_and_the_voice_buttons(new_page, live):
    page = new_page()
    page.add_init_script(FAKE_RECOGNITION)  # a browser that hears the reader say a question
    open_demo(page, live)
    page.locator("#tc-bubble").click()
    ask(page, QUESTION)
    wait_done(page)
    names = page.evaluate("""() => [...document.getElementById('textbook-chat').shadowRoot
        .querySelectorAll('#tc-panel button, #tc-panel a[href], #tc-panel textarea')]
        .filter((el) => el.getClientRects().length)
        .map((el) => [el.id || el.className, el.getAttribute('aria-label') || el.textContent.trim()])""")
    assert names and all(name for _, name in names), names
    # Tab from the question box: send, then round the panel from its header, in reading order
    page.locator("#tc-input").focus()
    order = []
    for _ in range(30):
        page.keyboard.press("Tab")
        order.append(focused(page))
        if order[-1] == "#tc-input":
            break
    for earlier, later in [("#tc-new", "#tc-close"), ("#tc-close", "#tc-log"), ("#tc-log", "a.cite"),
                           ("a.source", "button.icon.speak"), ("button.icon.speak", "button.icon.copy"),
                           ("button.icon.mic", "#tc-send")]:
        assert order.index(earlier) < order.index(later), (earlier, later, order)
    # read aloud speaks the answer's words; the microphone fills the question
    page.evaluate("() => { window.__said = []; speechSynthesis.speak = (u) => window.__said.push(u.text); }")
    page.locator(".actions button.speak").last.click()
    said = page.evaluate("window.__said")
    assert said and "[1]" not in said[0] and len(said[0]) > 20, said
    page.locator("#tc-input").fill("")
    page.locator("button.mic").click()
    expect(page.locator("#tc-input")).to_have_value("what is a Nyquist rate")
    expect(page.locator("button.mic")).to_have_attribute("aria-pressed", "false")

    # a browser that can neither listen nor speak shows neither button (on the answer kept from before)
    kept = page.evaluate(f"localStorage.getItem({json.dumps(live.storage_key())})")
    bare = new_page()
    bare.add_init_script(f"""localStorage.setItem({json.dumps(live.storage_key())}, {json.dumps(kept)});
        delete window.webkitSpeechRecognition; delete window.SpeechRecognition;
        Object.defineProperty(window, 'speechSynthesis', {{value: undefined}});""")
    open_demo(bare, live)
    expect(bare.locator("#tc-panel")).to_be_visible()  # it was open
    expect(bare.locator(".actions button.copy")).to_have_count(1)
    expect(bare.locator("button.mic")).to_have_count(0)
    expect(bare.locator("button.speak")).to_have_count(0)
    assert page.errors == [] and bare.errors == []


TOKEN = "the-author-of-the-sample-book"
PASSAGE = "A tone above the Nyquist frequency does not disappear."
NAVBAR = "nav.navbar"


@pytest.fixture(scope="module")
def author_site(tmp_path_factory, served_book, sample_site_build, live_port):
    """The sample site talking to a server with an insights token, where readers asked about PASSAGE
    on DEMO_PAGE (as the index knows its URL)."""
    site_port = free_port()
    app = make_app(served_book, tmp_path_factory.mktemp("author") / "data", insights_token=TOKEN,
                   allowed_origins=(f"http://127.0.0.1:{site_port}",))
    client = app.test_client()
    for question in ("why does it not disappear?", "what is an alias?"):
        client.post("/chat", json={"question": question, "selected_text": PASSAGE, "selection_mode": "combined",
                                   "metadata": {"page_url": f"http://127.0.0.1:{live_port}{DEMO_PAGE}"}})
    server = make_server(app, "127.0.0.1", free_port(), threads=4)
    threading.Thread(target=server.run, daemon=True, name="author-site-api").start()
    site = StaticSite(sample_site_build, f"http://127.0.0.1:{server.effective_port}", port=site_port)
    yield site
    site.close()
    server.close()


def test_the_authors_marks_panel_clears_the_navbar_and_passes_the_audit(page: Page, author_site):
    page.goto(author_site.url + DEMO_PAGE + "?textbook-chat=insights")
    author = page.locator("#tc-author")
    expect(author).to_be_visible()
    navbar = page.locator(NAVBAR).bounding_box()
    assert author.bounding_box()["y"] >= navbar["y"] + navbar["height"], (author.bounding_box(), navbar)
    passes(page, "the token form")
    page.locator("#tc-author-token").fill(TOKEN)
    page.locator("#tc-author-token").press("Enter")
    expect(page.locator("#tc-author-questions li")).to_have_count(2)
    expect(page.locator("mark.textbook-chat-passage").first).to_be_visible()
    passes(page, "the author's marks", ("#textbook-chat", "mark.textbook-chat-passage"))
    assert author.bounding_box()["y"] >= navbar["y"] + navbar["height"]
