"""One way to find the indexed page a URL names, on any host and base path: the course path, the
insights and the book tools agree on the sample book's pages read locally and on a preview."""
from __future__ import annotations

import pytest

from server.library.book_outline import outline_of
from server.course.resolve import resolve_page
from server.insights.pages import PageFinder
from server.book.outline import Outline
from server.book.page_urls import page_path, same_page_path

INDEXED = "http://127.0.0.1:8000/book/docs/foundations/sampling-and-aliasing"
READ_AT = [
    INDEXED + "/",  # the book's own site
    "http://localhost:3000/book/docs/foundations/sampling-and-aliasing/index.html",  # served locally
    "https://pr-12.preview.example.net/textbook/book/docs/foundations/sampling-and-aliasing?x=1#aliasing",  # longer base
    "https://mirror.example.org/docs/foundations/sampling-and-aliasing",  # no base path
]


def test_page_paths_ignore_what_does_not_name_the_page():
    assert page_path("https://x.org/book/docs/intro/index.html") == "/book/docs/intro"
    assert page_path("https://x.org/book/docs/intro.html#a") == "/book/docs/intro"
    assert page_path("https://x.org/") == page_path("https://x.org") == "/"


def test_the_longest_ending_wins_and_one_segment_is_not_enough():
    paths = ["/book/docs/intro", "/book/docs/part/intro", "/book/docs/part/page"]
    assert same_page_path(paths, "/docs/part/intro") == "/book/docs/part/intro"
    assert same_page_path(paths, "/preview/book/docs/intro") == "/book/docs/intro"
    assert same_page_path(paths, "/intro") is None  # which intro?
    assert same_page_path(paths, "/book/docs/other") is None


@pytest.fixture(scope="module")
def pages(sample_book):
    chunks = sample_book.store.all_chunks()
    return chunks, sample_book.store.outline(chunks[0].book_id)


@pytest.mark.parametrize("url", READ_AT)
def test_course_insights_and_book_tools_find_the_same_page(pages, sample_book, url):
    chunks, recorded = pages
    book_id = chunks[0].book_id
    assert resolve_page(Outline.from_dict(recorded), url).url == INDEXED
    assert PageFinder(sample_book.index.outlines.books, sample_book.index.book).page_of(url, book_id).url == INDEXED
    assert outline_of(book_id, chunks, recorded).find_page(url).url == INDEXED
