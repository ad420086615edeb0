"""A student on the Haskell book's "Preventing incorrect use with modules" page (lhbg). What they met:
`Html(..)` highlighted, "what does this mean?", was answered "In this section, we will move the HTML
generation library to its own module.": normalised, the highlight was "html", which every passage of
the page holds, so the page's first passage was taken for the one holding it. "what should i name my
module file?" was answered with the page's contents ("… covers: Modules"), as if "module" were the
course's (tests/test_course_routing.py)."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from places import CORPORA
from server.question.holding import holds
from server.text.sentences import normalised

MODULES = (CORPORA / "lhbg" / "src" / "03-html" / "05-modules.md").read_text(encoding="utf-8")


def _paragraphs() -> list[str]:
    return [p for p in MODULES.split("\n\n") if p.strip()]


def test_a_highlight_that_is_mostly_signs_is_held_as_written():
    holding = [p for p in _paragraphs() if holds(p, "Html(..)")]
    assert len(holding) == 1 and "we would've written" in holding[0], holding
    assert not holds("In this section, we will move the HTML generation library to its own module.", "Html(..)")
    assert holds("Use `x += 1` to count.", "x += 1") and not holds("x plus 1", "x += 1")
    # words stay words: a sentence highlighted across a line break, its emphasis as the page shows it
    assert holds("The export list can be omitted if you want to export\neverything defined in the module.",
                 "can be omitted if you want to export everything")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["module", "export", "html", "list", "type", "the", "a", "Main"]), min_size=1,
                max_size=8), st.lists(st.sampled_from(["module", "export", "html", "list", "type"]), min_size=1,
                                      max_size=4))
def test_a_highlight_of_words_is_held_by_its_words_whatever_their_case_and_spacing(text, passage):
    said, asked = " ".join(text), "  ".join(passage)
    assert holds(said, asked) == (normalised(asked)[-40:] in normalised(said))


def _source(text: str, heading: str, score: float):
    from server.book.chunk import Chunk
    from server.question.context import Source
    chunk = Chunk(chunk_id=f"c-{heading}", book_id="lhbg", book_title="Learn Haskell by building a blog generator",
                  content=text, content_hash="", source_file="05-modules.md", url="https://x/03-html/05-modules.html",
                  module="", chapter="", section="", heading=heading, section_hierarchy=[heading], page=0,
                  source_location="", citation="", file_hash="", embed_text=text, page_key="03-html/05-modules",
                  position=0, locale="en", score=score)
    return Source(chunk, "database")


def test_a_sentence_going_on_from_the_one_quoted_comes_with_it():
    """"why do the html function names end with an underscore?" stopped at "… with an underscore (`_`)."
    before "This is mostly an aesthetic decision …", the reason, for another page's pieces on names."""
    from server.question.compose.extractive.answers import quoted_answer
    functions = (CORPORA / "lhbg" / "src" / "03-html" / "02-type_signatures.md").read_text(encoding="utf-8")
    aside = MODULES[MODULES.index("> As an aside"):]
    answer = quoted_answer("why do the html function names end with an underscore?",
                           [_source(aside, "Modules", 0.55), _source(functions, "Type signatures", 0.50)]).text
    assert "with an underscore (`_`). This is mostly an aesthetic decision" in answer, answer
