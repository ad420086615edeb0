"""The widget in a real browser against the real server: the issue's "done when" list.

Locators pierce the widget's open shadow root, so `#tc-panel` finds the panel inside it.
"""
from __future__ import annotations

import json
import re
from urllib.parse import unquote, urlparse

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

from server.sessions import feedback_table

from widget_pages import QUESTION, ask, bot, drag_select, focused, open_demo, overlap, phrase_points, record_bot_states, wait_done, widget_box_of


expect.set_options(timeout=15_000)


# --- tests --------------------------------------------------------------------------------

def test_bubble_appears_without_console_errors(page, live):
    open_demo(page, live)
    bubble = page.locator("#tc-bubble")
    expect(bubble).to_have_attribute("aria-expanded", "false")
    expect(bubble).to_have_accessible_name(re.compile("^Ask "))
    expect(page.locator("#tc-panel")).to_be_hidden()
    box = bubble.bounding_box()
    assert box["x"] + box["width"] <= 1280 and box["y"] + box["height"] <= 800  # on screen
    bubble.click()
    expect(page.locator("#tc-panel")).to_be_visible()
    expect(page.locator("#tc-log .empty")).to_be_visible()
    assert page.evaluate("() => typeof window.textbookChat.ask") == "function"
    assert page.errors == []


def test_ask_about_a_highlighted_passage_streams_an_answer_with_sources(page, live):
    open_demo(page, live)
    phrase = "A tone above the Nyquist frequency does not disappear."
    _, end = phrase_points(page, "main article", phrase)
    selected = drag_select(page, "main article", phrase)
    assert selected == phrase

    ask_button = page.locator("#tc-ask")
    expect(ask_button).to_be_visible()
    box = ask_button.bounding_box()  # next to the end of the selection
    assert abs(box["x"] + box["width"] / 2 - end["x"]) < 120 and 0 < box["y"] - end["y"] < 60, (box, end)
    ask_button.click()
    expect(page.locator("#tc-panel")).to_be_visible()
    expect(page.locator("#tc-quote")).to_be_visible()
    expect(page.locator("#tc-quote blockquote")).to_have_text(selected)
    expect(page.locator('input[name="tc-mode"][value="combined"]')).to_be_checked()
    expect(page.locator("#tc-input")).to_be_focused()

    record_bot_states(page)
    with page.expect_request(lambda r: r.url.endswith("/chat") and r.method == "POST") as sent:
        ask(page, "Why does this happen?")
    body = json.loads(sent.value.post_data)
    assert body["selected_text"] == selected and body["selection_mode"] == "combined"

    answer = wait_done(page)
    expect(page.locator(".msg.user blockquote")).to_have_text(selected)
    expect(page.locator("#tc-quote")).to_be_hidden()
    expect(answer.locator(".answer")).not_to_be_empty()
    expect(answer.locator(".actions .gen")).to_have_text("Quoted from the book")
    sources = answer.locator(".sources a.source")
    assert sources.count() >= 1
    for href in [sources.nth(i).get_attribute("href") for i in range(sources.count())]:
        assert ":~:text=" in href, href
    # combined mode: the reader's passage is among the answer's passages
    assert "Your selected passage" in answer.locator(".sources li").all_text_contents()
    # "Sources" lists what the answer cites, numbered as its markers, and nothing else
    cited = list(dict.fromkeys(answer.locator(".answer a.cite").all_text_contents()))
    listed = answer.locator(".sources li")
    assert [listed.nth(i).get_attribute("value") for i in range(listed.count())] == cited
    assert answer.locator(".sources details").count() == 0
    states = page.evaluate("window.__states")
    assert any("streaming" in s["cls"].split() and s["busy"] == "true" for s in states), states
    assert "done" in states[-1]["cls"].split() and states[-1]["busy"] == "false"
    assert page.errors == []


