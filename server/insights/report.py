"""The author's insights, read from the sessions database: coverage gaps, questions per page,
the most highlighted passages, the trend per day and the answers rated down, for one book (or
all) over a period. Aggregation happens in SQL; only the gap questions' vectors come to Python.

A refusal is a question that got no answer: refused (the book does not cover it) or declined
(the highlighted passage alone was asked about, and it does not say).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta, timezone

from server.insights.gaps import MAX_GROUPED, Gap, GapQuestion, group_gaps
from server.sessions import SessionStore
from server.sessions.asked_reads import NO_ANSWER, TOP, HighlightedPassage, ItemPractised, PageStats, RatedDown, Window

MAX_DAYS = 366
PER_PAGE = 5  # the items missed most, and the hints asked most, on each page


@dataclass(frozen=True)
class PagePractice:
    """Which of a page's quiz items students miss most, and what they ask hints for most: the
    concepts that do not land."""

    url: str
    title: str
    missed: list[ItemPractised]
    hinted: list[ItemPractised]


@dataclass(frozen=True)
class Day:
    day: date
    questions: int
    refused: int


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
    practice: list[PagePractice] = field(default_factory=list)

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
                      "rated_down": [asdict(r) for r in self.rated_down],
                      "practice": [asdict(p) for p in self.practice]})


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


def read_insights(store: SessionStore, window: Window, now: datetime | None = None, model: str = "") -> Insights:
    """`model`: the embedding model the questions were embedded with (the index's)."""
    now = now or datetime.now(timezone.utc)
    read = store.questions_read(window, MAX_GROUPED)
    gaps = group_gaps([GapQuestion(r.question, r.gap_vector, tuple((n["section"], n["url"]) for n in r.nearest or ()),
                                   bool(r.down)) for r in read.gap_rows], TOP, model)
    return Insights(window, sum(read.outcomes.values()), read.outcomes, read.ratings, gaps, read.pages,
                    read.passages, _trend(read.counts, window, now), read.rated_down,
                    practice_by_page(read.practised, {p.url: p.title for p in read.pages}))


def practice_by_page(practised, titles: dict[str, str]) -> list[PagePractice]:
    """Per page, its items missed most and the hints asked most; the pages with most missed first."""
    pages: dict[str, list[ItemPractised]] = {}
    for row in practised:
        pages.setdefault(row.page_url, []).append(row)
    made = [PagePractice(url, titles.get(url, url),
                         sorted((r for r in rows if r.missed), key=lambda r: (-r.missed, -r.answered))[:PER_PAGE],
                         sorted((r for r in rows if r.hints), key=lambda r: -r.hints)[:PER_PAGE])
            for url, rows in pages.items()]
    return sorted(made, key=lambda p: (-sum(r.missed for r in p.missed), -sum(r.hints for r in p.hinted), p.url))


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
