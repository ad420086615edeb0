"""The widget on real textbook sites (issue 38): selections kept to the article, cited passages
that stay marked when the article re-renders, a bubble that moves clear of another one, the
bubble and an honest panel while the chat server is down, links that stay on the reader's site.

The sample book's real Docusaurus build and the real server (tests/browser/conftest.py), headless
Chromium. `?rerender=1` makes the site re-mount its article 200 ms after load, on that page and
the pages opened after it in the tab (as a custom Root or theme wrapper does).
"""
from __future__ import annotations

import json
import re
import time
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import Page, Route, expect

from axe_audit import audit_themes
from processes import free_port
from sample_site import StaticSite
from widget_pages import DEMO_PAGE, QUESTION, ask, open_demo, overlap, phrase_points, wait_done, widget_box_of

expect.set_options(timeout=15_000)
RERENDERED = "() => document.documentElement.dataset.rerendered === '1'"


def keep_editing(page: Page, script: str) -> None:
    """Run `script` (a function of the document) on every page of the test as it is parsed and
    whenever it changes: so the widget's script tag is edited before the widget reads it, and what
    the site's React sets again (its head) is edited again. (A page served through page.route
    would not do: Chromium then holds it for a public one and blocks its requests to loopback.)"""
    page.add_init_script(f"""new MutationObserver(() => ({script})(document))
        .observe(document, {{childList: true, subtree: true, attributes: true}});""")


def select(page: Page, start: str, start_at: int, end: str, end_at: int) -> None:
    """Select from a point in the first text node holding `start` to one in the first holding `end`
    (CSS selectors of their elements), as a reader's selection ends up."""
    page.evaluate("""([start, startAt, end, endAt]) => {
        const text = (sel) => [...document.querySelector(sel).childNodes].find((n) => n.nodeType === 3 && n.data.trim());
        getSelection().setBaseAndExtent(text(start), startAt, text(end), endAt);
    }""", [start, start_at, end, end_at])


def quote(page: Page) -> str:
    return " ".join(page.locator("#tc-quote blockquote").inner_text().split())


# --- selections stay in the article ---------------------------------------------------------

def test_a_drag_from_a_paragraph_into_the_open_panel_asks_about_that_paragraph_only(new_page, live):
    page = new_page()
    open_demo(page, live, DEMO_PAGE + "?rerender=1")
    page.wait_for_function(RERENDERED)
    page.locator("#tc-bubble").click()
    expect(page.locator("#tc-panel")).to_be_visible()
    paragraph = page.locator("article p", has_text="What happens if the condition is broken?")
    text = " ".join(paragraph.inner_text().split())
    start, _ = phrase_points(page, "article", "What happens if the condition is broken?")
    panel = page.locator("#tc-panel").bounding_box()
    page.mouse.move(start["x"], start["y"])
    page.mouse.down()
    page.mouse.move(panel["x"] + panel["width"] / 2, panel["y"] + panel["height"] / 2, steps=12)
    page.mouse.up()
    # what the browser selected reaches from the top of the page to the paragraph
    assert "What happens" not in page.evaluate("getSelection().toString()")
    page.locator("#tc-ask").click()
    assert quote(page) == text
    expect(page.locator("#tc-quote .note")).to_be_hidden()
    with page.expect_request(lambda r: r.url.endswith("/chat") and r.method == "POST") as sent:
        ask(page, "What is an alias?")
    assert " ".join(json.loads(sent.value.post_data)["selected_text"].split()) == text
    assert page.errors == []


def test_a_selection_into_the_navigation_is_clipped_and_a_long_one_cut_to_its_first_paragraph(page, live):
    open_demo(page, live)
    # from the navbar, past the breadcrumbs, into the article's first paragraph: only the article's part
    select(page, "nav a.navbar__link", 0, "article p", 20)
    expect(page.locator("#tc-ask")).to_be_visible()
    page.locator("#tc-ask").click()
    expect(page.locator("#tc-quote")).to_be_visible()
    assert quote(page) == "Sampling and Aliasing Sampling turns a con"
    expect(page.locator("#tc-quote .note")).to_be_hidden()
    page.keyboard.press("Escape")

    # the whole article, over 2,000 characters: its first paragraph, with a note
    page.locator("article p").first.click()
    page.evaluate("""() => { const a = document.querySelector('article');
        getSelection().setBaseAndExtent(a, 0, a, a.childNodes.length); }""")
    assert len(page.evaluate("getSelection().toString()")) > 2000
    page.locator("#tc-ask").click()
    first = " ".join(page.locator("article p").first.inner_text().split())
    expect(page.locator("#tc-quote blockquote")).to_have_text(first)
    expect(page.locator("#tc-quote .note")).to_have_text("A long selection: only its first paragraph is asked about.")
    assert page.errors == []


