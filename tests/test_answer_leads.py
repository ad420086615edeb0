"""What leads an answer when a long section holds many sentences naming the question's words: the
Haskell book's "Exceptions" page is one section of some three hundred lines, and every chunk of it
says "catch" and "exception". A student asked "how can i catch any exception at all" and was
answered "We can chain catches" with a page of code, while "And if we wanted to catch any
exception, we'd catch `SomeException`" sat further down; asked "whats the diffrence between catch
and try?", `try` counted for nothing (too common a word to be asked) and the answer was the
`Handler` aside."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest

from places import CORPORA
from server.book.chunk import Chunk
from server.ingest.chunker import chunk_page
from server.ingest.pages import discover_pages
from server.ingest.site import detect_site
from server.question.compose.extractive.answers import block_answer
from server.question.compose.extractive.question_words import said_in_a_row, says_term
from server.question.context import Source


@pytest.fixture(scope="module")
def exceptions(embedder) -> list[Chunk]:
    """The page as `ingest` chunks it, retrieved best first in the page's order (the way a
    retrieval often ranks a long section: its earlier chunks first)."""
    site = detect_site(CORPORA / "lhbg")
    page = next(p for p in discover_pages(site).pages if p.source_file.endswith("03-exceptions.md"))
    chunks = chunk_page(page, book_id="lhbg", book_title=site.title, count_tokens=embedder.count_tokens)
    assert len(chunks) >= 6
    return chunks


def _answer(question: str, chunks: list[Chunk], *, later_first: bool = False) -> str:
    """The answer from the page's chunks, each read on into the two after it, as the pipeline reads;
    ranked in the page's order, or its later chunks first (its opening pair last, the first read on
    into the second)."""
    order = [*reversed(chunks[2:]), *chunks[:2]] if later_first else chunks
    ranked = [Source(replace(c, score=0.55 - 0.002 * i), "database") for i, c in enumerate(order)]
    return block_answer(question, ranked, following=lambda chunk: [c for c in chunks if 0 < c.position - chunk.position <= 2])


def _prose(answer: str) -> list[str]:
    """The answer's paragraphs of prose, citations left out."""
    return [re.sub(r" ?\[\d+\]:?", "", part) for part in answer.split("\n\n") if re.match(r"[A-Z]", part)]


def test_the_sentence_saying_what_is_asked_in_its_words_opens_the_answer(exceptions):
    answer = _answer("how can i catch any exception at all", exceptions)
    assert "And if we wanted to catch any exception, we'd catch `SomeException`" in answer, answer
    assert "SomeException e" in answer  # its code, the answer itself
    assert "We can chain catches" not in answer  # not the stretch of an earlier passage naming both words


def test_the_opening_leads_and_other_passages_pieces_before_it_follow_it(exceptions):
    """The section is read from the opening's passage on; what it quotes from passages before the
    opening's comes last, not above the answer (each run of a passage's pieces cited where it ends).
    The opening's own passage is read in the book's order (its paragraph's sentences before it)."""
    answer = _answer("how can i catch any exception at all", exceptions)
    section = answer.split("\n\n**")[0]  # the section that answers, before any other's heading
    page = " ".join(re.sub(r"(?m)^>", "", "\n\n".join(c.content for c in exceptions)).split())
    places = [page.find(" ".join(part.split())[:50]) for part in _prose(section)]
    assert -1 not in places and len(places) >= 3, answer
    opening = page.find("And if we wanted to catch any exception")
    passage = max(c.position for c in exceptions if "And if we wanted to catch any" in c.content)
    starts = page.find(" ".join(re.sub(r"(?m)^>", "", exceptions[passage].content).split())[:50])
    earlier = [place for place in places if place < starts]
    assert earlier, answer  # the section's earlier passages are quoted …
    assert places == sorted(places, key=lambda place: (place < starts, place)), answer  # … after the opening's
    assert min(p for p in places if p >= starts) <= opening
    assert answer.count("**Exceptions**") == 1


def test_a_common_word_named_as_a_term_is_said_where_the_book_sets_it_as_code(exceptions):
    answer = _answer("whats the difference between catch and try?", exceptions, later_first=True)
    assert _prose(answer)[0].startswith("The [Control.Exception]"), answer
    assert "try :: Exception e => IO a -> IO (Either e a)" in answer
    assert "Try to use `bracket`" not in answer
    assert says_term("convert them with the function [`try`](https://x)", "convert them with the function try", "try")
    assert not says_term("Try to use `bracket` here.", "Try to use bracket here.", "try")


def test_asked_words_in_a_row_are_three_words_at_least():
    weights = {"catch": 1.0, "excep": 1.0, "sam": 1.0, "file": 1.0}
    assert said_in_a_row("if we wanted to catch any exception, we'd", "how can i catch any exception at all", weights)
    assert not said_in_a_row("We can chain catches of every exception", "how can i catch any exception", weights)
    # two asked words side by side are a name said all over the book, not the question's wording
    assert not said_in_a_row("the unsorted SAM file", "what do the columns in a sam file mean?", weights)
    # a language without spaces: its words in a row are a word and its particles ("変数の巻き上げ")
    japanese = {"変数": 1.0, "巻き": 1.0, "の巻": 1.0, "数の": 1.0}
    assert not said_in_a_row("**変数の巻き上げは発生している**", "変数の巻き上げって何？", japanese)


def test_a_passage_the_answer_comes_back_to_is_cited_at_the_end_of_each_run_of_its_pieces():
    from server.question.compose.extractive.answer_units import Unit
    from server.question.compose.extractive.answers import _render

    def piece(source: int, block: int, text: str) -> Unit:
        return Unit(source=source, block=block, index=0, kind="sentence", text=text, heading="", material="prose")

    shown = _render([piece(2, 1, "The opening says it."), piece(1, 0, "Another passage adds this."),
                     piece(2, 0, "The opening's passage said this first.")])
    assert shown.split("\n\n") == ["The opening says it [2].", "Another passage adds this [1].",
                                   "The opening's passage said this first [2]."]
