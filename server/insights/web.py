"""/insights (an HTML page), /insights.json (the same data) and /insights/page (one page's view,
for the widget's author mode), for the author only.

INSIGHTS_TOKEN unset: none of them exists (404). Otherwise the token is sent as
`Authorization: Bearer <token>` (401 without it, 403 with a wrong one); the page also takes it
once through a form and keeps, in a cookie sent to /insights only, a value derived from it (the
token itself is never stored in the browser by the page).
"""
from __future__ import annotations

import hashlib
from dataclasses import asdict
import hmac
from importlib import resources
from urllib.parse import urlencode

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request

from server.insights.charts import questions_chart, refusal_chart
from server.insights.pages import plain_page_url, site_link
from server.insights.report import SinceError, Window, parse_since, read_insights
from server.api.access import bearer_token
from server.api.errors import ApiError
from server.api.failures import guarded

bp = Blueprint("insights", __name__)
COOKIE = "textbook_chat_insights"
PERIODS = (("7d", "last 7 days"), ("30d", "last 30 days"), ("90d", "last 90 days"), ("1y", "last year"),
           ("all", "everything kept"))
ASSETS = {"insights.css": "text/css", "insights-sort.js": "application/javascript"}


def _parts():
    return current_app.extensions["textbook_chat"]


def _token() -> str:
    token = _parts().settings.insights_token
    if not token:
        raise ApiError("NOT_FOUND", "Not found.")
    return token


def _cookie_value(token: str) -> str:
    return hmac.new(token.encode(), b"textbook-chat insights page", hashlib.sha256).hexdigest()


def _check(token: str, *, cookie: bool) -> str | None:
    """None when the request carries the token; else "missing" or "wrong"."""
    given = bearer_token()
    if given is not None:
        return None if guarded(lambda: _same(given, token)) else "wrong"
    if cookie and request.cookies.get(COOKIE):
        return None if guarded(lambda: _same(request.cookies[COOKIE], _cookie_value(token))) else "wrong"
    return "missing"


def _same(given: str, expected: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode())


def _refuse(problem: str) -> None:
    if problem == "missing":
        raise ApiError("UNAUTHORIZED", "The insights token is needed: Authorization: Bearer <INSIGHTS_TOKEN>.")
    raise ApiError("FORBIDDEN", "That is not the insights token.")


def _relative(path: str, args=None) -> str:
    """A URL relative to the folder /insights is in, so that it holds under a proxy's path prefix
    (the server sees /insights where the browser has /chat-api/insights)."""
    query = urlencode([(k, v) for k, v in (args or {}).items() if v not in (None, "")])
    return f"{path}?{query}" if query else path


def _arg(name: str) -> str | None:
    """A query argument; one with NUL (which no database stores) is refused, naming it."""
    value = request.args.get(name)
    if value and "\x00" in value:
        raise ApiError("VALIDATION_ERROR", f"`{name}` must not contain NUL (\\u0000).",
                       {name: ["must not contain NUL"]})
    return value


def _window() -> tuple[Window, str]:
    since = _arg("since") or "30d"
    try:
        return Window(_arg("book_id") or None, parse_since(since)), since
    except SinceError as exc:
        raise ApiError("VALIDATION_ERROR", str(exc), {"since": [str(exc)]}) from None


@bp.get("/insights")
def page():
    token = _token()
    problem = _check(token, cookie=True)
    if problem:
        status = 401 if problem == "missing" else 403
        response = Response(render_template("insights-token.html", wrong=problem == "wrong", args=request.args,
                                            relative=_relative), status=status)
        response.headers["WWW-Authenticate"] = 'Bearer realm="insights"'
        if problem == "wrong":
            response.delete_cookie(COOKIE, path=None)
        return response
    window, since = _window()
    report = read_insights(_parts().sessions, window, model=_parts().embedder.model_name)
    charts = {"questions": questions_chart(report.trend), "refusals": refusal_chart(report.trend)}
    sites = _parts().pages.sites()
    return render_template("insights.html", report=report, charts=charts, since=since, periods=PERIODS,
                           books=_parts().store.books(), site_link=lambda url: site_link(url, sites),
                           relative=_relative)


@bp.post("/insights")
def sign_in():
    token = _token()
    given = (request.form.get("token") or "").strip()
    if not guarded(lambda: _same(given, token)):
        return Response(render_template("insights-token.html", wrong=True, args=request.args, relative=_relative),
                        status=403)
    response = redirect(_relative("insights", request.args), code=303)
    # no Path: the browser scopes it to the folder the page is served from ("/" or a proxy's
    # "/chat-api/"), which this server behind a path prefix does not know
    response.set_cookie(COOKIE, _cookie_value(token), path=None, httponly=True, samesite="Strict",
                        secure=request.is_secure, max_age=30 * 24 * 3600)
    return response


@bp.get("/insights.json")
def data():
    problem = _check(_token(), cookie=False)
    if problem:
        _refuse(problem)
    return jsonify(read_insights(_parts().sessions, _window()[0], model=_parts().embedder.model_name).to_dict())


@bp.get("/insights/page")
def on_page():
    """One page's passages, cited sections and top questions (`url`: the page as the reader sees it)."""
    problem = _check(_token(), cookie=False)
    if problem:
        _refuse(problem)
    url = _arg("url") or ""
    found = _parts().pages.page_of(url, _arg("book_id") or None)
    page_url = found.url if found else plain_page_url(url)
    if page_url is None:
        raise ApiError("VALIDATION_ERROR", "`url` must be the page's http(s) address.", {"url": ["not a page address"]})
    return jsonify({**asdict(_parts().sessions.asked_on_page(page_url, _window()[0].since)),
                    "title": found.title if found else ""})


@bp.get("/insights/assets/<name>")
def asset(name: str):
    if name not in ASSETS:
        raise ApiError("NOT_FOUND", "Not found.")
    body = resources.files("server").joinpath(f"static/{name}").read_bytes()
    return Response(body, mimetype=ASSETS[name], headers={"Cache-Control": "public, max-age=300"})


def register(app, api, components) -> None:
    """The author's pages: not the readers' API, so left out of the OpenAPI document."""
    app.register_blueprint(bp)
