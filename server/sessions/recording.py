"""What is kept of a question for the author's insights, beside its lifecycle: written with the
answer, in the transaction that closes the question."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.engine import Connection

from server.sessions.schema import citations_table, messages_table, practised_table, queries_table

OUTCOMES = ("answered", "refused", "declined", "fallback")


@dataclass(frozen=True)
class Cited:
    page_url: str
    section: str
    section_url: str


@dataclass(frozen=True)
class Passage:
    """Where the highlighted passage is on the site."""

    fingerprint: str  # the same passage highlighted by different readers has the same one
    section: str  # the nearest section of the book ("" when none is known)
    url: str  # the page (or section) with a text fragment that finds the passage


@dataclass(frozen=True)
class Practised:
    """A quiz item a student answered (its verdict), or a question they asked a hint for."""

    kind: str  # "answered" | "hint"
    item: str  # the item's question, or the question hinted at
    verdict: str | None = None
    section: str = ""  # the section it tests, or where the hint sends the reader
    section_url: str = ""


@dataclass(frozen=True)
class Asked:
    """A question as the insights read it. `outcome`: answered (from the book or the passage),
    refused (the book does not cover it), declined (the highlighted passage alone was asked
    about and it does not say), fallback (answered by the fallback generator)."""

    outcome: str
    book_id: str | None = None
    page_url: str | None = None  # the indexed page it was asked on
    page_title: str | None = None
    passage: Passage | None = None
    cited: tuple[Cited, ...] = ()
    gap_vector: bytes | None = None  # a question the book did not answer: its vector (float16)
    nearest: tuple[Cited, ...] = ()  # … and the book's nearest sections
    practised: tuple[Practised, ...] = ()  # a quiz item answered, a hint asked for

    def __post_init__(self):
        if self.outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {self.outcome!r}")


_UPDATE = update(queries_table).where(queries_table.c.id == bindparam("b_query"))
_CITE = insert(citations_table)
_PRACTISED = insert(practised_table)


def asked_columns(asked: Asked) -> dict:
    """The query's columns the insights read, set by the statement that closes the question."""
    passage = asked.passage
    return {"book_id": asked.book_id, "page_url": asked.page_url, "page_title": asked.page_title,
            "passage_fingerprint": passage.fingerprint if passage else None,
            "passage_section": passage.section if passage else None, "passage_url": passage.url if passage else None,
            "outcome": asked.outcome, "gap_vector": asked.gap_vector,
            "nearest": [{"section": n.section, "url": n.section_url} for n in asked.nearest] or None}


def record_cited(conn: Connection, query_id: str, asked: Asked, asked_at) -> None:
    if asked.cited:
        conn.execute(_CITE, [{"query_id": query_id, "page_url": c.page_url, "section": c.section,
                              "section_url": c.section_url, "book_id": asked.book_id, "created_at": asked_at}
                             for c in asked.cited])
    if asked.practised:
        conn.execute(_PRACTISED, [{"query_id": query_id, "book_id": asked.book_id, "page_url": asked.page_url,
                                   "kind": p.kind, "item": p.item[:2000], "verdict": p.verdict,
                                   "section": p.section[:500], "section_url": p.section_url[:2000],
                                   "created_at": asked_at} for p in asked.practised])


# the question an assistant message answered, and whether its vector is kept
GAP_QUESTION = (select(queries_table.c.id, queries_table.c.question, queries_table.c.gap_vector)
                .join(messages_table, messages_table.c.query_id == queries_table.c.id)
                .where(messages_table.c.id == bindparam("b_message")))


def keep_gap(conn: Connection, query_id: str, vector: bytes) -> None:
    """A question whose answer was rated down joins the coverage gaps: its vector, and the
    sections its answer cited as the book's nearest."""
    cited = conn.execute(select(citations_table.c.section, citations_table.c.section_url)
                         .where(citations_table.c.query_id == query_id)).all()
    conn.execute(_UPDATE, {"b_query": query_id, "gap_vector": vector,
                           "nearest": [{"section": s, "url": u} for s, u in cited[:3]] or None})


def vector_bytes(vector: np.ndarray) -> bytes:
    """How a question's vector is kept for the coverage gaps: float16, 768 bytes for 384 dimensions."""
    return np.asarray(vector, dtype=np.float16).tobytes()