@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)])
def test_citation_link_opens_the_cited_page_at_the_passage_and_the_panel_leaves_it_visible(new_page, live, width, height):
    page = new_page(width, height)
    open_demo(page, live, "/book/docs/intro")
    page.locator("#tc-bubble").click()
    ask(page, QUESTION)
    answer = wait_done(page)
    expect(answer.locator(".answer a.cite").first).to_be_visible()
    links = answer.locator(".sources a.source")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    # the first source that points at a section (not at the top of a page)
    index = next(i for i, h in enumerate(hrefs) if re.search(r"#[\w-]+:~:text=", h))
    href = hrefs[index]
    target = urlparse(href)
    anchor, directive = target.fragment.split(":~:text=")
    assert target.netloc == urlparse(live.url).netloc

    links.nth(index).click()
    page.wait_for_url(lambda url: urlparse(url).path == target.path)
    page.wait_for_load_state("load")
    assert page.evaluate("location.hash") == f"#{anchor}"  # the text directive is not exposed
    first_words = unquote(directive.split(",")[0])
    passage = page.locator("main article :is(p, li)", has_text=first_words).first
    expect(passage).to_be_in_viewport()
    page.wait_for_function("() => scrollY > 0")
    # The text fragment, not just the anchor, placed it: the browser centres a text match (the
    # passage covers the middle of the screen), whereas an anchor alone would put the heading at the top.
    box = passage.bounding_box()
    assert box["y"] - 40 < height / 2 < box["y"] + box["height"] + 40, box
    # The panel stays closed on the cited page, so the passage is not covered (nor is the
    # passage's text matched inside it); the bubble brings the conversation back.
    expect(page.locator("#tc-bubble")).to_be_visible()
    expect(page.locator("#tc-panel")).to_be_hidden()
    for widget_box in (widget_box_of(page, "tc-bubble"), widget_box_of(page, "tc-panel")):
        assert not overlap(box, widget_box), (box, widget_box)
    page.locator("#tc-bubble").click()
    expect(page.locator("article.msg.bot.done")).to_have_count(1)
    assert page.errors == []


def test_html_in_an_answer_is_shown_as_text_and_never_runs(page, scripted):
    img = '<img src=x onerror="window.__pwned=1">'
    script = "<script>window.__pwned=2</script>"
    scripted.generator.answer = f"Careful: {img} and {script} stay text [1]."
    requested = []
    page.on("request", lambda r: requested.append(urlparse(r.url).path))
    open_demo(page, scripted)
    page.locator("#tc-bubble").click()
    ask(page, QUESTION)
    answer = wait_done(page).locator(".answer")
    expect(answer).to_contain_text(img)
    expect(answer).to_contain_text(script)
    assert answer.locator("img, script, [onerror]").count() == 0
    assert page.locator("#textbook-chat img, #textbook-chat script").count() == 0
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50)))")
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert "/x" not in requested
    assert page.errors == []


def test_aggressive_host_css_leaves_the_widget_intact(page, live):
    open_demo(page, live)
    plain = page.locator("#tc-bubble").bounding_box()

    page.goto(live.page_url("/hostile"))
    bubble = page.locator("#tc-bubble")
    expect(bubble).to_be_visible()
    # the page's CSS did apply to the page itself
    assert page.evaluate("getComputedStyle(document.querySelector('main p')).color") == "rgb(255, 0, 0)"
    assert page.evaluate("getComputedStyle(document.querySelector('main p')).fontSize") == "40px"
    box = bubble.bounding_box()
    for key in ("x", "y", "width", "height"):
        assert abs(box[key] - plain[key]) <= 2, (key, box, plain)

    bubble.click()
    panel = page.locator("#tc-panel")
    expect(panel).to_be_visible()
    panel_box = panel.bounding_box()
    assert 380 <= panel_box["width"] <= 420 and panel_box["height"] > 300, panel_box
    title = page.locator("#tc-title")
    expect(title).to_have_css("font-size", "16px")
    expect(title).to_have_css("letter-spacing", "normal")  # inherited properties stop at the host
    expect(title).to_have_css("text-transform", "none")
    expect(title).to_have_css("visibility", "visible")
    expect(page.locator("#tc-send")).to_be_visible()
    ask(page, QUESTION)
    answer = wait_done(page)
    expect(answer.locator(".sources a.source").first).to_be_visible()
    expect(page.locator("#tc-close")).to_be_visible()
    page.locator("#tc-close").click()
    expect(panel).to_be_hidden()
    assert page.errors == []


def test_dark_mode_switches_live(page, live):
    open_demo(page, live)
    page.locator("#tc-bubble").click()
    panel = page.locator("#tc-panel")
    expect(panel).to_have_css("background-color", "rgb(255, 255, 255)")
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    expect(panel).to_have_css("background-color", "rgb(30, 31, 34)")
    expect(page.locator("#tc-title")).to_have_css("color", "rgb(228, 230, 235)")
    page.evaluate("document.documentElement.dataset.theme = 'light'")
    expect(panel).to_have_css("background-color", "rgb(255, 255, 255)")
    assert page.errors == []


