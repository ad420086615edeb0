"""The author's insights over questions asked through the real /chat and /feedback: what each
question leaves behind, every view's numbers against the recorded events (SQLite and
PostgreSQL), the grouping of refused questions by topic, masking, retention, the token, and
the `insights` and `purge` commands."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select, update

from apps import make_app
from places import REPO
from server.insights.report import Window, read_insights
from server.text.privacy import mask
from server.sessions import Reply, SessionStore
from server.sessions.schema import citations_table, feedback_table, messages_table, queries_table

TOKEN = "author-s3cret"
PAGE = "http://127.0.0.1:8000/book/docs/foundations/sampling-and-aliasing"
OTHER = "http://127.0.0.1:8000/book/docs/foundations/quantization-and-bit-depth"
PASSAGE = ("The false low frequency is called an alias, and the effect is aliasing.")
TOPICS = {
    "bread": ["How do I bake sourdough bread?", "What is the best recipe for sourdough bread?",
              "How long should bread dough rise before baking?"],
    "football": ["What is the offside rule in football?", "How does offside work in soccer?",
                 "When is a football player offside?"],
    "revolution": ["When did the French Revolution begin?", "What caused the French Revolution?",
                   "Why did the French Revolution start in 1789?"],
}


class Recorded:
    """The questions asked, and what the API said about each."""

    def __init__(self, app):
        self.app = app
        self.client = app.test_client()
        self.answers: list[tuple[dict, dict]] = []

    def ask(self, question: str, page: str, **extra) -> dict:
        body = {"question": question, "metadata": {"page_url": page}, **extra}
        response = self.client.post("/chat", json=body)
        assert response.status_code == 200, response.get_json()
        self.answers.append((body, response.get_json()))
        return response.get_json()

    @property
    def sessions(self) -> SessionStore:
        return self.app.extensions["textbook_chat"].sessions


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def recorded(request, sample_book, tmp_path_factory) -> Recorded:
    data = tmp_path_factory.mktemp("insights") / "data"
    url = None if request.param == "sqlite" else request.getfixturevalue("postgres").new_database()
    chat = Recorded(make_app(sample_book, data, database_url=url, insights_token=TOKEN))
    # read on another host than the one indexed, with a trailing slash: still the indexed page
    first = chat.ask("What is aliasing? Write to me at jane.doe@example.edu", PAGE.replace("127.0.0.1:8000", "book.example.org") + "/")
    second = chat.ask("why does this happen?", PAGE, selected_text=PASSAGE, selection_mode="combined")
    chat.ask("can you explain this more simply?", PAGE, selected_text="  the FALSE low frequency is called an alias,\nand the effect is aliasing ",
             selection_mode="combined")
    chat.ask("How do I bake bread?", OTHER, selected_text="Quantization maps each sample to the nearest level.",
             selection_mode="exclusive")
    for questions in TOPICS.values():
        for question in questions:
            assert chat.ask(question, OTHER)["status"] == "refused"
    feedback = [(first["assistant_message_id"], "down", "Wrong! call me on +1 415-555-2671"),
                (second["assistant_message_id"], "up", None)]
    for message_id, rating, comment in feedback:
        assert chat.client.post("/feedback", json={"message_id": message_id, "rating": rating,
                                                   "comment": comment}).status_code == 201
    yield chat
    chat.sessions.close()


def _report(chat: Recorded, **window):
    return read_insights(chat.sessions, Window(**window))


def test_each_question_keeps_its_page_passage_outcome_and_citations(recorded):
    with recorded.sessions.engine.connect() as conn:
        rows = conn.execute(select(queries_table).order_by(queries_table.c.created_at)).mappings().all()
        cited = conn.execute(select(citations_table)).mappings().all()
    assert [r["outcome"] for r in rows] == ["answered", "answered", "answered", "declined"] + ["refused"] * 9
    assert [r["page_url"] for r in rows] == [PAGE] * 3 + [OTHER] * 10
    assert rows[1]["passage_fingerprint"] == rows[2]["passage_fingerprint"] != rows[3]["passage_fingerprint"]
    assert rows[1]["passage_url"].startswith(PAGE) and ":~:text=The%20false%20low%20frequency" in rows[1]["passage_url"]
    assert rows[1]["passage_section"].endswith("Aliasing")
    assert rows[0]["gap_vector"] is not None  # rated down
    assert all(r["gap_vector"] is not None and r["nearest"] for r in rows[4:])
    expected = {(body["question"], s["url"]) for body, answer in recorded.answers
                for s in answer["sources"] if s["source_type"] == "database"}
    questions = {r["id"]: r["question"] for r in rows}
    assert {(questions[c["query_id"]], c["section_url"]) for c in cited} == {(mask(q), u) for q, u in expected}
    assert rows[0]["question"] == "What is aliasing? Write to me at [email]"


def test_the_views_count_what_was_recorded(recorded):
    report = _report(recorded)
    assert report.questions == 13
    assert report.outcomes == {"answered": 3, "declined": 1, "refused": 9}
    assert report.ratings == {"up": 1, "down": 1}
    pages = {p.url: p for p in report.pages}
    about = {}
    for _, answer in recorded.answers:
        for url in {s["url"].split("#")[0] for s in answer["sources"] if s["source_type"] == "database"}:
            about[url] = about.get(url, 0) + 1
    assert {url: p.asked_about for url, p in pages.items() if p.asked_about} == about
    assert (pages[PAGE].asked_on, pages[PAGE].refused, pages[PAGE].up, pages[PAGE].down) == (3, 0, 1, 1)
    assert (pages[OTHER].asked_on, pages[OTHER].refusal_rate) == (10, 1.0)
    (top, other) = report.passages
    assert (top.times, top.questions) == (2, ("can you explain this more simply?", "why does this happen?"))
    assert top.url.startswith(PAGE + "#") and other.times == 1
    (today,) = [d for d in report.trend if d.questions]
    assert (today.questions, today.refused) == (13, 10)
    (down,) = report.rated_down
    assert (down.comment, down.page_url) == ("Wrong! call me on [phone]", PAGE)


def test_refused_questions_are_grouped_by_topic(recorded):
    gaps = _report(recorded).gaps
    grouped = sorted(sorted(g.examples) for g in gaps if g.refused)
    assert grouped == sorted(sorted(q) for q in TOPICS.values())
    (rated,) = [g for g in gaps if g.rated_down]
    assert rated.examples == ("What is aliasing? Write to me at [email]",) and rated.nearest
    assert all(g.nearest for g in gaps)


def test_a_book_and_a_period_narrow_the_views(recorded):
    assert _report(recorded, book_id="another-book").questions == 0
    assert _report(recorded, since=datetime.now(timezone.utc) + timedelta(minutes=1)).questions == 0


def test_the_page_and_its_data_need_the_token(recorded):
    client = recorded.app.test_client()
    assert client.get("/insights").status_code == 401
    assert client.get("/insights.json").status_code == 401
    assert client.get("/insights.json", headers={"Authorization": "Bearer nope"}).status_code == 403
    wrong = client.post("/insights", data={"token": "nope"})
    assert wrong.status_code == 403 and "not the insights token" in wrong.get_data(as_text=True)
    data = client.get("/insights.json?since=all", headers={"Authorization": f"Bearer {TOKEN}"}).get_json()
    assert data["questions"] == 13 and len(data["coverage_gaps"]) == 4
    signed_in = client.post("/insights?since=7d", data={"token": TOKEN})
    assert signed_in.status_code == 303 and signed_in.headers["Location"] == "insights?since=7d"  # relative: see test_insights_safety
    cookie = signed_in.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and TOKEN not in cookie
    page = client.get("/insights?since=7d")  # the cookie, from now on
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "<svg" in html and "sourdough" in html and "http" not in _assets(html)
    assert client.get("/insights.json").status_code == 401  # the cookie is for the page only


def test_only_the_cookie_a_sign_in_sets_opens_the_page(chat_app):
    """The page's cookie is checked against the token: a forged one, one made for another token,
    the token itself as the cookie: each is refused (403, the form again, the cookie dropped)."""
    import hashlib
    import hmac

    from server.insights.web import COOKIE

    client = chat_app(insights_token=TOKEN).test_client()
    another = hmac.new(b"another-token", b"textbook-chat insights page", hashlib.sha256).hexdigest()
    for forged in ("forged", another, TOKEN):
        client.set_cookie(COOKIE, forged)
        refused = client.get("/insights?since=all")
        html = refused.get_data(as_text=True)
        assert refused.status_code == 403, (forged, refused.status_code)
        assert "not the insights token" in html and "<svg" not in html, forged
        assert f"{COOKIE}=;" in refused.headers.get("Set-Cookie", ""), forged  # the wrong cookie is dropped
    client.delete_cookie(COOKIE)
    assert client.get("/insights").status_code == 401
    assert client.post("/insights", data={"token": TOKEN}).status_code == 303  # the cookie the page sets
    assert client.get("/insights?since=all").status_code == 200


def _assets(html: str) -> str:
    """What the page loads (scripts, styles): only from this server."""
    import re

    return " ".join(re.findall(r'(?:src|href)="([^"]+)"[^>]*>(?:</script>)?', html.split("<main>")[0] + html[html.rfind("</main>"):]))


def test_without_a_token_configured_there_is_no_insights_page(chat_app):
    client = chat_app().test_client()
    assert client.get("/insights").status_code == 404
    assert client.get("/insights.json", headers={"Authorization": "Bearer x"}).status_code == 404


def test_the_author_view_of_one_page(recorded):
    client = recorded.app.test_client()
    response = client.get("/insights/page", query_string={"url": PAGE + "#aliasing"},
                          headers={"Authorization": f"Bearer {TOKEN}"})
    view = response.get_json()
    assert view["page_url"] == PAGE
    assert [(p["times"], p["questions"]) for p in view["passages"]] == [
        (2, ["can you explain this more simply?", "why does this happen?"])]
    assert sum(q["times"] for q in view["questions"]) == 3
    assert client.get("/insights/page", query_string={"url": PAGE}).status_code == 401


@pytest.mark.parametrize("text, masked", [
    ("write to jane.doe+notes@uni.example.edu", "write to [email]"),
    ("call +44 20 7946 0958 or (415) 555-2671", "call [phone] or [phone]"),
    ("my card is 4111 1111 1111 1111", "my card is [card]"),
    ("SSN 123-45-6789, student s12345678, IBAN DE89 3704 0044 0532 0130 00", "SSN [id], student [id], IBAN [id]"),
    ("Python 3.11.4, ROS 2 Humble, v2.0.1, ISO 8601, IEEE 754-2008, 192.168.0.1:8080, 2024-01-31, 44100 Hz",
     "Python 3.11.4, ROS 2 Humble, v2.0.1, ISO 8601, IEEE 754-2008, 192.168.0.1:8080, 2024-01-31, 44100 Hz"),
])
def test_masking(text, masked):
    assert mask(text) == masked


def test_retention_deletes_exactly_what_is_older(tmp_path):
    store = SessionStore(f"sqlite:///{tmp_path / 'sessions.db'}", retention_days=180)
    now = datetime.now(timezone.utc)
    kept, old = store.open_turn(None, "kept", None, "combined"), store.open_turn(None, "old", None, "combined")
    for turn in (kept, old):
        store.close_turn(turn.query_id, [("COMPLETED", now)], session_id=turn.session_id,
                         user_message_id=turn.user_message_id, user_status="answered",
                         assistant=Reply("a", "completed"))
    answer = store.get_session(old.session_id).messages[1].id
    store.add_feedback(answer, "down", "no")
    long_ago, just_inside = now - timedelta(days=180, minutes=1), now - timedelta(days=179, hours=23)
    with store.engine.begin() as conn:
        conn.execute(update(queries_table).where(queries_table.c.id == old.query_id).values(created_at=long_ago))
        conn.execute(update(messages_table).where(messages_table.c.session_id == old.session_id).values(timestamp=long_ago))
        conn.execute(update(queries_table).where(queries_table.c.id == kept.query_id).values(created_at=just_inside))
    from server.sessions.schema import sessions_table
    with store.engine.begin() as conn:
        conn.execute(update(sessions_table).where(sessions_table.c.id == old.session_id).values(updated_at=long_ago))
    purged = store.retention.purge(now=now)
    assert (purged.questions, purged.messages, purged.ratings, purged.conversations) == (1, 2, 1, 1)
    assert store.get_session(old.session_id) is None
    assert [m.content for m in store.get_session(kept.session_id).messages] == ["kept", "a"]
    with store.engine.connect() as conn:
        assert conn.execute(select(feedback_table)).all() == []
    store.close()


def test_retention_purges_on_its_own_when_a_question_is_asked_at_most_hourly(tmp_path, monkeypatch):
    """No `purge` command needed: a question asked starts the purge in the background, once an hour."""
    import time as real_time
    from types import SimpleNamespace

    from server.sessions import retention
    from server.sessions.schema import sessions_table

    url = f"sqlite:///{tmp_path / 'sessions.db'}"
    writer = SessionStore(url)  # keeps everything: what it writes is made old by hand
    long_ago = datetime.now(timezone.utc) - timedelta(days=181)

    def old_question(text: str) -> str:
        turn = writer.open_turn(None, text, None, "combined")
        writer.close_turn(turn.query_id, [("COMPLETED", datetime.now(timezone.utc))], session_id=turn.session_id,
                          user_message_id=turn.user_message_id, user_status="answered", assistant=Reply("a", "completed"))
        with writer.engine.begin() as conn:
            conn.execute(update(queries_table).where(queries_table.c.id == turn.query_id).values(created_at=long_ago))
            conn.execute(update(messages_table).where(messages_table.c.session_id == turn.session_id)
                         .values(timestamp=long_ago))
            conn.execute(update(sessions_table).where(sessions_table.c.id == turn.session_id).values(updated_at=long_ago))
        return turn.session_id

    store = SessionStore(url, retention_days=180)

    def ask(text: str) -> str:
        session_id = store.open_turn(None, text, None, "combined").session_id
        assert store.retention._lock.acquire(timeout=20), "the background purge did not end"  # held while it runs
        store.retention._lock.release()
        return session_id

    first_old = old_question("asked long ago")
    new = ask("asked now")
    assert store.get_session(first_old) is None, "a question asked did not start the purge"
    assert [m.content for m in store.get_session(new).messages] == ["asked now"]
    second_old = old_question("also long ago")
    ask("asked again, within the hour")
    assert store.get_session(second_old) is not None  # at most once an hour
    later = real_time.monotonic() + retention.EVERY_S + 1
    monkeypatch.setattr(retention, "time", SimpleNamespace(monotonic=lambda: later))
    ask("asked an hour later")
    assert store.get_session(second_old) is None and store.get_session(new) is not None
    store.close()
    writer.close()


CLI = [sys.executable, "-c", "from server.cli import main; main()"]


def test_the_insights_and_purge_commands(recorded, tmp_path):
    """(Last in the module: it deletes what the others read.)"""
    url = recorded.sessions.engine.url.render_as_string(hide_password=False)
    env = {"DATABASE_URL": url, "PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}
    run = lambda *args: subprocess.run([*CLI, *args], env=env, capture_output=True, text=True, timeout=120)  # noqa: E731
    printed = run("insights", "--json", "--since", "all")
    assert printed.returncode == 0, printed.stderr
    printed = json.loads(printed.stdout)
    assert printed["outcomes"] == {"answered": 3, "declined": 1, "refused": 9}
    text = run("insights").stdout
    assert "13 questions" in text and "Coverage gaps" in text and "sourdough" in text
    assert run("insights", "--csv", str(tmp_path / "csv")).returncode == 0
    assert (tmp_path / "csv" / "pages.csv").read_text().count("\n") == 1 + len(printed["pages"])
    assert run("insights", "--since", "soon").returncode == 1
    assert "0 question(s)" in run("purge").stdout
    assert "13 question(s)" in run("purge", "--older-than", "0").stdout


def test_questions_kept_from_before_are_given_their_outcome(tmp_path):
    database = tmp_path / "sessions.db"
    shutil.copy(REPO / "tests" / "data" / "sessions-before-migrations.db", database)
    store = SessionStore(f"sqlite:///{database}")
    report = read_insights(store, Window())
    assert report.outcomes == {"answered": 1, "unfinished": 1} and report.ratings == {"up": 1, "down": 0}
    store.close()
