"""The section each practice question tests: of the lesson it belongs to (the page a quiz page is
named after, "Quiz: Introduction to ROS 2" → "Introduction to ROS 2", else the lessons of its part;
the page itself for its own exercises), the section sharing most of the question's rare terms
(its text, the key's choice and the book's answer), its heading counting double."""
from __future__ import annotations

import math
import re
from dataclasses import replace

from server.book.outline import Block, Item
from server.ingest.blocks import block_kind, plain
from server.ingest.page import Page
from server.text.sentences import normalised
from server.text.terms import term_set

_QUIZ_WORDS = re.compile(r"(?i)\b(quiz(zes)?|self[- ]?check|review questions|practice questions|exercises?|questions?|"
                         r"test yourself|ejercicios?|preguntas?)\b")
_NOT_TAUGHT = ("quiz", "exercises", "objectives", "prerequisites", "summary")


def _lesson_sections(page: Page, sections: list) -> list[tuple[str, str, set[str], set[str]]]:
    """(url, heading, its terms, its heading's terms) of the page's sections that teach."""
    found = []
    for section in sections:
        if not section.headings or any(block_kind(t) in _NOT_TAUGHT for t in section.titles):
            continue
        text = " ".join(plain(b.text) for b in section.blocks if not b.is_code)
        heading = section.titles[-1]
        url = f"{page.url}#{section.anchor}" if section.anchor else page.url
        found.append((url, heading, term_set(f"{heading} {text}"), term_set(heading)))
    return found


def _lessons(page: Page, pages: list[Page], part_of: dict[str, str]) -> list[Page]:
    """The pages a page's questions are about."""
    if block_kind(page.title) not in ("quiz", "exercises"):
        return [page]
    named = normalised(_QUIZ_WORDS.sub(" ", page.title))
    part = part_of.get(page.key)
    same = [p for p in pages if p.key != page.key and p.locale == page.locale and p.version == page.version
            and (part is None or part_of.get(p.key) == part) and block_kind(p.title) not in ("quiz", "exercises")]
    titled = [p for p in same if normalised(p.title) and (normalised(p.title) in named or named in normalised(p.title))]
    if titled:
        return titled[:1]
    return same if part is not None else [page]


def with_tested_sections(page: Page, blocks: list[Block], pages: list[Page], sections_of: dict[str, list],
                         part_of: dict[str, str]) -> list[Block]:
    """The page's practice blocks, each question with the section it tests."""
    if not any(b.questions for b in blocks):
        return blocks
    candidates = [s for lesson in _lessons(page, pages, part_of) for s in _lesson_sections(lesson, sections_of[lesson.key])]
    if not candidates:
        return blocks
    spread: dict[str, int] = {}
    for _, _, terms, _ in candidates:
        for term in terms:
            spread[term] = spread.get(term, 0) + 1
    n = len(candidates)

    def weight(term: str) -> float:
        return math.log(1 + n / spread[term])

    def tested(item: Item, own_url: str) -> Item:
        said = item.question + " " + (item.choices[item.key] if item.key is not None else "") + " " + item.answer[:600]
        asked = term_set(said)
        best, where = 0.0, None
        for url, heading, terms, heading_terms in candidates:
            score = sum(weight(t) for t in asked & terms) + sum(weight(t) for t in asked & heading_terms)
            if url == own_url:
                score *= 1.5  # a question asked inside a section is about it
            if score > best:
                best, where = score, (url, heading)
        if where is None:
            return item
        return replace(item, tests=where[0], tests_heading=where[1])

    return [replace(b, questions=tuple(tested(i, b.url) for i in b.questions)) for b in blocks]
