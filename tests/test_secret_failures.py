"""Guessing a secret costs: wrong insights tokens (header, cookie, form) and wrong conversation
secrets are counted together per address across every endpoint, each waits longer than the one
before, and past AUTH_FAILURE_LIMIT every check from that address is refused (429 with
Retry-After), the right token too; another address is not held up."""
from __future__ import annotations

import time

import pytest

from apps import make_app
from server.api import failures

TOKEN = "author-s3cret"
LIMIT = 6


@pytest.fixture
def app(sample_book, tmp_path, monkeypatch):
    monkeypatch.setattr(failures, "FIRST_DELAY_S", 0.01)  # the doubling, in tenths of the real waits
    return make_app(sample_book, tmp_path / "data", insights_token=TOKEN, auth_failure_limit=f"{LIMIT} per hour")


def _guesses(client, session_id: str):
    """One wrong guess at each place a secret is compared, in turn."""
    yield lambda: client.get("/insights.json", headers={"Authorization": "Bearer guess"})
    yield lambda: client.get("/insights/page?url=http://x/y", headers={"Authorization": "Bearer guess"})
    yield lambda: client.post("/insights", data={"token": "guess"})
    yield lambda: (client.set_cookie("textbook_chat_insights", "forged"), client.get("/insights"))[1]
    yield lambda: client.get(f"/sessions/{session_id}", headers={"Authorization": "Bearer guess"})
    yield lambda: client.delete(f"/sessions/{session_id}", headers={"Authorization": "Bearer guess"})


def test_wrong_secrets_anywhere_share_one_budget_then_all_are_refused(app):
    reader = app.test_client()
    owner = reader.post("/sessions", json={})
    session_id, secret = owner.get_json()["id"], owner.get_json()["session_secret"]
    attacker = app.test_client()
    waits, statuses = [], []
    for guess in _guesses(attacker, session_id):
        started = time.perf_counter()
        statuses.append(guess().status_code)
        waits.append(time.perf_counter() - started)
    assert statuses == [403, 403, 403, 403, 404, 404]
    assert waits[-1] > waits[1] + 0.05  # 0.16 s against 0.01 s: each wrong try waits twice the one before

    refused = [guess() for guess in _guesses(attacker, session_id)]
    refused.append(attacker.get("/insights.json", headers={"Authorization": f"Bearer {TOKEN}"}))  # even the right one
    for response in refused:
        assert response.status_code == 429, response.get_data(as_text=True)[:200]
        assert response.get_json()["code"] == "RATE_LIMITED" and int(response.headers["Retry-After"]) > 0
    assert attacker.get("/health").status_code == 200  # nothing else is held up


def test_another_address_and_a_missing_secret_are_not_counted(app):
    reader, forgetful = app.test_client(), app.test_client()
    session = reader.post("/sessions", json={}).get_json()
    for _ in range(LIMIT + 2):  # no secret at all is no guess
        assert forgetful.get(f"/sessions/{session['id']}").status_code == 401
        assert forgetful.get("/insights.json").status_code == 401
    attacker = app.test_client()
    attacker.environ_base = {"REMOTE_ADDR": "203.0.113.9"}
    for _ in range(LIMIT):
        attacker.get("/insights.json", headers={"Authorization": "Bearer guess"})
    assert attacker.get("/insights.json", headers={"Authorization": "Bearer guess"}).status_code == 429
    # the reader's address still has its whole budget
    headers = {"Authorization": f"Bearer {session['session_secret']}"}
    assert reader.get(f"/sessions/{session['id']}", headers=headers).status_code == 200
    assert reader.get("/insights.json", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_the_budget_is_counted_in_the_shared_store(sample_book, tmp_path, redis_url):
    """Two servers on one Redis: the guesses at one count at the other."""
    first, second = (make_app(sample_book, tmp_path / name, insights_token=TOKEN, rate_limit_storage=redis_url,
                              auth_failure_limit=f"{LIMIT} per hour") for name in ("one", "two"))
    for n in range(LIMIT):
        (first if n % 2 else second).test_client().get("/insights.json", headers={"Authorization": "Bearer guess"})
    assert first.test_client().get("/insights.json", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 429
    assert second.test_client().get("/insights.json", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 429
