"""The author's view of one page, for the widget: the passages students highlighted there (with
what they asked), the sections of it that answers cited, and the questions asked on it most."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from server.sessions.schema import citations_table as C, queries_table as Q

TOP = 10


def read_page(engine: Engine, page_url: str, since: datetime | None = None) -> dict:
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
    return {
        "page_url": page_url,
        "passages": [{"text": text or "", "times": times, "url": url or "", "questions": asked.get(f, [])}
                     for f, times, text, url in passages],
        "sections": [{"section": s or "", "url": u or "", "times": n} for s, u, n in sections],
        "questions": questions,
    }


def _top_questions(conn, inside) -> list[dict]:
    rows = conn.execute(select(Q.c.question, func.count().label("times"))
                        .where(inside).group_by(Q.c.question)
                        .order_by(func.count().desc(), func.max(Q.c.created_at).desc()).limit(TOP)).all()
    return [{"question": q, "times": n} for q, n in rows]
