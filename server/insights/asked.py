"""A finished question as the insights keep it (sessions.recording.Asked): the page it was asked
on, where its highlighted passage is, how it was answered, what was cited, and for a question
the book did not answer, its vector and the book's nearest sections."""
from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Iterable
from urllib.parse import quote

import numpy as np

from server.text.privacy import mask
from server.question import Question
from server.question.record import Closing
from server.question.practice import Practice
from server.sessions.recording import Asked, Cited, Passage, Practised, vector_bytes
from server.insights.pages import PageFinder, plain_page_url, words_of

MAX_WORDS = 10  # a passage's line this short is found whole (textStart); longer: its first and last words
EDGE_WORDS = 6


class Keeping:
    """What the insights keep of each finished question (the question path's Record calls it):
    `pages` finds the page it was asked on, `embed` gives a question the book did not answer its
    vector as the reader put it (the one searched with may be a rewording)."""

    def __init__(self, pages: PageFinder, embed):
        self.pages = pages
        self.embed = embed

    def __call__(self, closing: Closing) -> Asked:
        question, vector = closing.question, None
        if closing.refused:
            vector = closing.vector if closing.search_text == question.text else self.embed(question.text)
        asked = asked_of(question, self.pages, refused=closing.refused, sources=closing.sources,
                         nearest=closing.nearest, vector=vector, fallback_reason=closing.fallback_reason)
        return replace(asked, practised=practised(closing.practice)) if closing.practice is not None else asked


def asked_of(question: Question, pages: PageFinder, *, refused: bool, sources: Iterable, nearest: Iterable,
             fallback_reason: str | None, vector: np.ndarray | None) -> Asked:
    """`sources`: what the answer cites; `nearest`: the book's nearest chunks; `vector`: the
    question's (kept only when the book did not answer it)."""
    if refused:
        outcome = "declined" if question.selection_only else "refused"
    else:
        outcome = "fallback" if fallback_reason else "answered"
    page = pages.page_of(question.page.url, question.filters.book_id)
    passage = None
    if question.selected_text:
        section = pages.section_of(page, question.selected_text) if page else None
        # linked only on a page the index holds: the URL a reader sends is data, never a link
        where = section.url if section else (page.url if page else "")
        passage = Passage(fingerprint(question.selected_text), section.label if section else "",
                          fragment_url(where, question.selected_text))
    cited = _cited(s.chunk for s in sources if s.source_type == "database")
    return Asked(
        outcome=outcome, book_id=question.filters.book_id or (page.book_id if page else None),
        # a page the index does not hold (another build of the site, a page added since) as it was read
        page_url=page.url if page else mask(plain_page_url(question.page.url)),
        page_title=page.title if page else (mask(question.page.title) or None), passage=passage,
        cited=cited, gap_vector=vector_bytes(vector) if refused and vector is not None else None,
        nearest=_cited(list(nearest)[:3]) if refused else ())


def practised(practice: Practice) -> tuple[Practised, ...]:
    """A quiz item the student answered (and how), or the question they were given a hint for."""
    if practice.feedback is not None:
        f = practice.feedback
        return (Practised("answered", f.question, f.verdict, f.tests_heading, f.tests),)
    if practice.hint is not None:
        h = practice.hint
        return (Practised("hint", h.question, None, h.section_heading, h.section),)
    return ()


def _cited(chunks) -> tuple[Cited, ...]:
    return tuple(dict.fromkeys(Cited(c.url.split("#", 1)[0], c.source_location or c.heading, c.url) for c in chunks))


def fingerprint(passage: str) -> str:
    """The same for the same words, whatever the spacing, case or punctuation of the selection."""
    return hashlib.sha256(" ".join(words_of(passage)).encode()).hexdigest()[:32]


def _term(words: list[str]) -> str:
    return quote(" ".join(words), safe="").replace("-", "%2D")


def text_directive(passage: str) -> str:
    """A text fragment's `text=` value that finds the passage: a short one whole, a longer one from
    its first words to its last (https://wicg.github.io/scroll-to-text-fragment/)."""
    lines = [line.split() for line in (passage or "").splitlines() if line.strip()]
    if not lines:
        return ""
    first, last = lines[0], lines[-1]
    if len(lines) == 1 and len(first) <= MAX_WORDS + 2:
        return _term(first)
    return f"{_term(first[:EDGE_WORDS])},{_term(last[-EDGE_WORDS:])}"


def fragment_url(url: str, passage: str) -> str:
    """`url` (keeping its anchor) with a text fragment for the passage."""
    if not url:
        return ""
    directive = text_directive(passage)
    base, _, anchor = url.partition("#")
    anchor = anchor.split(":~:", 1)[0]
    return f"{base}#{anchor}:~:text={directive}" if directive else url
