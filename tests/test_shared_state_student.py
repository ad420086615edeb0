"""A student on the Rust book's "Shared-State Concurrency" page. What they met: "interior
mutability" highlighted there and asked "give me an example" was answered with three of Chapter 15's
definitions and no example, while the page's own "this means `Mutex<T>` provides interior mutability"
(the counter example) went unquoted; and "If you're interested in deadlocks" was read as saying
"interior" (both begin "inter"); "what's a deadlock and can rust stop it?" quoted "`Mutex<T>` comes with the risk of
creating _deadlocks_." and "If you're interested in deadlocks, …" but not the sentence between them saying what
a deadlock is."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from places import RUST_BOOK
from server.book.chunk import Chunk
from server.question.compose.extractive.answers import quoted_answer
from server.question.compose.extractive.piece_scores import score_pieces
from server.question.compose.extractive.question_words import prefix
from server.question.context import Source
from server.question.understand.term import about_term

SHARED_STATE = (RUST_BOOK / "src" / "ch16-03-shared-state.md").read_text(encoding="utf-8")
INTERIOR = (RUST_BOOK / "src" / "ch15-05-interior-mutability.md").read_text(encoding="utf-8")
TERM = "interior mutability"


def _section(page: str, title: str) -> str:
    start = page.index(title)
    ends = [page.find(mark, start + len(title)) for mark in ("\n## ", "\n### ", "\n#### ")]
    return page[start:min([e for e in ends if e > 0], default=len(page))]


def _source(text: str, heading: str, page: str, score: float) -> Source:
    chunk = Chunk(chunk_id=f"c-{heading}", book_id="rust", book_title="The Rust Book", content=text, content_hash="",
                  source_file=page, url=f"https://x/{page}", module="", chapter="", section="", heading=heading,
                  section_hierarchy=[heading], page=0, source_location="", citation="", file_hash="",
                  embed_text=text, page_key=page, position=0, locale="en", score=score)
    return Source(chunk, "database")


def _sources() -> list[Source]:
    """What the book's search found, as it ranked them: Chapter 15's passages on the term first."""
    return [_source(_section(INTERIOR, "### Using Interior Mutability"), "Using Interior Mutability",
                    "ch15-05-interior-mutability", 0.55),
            _source(INTERIOR[:INTERIOR.index("### Enforcing")], "RefCell<T> and the Interior Mutability Pattern",
                    "ch15-05-interior-mutability", 0.52),
            _source(_section(SHARED_STATE, "### Comparing"), "Comparing RefCell<T>/Rc<T> and Mutex<T>/Arc<T>",
                    "ch16-03-shared-state", 0.54)]


def test_an_example_of_a_term_highlighted_on_a_page_opens_on_the_pages_use_of_it():
    question = about_term("give me an example", TERM)
    answer = quoted_answer(question, _sources(), page="ch16-03-shared-state", term=TERM).text
    assert answer.startswith("**Comparing"), answer
    assert "this means `Mutex<T>` provides interior mutability" in answer, answer
    # asked on another page, the book's own order stands: the reader's page is what the example comes from
    elsewhere = quoted_answer(question, _sources(), page="ch15-05-interior-mutability", term=TERM).text
    assert not elsewhere.startswith("**Comparing"), elsewhere
    # asked what it is, the definition leads, wherever the reader is
    defined = quoted_answer(about_term("what is this?", TERM), _sources(), page="ch16-03-shared-state", term=TERM).text
    assert not defined.startswith("**Comparing"), defined


def test_a_word_beginning_like_another_is_not_said_by_it():
    """"interested" does not say "interior"; "internal" does not say "interface"."""
    scored = score_pieces(f"what is {TERM}?", _sources()[2:], None, everything=False,
                          read=[(s.chunk.content, [s.chunk]) for s in _sources()[2:]])
    deadlocks = next(s for s in scored if s.unit.text.startswith("If you’re interested"))
    assert "inter" not in "".join(deadlocks.covers) and prefix("interior") not in deadlocks.covers
    assert prefix("interfaces") == prefix("interface") and prefix("internal") != prefix("interface")


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["inter", "trans", "under", "super", "multi"]),
       st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8),
       st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8))
def test_words_after_a_common_beginning_are_told_apart_by_what_follows_it(beginning, one, other):
    same = prefix(beginning + one) == prefix(beginning + other)
    assert same == (one[:2] == other[:2])


def test_a_paragraph_quoted_in_part_is_read_in_a_row():
    comparing = _sources()[2]
    answer = quoted_answer("what's a deadlock and can rust stop it?", [comparing]).text
    assert "creating *deadlocks*. These occur when an operation needs to lock two resources" in answer, answer
    # two pieces far apart in a paragraph ("Another detail to note …", "The standard library API documentation …"):
    # what lies between them is another thought, not read in
    alike = quoted_answer("how is Mutex<T> like RefCell<T>?", [comparing]).text
    assert "These occur when" not in alike, alike