def test_phone_width_gets_a_full_screen_panel(new_page, live):
    page = new_page(375, 667)
    open_demo(page, live)
    page.locator("#tc-bubble").click()
    panel = page.locator("#tc-panel")
    expect(panel).to_be_visible()
    box = panel.bounding_box()
    assert abs(box["x"]) <= 1 and abs(box["y"]) <= 1, box
    assert abs(box["width"] - 375) <= 1 and abs(box["height"] - 667) <= 1, box
    expect(page.locator("#tc-input")).to_be_in_viewport()
    expect(page.locator("#tc-close")).to_be_in_viewport()
    assert page.errors == []


def test_a_conversation_kept_from_before_secrets_is_claimed_and_goes_on(page, live):
    legacy = live.state.sessions.create_session()  # as the server made them before secrets
    key = json.dumps(live.storage_key())
    open_demo(page, live)
    page.evaluate(f"localStorage.setItem({key}, JSON.stringify({{sessionId: {json.dumps(legacy.id)}, open: true}}))")
    page.reload()
    expect(page.locator("#tc-panel")).to_be_visible()
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith(f"/sessions/{legacy.id}/secret")):
        ask(page, QUESTION)
    wait_done(page)
    kept = page.evaluate(f"JSON.parse(localStorage.getItem({key}))")
    assert kept["sessionId"] == legacy.id and kept["sessionSecret"]
    assert [m.role for m in live.state.sessions.get_session(legacy.id).messages] == ["user", "assistant"]
    assert page.errors == []


def test_reload_keeps_the_conversation_and_new_chat_clears_it(page, live):
    open_demo(page, live)
    page.locator("#tc-bubble").click()
    ask(page, QUESTION)
    answer_text = wait_done(page).locator(".answer").text_content()
    session_id = page.evaluate(f"JSON.parse(localStorage.getItem({json.dumps(live.storage_key())})).sessionId")
    assert session_id and live.state.sessions.get_session(session_id)

    page.reload()
    expect(page.locator("#tc-panel")).to_be_visible()  # it was open
    expect(page.locator(".msg.user")).to_have_text(re.compile(QUESTION))
    expect(page.locator("article.msg.bot")).to_have_count(1)
    expect(wait_done(page).locator(".answer")).to_have_text(answer_text)

    with page.expect_request(lambda r: r.method == "DELETE" and session_id in r.url) as deleted:
        page.locator("#tc-new").click()
    assert deleted.value.response().status == 204
    expect(page.locator(".msg")).to_have_count(0)
    expect(page.locator("#tc-log .empty")).to_be_visible()
    assert live.state.sessions.get_session(session_id) is None
    page.reload()
    expect(page.locator("#tc-panel")).to_be_visible()
    expect(page.locator("#tc-log .empty")).to_be_visible()
    expect(page.locator(".msg")).to_have_count(0)
    assert page.errors == []


def tab_cycle(page: Page, key: str = "Tab", limit: int = 40) -> list[str]:
    """Press `key` until focus comes back to where it started; the focused widget elements."""
    start = focused(page)
    seen = []
    for _ in range(limit):
        page.keyboard.press(key)
        seen.append(focused(page))
        if seen[-1] == start:
            return seen
    raise AssertionError(f"focus never came back to {start}: {seen}")


def test_the_whole_flow_works_from_the_keyboard(page, live):
    open_demo(page, live)
    bubble = page.locator("#tc-bubble")
    # The shortcut is shown (tooltip) and announced (aria-keyshortcuts)
    expect(bubble).to_have_attribute("title", re.compile(r"\(Ctrl\+/\)$"))
    expect(bubble).to_have_attribute("aria-keyshortcuts", "Control+/")
    # The bubble is the first stop in the tab order
    page.keyboard.press("Tab")
    assert focused(page) == "#tc-bubble"
    page.keyboard.press("Enter")
    expect(page.locator("#tc-panel")).to_be_visible()
    expect(page.locator("#tc-input")).to_be_focused()
    page.keyboard.type(QUESTION)
    page.keyboard.press("Enter")
    wait_done(page)
    assert focused(page) == "#tc-input"

    # Tab goes round every control of the open panel and never leaves it; so does Shift+Tab
    forward = tab_cycle(page)
    assert "" not in forward, forward
    for control in ("#tc-send", "#tc-new", "#tc-close", "#tc-log", "a.cite", "a.source", "button.icon.copy",
                    "button.icon.up", "button.icon.down", "#tc-input"):
        assert control in forward, (control, forward)
    assert forward.index("#tc-log") < forward.index("a.source") < forward.index("button.icon.down")
    backward = tab_cycle(page, "Shift+Tab")
    assert "" not in backward and list(reversed(backward[:-1])) == forward[:-1], (forward, backward)

    while focused(page) != "button.icon.down":
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # thumbs down, from the keyboard
    expect(page.locator(".actions button.down")).to_have_attribute("aria-pressed", "true")

    page.keyboard.press("Escape")
    expect(page.locator("#tc-panel")).to_be_hidden()
    assert focused(page) == "#tc-bubble"
    page.keyboard.press("Enter")  # the bubble opens it again
    expect(page.locator("#tc-panel")).to_be_visible()
    expect(page.locator("#tc-input")).to_be_focused()
    page.keyboard.press("Control+/")  # and the shortcut closes it
    expect(page.locator("#tc-panel")).to_be_hidden()
    assert page.errors == []


