"""The author's insights, read from the sessions database: coverage gaps, questions per page,
the most highlighted passages, the trend per day and the answers rated down, for one book (or
all) over a period. Aggregation happens in SQL; only the gap questions' vectors come to Python.

A refusal is a question that got no answer: refused (the book does not cover it) or declined
(the highlighted passage alone was asked about, and it does not say).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta, timezone

from sqlalchemy import and_, func, select, true
from sqlalchemy.engine import Engine

from server.sessions.schema import citations_table as C, feedback_table as F, messages_table as M, queries_table as Q
from server.insights.gaps import MAX_GROUPED, Gap, GapQuestion, group_gaps

NO_ANSWER = ("refused", "declined")
TOP = 20  # rows of each list
MAX_DAYS = 366


@dataclass(frozen=True)
class Window:
    book_id: str | None = None
    since: datetime | None = None  # None: everything kept


@dataclass(frozen=True)
class PageStats:
    url: str
    title: str
    asked_on: int  # questions asked while reading it
    asked_about: int  # answers citing it
    refused: int  # of those asked on it
    up: int
    down: int  # ratings of the answers to questions asked on it

    @property
    def refusal_rate(self) -> float:
        return round(self.refused / self.asked_on, 4) if self.asked_on else 0.0


@dataclass(frozen=True)
class HighlightedPassage:
    fingerprint: str
    times: int
    text: str
    section: str
    url: str  # the passage on the site (text fragment)
    page_url: str
    questions: tuple[str, ...]  # what was asked about it, most recent first


@dataclass(frozen=True)
class Day:
    day: date
    questions: int
    refused: int


@dataclass(frozen=True)
class RatedDown:
    when: datetime
    question: str
    answer: str
    comment: str | None
    page_url: str | None


@dataclass(frozen=True)
class Insights:
    window: Window
    questions: int
    outcomes: dict
    ratings: dict
    gaps: list[Gap]
    pages: list[PageStats]
    passages: list[HighlightedPassage]
    trend: list[Day]
    rated_down: list[RatedDown] = field(default_factory=list)

    def to_dict(self) -> dict:
        def plain(value):
            if isinstance(value, (datetime, date)):
                return value.isoformat()
            if isinstance(value, dict):
                return {k: plain(v) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return [plain(v) for v in value]
            return value
        pages = [{**asdict(p), "refusal_rate": p.refusal_rate} for p in self.pages]
        gaps = [{**asdict(g), "nearest": [{"section": s, "url": u} for s, u in g.nearest]} for g in self.gaps]
        return plain({"book_id": self.window.book_id, "since": self.window.since, "questions": self.questions,
                      "outcomes": self.outcomes, "ratings": self.ratings, "coverage_gaps": gaps, "pages": pages,
                      "passages": [asdict(p) for p in self.passages], "trend": [asdict(d) for d in self.trend],
                      "rated_down": [asdict(r) for r in self.rated_down]})


class SinceError(ValueError):
    """--since cannot be read."""


_UNITS = {"d": 1, "w": 7, "m": 30, "y": 365}


def parse_since(text: str | None, now: datetime | None = None) -> datetime | None:
    """"30d", "12w", "6m", "1y" back from now, a date ("2025-01-31"), or "all" (None)."""
    text = (text or "all").strip().lower()
    if text == "all":
        return None
    now = now or datetime.now(timezone.utc)
    if len(text) > 1 and text[-1] in _UNITS and text[:-1].isascii() and text[:-1].isdigit():
        try:
            return now - timedelta(days=int(text[:-1]) * _UNITS[text[-1]])
        except OverflowError:  # further back than the calendar goes: everything kept
            return None
    try:
        return datetime.combine(date.fromisoformat(text), datetime.min.time(), timezone.utc)
    except ValueError:
        raise SinceError(f"--since {text!r}: give days, weeks, months or years back (30d, 12w, 6m, 1y), "
                         "a date (2025-01-31) or `all`") from None


def _in(window: Window):
    conditions = []
    if window.book_id:
        conditions.append(Q.c.book_id == window.book_id)
    if window.since:
        conditions.append(Q.c.created_at >= window.since)
    return and_(true(), *conditions)


def _cited_in(window: Window):
    conditions = []
    if window.book_id:
        conditions.append(C.c.book_id == window.book_id)
    if window.since:
        conditions.append(C.c.created_at >= window.since)
    return and_(true(), *conditions)


def read_insights(engine: Engine, window: Window, now: datetime | None = None) -> Insights:
    now = now or datetime.now(timezone.utc)
    inside = _in(window)
    rated = (select(F.c.rating, M.c.query_id).join(M, M.c.id == F.c.message_id)).subquery()
    with engine.connect() as conn:
        # one pass over the questions: counts by page, outcome and day, from which the totals,
        # the pages' questions and refusals, and the trend are summed
        day = _day(engine.dialect.name)
        counts = conn.execute(select(Q.c.page_url, Q.c.page_title, Q.c.outcome, day.label("day"), func.count())
                              .where(inside).group_by(Q.c.page_url, Q.c.page_title, Q.c.outcome, "day")).all()
        outcomes: dict[str, int] = {}
        for _, _, outcome, _, n in counts:
            outcomes[outcome or "unfinished"] = outcomes.get(outcome or "unfinished", 0) + n
        ratings = dict(conn.execute(select(rated.c.rating, func.count()).join(Q, Q.c.id == rated.c.query_id)
                                    .where(inside).group_by(rated.c.rating)).all())
        pages = _pages(conn, counts, inside, _cited_in(window), rated)
        passages = _passages(conn, inside)
        trend = _trend(counts, window, now)
        down = conn.execute(
            select(F.c.created_at, Q.c.question, M.c.content, F.c.comment, Q.c.page_url)
            .join(M, M.c.id == F.c.message_id).join(Q, Q.c.id == M.c.query_id)
            .where(inside & (F.c.rating == "down")).order_by(F.c.created_at.desc()).limit(50)).all()
        rated_down_ids = select(rated.c.query_id).where(rated.c.rating == "down")
        gap_rows = conn.execute(
            select(Q.c.question, Q.c.gap_vector, Q.c.nearest, Q.c.id.in_(rated_down_ids).label("down"))
            .where(inside & Q.c.gap_vector.isnot(None) & ((Q.c.outcome == "refused") | Q.c.id.in_(rated_down_ids)))
            .order_by(Q.c.created_at.desc()).limit(MAX_GROUPED)).all()
    gaps = group_gaps([GapQuestion(r.question, r.gap_vector, tuple((n["section"], n["url"]) for n in r.nearest or ()),
                                   bool(r.down)) for r in gap_rows], TOP)
    return Insights(window, sum(outcomes.values()), outcomes, {"up": ratings.get("up", 0), "down": ratings.get("down", 0)},
                    gaps, pages, passages, trend,
                    [RatedDown(_utc(r.created_at), r.question, r.content, r.comment, r.page_url) for r in down])


def _pages(conn, counts, inside, cited, rated) -> list[PageStats]:
    stats: dict[str, dict] = {}
    for url, title, outcome, _, n in counts:
        if url is None:
            continue
        page = stats.setdefault(url, {"title": url, "asked_on": 0, "refused": 0})
        page["title"] = title or page["title"]
        page["asked_on"] += n
        page["refused"] += n if outcome in NO_ANSWER else 0
    for url, about in conn.execute(
            select(C.c.page_url, func.count(func.distinct(C.c.query_id))).where(cited).group_by(C.c.page_url)):
        stats.setdefault(url, {"title": url})["asked_about"] = about
    for url, rating, count in conn.execute(
            select(Q.c.page_url, rated.c.rating, func.count()).join(Q, Q.c.id == rated.c.query_id)
            .where(inside & Q.c.page_url.isnot(None)).group_by(Q.c.page_url, rated.c.rating)):
        stats.setdefault(url, {"title": url})[rating] = count
    rows = [PageStats(url, s["title"], s.get("asked_on", 0), s.get("asked_about", 0), s.get("refused", 0),
                      s.get("up", 0), s.get("down", 0)) for url, s in stats.items()]
    return sorted(rows, key=lambda p: (-(p.asked_on + p.asked_about), p.url))


def _passages(conn, inside) -> list[HighlightedPassage]:
    """Counted from the passages' index alone; the rows of the top ones only are read."""
    top = conn.execute(
        select(Q.c.passage_fingerprint, func.count().label("times"))
        .where(inside & Q.c.passage_fingerprint.isnot(None)).group_by(Q.c.passage_fingerprint)
        .order_by(func.count().desc(), Q.c.passage_fingerprint).limit(TOP)).all()
    if not top:
        return []
    theirs = inside & Q.c.passage_fingerprint.in_([f for f, _ in top])
    about = {row[0]: row[1:] for row in conn.execute(
        select(Q.c.passage_fingerprint, func.max(Q.c.selected_text), func.max(Q.c.passage_section),
               func.max(Q.c.passage_url), func.max(Q.c.page_url)).where(theirs).group_by(Q.c.passage_fingerprint))}
    ranked = (select(Q.c.passage_fingerprint, Q.c.question, func.row_number().over(
        partition_by=Q.c.passage_fingerprint, order_by=Q.c.created_at.desc()).label("n")).where(theirs)).subquery()
    asked: dict[str, list[str]] = {}
    for fingerprint, question in conn.execute(select(ranked.c.passage_fingerprint, ranked.c.question)
                                              .where(ranked.c.n <= 5).order_by(ranked.c.n)):
        asked.setdefault(fingerprint, []).append(question)
    passages = []
    for fingerprint, times in top:
        text, section, url, page = about.get(fingerprint, ("", "", "", ""))
        passages.append(HighlightedPassage(fingerprint, times, text or "", section or "", url or "", page or "",
                                           tuple(asked.get(fingerprint, ()))))
    return passages


def _day(dialect: str):
    if dialect == "postgresql":
        return func.to_char(func.timezone("UTC", Q.c.created_at), "YYYY-MM-DD")
    return func.substr(Q.c.created_at, 1, 10)  # SQLite keeps UTC times as text


def _trend(counts, window: Window, now: datetime) -> list[Day]:
    counted: dict[str, tuple[int, int]] = {}
    for _, _, outcome, day, n in counts:
        asked, refused = counted.get(day, (0, 0))
        counted[day] = (asked + n, refused + (n if outcome in NO_ANSWER else 0))
    if not counted:
        return []
    first = date.fromisoformat(min(counted)) if window.since is None else window.since.date()
    last = max(now.date(), date.fromisoformat(max(counted)))
    first = max(first, last - timedelta(days=MAX_DAYS - 1))
    days = [first + timedelta(days=i) for i in range((last - first).days + 1)]
    return [Day(d, *counted.get(d.isoformat(), (0, 0))) for d in days]


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value
