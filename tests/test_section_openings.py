"""A section the asked term names is read from its first passage: tpil4's "what does the universal
quantifier mean in lean" found the section "The Universal Quantifier" by its fourth passage ("For
that reason, it is common to make these arguments implicit") and answered from there; the section
opens on what the quantifier denotes. The heading's article is no part of its name."""
from __future__ import annotations

from dataclasses import dataclass, field

from server.book.chunk import Chunk
from server.question.gather.openings import SectionOpenings
from server.text.definition import defines, headed_by

OPENS = ("Notice that if ``α`` is any type, we can represent a unary predicate ``p`` on ``α``. The universal "
         "quantifier, ``∀ x : α, p x`` is supposed to denote the assertion that \"for every ``x : α``, ``p x``\" holds.")


def _chunk(chunk_id: str, heading: str, position: int, score: float = 0.0, page: str = "q.md") -> Chunk:
    return Chunk(chunk_id=chunk_id, book_id="b", book_title="B", content=f"{chunk_id} text.", content_hash="",
                 source_file=page, url="", module="", chapter="", section="", heading=heading,
                 section_hierarchy=[heading], page=0, source_location="", citation="", file_hash="",
                 score=score, page_key=page, position=position)


@dataclass
class _Published:
    """A book as the index publishes it: its chunks, and the views made of them."""
    chunks: list[Chunk]
    views: dict = field(default_factory=dict)

    def view(self, build):
        return self.views.setdefault(build, build(self))


PAGE = [_chunk("intro", "Quantifiers and Equality", 0), _chunk("opens", "The Universal Quantifier", 1),
        _chunk("typically", "The Universal Quantifier", 2), _chunk("reason", "The Universal Quantifier", 3),
        _chunk("exists", "The Existential Quantifier", 4), _chunk("exists-2", "The Existential Quantifier", 5),
        _chunk("other-page", "The Universal Quantifier", 0, page="other.md")]
OPENINGS = SectionOpenings(lambda book_id: _Published(PAGE))


def test_a_section_the_term_names_is_led_by_its_first_passage():
    found = [_chunk("exists-2", "The Existential Quantifier", 5, 0.69),
             _chunk("reason", "The Universal Quantifier", 3, 0.55),
             _chunk("typically", "The Universal Quantifier", 2, 0.48)]
    led = OPENINGS.lead_in(found, "universal quantifier")
    assert [c.chunk_id for c in led] == ["exists-2", "opens", "reason", "typically"]
    assert led[1].score == 0.55  # in the place, and with the score, of the passage that found it


def test_a_section_no_term_names_or_already_opened_is_left_as_found():
    found = [_chunk("exists-2", "The Existential Quantifier", 5, 0.69), _chunk("opens", "The Universal Quantifier", 1)]
    assert OPENINGS.lead_in(found, "universal quantifier") == found  # found by its opening already
    assert OPENINGS.lead_in(found, None) == found
    assert [c.chunk_id for c in OPENINGS.lead_in(found, "existential quantifier")] == ["exists", "exists-2", "opens"]


def test_a_heading_names_the_term_without_its_article_and_a_notation_beside_a_term_still_defines_it():
    assert headed_by("The Universal Quantifier", "universal quantifier")
    assert headed_by("The Stack and the Heap", "the stack and the heap")
    assert not headed_by("The Universal Quantifier", "existential quantifier")
    assert defines(OPENS, "universal quantifier")
    assert defines("The stack, `x`, denotes memory.", "stack")
    assert not defines("The trait (see below) is used a lot.", "trait")
