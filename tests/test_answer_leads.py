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
from server.question.compose.extractive.question_words import runs_said, says_term
from server.question.context import Source


def _page(embedder, book: str, source_file: str) -> list[Chunk]:
    """A page of a book of the pool as `ingest` chunks it."""
    site = detect_site(CORPORA / book)
    page = next(p for p in discover_pages(site).pages if p.source_file.endswith(source_file))
    return chunk_page(page, book_id=book, book_title=site.title, count_tokens=embedder.count_tokens)


@pytest.fixture(scope="module")
def exceptions(embedder) -> list[Chunk]:
    chunks = _page(embedder, "lhbg", "03-exceptions.md")
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
    """The five passages the book's index found for the student's question, best first."""
    found = {"Some functions' documentation": 0.52, "> As an aside": 0.47, ">    feel free to browse": 0.46,
             "What if, for example": 0.43, "```hs\nthrowIO": 0.42}
    sources = [Source(replace(c, score=score), "database") for start, score in found.items()
               for c in exceptions if c.content.startswith(start)]
    assert len(sources) == 5
    answer = block_answer("how can i catch any exception at all", sources,
                          following=lambda chunk: [c for c in exceptions if 0 < c.position - chunk.position <= 2])
    opening = answer.find("And if we wanted to catch any exception, we'd catch `SomeException`")
    assert opening != -1 and "SomeException e" in answer, answer  # its code, the answer itself
    assert "We can chain catches" not in answer  # not the stretch of an earlier passage naming both words


def test_an_earlier_passages_piece_quoted_with_the_opening_comes_after_it():
    def source(text: str, position: int, score: float) -> Source:
        chunk = Chunk(chunk_id=str(position), book_id="b", book_title="B", content=text, content_hash="",
                      source_file="f.md", url="", module="", chapter="", section="", heading="Exceptions",
                      section_hierarchy=["Exceptions"], page=0, source_location="", citation="", file_hash="",
                      score=score, page_key="f.md", position=position)
        return Source(chunk, "database")

    earlier = "Some functions document which exception they throw. We could guess the exception to catch from them."
    later = "And if we wanted to catch any exception, we'd catch `SomeException`. It is the root of them all."
    answer = block_answer("how can i catch any exception at all", [source(earlier, 3, 0.55), source(later, 9, 0.5)])
    assert -1 < answer.find("And if we wanted") < answer.find("We could guess"), answer


def test_the_opening_leads_and_other_passages_pieces_before_it_follow_it():
    """The section is read from the opening's passage on: what the answer quotes from a passage
    before the opening's comes after it, not above the answer ("We could guess …" had led "how can
    i catch any exception at all"); the opening's own passage is read in the book's order (its
    paragraph's sentences, the section's first line before it)."""
    from server.question.compose.extractive.answer_units import Unit
    from server.question.compose.extractive.answers import _read_with
    from server.question.compose.extractive.sections import in_book_order

    def source(chunk_id: str, position: int) -> Source:
        chunk = Chunk(chunk_id=chunk_id, book_id="b", book_title="B", content="", content_hash="", source_file="f.md",
                      url="", module="", chapter="", section="", heading="Exceptions", section_hierarchy=["Exceptions"],
                      page=0, source_location="", citation="", file_hash="", score=0.5, page_key="f.md", position=position)
        return Source(chunk, "database")

    def piece(source: int, block: int, index: int = 0) -> Unit:
        return Unit(source=source, block=block, index=index, kind="sentence", text=f"{source}.{block}.{index}",
                    heading="Exceptions", material="prose")

    sources = [source("guess", 7), source("some", 11)]  # retrieved best first; "some" is later on the page
    opening, earlier = piece(2, 1), piece(1, 0)
    assert in_book_order([opening, earlier], sources, [], opened=True) == [opening, earlier]
    assert in_book_order([opening, earlier], sources, [], opened=False) == [earlier, opening]
    chosen = {u.key: u for u in [piece(1, 0), piece(2, 0, 1), piece(2, 1), piece(2, 2)]}
    assert _read_with({(2, 1, 0)}, chosen) == {(2, 0, 1), (2, 1, 0)}  # its passage's piece before it, not another's


def test_a_common_word_named_as_a_term_is_said_where_the_book_sets_it_as_code(exceptions):
    answer = _answer("whats the difference between catch and try?", exceptions, later_first=True)
    assert _prose(answer)[0].startswith("The [Control.Exception]"), answer
    assert "try :: Exception e => IO a -> IO (Either e a)" in answer
    assert "Try to use `bracket`" not in answer
    assert says_term("convert them with the function [`try`](https://x)", "convert them with the function try", "try")
    assert not says_term("Try to use `bracket` here.", "Try to use bracket here.", "try")


