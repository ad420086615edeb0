"""Driving the widget in a page (Playwright): open the demo page, ask, find messages and focus,
watch an answer's states, select text, measure boxes. Locators pierce the widget's open
shadow root, so `#tc-panel` finds the panel inside it."""
from __future__ import annotations

import re

from playwright.sync_api import Page, expect

DEMO_PAGE = "/book/docs/foundations/sampling-and-aliasing"  # a page of the sample book (its site, or the demo)
QUESTION = "What is aliasing?"


def open_demo(page: Page, server, path: str = DEMO_PAGE) -> None:
    page.goto(server.page_url(path))
    expect(page.locator("#tc-bubble")).to_be_visible()
    # a Docusaurus page (with its scripts): once React has hydrated it (a selection made before may be lost)
    page.wait_for_function("document.documentElement.dataset.hasHydrated !== 'false'"
                           " || !document.querySelector('script[src*=\"/assets/js/\"]')")


def without_site_scripts(html: str) -> str:
    """A built Docusaurus page as plain HTML: its own scripts left out (nothing hydrates it, nor
    sets <html lang> and dir back), the widget's tag kept."""
    html = re.sub(r"<script[^>]*assets/js/[^>]*></script>|<link[^>]*as=script[^>]*>", "", html)
    return re.sub(r"<script>.*?</script>", "", html, flags=re.DOTALL)


def ask(page: Page, question: str) -> None:
    page.locator("#tc-input").fill(question)
    page.locator("#tc-input").press("Enter")


def bot(page: Page, n: int = -1):
    messages = page.locator("article.msg.bot")
    return messages.last if n == -1 else messages.nth(n)


def wait_done(page: Page, n: int = -1):
    message = bot(page, n)
    expect(message).to_have_class(re.compile(r"\bdone\b"))
    return message


def focused(page: Page) -> str:
    """The focused element inside the widget, as '#id' or 'tag.class.list' ('' if none)."""
    return page.evaluate("""() => {
        const host = document.getElementById('textbook-chat');
        const el = document.activeElement === host ? host.shadowRoot.activeElement : null;
        if (!el) return '';
        return el.id ? '#' + el.id : [el.tagName.toLowerCase(), ...el.classList].join('.');
    }""")


def overlap(a: dict | None, b: dict | None) -> bool:
    """Do two bounding boxes (None: not rendered) intersect?"""
    if not a or not b:
        return False
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def widget_box_of(page: Page, element_id: str) -> dict | None:
    """The viewport box of a widget element, None when it is not there or not rendered."""
    return page.evaluate("""(id) => {
        const el = document.getElementById('textbook-chat').shadowRoot.getElementById(id);
        const r = el && el.getClientRects().length ? el.getBoundingClientRect() : null;
        return r && {x: r.x, y: r.y, width: r.width, height: r.height};
    }""", element_id)


def record_bot_states(page: Page) -> None:
    """Remember every state a bot message passes through (class, aria-busy, answer length)."""
    page.evaluate("""() => {
        const log = document.getElementById('textbook-chat').shadowRoot.getElementById('tc-log');
        window.__states = [];
        const note = () => {
            for (const b of log.querySelectorAll('article.msg.bot')) {
                const answer = b.querySelector('.answer');
                window.__states.push({cls: b.className, busy: b.getAttribute('aria-busy'),
                                      text: answer ? answer.textContent : ''});
            }
        };
        new MutationObserver(note).observe(log, {subtree: true, childList: true, attributes: true,
                                                 characterData: true});
    }""")


def phrase_points(page: Page, container: str, phrase: str) -> tuple[dict, dict]:
    """Viewport points at the start and end of `phrase` inside `container`, for a mouse drag."""
    points = page.evaluate("""([container, phrase]) => {
        const walker = document.createTreeWalker(document.querySelector(container), NodeFilter.SHOW_TEXT);
        for (let node; (node = walker.nextNode());) {
            const i = node.data.indexOf(phrase);
            if (i < 0) continue;
            node.parentElement.scrollIntoView({block: 'center'});
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + phrase.length);
            const rects = [...range.getClientRects()].filter((r) => r.width > 0);
            const first = rects[0], last = rects[rects.length - 1];
            return [{x: first.left + 1, y: (first.top + first.bottom) / 2},
                    {x: last.right - 1, y: (last.top + last.bottom) / 2}];
        }
        return null;
    }""", [container, phrase])
    assert points, f"{phrase!r} not found in {container}"
    size = page.viewport_size
    assert all(0 <= p["x"] < size["width"] and 0 <= p["y"] < size["height"] for p in points), points
    return points[0], points[1]


def drag_select(page: Page, container: str, phrase: str) -> str:
    start, end = phrase_points(page, container, phrase)
    page.mouse.move(start["x"], start["y"])
    page.mouse.down()
    page.mouse.move(end["x"], end["y"], steps=12)
    page.mouse.up()
    return page.evaluate("() => getSelection().toString().trim()")
