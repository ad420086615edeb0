"""What the author's insights read of the questions asked (insights/report.py and on_page.py make
the report): counts by page, outcome and day, ratings, the pages' and passages' figures, the
answers rated down and the questions that make the coverage gaps, for one book (or all) over a
period, and one page's highlighted passages, cited sections and questions. Aggregation happens
in SQL; the insights read only these methods' results, never the tables."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import and_, case, func, select, true
from sqlalchemy.engine import Engine

from server.sessions.schema import (citations_table as C, feedback_table as F, messages_table as M,
                                    practised_table as P, queries_table as Q)

NO_ANSWER = ("refused", "declined")
TOP = 20  # rows of each list
PAGE_TOP = 10


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
class RatedDown:
    when: datetime
    question: str
    answer: str
    comment: str | None
    page_url: str | None


@dataclass(frozen=True)
class ItemPractised:
    """A quiz item (or a question hinted at) on a page: how often it was answered, missed
    (answered other than correct), and asked a hint for."""

    page_url: str
    item: str
    section: str  # the section it tests, or where its hints send the reader
    section_url: str
    answered: int
    missed: int
    hints: int


@dataclass(frozen=True)
class QuestionsRead:
    counts: list  # (page_url, page_title, outcome, day "YYYY-MM-DD", n)
    outcomes: dict[str, int]
    ratings: dict[str, int]
    pages: list[PageStats]
    passages: list[HighlightedPassage]
    rated_down: list[RatedDown]
    gap_rows: list  # (question, gap_vector, nearest, down): refused or rated down, most recent first
    practised: list[ItemPractised] = ()  # the items missed most, then the hints asked most


def _within(table, window: Window):
    """The rows of `table` (questions, or citations) in the window: its book, since its date."""
    conditions = []
    if window.book_id:
        conditions.append(table.c.book_id == window.book_id)
    if window.since:
        conditions.append(table.c.created_at >= window.since)
    return and_(true(), *conditions)


def read_questions(engine: Engine, window: Window, max_grouped: int) -> QuestionsRead:
    """`max_grouped`: how many of the most recent gap questions are read (their vectors are grouped
    in Python)."""
    inside = _within(Q, window)
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
        pages = _pages(conn, counts, inside, _within(C, window), rated)
        passages = _passages(conn, inside)
        down = conn.execute(
            select(F.c.created_at, Q.c.question, M.c.content, F.c.comment, Q.c.page_url)
            .join(M, M.c.id == F.c.message_id).join(Q, Q.c.id == M.c.query_id)
            .where(inside & (F.c.rating == "down")).order_by(F.c.created_at.desc()).limit(50)).all()
        rated_down_ids = select(rated.c.query_id).where(rated.c.rating == "down")
        gap_rows = conn.execute(
            select(Q.c.question, Q.c.gap_vector, Q.c.nearest, Q.c.id.in_(rated_down_ids).label("down"))
            .where(inside & Q.c.gap_vector.isnot(None) & ((Q.c.outcome == "refused") | Q.c.id.in_(rated_down_ids)))
            .order_by(Q.c.created_at.desc()).limit(max_grouped)).all()
        practised = _practised(conn, _within(P, window))
    return QuestionsRead(counts, outcomes, {"up": ratings.get("up", 0), "down": ratings.get("down", 0)}, pages,
                         passages, [RatedDown(_utc(r.created_at), r.question, r.content, r.comment, r.page_url)
                                    for r in down], gap_rows, practised)


def _practised(conn, inside, limit: int = TOP * 5) -> list[ItemPractised]:
    """Per page and item, answered / missed / hinted, the most missed first, then the most hinted."""
    missed = func.sum(case(((P.c.kind == "answered") & (P.c.verdict != "correct"), 1), else_=0))
    hints = func.sum(case((P.c.kind == "hint", 1), else_=0))
    answered = func.sum(case((P.c.kind == "answered", 1), else_=0))
    rows = conn.execute(
        select(P.c.page_url, P.c.item, func.max(P.c.section), func.max(P.c.section_url), answered, missed, hints)
        .where(inside & P.c.page_url.isnot(None)).group_by(P.c.page_url, P.c.item)
        .order_by(missed.desc(), hints.desc(), P.c.item).limit(limit)).all()
    return [ItemPractised(url, item, section or "", section_url or "", int(a or 0), int(m or 0), int(h or 0))
            for url, item, section, section_url, a, m, h in rows]


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


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value


@dataclass(frozen=True)
class PassageAsked:
    text: str
    times: int
    url: str
    questions: list[str]  # the latest five asked about it


@dataclass(frozen=True)
class SectionCited:
    section: str
    url: str
    times: int


@dataclass(frozen=True)
class QuestionAsked:
    question: str
    times: int


@dataclass(frozen=True)
class PageAsked:
    page_url: str
    passages: list[PassageAsked]
    sections: list[SectionCited]
    questions: list[QuestionAsked]
    practised: list[ItemPractised] = ()  # its quiz items missed most, the hints asked most


def read_page(engine: Engine, page_url: str, since: datetime | None = None) -> PageAsked:
    inside = Q.c.page_url == page_url
    if since is not None:
        inside = inside & (Q.c.created_at >= since)
    with engine.connect() as conn:
        passages = conn.execute(
            select(Q.c.passage_fingerprint, func.count(), func.max(Q.c.selected_text), func.max(Q.c.passage_url))
            .where(inside & Q.c.passage_fingerprint.isnot(None)).group_by(Q.c.passage_fingerprint)
            .order_by(func.count().desc(), Q.c.passage_fingerprint).limit(50)).all()
        asked: dict[str, list[str]] = {}
        if passages:
            for fingerprint, question in conn.execute(
                    select(Q.c.passage_fingerprint, Q.c.question)
                    .where(inside & Q.c.passage_fingerprint.in_([p[0] for p in passages]))
                    .order_by(Q.c.created_at.desc()).limit(500)):
                asked.setdefault(fingerprint, [])
                if len(asked[fingerprint]) < 5:
                    asked[fingerprint].append(question)
        about = Q.c.created_at >= since if since is not None else True
        sections = conn.execute(
            select(C.c.section, C.c.section_url, func.count(func.distinct(C.c.query_id)))
            .join(Q, Q.c.id == C.c.query_id).where((C.c.page_url == page_url) & about)
            .group_by(C.c.section, C.c.section_url).order_by(func.count(func.distinct(C.c.query_id)).desc())).all()
        questions = _top_questions(conn, inside)
        practised = _practised(conn, (P.c.page_url == page_url) & (P.c.created_at >= since if since else true()),
                               PAGE_TOP)
    return PageAsked(page_url,
                     [PassageAsked(text or "", times, url or "", asked.get(f, [])) for f, times, text, url in passages],
                     [SectionCited(s or "", u or "", n) for s, u, n in sections], questions, practised)


def _top_questions(conn, inside) -> list[QuestionAsked]:
    rows = conn.execute(select(Q.c.question, func.count().label("times"))
                        .where(inside).group_by(Q.c.question)
                        .order_by(func.count().desc(), func.max(Q.c.created_at).desc()).limit(PAGE_TOP)).all()
    return [QuestionAsked(q, n) for q, n in rows]