def test_asked_words_in_a_row_are_three_words_at_least():
    weights = {"catch": 1.0, "excep": 1.0, "sam": 1.0, "file": 1.0}
    assert runs_said("if we wanted to catch any exception, we'd", "how can i catch any exception at all", weights)
    assert not runs_said("We can chain catches of every exception", "how can i catch any exception", weights)
    # two asked words side by side are a name said all over the book, not the question's wording
    assert not runs_said("the unsorted SAM file", "what do the columns in a sam file mean?", weights)
    # a language without spaces: its words in a row are a word and its particles ("変数の巻き上げ")
    japanese = {"変数": 1.0, "巻き": 1.0, "の巻": 1.0, "数の": 1.0}
    assert not runs_said("**変数の巻き上げは発生している**", "変数の巻き上げって何？", japanese)


def test_a_passage_the_answer_comes_back_to_is_cited_at_the_end_of_each_run_of_its_pieces():
    from server.question.compose.extractive.answer_units import Unit
    from server.question.compose.extractive.rendering import rendered as _render

    def piece(source: int, block: int, text: str) -> Unit:
        return Unit(source=source, block=block, index=0, kind="sentence", text=text, heading="", material="prose")

    shown = _render([piece(2, 1, "The opening says it."), piece(1, 0, "Another passage adds this."),
                     piece(2, 0, "The opening's passage said this first.")])
    assert shown.split("\n\n") == ["The opening says it [2].", "Another passage adds this [1].",
                                   "The opening's passage said this first [2]."]


def test_words_in_a_row_that_several_pieces_say_are_a_term_not_the_questions_wording(embedder):
    """tpil4's "why do i need open Classical to do a proof by contradiction?": "proof by
    contradiction" is said by the section again and again; its answer is "To use this principle, you
    have to open the classical namespace", not the example that happens to say the words too."""
    classical = [c for c in _page(embedder, "tpil4", "propositions_and_proofs.md") if c.heading == "Classical Logic"]
    answer = _answer("why do i need open Classical to do a proof by contradiction?", classical)
    assert "you have to open the classical namespace" in _prose(answer)[0], answer


def test_only_the_piece_alone_in_saying_the_words_in_a_row_leads_with_them():
    from server.question.compose.extractive.continuation import read_passages
    from server.question.compose.extractive.piece_scores import PHRASED, score_pieces

    def source(text: str, chunk_id: str) -> Source:
        chunk = Chunk(chunk_id=chunk_id, book_id="b", book_title="B", content=text, content_hash="", source_file="f.md",
                      url="", module="", chapter="", section="", heading="", section_hierarchy=[], page=0,
                      source_location="", citation="", file_hash="", score=0.5)
        return Source(chunk, "database")

    def leads(question: str, texts: list[str]) -> list[float]:
        sources = [source(text, str(n)) for n, text in enumerate(texts)]
        scored = score_pieces(question, sources, None, everything=False, read=read_passages(sources, None))
        return [s.leads for s in scored]

    term = ["It allows one to carry out a proof by contradiction in classical logic.",
            "Or you can carry out a proof by contradiction with this example."]
    assert leads("why do i need open Classical to do a proof by contradiction?", term) == [0.0, 0.0]
    wording = ["We can chain catches of every exception here.", "If we wanted to catch any exception, we'd catch it."]
    assert leads("how can i catch any exception at all", wording) == [0.0, PHRASED]


def test_a_name_in_code_is_not_the_english_word_it_begins_like(embedder, exceptions):
    """Asked on the Exceptions page "should i use exceptions or Either for my errors?", the answer
    was "Composing IO + Either using ExceptT": its heading and its `Except` matched "exceptions" by
    five letters. The page's Summary answers, and "And this is what I would recommend" is read with
    the sentence it goes on from."""
    from server.question.compose.extractive.question_words import named_apart

    question = "should i use exceptions or Either for my errors?"
    assert named_apart("Composing IO + Either using ExceptT", question) == {"excep"}
    assert named_apart("You might want to use `Except` instead of `Either`", question) == {"excep"}
    assert named_apart("The important part is the [`Exception`](x) type class", question) == set()
    assert named_apart("We use `ExceptT` to handle exceptions", question) == set()  # the prose says it
    # a name that begins with the word asked is a name for it
    assert named_apart("```python\nclass KalmanFilter:\n    pass\n```", "what does a kalman filter do?") == set()
    assert named_apart("run it with `asyncio.to_thread()`", "my async app freezes, why?") == set()
    # the five passages the book's index found for it, best first
    pages = {"03": exceptions, "02": _page(embedder, "lhbg", "02-except.md"), "01": _page(embedder, "lhbg", "01-either.md")}
    found = [("03", "Exceptions are useful", 0.46), ("01", "Using `Either` for error handling", 0.456),
             ("02", "Now, if we had:", 0.448), ("03", ">    feel free to browse", 0.405),
             ("03", "Some functions' documentation", 0.355)]
    sources = [Source(replace(c, score=score), "database") for page, start, score in found
               for c in pages[page] if c.content.startswith(start)]
    assert len(sources) == 5
    answer = block_answer(question, sources)
    assert answer.startswith("**Summary**\n\nFor Haskell, the language designers have made a choice for us"), answer
    assert "And this is what I would recommend" in answer
