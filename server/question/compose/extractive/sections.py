"""The sections an answer quotes: the pieces of one section read in the book's order.

Retrieval ranks a section's chunks apart: its third chunk can come first and its opening fourth.
Quoted passage by passage in that rank, a section reads backwards ("The example above also …"
before the example, the syntax after the proof that uses it). An answer reads each section it
quotes as the book wrote it: its pieces in the order of the page, the section that answers first
and the others after it in the order they were chosen.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from server.book.chunk import Chunk, top_section

if TYPE_CHECKING:
    from server.question.compose.extractive.answer_units import Unit
    from server.question.context import Source

Section = tuple[str, str]  # a page and the heading path of the section on it


def section_of(chunk: Chunk) -> Section:
    """A chunk's page and section; a chunk that names no section is one of its own."""
    page = chunk.page_id
    return page, " › ".join(chunk.section_hierarchy) or chunk.heading or f"#{chunk.chunk_id}"


def passage_sections(sources: list[Source]) -> dict[int, Section | int]:
    """Each passage's section by its number (a passage that is no book chunk is a section of its own)."""
    return {n: section_of(s.chunk) if s.source_type == "database" else n for n, s in enumerate(sources, 1)}


class PieceSections:
    """The section a piece stands in (called with it): its page and the top section (a page's
    second-level heading, its subsections with it; the page's opening before it) of the heading it
    stands under, found among the chunks its passage was read from, a chunk's merged small sections
    included. A passage read on across chunk borders runs into later sections, and a chunk can hold
    several: each counts. A heading not found there: the passage's section."""

    def __init__(self, sources: list[Source], read: list[tuple[str, list[Chunk]]]):
        self.passages = passage_sections(sources)
        self.paths: dict[tuple[int, str], tuple[str, ...]] = {}
        for n, ((_, chunks), source) in enumerate(zip(read, sources), 1):
            for chunk in chunks or ([source.chunk] if source.source_type == "database" else []):
                paths = [(chunk.heading, chunk.section_hierarchy)] + [
                    (part["titles"][-1], [chunk.chapter, *part["titles"]]) for part in chunk.parts if part["titles"]]
                for heading, path in paths:
                    if path:
                        self.paths.setdefault((n, heading), tuple(path))

    def __call__(self, unit: Unit) -> Section | int:
        passage = self.passages.get(unit.source, unit.source)
        if not isinstance(passage, tuple):
            return passage
        path = self.paths.get((unit.source, unit.heading))
        return (passage[0], top_section(list(path))) if path is not None else \
            (passage[0], unit.heading) if unit.heading else passage

    def within(self, unit: Unit, opening: Unit) -> bool:
        """Does the piece stand under the heading the opening piece stands under, or one of its
        subsections ("Reactive Balance" is not within its sibling "Model Predictive Control")?
        Where a heading's place is not known, any piece of the opening's section is."""
        if unit.heading == opening.heading or unit.source != opening.source:
            return self(unit) == self(opening)
        path, under = self.paths.get((unit.source, unit.heading)), self.paths.get((opening.source, opening.heading))
        if path is None or under is None:
            return self(unit) == self(opening)
        return path[:len(under)] == under


def in_book_order(units: list[Unit], sources: list[Source], extra: list[Chunk], opened: bool = False) -> list[Unit]:
    """The pieces of an answer, each cited by the chunk that holds it (sources, then `extra`),
    grouped by section in the order their sections first come, each section in the page's order;
    `opened`: the first piece opens the answer, and its section is read from it on, its pieces
    before it last (a long section's other pieces do not push what answers down).
    Unchanged when a piece is cited to no book chunk (a highlighted passage keeps its own order)."""
    chunks = [s.chunk if s.source_type == "database" else None for s in sources] + list(extra)
    if any(not 0 < u.source <= len(chunks) or chunks[u.source - 1] is None for u in units):
        return units
    rank: dict[Section, int] = {}
    for unit in units:
        rank.setdefault(section_of(chunks[unit.source - 1]), len(rank))

    def place(unit: Unit) -> tuple:
        chunk = chunks[unit.source - 1]
        return chunk.position, unit.block, unit.index

    first = place(units[0]) if opened and units else None

    def order(unit: Unit) -> tuple:
        section = rank[section_of(chunks[unit.source - 1])]
        return section, section == 0 and first is not None and place(unit) < first, place(unit)

    ordered, headed = [], {}
    for unit in sorted(units, key=order):
        chunk = chunks[unit.source - 1]
        section = section_of(chunk)
        opened = headed.setdefault(section, bool(unit.heading))
        if not opened and unit.heading == chunk.heading:
            unit = replace(unit, heading="")  # a section's heading is shown above its first piece or not at all
        ordered.append(unit)
    return ordered
