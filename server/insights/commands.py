"""`textbook-chat insights` (what students ask, for the author) and `textbook-chat purge`
(delete what is older than RETENTION_DAYS)."""
from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import click

from server.errors import TextbookChatError
from server.settings import SettingsError, load_settings

# the report (SQLAlchemy, numpy) is imported by these commands only, not by every other command


def _store():
    from server.sessions import SessionStore

    try:
        settings = load_settings()
        return settings, SessionStore(settings.sqlalchemy_url, retention_days=settings.retention_days)
    except SettingsError as exc:
        _fail(str(exc))
    except TextbookChatError as exc:
        _fail(exc.message)


def _fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(1)


@click.command()
@click.option("--book-id", help="Only this book's questions.")
@click.option("--since", default="30d", show_default=True,
              help="The period: 30d, 12w, 6m (days, weeks, months back), a date (2025-01-31), or `all`.")
@click.option("--json", "as_json", is_flag=True, help="Print everything as one JSON object.")
@click.option("--csv", "csv_dir", type=click.Path(file_okay=False), help="Write one CSV file per view into this folder.")
def insights(book_id: str | None, since: str, as_json: bool, csv_dir: str | None) -> None:
    """What students ask: coverage gaps, questions per page, the passages highlighted most, the
    trend per day and the answers rated down."""
    from server.insights.report import SinceError, Window, parse_since, read_insights
    from server.store import model_in_use

    try:
        window = Window(book_id, parse_since(since))
    except SinceError as exc:
        _fail(str(exc))
    settings, store = _store()
    try:
        report = read_insights(store, window, model=model_in_use(settings))
    except TextbookChatError as exc:
        _fail(exc.message)
    finally:
        store.close()
    if csv_dir:
        for name in write_csv(report, Path(csv_dir)):
            click.echo(name, err=True)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    elif not csv_dir:
        click.echo(summary(report))


@click.command()
@click.option("--older-than", "days", type=click.IntRange(0), help="Days to keep (default: RETENTION_DAYS).")
def purge(days: int | None) -> None:
    """Delete the questions (with their answers and ratings) older than RETENTION_DAYS."""
    settings, store = _store()
    if days is None and settings.retention_days <= 0:
        store.close()
        _fail("RETENTION_DAYS is 0 (everything is kept): give --older-than DAYS to delete older questions")
    days = settings.retention_days if days is None else days
    try:
        click.echo(store.retention.purge(days=days).summary())
    except TextbookChatError as exc:
        _fail(exc.message)
    finally:
        store.close()


def summary(report) -> str:
    data = report.to_dict()
    period = f"since {report.window.since:%Y-%m-%d}" if report.window.since else "everything kept"
    lines = [f"{report.questions} questions ({period}{', book ' + report.window.book_id if report.window.book_id else ''})",
             "outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(report.outcomes.items())) if report.outcomes else "",
             f"ratings: {report.ratings['up']} up, {report.ratings['down']} down", "", "Coverage gaps"]
    for gap in data["coverage_gaps"]:
        lines.append(f"  {gap['size']:>5}  {' | '.join(gap['examples'])}")
        lines += [f"         nearest: {n['section']}  {n['url']}" for n in gap["nearest"][:1]]
    lines += ["", "Questions per page (asked on / about / refusal rate / up / down)"]
    lines += [f"  {p['asked_on']:>5} {p['asked_about']:>5} {p['refusal_rate']:>6.0%} {p['up']:>4} {p['down']:>4}  "
              f"{p['title']}  {p['url']}" for p in data["pages"]]
    lines += ["", "Most highlighted passages"]
    for passage in data["passages"]:
        lines.append(f"  {passage['times']:>5}  “{_short(passage['text'], 80)}”  {passage['url']}")
        lines += [f"         asked: {q}" for q in passage["questions"][:3]]
    lines += ["", "Trend (day, questions, refused)"]
    lines += [f"  {d['day']}  {d['questions']:>5} {d['refused']:>5}" for d in data["trend"] if d["questions"]]
    lines += ["", "Practice (per page: items missed / answered, hints asked)"]
    for page in data["practice"]:
        lines.append(f"  {page['title']}  {page['url']}")
        lines += [f"    missed {r['missed']:>4} / {r['answered']:<4} {_short(r['item'], 70)}" for r in page["missed"]]
        lines += [f"    hints  {r['hints']:>4}        {_short(r['item'], 70)}" for r in page["hinted"]]
    lines += ["", "Rated down"]
    for down in data["rated_down"]:
        lines.append(f"  {down['when'][:16]}  {down['question']}" + (f"  — “{down['comment']}”" if down["comment"] else ""))
    return "\n".join(line for i, line in enumerate(lines) if line or i)


def _short(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def spreadsheet_safe(value):
    """A text cell a spreadsheet would run as a formula ("=HYPERLINK(...)", "+1", "@SUM") is
    written after a single quote, as OWASP recommends for CSV files; readers' questions and
    comments are data. Numbers stay numbers."""
    if isinstance(value, str) and value.lstrip(" ").startswith(FORMULA_START):
        return "'" + value
    return value


def write_csv(report, folder: Path) -> list[str]:
    """One CSV per view; the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    data = report.to_dict()
    tables = {
        "coverage_gaps.csv": [{"size": g["size"], "refused": g["refused"], "rated_down": g["rated_down"],
                               "examples": " | ".join(g["examples"]),
                               "nearest_sections": " | ".join(n["url"] for n in g["nearest"])} for g in data["coverage_gaps"]],
        "pages.csv": data["pages"],
        "passages.csv": [{**p, "questions": " | ".join(p["questions"])} for p in data["passages"]],
        "trend.csv": data["trend"],
        "rated_down.csv": data["rated_down"],
    }
    written = []
    for name, rows in tables.items():
        path = folder / name
        with path.open("w", newline="", encoding="utf-8") as out:
            if rows:
                writer = csv.DictWriter(out, fieldnames=list(rows[0]), quoting=csv.QUOTE_ALL)
                writer.writeheader()
                writer.writerows({key: spreadsheet_safe(value) for key, value in row.items()} for row in rows)
        written.append(str(path))
    return written

COMMANDS = (insights, purge)  # what the insights add to `textbook-chat`