def test_with_data_selection_off_the_site_asks_through_the_api(page, live):
    keep_editing(page, """(d) => { const tag = d.querySelector('script[data-book-id]');
        if (tag && !tag.dataset.selection) tag.dataset.selection = 'off'; }""")
    open_demo(page, live)
    select(page, "article p", 0, "article p", 14)
    page.wait_for_timeout(400)  # past the moment the button would show
    expect(page.locator("#tc-ask")).to_have_count(0)
    # the site's own selection menu joins in with one call
    assert page.evaluate("textbookChat.askAboutSelection()") is True
    expect(page.locator("#tc-quote blockquote")).to_have_text("Sampling turns")
    page.evaluate("getSelection().removeAllRanges()")
    assert page.evaluate("textbookChat.askAboutSelection()") is False
    assert page.errors == []


# --- cited passages stay marked ---------------------------------------------------------------

MARKED = """() => {
    const h = CSS.highlights.get('textbook-chat-cited');
    const r = h && [...h][0];
    return r && r.startContainer.isConnected && document.querySelector('article').contains(r.startContainer)
        ? r.toString() : null;
}"""


def test_a_cited_passage_is_marked_after_the_article_re_renders_and_cleared_on_the_next_click(new_page, live):
    page = new_page()
    open_demo(page, live, "/book/docs/intro?rerender=1")  # and every page after it in this tab
    page.locator("#tc-bubble").click()
    ask(page, QUESTION)
    answer = wait_done(page)
    links = answer.locator(".sources a.source")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    index = next(i for i, h in enumerate(hrefs) if re.search(r"#[\w-]+:~:text=", h))
    first_words = hrefs[index].split(":~:text=")[1].split(",")[0]
    target = urlparse(hrefs[index]).path

    clicked = time.monotonic()
    links.nth(index).click()
    page.wait_for_url(lambda url: urlparse(url).path.rstrip("/") == target.rstrip("/"))
    page.wait_for_function(RERENDERED)
    page.wait_for_timeout(max(0, 1500 - (time.monotonic() - clicked) * 1000))
    marked = page.evaluate(MARKED)  # at 1.5 s, in the article that replaced the first one
    assert marked and " ".join(marked.split()).lower().startswith(
        " ".join(re.sub(r"%20", " ", first_words).split()).lower()[:20]), (marked, first_words)
    page.mouse.click(5, 5)  # the reader's next click
    assert page.evaluate("CSS.highlights.has('textbook-chat-cited')") is False
    assert page.evaluate("sessionStorage.getItem('textbook-chat:cited')") is None  # forgotten
    assert page.errors == []


def test_without_the_highlight_api_the_cited_passage_is_wrapped_in_marks(new_page, live):
    """A browser without CSS.highlights (Safari before 17.2): <mark>s, made again after the re-render."""
    cited = (live.url + DEMO_PAGE + "#aliasing:~:text=What%20happens%20if%20the%20condition%20is,"
             "alias%2C%20and%20the%20effect%20is%20aliasing.")
    page = new_page()
    # as after a click on that citation on another page of the book
    page.add_init_script(f"""delete window.Highlight;
        if (!sessionStorage.getItem('seen')) sessionStorage.setItem('textbook-chat:cited', {json.dumps(cited)});
        sessionStorage.setItem('seen', '1');""")
    open_demo(page, live, DEMO_PAGE + "?rerender=1")
    page.wait_for_function(RERENDERED)
    page.wait_for_timeout(300)
    marks = page.locator("article mark.textbook-chat-cited")
    expect(marks.first).to_be_visible()
    text = " ".join("".join(marks.all_text_contents()).split())
    assert text.startswith("What happens if the condition is broken?") and text.endswith("the effect is aliasing."), text
    # a change to the page just before the click: the re-mark it schedules must not undo the click's clearing
    page.evaluate("document.body.append(document.createElement('i'))")
    page.mouse.click(5, 5)
    expect(marks).to_have_count(0)
    page.wait_for_timeout(300)
    assert marks.count() == 0
    assert page.locator("article p", has_text="What happens if the condition is broken?").count() == 1
    assert page.errors == []


# --- another chat bubble in the corner --------------------------------------------------------

THEIR_BUBBLE = """addEventListener('DOMContentLoaded', () => setTimeout(() => {
    const b = document.createElement('div');
    b.id = 'their-bubble';
    Object.assign(b.style, {position: 'fixed', right: '24px', bottom: '24px', width: '60px', height: '60px',
                            borderRadius: '50%', background: '#444', zIndex: 1000});
    document.body.append(b);
}, 300));"""


