"""The widget as a reader meets it on a book page: keyboard and touch selections, suggested
questions, pacing and the typing indicator, labels, math, the page's language, and the hints a
misconfigured site gets. Real server, real pages, headless Chromium.
"""
from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from playwright.sync_api import Page, Route, expect

from widget_pages import QUESTION, ask, bot, focused, open_demo, record_bot_states, wait_done, without_site_scripts

expect.set_options(timeout=15_000)
PHRASE = "A tone above the Nyquist frequency does not disappear."


def select_first_letter(page: Page, phrase: str) -> None:
    """Select the first letter of `phrase` (as caret browsing or a long-press starts a selection)."""
    page.evaluate("""(phrase) => {
        const walker = document.createTreeWalker(document.querySelector('main article'), NodeFilter.SHOW_TEXT);
        for (let node; (node = walker.nextNode());) {
            const i = node.data.indexOf(phrase);
            if (i < 0) continue;
            node.parentElement.scrollIntoView({block: 'center'});
            getSelection().setBaseAndExtent(node, i, node, i + 1);
            return;
        }
        throw new Error('not found: ' + phrase);
    }""", phrase)


def rewrite_page(page: Page, url: str, edit) -> None:
    """Serve `url` as the real server sends it, with `edit(html)` applied."""
    def handle(route: Route):
        response = route.fetch()
        route.fulfill(response=response, body=edit(response.text()))
    page.route(url, handle)


def test_a_keyboard_selection_shows_ask_about_this_with_focus_on_the_bubble(page, live):
    open_demo(page, live)
    select_first_letter(page, PHRASE)
    for _ in range(len(PHRASE) - 1):
        page.keyboard.press("Shift+ArrowRight")  # the rest with the keyboard
    assert page.evaluate("getSelection().toString()") == PHRASE
    ask_button = page.locator("#tc-ask")
    expect(ask_button).to_be_visible()
    page.locator("#tc-bubble").focus()  # as after Tab: focus on the widget keeps the button
    page.keyboard.press("Tab")
    assert focused(page) == "#tc-ask"
    page.keyboard.press("Enter")
    expect(page.locator("#tc-quote blockquote")).to_have_text(PHRASE)
    expect(page.locator("#tc-input")).to_be_focused()
    assert page.errors == []


def test_a_touch_selection_shows_ask_about_this(new_page, live):
    page = new_page(390, 844, has_touch=True)
    open_demo(page, live)
    select_first_letter(page, PHRASE)
    # Dragging the selection handles extends it: the page only sees selectionchange events.
    page.evaluate("""(n) => { for (let i = 0; i < n; i++) getSelection().modify('extend', 'forward', 'character'); }""",
                  len(PHRASE) - 1)
    expect(page.locator("#tc-ask")).to_be_visible()
    page.locator("#tc-ask").tap()
    expect(page.locator("#tc-quote blockquote")).to_have_text(PHRASE)


def test_suggested_questions_come_from_the_page_headings_and_ask_in_one_click(page, live):
    open_demo(page, live)
    page.locator("#tc-bubble").click()
    chips = page.locator("#tc-suggest button.chip")
    # the page's own two (course questions), then one per section heading, two of them
    expect(chips).to_have_count(4)
    assert chips.all_inner_texts() == ["Summarize this page", "Quiz me on this page",
                                       "Explain “From continuous to discrete”", "Explain “The sampling theorem”"]
    with page.expect_request(lambda r: r.url.endswith("/chat") and r.method == "POST") as sent:
        chips.nth(3).click()
    assert json.loads(sent.value.post_data)["question"] == "Explain “The sampling theorem”"
    expect(page.locator(".msg.user")).to_have_text(re.compile("The sampling theorem"))
    expect(wait_done(page).locator(".answer")).not_to_be_empty()
    expect(page.locator("#tc-suggest")).to_be_hidden()
    assert page.errors == []


def test_a_typing_indicator_shows_at_once_and_a_burst_is_paced(page, live):
    open_demo(page, live)
    page.locator("#tc-bubble").click()
    expect(page.locator("#tc-panel")).to_be_visible()
    record_bot_states(page)
    ask(page, QUESTION)
    answer = wait_done(page)
    states = page.evaluate("window.__states")
    # The first state of the answer is the typing indicator, before any text
    assert states[0]["text"].endswith("Searching the book…") and "streaming" in states[0]["cls"], states[0]
    # The extractive answer arrives at once, but is shown over several frames, growing
    lengths = [len(s["text"]) for s in states if "streaming" in s["cls"] and not s["text"].endswith("…")]
    final = len(answer.locator(".answer").text_content())
    partial = sorted({n for n in lengths if 0 < n < final})
    assert len(partial) >= 5, (partial, final)
    assert lengths == sorted(lengths)


