"""What a reader sends stays data on the author's pages: a planted page URL is never a link,
every HTML page forbids inline script, the pages work under a proxy's path prefix, CSV cells
never run as formulas, and odd query arguments are 400s, never 500s (SQLite and PostgreSQL)."""
from __future__ import annotations

import csv
import re

import pytest
from click.testing import CliRunner

from apps import make_app
from server.cli import main
from server.insights.commands import spreadsheet_safe

TOKEN = "author-s3cret"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PAGE = "http://127.0.0.1:8000/book/docs/foundations/sampling-and-aliasing"
PASSAGE = "The false low frequency is called an alias, and the effect is aliasing."
PLANTED = ["javascript:alert(document.domain)//", "JaVaScRiPt:alert(1)", "data:text/html,<script>alert(1)</script>",
           "https://evil.example/phish", "//evil.example/x", "vbscript:msgbox(1)"]
FORMULAS = ["=HYPERLINK(\"http://evil.example\",\"click\")", "+1+2", "-2+3", "@SUM(A1:A9)", "\tTAB=1", "＝1+1"]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def planted(request, sample_book, tmp_path_factory):
    """An app whose readers highlighted a passage on pages the index does not hold, with URLs
    that would run script, or lead away, if they were links; and asked formulas."""
    data = tmp_path_factory.mktemp("planted") / "data"
    url = None if request.param == "sqlite" else request.getfixturevalue("postgres").new_database()
    app = make_app(sample_book, data, database_url=url, insights_token=TOKEN)
    reader = app.test_client()
    # one real highlight on an indexed page: its link must stay the indexed one
    assert reader.post("/chat", json={"question": "why?", "selected_text": PASSAGE, "selection_mode": "combined",
                                      "metadata": {"page_url": PAGE}}).status_code == 200
    for n, planted_url in enumerate(PLANTED):
        body = {"question": FORMULAS[n % len(FORMULAS)], "selected_text": PASSAGE if n % 2 else f"Passage {n} here.",
                "selection_mode": "combined", "metadata": {"page_url": planted_url, "page_title": FORMULAS[n]}}
        answer = reader.post("/chat", json=body)
        assert answer.status_code == 200, answer.get_json()
        assert reader.post("/feedback", json={"message_id": answer.get_json()["assistant_message_id"],
                                              "rating": "down", "comment": FORMULAS[-1 - n]}).status_code == 201
    yield app, data
    app.extensions["textbook_chat"].close()


def _links(html: str) -> list[str]:
    return re.findall(r'<a href="([^"]*)"', html)


def test_only_the_indexed_sites_addresses_are_links(planted):
    app, _ = planted
    html = app.test_client().get("/insights?since=all", headers=AUTH).get_data(as_text=True)
    links = _links(html)
    assert links, html
    for link in links:
        assert link.startswith(("http://127.0.0.1:8000/", "insights.json")), link
    for planted_url in PLANTED:
        assert f'href="{planted_url}' not in html
    data = app.test_client().get("/insights.json?since=all", headers=AUTH).get_json()
    (passage,) = [p for p in data["passages"] if p["times"] > 1]
    assert passage["url"].startswith(PAGE + "#")  # the real link was not replaced by a planted one
    assert all(not p["url"] or p["url"].startswith("http://127.0.0.1:8000/") for p in data["passages"])


def test_every_html_page_forbids_inline_script(planted):
    app, _ = planted
    client = app.test_client()
    for response in (client.get("/insights?since=all", headers=AUTH), client.get("/insights"),
                     client.post("/insights", data={"token": "wrong"})):
        assert response.mimetype == "text/html"
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert "<script>" not in response.get_data(as_text=True)  # none would run


class _Prefix:
    """nginx's `location /chat-api/ { proxy_pass http://server/; }`: the prefix is taken off
    before the server sees the request, which never learns it."""

    def __init__(self, app, prefix: str):
        self.app, self.prefix = app, prefix

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if not path.startswith(self.prefix + "/"):
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"nginx: not found"]
        return self.app({**environ, "PATH_INFO": path[len(self.prefix):]}, start_response)


