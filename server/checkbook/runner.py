"""Runs every check on one indexed book through the real /chat endpoint (the Flask app over the
book's index, answering with the book's own words as `eval` does) and reports them."""
from __future__ import annotations

import json
from collections import Counter

from server.book.outline import Outline
from server.text.blocks import split_blocks
from server.text.scripts import language_of
from server.text.vocabulary import words as words_of
from server.checkbook import checks
from server.checkbook.citations import BookSections
from server.checkbook.practice import own_quizzes

QUIZ_PAGES = 6  # pages asked "quiz me": those with the book's own questions first


def book_of(book_id: str, chunks, outline: Outline | None, pages, off_book: list[str]) -> checks.Book:
    counts = Counter(w for c in chunks for w in words_of(c.content))
    # the probes are English sentences ("where does the book cover {heading}?"): a book with English
    # pages is probed with their headings, not with an English frame around an Urdu heading
    english = any(c.locale.startswith("en") for c in chunks)
    headings = list(dict.fromkeys(c.heading for c in chunks if c.heading and c.heading != c.chapter
                                  and (not english or c.locale.startswith("en"))))
    paragraphs = [(b.text, c.url) for c in chunks for b in split_blocks(c.content) if b.kind == "paragraph"]
    page_urls = [p.url for p in outline.pages] if outline else sorted({c.url.split("#")[0] for c in chunks})
    locales = {language_of(c.locale): c.locale for c in chunks}
    return checks.Book(book_id, [w for w, _ in counts.most_common(400)], headings, page_urls, paragraphs,
                       BookSections(pages), off_book, tuple(sorted(locales)), locales)


def quiz_pages(outline: Outline | None) -> list[str]:
    if outline is None:
        return []
    practised = [p.url for p in outline.pages if p.blocks_of("quiz") or p.blocks_of("exercises")]
    others = [p.url for p in outline.pages if p.url not in practised]
    step = max(1, len(others) // QUIZ_PAGES)
    return (practised + others[::step])[:QUIZ_PAGES]


def run_checks(client, book: checks.Book, outline: Outline | None) -> list[checks.Result]:
    def ask(question: str, **body) -> tuple[int, dict]:
        response = client.post("/chat", json={"question": question, "filters": {"book_id": book.book_id}, **body})
        return response.status_code, response.get_json(silent=True) or {}

    answered = checks.answers_to_headings(ask, book)
    return [checks.typo_fuzz(ask, book), checks.highlight_requests(ask, book),
            checks.citation_places(answered, book), checks.citation_order(answered), checks.answer_length(answered),
            checks.sections_quoted(answered),
            checks.off_book(ask, book), checks.course_routing(ask, book),
            checks.quiz_items(ask, book, quiz_pages(outline)), own_quizzes(client, book.book_id, outline)]


def report(title: str, results: list[checks.Result]) -> str:
    lines = [f"check-book: {title}", ""]
    for result in results:
        lines.append(f"{'ok  ' if result.passed else 'FAIL'}  {result.name}: {result.measure}")
        lines += [f"        {failure}" for failure in result.failures[:checks.MAX_EXAMPLES]]
    passed = sum(r.passed for r in results)
    lines += ["", f"{passed} of {len(results)} checks hold"]
    return "\n".join(lines)


def as_json(book_id: str, results: list[checks.Result]) -> str:
    return json.dumps({"book_id": book_id, "passed": all(r.passed for r in results),
                       "checks": [r.to_dict() for r in results]}, ensure_ascii=False)