def test_labels_short_sources_no_ai_label_on_refusals_and_a_quoted_passage_with_its_mode(page, live):
    open_demo(page, live)
    page.locator("#tc-bubble").click()
    ask(page, "What is the capital of Australia?")
    refusal = bot(page)
    expect(refusal).to_have_class(re.compile(r"\brefused\b"))
    expect(refusal.locator(".label")).to_have_text("Not covered in the book")
    expect(refusal.locator(".actions .gen")).to_have_text("")
    for link in refusal.locator(".sources li").all():  # page › section at most
        assert link.inner_text().count("›") <= 1, link.inner_text()

    passage = page.evaluate("""() => [...document.querySelectorAll('main article p')]
        .map((p) => p.textContent).find((t) => t.length > 300)""")
    page.evaluate("""(text) => textbookChat.ask('Explain this', {selectedText: text, mode: 'exclusive'})""", passage)
    quote = page.locator(".msg.user blockquote").last
    expect(quote).to_have_text(re.compile(r"…$"))
    assert len(quote.inner_text()) <= 161 and passage.startswith(quote.inner_text()[:-1].rstrip())
    expect(quote).to_have_attribute("title", passage)
    expect(page.locator(".msg.user .mode").last).to_have_text("Only this passage")
    expect(bot(page)).to_have_class(re.compile(r"\b(done|refused)\b"))
    assert page.errors == []


def test_math_in_an_answer_renders_as_mathml(page, scripted):
    scripted.generator.answer = "Sample above the Nyquist rate, $f_s > 2B$ [1]:\n\n$$\\frac{1}{T_s} = f_s$$"
    open_demo(page, scripted)
    page.locator("#tc-bubble").click()
    ask(page, QUESTION)
    answer = wait_done(page).locator(".answer")
    expect(answer.locator("math")).to_have_count(2)
    expect(answer.locator("math").first.locator("msub")).to_have_count(1)
    expect(answer.locator('math[display="block"] mfrac')).to_have_count(1)
    assert "$" not in answer.inner_text()
    assert page.errors == []


def test_math_quoted_from_the_book_renders_as_mathml(page, live):
    open_demo(page, live, "/book/docs/practice/formula-sheet")
    page.locator("#tc-bubble").click()
    ask(page, "What is the wavelength of a sound tone?")
    answer = wait_done(page).locator(".answer")
    expect(answer.locator("math").first).to_be_visible()
    assert any("λ" in text for text in answer.locator("math").all_text_contents())
    assert page.errors == []


def _in_language(lang: str):
    """The page in `lang` (its direction left to the widget), and the widget's title left to it (no
    data-title); the site's scripts left out, which would set the page's language back."""
    def rewritten(html: str) -> str:
        html = without_site_scripts(re.sub(r' data-title="[^"]*"', "", html))
        html = re.sub(r'(name="?docusaurus_locale"? content=)"?en"?', rf'\1"{lang}"', html)
        return re.sub(r'<html lang="?en"?( dir="?ltr"?)?', f'<html lang="{lang}"', html, count=1)
    return rewritten


def test_an_urdu_page_gets_urdu_strings_right_to_left(page, live):
    rewrite_page(page, live.page_url(), _in_language("ur"))
    open_demo(page, live)
    bubble = page.locator("#tc-bubble")
    expect(bubble).to_have_accessible_name("کتاب سے پوچھیں")
    assert page.evaluate("document.getElementById('textbook-chat').shadowRoot.querySelector('.tc').dir") == "rtl"
    box = bubble.bounding_box()
    assert box["x"] < 100, box  # mirrored: bottom left
    bubble.click()
    expect(page.locator("#tc-input")).to_have_attribute("placeholder", "سوال پوچھیں…")
    expect(page.locator("#tc-suggest button.chip").first).to_have_text("اس صفحے کا خلاصہ")  # summarize this page
    expect(page.locator("#tc-suggest button.chip").nth(2)).to_have_text(re.compile("کی وضاحت کریں$"))
    with page.expect_request(lambda r: r.url.endswith("/chat") and r.method == "POST") as sent:
        ask(page, QUESTION)
    assert json.loads(sent.value.post_data)["metadata"]["locale"] == "ur"
    expect(wait_done(page).locator(".actions .gen")).to_have_text("کتاب سے اقتباس")
    assert page.errors == []


def test_a_japanese_page_loads_its_language_part_and_shows_japanese_strings(page, live):
    # widget-ja.js comes with the panel, as widget-ur.js does on an Urdu page
    rewrite_page(page, live.page_url(), _in_language("ja"))
    open_demo(page, live)
    bubble = page.locator("#tc-bubble")
    expect(bubble).to_have_accessible_name("本書に質問")
    with page.expect_request(lambda r: "/widget-ja.js" in r.url):
        bubble.click()
    expect(page.locator("#tc-input")).to_have_attribute("placeholder", "質問を入力…")
    expect(page.locator("#tc-suggest button.chip").first).to_have_text("このページを要約")
    ask(page, QUESTION)
    expect(wait_done(page).locator(".actions .gen")).to_have_text("本書からの引用")
    assert page.errors == []