def test_the_pages_work_under_a_path_prefix(planted):
    app, _ = planted
    original = app.wsgi_app
    app.wsgi_app = _Prefix(original, "/chat-api")
    try:
        client = app.test_client()
        token_page = client.get("/chat-api/insights?since=all")
        assert token_page.status_code == 401
        action = re.search(r'<form method="post" action="([^"]*)"', token_page.get_data(as_text=True)).group(1)
        posted_to = _join("/chat-api/insights", action)
        redirect = client.post(posted_to, data={"token": TOKEN})
        assert redirect.status_code == 303
        landing = _join(posted_to, redirect.headers["Location"])  # as a browser resolves it
        assert landing.startswith("/chat-api/insights")  # the redirect stayed under the prefix
        signed_in = client.get(landing)
        assert signed_in.status_code == 200, signed_in.get_data(as_text=True)[:200]
        html = signed_in.get_data(as_text=True)
        assets = re.findall(r'(?:href|src)="(insights/assets/[^"]+)"', html)
        assert len(assets) == 2
        for asset in assets:
            assert client.get(_join("/chat-api/insights", asset)).status_code == 200
        json_link = re.search(r'<a href="(insights\.json[^"]*)"', html).group(1)
        assert client.get(_join("/chat-api/insights", json_link), headers=AUTH).status_code == 200
        assert client.get("/chat-api/insights?since=7d").status_code == 200  # the cookie is sent back under the prefix
    finally:
        app.wsgi_app = original


def _join(base: str, relative: str) -> str:
    from urllib.parse import urljoin

    return urljoin(base, relative)


def test_the_cookie_is_kept_for_the_folder_the_page_is_in(planted):
    app, _ = planted
    cookie = app.test_client().post("/insights", data={"token": TOKEN}).headers["Set-Cookie"]
    assert "Path=" not in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie and TOKEN not in cookie


@pytest.mark.parametrize("value", FORMULAS + ["-", "=", " =1+2", "\r=1"])
def test_a_formula_is_written_as_text(value):
    safe = spreadsheet_safe(value)
    assert safe == "'" + value
    assert spreadsheet_safe(5) == 5 and spreadsheet_safe(-5) == -5 and spreadsheet_safe("a-b") == "a-b"


def test_csv_export_escapes_every_formula_cell(planted, tmp_path):
    app, data = planted
    settings = app.extensions["textbook_chat"].settings
    env = {"TEXTBOOK_CHAT_DATA_DIR": str(data), "TEXTBOOK_CHAT_MODELS_DIR": str(settings.models_dir)}
    if settings.database_url:
        env["DATABASE_URL"] = settings.database_url
    result = CliRunner().invoke(main, ["insights", "--since", "all", "--csv", str(tmp_path / "csv")], env=env)
    assert result.exit_code == 0, result.output
    cells = []
    for path in (tmp_path / "csv").glob("*.csv"):
        with path.open(newline="", encoding="utf-8") as f:
            cells += [cell for row in csv.reader(f) for cell in row]
    typed = [c for c in cells if any(f in c for f in FORMULAS)]
    assert len(typed) >= len(FORMULAS)  # the questions, titles and comments are there
    assert not [c for c in cells if c.lstrip(" ").startswith(("=", "+", "-", "@", "\t", "\r", "＝"))]


@pytest.mark.parametrize("path", ["/insights.json?since=1000000d", "/insights.json?since=99999999999999999999y",
                                  "/insights.json?book_id=a%00b", "/insights/page?url=http://%5B::1",
                                  "/insights/page?url=http://x/a%00b", "/insights/page?url=x&book_id=%00",
                                  "/insights?since=1000000d", "/insights.json?since=%00"])
def test_odd_query_arguments_are_never_a_server_error(planted, path):
    app, _ = planted
    response = app.test_client().get(path, headers=AUTH)
    assert response.status_code < 500, response.get_data(as_text=True)[:300]
    if response.status_code == 400:
        body = response.get_json()
        assert body["code"] == "VALIDATION_ERROR" and body["details"]


def test_since_too_far_back_is_everything_on_the_command_line_too(planted):
    app, data = planted
    settings = app.extensions["textbook_chat"].settings
    env = {"TEXTBOOK_CHAT_DATA_DIR": str(data), "TEXTBOOK_CHAT_MODELS_DIR": str(settings.models_dir)}
    if settings.database_url:
        env["DATABASE_URL"] = settings.database_url
    result = CliRunner().invoke(main, ["insights", "--since", "1000000d", "--json"], env=env)
    assert result.exit_code == 0 and '"questions": 7' in result.output, result.output
