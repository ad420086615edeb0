"""The quiz as cards in the widget, in a real browser against the real chat server over the module
quiz book (tests/data/practice-book): choices are buttons and short answers a text box, each
answer's feedback shows in place, a score at the end, "Try again" asks the missed items only,
the page's progress is kept in the browser; the "Hints first" switch is remembered and gives a
hint with "Another hint" and "Show me the answer" under it."""
from __future__ import annotations

import json
import threading

import pytest
from playwright.sync_api import expect

from apps import make_app, open_copy
from places import REPO
from processes import free_port
from server.serving.wsgi import make_server

PRACTICE_BOOK = REPO / "tests" / "data" / "practice-book"
PAGE = "/docs/dynamics/module-quiz"


@pytest.fixture(scope="module")
def server(tmp_path_factory, embedder, indexed_folder):
    book = open_copy(indexed_folder(PRACTICE_BOOK), tmp_path_factory.mktemp("cards") / "data", embedder)
    app = make_app(book, tmp_path_factory.mktemp("cards-app"))
    served = make_server(app, "127.0.0.1", free_port(), threads=4)
    threading.Thread(target=served.run, daemon=True, name="waitress-cards").start()
    yield f"http://127.0.0.1:{served.effective_port}"
    served.close()
    book.index.close()


def open_page(page, server: str) -> None:
    """The quiz page of the book, served from the chat server's origin, with the widget's tag."""
    html = (f"<!doctype html><html lang=en><head><title>Module 1 Quiz</title></head><body><main><article>"
            f"<h1>Module 1 Quiz: Arm Dynamics</h1><p>Answer every question.</p></article></main>"
            f'<script src="{server}/widget.js" data-api="{server}" data-book-id="practice-book"></script></body></html>')
    page.route(server + PAGE, lambda route: route.fulfill(status=200, content_type="text/html", body=html))
    page.goto(server + PAGE)
    page.locator("#tc-bubble").click()
    expect(page.locator("#tc-panel")).to_be_visible()


def test_quiz_cards_feedback_in_place_score_try_again_and_hints_first(page, server):
    open_page(page, server)
    page.locator("#tc-input").fill("Quiz me on this page")
    page.locator("#tc-input").press("Enter")
    cards = page.locator("article.msg.bot .quiz .card")
    expect(cards).to_have_count(9)
    assert "1. What is torque at a joint?" not in page.locator("article.msg.bot .answer").inner_text()  # cards only
    first = cards.nth(0)
    expect(first.locator("button.choice")).to_have_count(4)
    first.get_by_role("button", name="B) The turning force a motor applies at a joint").click()
    expect(first.locator(".verdict")).to_have_text("Correct")
    expect(first.locator("button.choice.right")).to_have_count(1)
    second = cards.nth(1)
    second.get_by_role("button", name="A) Because the motor gets hotter").click()
    expect(second.locator(".verdict")).to_have_text("Not quite")
    expect(second.locator(".fb")).to_contain_text("C) Because a heavier load pulls harder")  # the book's answer
    for n, letter in ((2, "B"), (3, "A"), (4, "B"), (5, "C")):
        cards.nth(n).locator("button.choice").nth("ABCD".index(letter)).click()
        expect(cards.nth(n).locator(".verdict")).to_be_visible()
    short = cards.nth(6)
    expect(short.locator("textarea")).to_be_visible()
    short.locator("textarea").fill("A longer link has more inertia, so its motor needs more torque to accelerate it.")
    short.get_by_role("button", name="Check").click()
    expect(short.locator(".verdict")).to_have_text("Correct")
    for n in (7, 8):
        cards.nth(n).locator("textarea").fill("I am not sure")
        cards.nth(n).get_by_role("button", name="Check").click()
        expect(cards.nth(n).locator(".verdict")).to_be_visible()
    score = page.locator("article.msg.bot .quiz .score")
    expect(score).to_have_text("Score: 6 / 9")  # items 2, 8 and 9 missed
    progress = json.loads(page.evaluate("localStorage.getItem('textbook-chat:progress:v1:' + location.origin + ':practice-book')"))
    # kept by the page as the book names it (on whatever host the reader reads it)
    kept = progress["https://practice.example" + PAGE]
    assert (kept["score"], kept["total"], kept["quizzed"]) == (6, 9, 1)
    page.get_by_role("button", name="Try again with the ones missed").click()
    expect(cards).to_have_count(3)  # items 2, 8 and 9
    expect(cards.nth(0)).to_contain_text("Why does the torque a joint needs grow with the load?")
    cards.nth(0).get_by_role("button", name="C) Because a heavier load pulls harder on the lever arm of the link").click()
    expect(cards.nth(0).locator(".verdict")).to_have_text("Correct")

    # "Hints first": remembered across a reload, and a question then gets a hint with its follow-ups
    page.locator("#tc-tutor").check()
    page.reload()  # the panel opens again by itself (it was open), the switch as it was left
    expect(page.locator("#tc-panel")).to_be_visible()
    expect(page.locator("#tc-tutor")).to_be_checked()
    page.locator("#tc-input").fill("What is inertia?")
    page.locator("#tc-input").press("Enter")
    hint = page.locator("article.msg.bot").last
    expect(hint.get_by_role("button", name="Another hint")).to_be_visible()
    assert "Hint:" in hint.locator(".answer").inner_text()
    hint.get_by_role("button", name="Show me the answer").click()
    answer = page.locator("article.msg.bot").last
    expect(answer.locator(".actions")).to_be_visible()
    expect(answer.locator(".answer")).to_contain_text("resistance of a link to a change in its motion")
    assert page.errors == []
