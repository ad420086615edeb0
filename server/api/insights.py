"""/insights (an HTML page), /insights.json (the same data) and /insights/page (one page's view,
for the widget's author mode), for the author only.

INSIGHTS_TOKEN unset: none of them exists (404). Otherwise the token is sent as
`Authorization: Bearer <token>` (401 without it, 403 with a wrong one); the page also takes it
once through a form and keeps, in a cookie sent to /insights only, a value derived from it (the
token itself is never stored in the browser by the page).
"""
from __future__ import annotations

import hashlib
import hmac
from importlib import resources

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request, url_for

from ..insights.charts import questions_chart, refusal_chart
from ..insights.on_page import read_page
from ..insights.pages import plain_page_url
from ..insights.report import SinceError, Window, parse_since, read_insights
from .access import bearer_token
from .errors import ApiError

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
        return None if hmac.compare_digest(given.encode(), token.encode()) else "wrong"
    if cookie and request.cookies.get(COOKIE):
        return None if hmac.compare_digest(request.cookies[COOKIE], _cookie_value(token)) else "wrong"
    return "missing"


def _refuse(problem: str) -> None:
    if problem == "missing":
        raise ApiError("UNAUTHORIZED", "The insights token is needed: Authorization: Bearer <INSIGHTS_TOKEN>.")
    raise ApiError("FORBIDDEN", "That is not the insights token.")


def _window() -> tuple[Window, str]:
    since = request.args.get("since") or "30d"
    try:
        return Window(request.args.get("book_id") or None, parse_since(since)), since
    except SinceError as exc:
        raise ApiError("VALIDATION_ERROR", str(exc), {"since": [str(exc)]}) from None


@bp.get("/insights")
def page():
    token = _token()
    problem = _check(token, cookie=True)
    if problem:
        status = 401 if problem == "missing" else 403
        response = Response(render_template("insights-token.html", wrong=problem == "wrong", args=request.args),
                            status=status)
        response.headers["WWW-Authenticate"] = 'Bearer realm="insights"'
        if problem == "wrong":
            response.delete_cookie(COOKIE, path="/insights")
        return response
    window, since = _window()
    report = read_insights(_parts().sessions.engine, window)
    charts = {"questions": questions_chart(report.trend), "refusals": refusal_chart(report.trend)}
    return render_template("insights.html", report=report, charts=charts, since=since, periods=PERIODS,
                           books=_parts().store.books())


@bp.post("/insights")
def sign_in():
    token = _token()
    given = (request.form.get("token") or "").strip()
    if not hmac.compare_digest(given.encode(), token.encode()):
        return Response(render_template("insights-token.html", wrong=True, args=request.args), status=403)
    response = redirect(url_for("insights.page", **request.args), code=303)
    response.set_cookie(COOKIE, _cookie_value(token), path="/insights", httponly=True, samesite="Strict",
                        secure=request.is_secure, max_age=30 * 24 * 3600)
    return response


@bp.get("/insights.json")
def data():
    problem = _check(_token(), cookie=False)
    if problem:
        _refuse(problem)
    return jsonify(read_insights(_parts().sessions.engine, _window()[0]).to_dict())


@bp.get("/insights/page")
def on_page():
    """One page's passages, cited sections and top questions (`url`: the page as the reader sees it)."""
    problem = _check(_token(), cookie=False)
    if problem:
        _refuse(problem)
    url = request.args.get("url") or ""
    found = _parts().pipeline.record.pages.page_of(url, request.args.get("book_id") or None)
    page_url = found.url if found else plain_page_url(url)
    if page_url is None:
        raise ApiError("VALIDATION_ERROR", "`url` must be the page's http(s) address.", {"url": ["not a page address"]})
    return jsonify({**read_page(_parts().sessions.engine, page_url, _window()[0].since),
                    "title": found.title if found else ""})


@bp.get("/insights/assets/<name>")
def asset(name: str):
    if name not in ASSETS:
        raise ApiError("NOT_FOUND", "Not found.")
    body = resources.files("server").joinpath(f"static/{name}").read_bytes()
    return Response(body, mimetype=ASSETS[name], headers={"Cache-Control": "public, max-age=300"})