def test_network_failure_shows_retry_and_retry_gets_the_answer(page, live):
    open_demo(page, live)
    page.route(re.compile(r"/(chat|health)$"), lambda route: route.abort())  # the server is out of reach
    page.locator("#tc-bubble").click()
    ask(page, QUESTION)
    failed = bot(page)
    expect(failed).to_have_class(re.compile(r"\berror\b"))
    expect(failed.locator(".err")).to_have_text("Can't reach the server. Check your connection.")
    retry = failed.locator("button.retry")
    expect(retry).to_be_visible()

    page.unroute(re.compile(r"/(chat|health)$"))
    retry.click()
    answer = wait_done(page)
    expect(page.locator("article.msg.bot")).to_have_count(1)  # the failed attempt was replaced
    expect(page.locator(".msg.user")).to_have_count(1)
    expect(answer.locator(".sources a.source").first).to_be_visible()
    expect(page.locator(".bot.error")).to_have_count(0)


def test_thumbs_up_is_recorded_by_the_server(page, live):
    open_demo(page, live)
    page.locator("#tc-bubble").click()
    ask(page, QUESTION)
    answer = wait_done(page)
    with page.expect_response(lambda r: r.url.endswith("/feedback")) as posted:
        answer.locator(".actions button.up").click()
    assert posted.value.status == 201
    message_id = posted.value.json()["message_id"]
    expect(answer.locator(".actions button.up")).to_have_attribute("aria-pressed", "true")
    expect(answer.locator(".actions button.down")).to_have_attribute("aria-pressed", "false")
    with live.state.sessions.engine.connect() as conn:
        rows = conn.execute(select(feedback_table).where(feedback_table.c.message_id == message_id)).mappings().all()
    assert [r["rating"] for r in rows] == ["up"]
    session_id = page.evaluate(f"JSON.parse(localStorage.getItem({json.dumps(live.storage_key())})).sessionId")
    assert message_id in [m.id for m in live.state.sessions.get_session(session_id).messages]
    assert page.errors == []


def test_streamed_answer_can_be_stopped(page, scripted):
    scripted.generator.answer = " ".join(f"word{i}" for i in range(150)) + " [1]."
    scripted.generator.delay_s = 0.03
    open_demo(page, scripted)
    page.locator("#tc-bubble").click()
    ask(page, QUESTION)
    streaming = bot(page)
    expect(streaming).to_have_class(re.compile(r"\bstreaming\b"))
    expect(streaming.locator(".answer")).to_contain_text("word5 ")  # tokens show as they arrive
    expect(page.locator("#tc-stop")).to_be_visible()
    page.locator("#tc-stop").click()
    expect(streaming).to_have_class(re.compile(r"\bstopped\b"))
    expect(streaming.locator(".note")).to_have_text("Stopped.")
    assert "word149" not in streaming.locator(".answer").inner_text()
    assert scripted.generator.cancelled.wait(5)
    expect(page.locator("#tc-send")).to_be_visible()
    assert page.errors == []


def test_citations_stay_on_the_readers_site(new_page, live):
    # The index holds the book under its site URL (here the server's 127.0.0.1 address, standing
    # in for a production host); the reader opens the same pages on another origin (localhost).
    page = new_page()
    reader = live.url.replace("127.0.0.1", "localhost")
    page.goto(reader + "/book/docs/intro")
    expect(page.locator("#tc-bubble")).to_be_visible()
    page.evaluate("site => { textbookChat.config.siteUrl = site; }", live.url + "/book/")
    page.locator("#tc-bubble").click()
    ask(page, QUESTION)
    answer = wait_done(page)
    links = [*answer.locator(".answer a.cite").all(), *answer.locator(".sources a.source").all()]
    hrefs = [link.get_attribute("href") for link in links]
    assert hrefs and all(h.startswith(reader + "/book/docs/") for h in hrefs), hrefs
    answer.locator(".answer a.cite").first.click()
    page.wait_for_url(lambda url: url.startswith(reader + "/book/docs/"))
    assert page.errors == []