@pytest.fixture
def foreign_site(live):
    """A book site on an origin the chat server does not allow (a second local server),
    loading the real widget from the chat server."""
    page = ('<!doctype html><html lang="en"><head><link rel="icon" href="data:,"></head><body><main><h1>Book</h1>'
            f'</main><script src="{live.api_url}/widget.js" data-api="{live.api_url}"></script></body></html>').encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the base class's naming
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, format, *args):  # noqa: A002 - the base class's signature
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True, name="foreign-site").start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_site_missing_from_allowed_origins_is_told_so(page, foreign_site):
    console = []
    page.on("console", lambda m: console.append(m.text))
    page.goto(foreign_site + "/")
    page.locator("#tc-bubble").click()
    ask(page, QUESTION)
    failed = bot(page)
    expect(failed).to_have_class(re.compile(r"\berror\b"))
    expect(failed.locator(".err")).to_have_text("This site isn't allowed to use the chat server yet.")
    expect(failed.locator("button.retry")).to_have_count(0)
    hints = [m for m in console if m.startswith("[textbook-chat]") and "ALLOWED_ORIGINS" in m]
    assert len(hints) == 1 and foreign_site in hints[0], console


def test_an_invalid_attribute_warns_once_and_falls_back(page, live):
    rewrite_page(page, live.page_url(), lambda html: re.sub(r"<script(?=[^>]*/widget\.js)", '<script data-shortcut="ctrl+shift"',
                                                            html, count=1))
    warnings = []
    page.on("console", lambda m: m.type == "warning" and warnings.append(m.text))
    open_demo(page, live)
    assert page.evaluate("textbookChat.config.shortcut") == "mod+/"
    assert [w for w in warnings if "data-shortcut" in w] == [
        '[textbook-chat] data-shortcut="ctrl+shift" is not valid; using "mod+/"']
    page.keyboard.press("Control+/")
    expect(page.locator("#tc-panel")).to_be_visible()


def test_a_passage_that_does_not_cover_the_question_offers_the_whole_book(page, live):
    open_demo(page, live)
    # the book explains dither elsewhere; the highlighted sentence does not
    page.evaluate("""(text) => textbookChat.ask('How does dither turn quantization error into hiss?',
                                              {selectedText: text, mode: 'combined'})""", PHRASE)
    refusal = bot(page)
    expect(refusal).to_have_class(re.compile(r"\brefused\b"))
    whole = refusal.locator("button.whole")
    expect(whole).to_have_text("Search the whole book")
    with page.expect_request(lambda r: r.url.endswith("/chat") and r.method == "POST") as sent:
        whole.click()
    body = json.loads(sent.value.post_data)
    assert "selected_text" not in body and "selection_mode" not in body  # the book's own path
    expect(page.locator("article.msg.bot")).to_have_count(2)
    expect(bot(page)).to_have_class(re.compile(r"\bdone\b"))
    expect(whole).to_have_count(0)  # offered once
    # a question neither the passage nor the book answers is declined with nothing to offer
    page.evaluate("""(text) => textbookChat.ask('What is the capital of Australia?', {selectedText: text})""", PHRASE)
    expect(page.locator("article.msg.bot")).to_have_count(3)
    expect(bot(page)).to_have_class(re.compile(r"\brefused\b"))
    expect(bot(page).locator("button.whole")).to_have_count(0)
    assert page.errors == []


def test_highlighted_code_is_sent_with_its_blocks_language(page, live):
    open_demo(page, live, "/book/docs/practice/digital-filters")
    line = 'sos = signal.butter(4, cutoff, btype="lowpass", fs=fs, output="sos")'
    page.evaluate("""(line) => {
        for (const code of document.querySelectorAll('pre code')) {
            const i = code.textContent.indexOf(line);
            if (i < 0) continue;
            // the line may be split into the highlighter's token spans: from the node it starts in
            // to the one it ends in
            const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
            let start = null;
            for (let node, at = 0; (node = walker.nextNode()); at += node.data.length) {
                if (!start && at + node.data.length > i) start = [node, i - at];
                if (start && at + node.data.length >= i + line.length) {
                    code.scrollIntoView({block: 'center'});
                    return getSelection().setBaseAndExtent(...start, node, i + line.length - at);
                }
            }
        }
        throw new Error('not found: ' + line);
    }""", line)
    page.locator("#tc-ask").click()
    expect(page.locator("#tc-quote blockquote")).to_have_text(line)
    with page.expect_request(lambda r: r.url.endswith("/chat") and r.method == "POST") as sent:
        ask(page, "What programming language is used in this code?")
    body = json.loads(sent.value.post_data)
    assert body["selected_text"] == line and body["selected_code_language"] == "python"
    expect(bot(page)).to_have_class(re.compile(r"\bdone\b"))
    expect(bot(page)).to_contain_text("Python")
    # a passage of prose carries no language
    open_demo(page, live)
    with page.expect_request(lambda r: r.url.endswith("/chat") and r.method == "POST") as sent:
        page.evaluate("(text) => textbookChat.ask('explain this', {selectedText: text})", PHRASE)
    assert "selected_code_language" not in json.loads(sent.value.post_data)
    assert page.errors == []
