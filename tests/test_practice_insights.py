"""The author's insights on practice: per page, the quiz items students miss most and the
questions they ask hints for most, read from what students did through /chat (the /insights
page, /insights.json, the page view and the `insights` command all show them)."""
from __future__ import annotations

import pytest

from apps import make_app, open_copy
from places import REPO
from server.insights.report import Window, read_insights

PRACTICE_BOOK = REPO / "tests" / "data" / "practice-book"
QUIZ_PAGE = "https://practice.example/docs/dynamics/module-quiz"
LESSON = "https://practice.example/docs/dynamics/arm-dynamics"
TOKEN = "author-s3cret"


@pytest.fixture(scope="module")
def app(tmp_path_factory, embedder, indexed_folder):
    book = open_copy(indexed_folder(PRACTICE_BOOK), tmp_path_factory.mktemp("practised") / "data", embedder)
    app = make_app(book, tmp_path_factory.mktemp("practised-app"), insights_token=TOKEN)
    client = app.test_client()

    def ask(question, page=QUIZ_PAGE, **body):
        response = client.post("/chat", json={"question": question, "metadata": {"page_url": page}, **body})
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    for answers in (("b", "A", "a"), ("b", "D", "B"), ("c", "C", "b")):  # items 1, 2, 3 by three students
        quiz = ask("quiz me on this page")
        for item, said in zip((1, 2, 3), answers):
            ask(said, session_id=quiz["session_id"], quiz_answer={"quiz_id": quiz["quiz"]["id"], "item": item})
    for _ in range(2):
        assert ask("What is inertia?", LESSON, tutor=True)["status"] == "hint"
    assert ask("What is gravity compensation?", LESSON, tutor=True)["status"] == "hint"
    yield app
    book.index.close()


def test_per_page_the_items_missed_most_and_the_hints_asked_most(app):
    report = read_insights(app.extensions["textbook_chat"].sessions, Window())
    pages = {p.url: p for p in report.practice}
    quiz = pages[QUIZ_PAGE]
    assert [(r.item, r.missed, r.answered) for r in quiz.missed] == [
        ("Why does the torque a joint needs grow with the load?", 2, 3),
        ("What is torque at a joint?", 1, 3), ("Which link has more inertia?", 1, 3)]
    assert quiz.missed[0].section == "Joint torque" and quiz.missed[0].section_url == LESSON + "#joint-torque"
    hinted = pages[LESSON].hinted
    assert [(r.item, r.hints) for r in hinted] == [("What is inertia?", 2), ("What is gravity compensation?", 1)]
    assert hinted[0].section_url.startswith(LESSON)
    data = report.to_dict()["practice"]
    assert {p["url"] for p in data} == {QUIZ_PAGE, LESSON}


def test_the_insights_page_and_the_page_view_show_them(app):
    client = app.test_client()
    headers = {"Authorization": f"Bearer {TOKEN}"}
    html = client.get("/insights", headers=headers).get_data(as_text=True)
    assert 'id="practice"' in html and "Why does the torque a joint needs grow with the load?" in html
    assert "What is inertia?" in html
    view = client.get("/insights/page", query_string={"url": QUIZ_PAGE}, headers=headers).get_json()
    assert view["practised"][0]["item"] == "Why does the torque a joint needs grow with the load?"
    assert view["practised"][0]["missed"] == 2