def test_the_bubble_moves_clear_of_another_fixed_bubble_in_its_corner(new_page, live):
    page = new_page()
    page.add_init_script(THEIR_BUBBLE)
    open_demo(page, live)
    theirs = page.locator("#their-bubble")
    expect(theirs).to_be_visible()  # added after the widget started
    page.wait_for_function("""() => getComputedStyle(document.getElementById('textbook-chat').shadowRoot
        .getElementById('tc-bubble')).bottom !== '20px'""")
    ours = widget_box_of(page, "tc-bubble")
    box = theirs.bounding_box()
    assert not overlap(ours, box), (ours, box)
    assert ours["y"] + ours["height"] <= box["y"] and ours["y"] > 0, (ours, box)  # right above it
    page.locator("#tc-bubble").click()
    expect(page.locator("#tc-panel")).to_be_visible()
    panel = widget_box_of(page, "tc-panel")
    assert not overlap(panel, box) and panel["y"] >= 0, (panel, box)
    assert page.errors == []


# --- while the chat server is down ------------------------------------------------------------

def test_with_the_chat_server_down_the_bubble_shows_and_the_panel_says_so_until_it_answers(page, sample_site_build):
    """The build carries the widget's scripts (the plugin copied them); the chat server it names
    does not answer. First the panel's script cannot be had either, then it can."""
    api = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    site = StaticSite(sample_site_build, api)
    state = {"panel": False, "api": False}

    def panel_script(route: Route):
        route.continue_() if state["panel"] else route.abort("connectionrefused")

    def chat_server(route: Route):
        if not state["api"]:
            return route.continue_()  # refused: nothing listens
        route.fulfill(json={"status": "ok"}, headers={"Access-Control-Allow-Origin": "*"})

    try:
        page.route("**/widget-panel.js*", panel_script)
        page.route(api + "/**", chat_server)
        page.goto(site.url + DEMO_PAGE)
        bubble = page.locator("#tc-bubble")
        expect(bubble).to_be_visible()
        bubble.click()
        panel = page.locator("#tc-panel")
        expect(panel).to_be_visible()
        expect(panel.locator(".down")).to_contain_text("The assistant is unavailable right now.")
        expect(bubble).to_have_attribute("aria-expanded", "true")
        expect(panel.locator(".down button")).to_be_focused()
        assert audit_themes(page) == []
        page.keyboard.press("Escape")
        expect(panel).to_be_hidden()
        bubble.click()
        expect(panel).to_be_visible()

        state["panel"] = True  # the panel's script comes back; the chat server is still down
        panel.locator(".down button").click()
        expect(page.locator("#tc-input")).to_be_visible()  # the real panel, open
        notice = page.locator("#tc-panel .down")
        expect(notice).to_contain_text("The assistant is unavailable right now.")
        assert audit_themes(page) == []
        state["api"] = True
        notice.locator("button").click()
        expect(notice).to_have_count(0)
        assert [e for e in page.errors if "ERR_CONNECTION_REFUSED" not in e and "widget-panel" not in e] == [], page.errors
    finally:
        site.close()


# --- links stay on the reader's site ------------------------------------------------------------

def test_citations_and_course_answer_links_stay_on_the_readers_site_without_data_site_url(page, live):
    """The index holds the book under the site's 127.0.0.1 address (standing in for production);
    the reader opens the same build on localhost, its tag without data-site-url: the page's
    canonical link (Docusaurus writes the site's configured URL there) tells where it belongs."""
    reader = live.url.replace("127.0.0.1", "localhost")
    url = reader + "/book/docs/intro"
    keep_editing(page, """(d) => {
        d.querySelector('script[data-site-url]')?.removeAttribute('data-site-url');
        const link = d.querySelector('link[rel=canonical]');  // the site's configured url, the index's here
        if (link && link.href.startsWith('http://127.0.0.1:8000/'))
            link.href = link.href.replace('http://127.0.0.1:8000', '%s');
    }""" % live.url)
    page.goto(url)
    assert page.locator("script[data-site-url]").count() == 0
    expect(page.locator("link[rel=canonical]")).to_have_attribute("href", live.url + "/book/docs/intro")
    page.locator("#tc-bubble").click()
    ask(page, QUESTION)
    answer = wait_done(page)
    ask(page, "What chapters are in this book?")
    contents = wait_done(page)
    links = [*answer.locator(".answer a.cite").all(), *answer.locator(".sources a.source").all(),
             *contents.locator(".answer a").all()]
    hrefs = [link.get_attribute("href") for link in links]
    assert contents.locator(".answer a").count() >= 4, hrefs
    assert all(h.startswith(reader + "/book/docs/") for h in hrefs), hrefs
    assert page.errors == []
