"""The passage a section opens with. "What does the universal quantifier mean?" is answered where
the section named by it begins ("The universal quantifier, `∀ x : α, p x`, is supposed to denote
…"), though a later passage of the section may lie nearer the question's words (tpil4: "… mean in
lean" found the section's fourth passage, "For that reason, it is common to make these arguments
implicit", and not its first)."""
from __future__ import annotations

from typing import Callable

from server.book.chunk import Chunk
from server.text.definition import headed_by


class SectionOpenings:
    """`book_of(book_id)` gives a book as the index publishes it (library/published.py)."""

    def __init__(self, book_of: Callable[[str], object]):
        self.book_of = book_of

    def opening(self, chunk: Chunk) -> Chunk | None:
        """The first passage of the chunk's section on its page (None for a chunk the index does not hold)."""
        book = self.book_of(chunk.book_id)
        return book.view(_firsts).get(_section(chunk)) if book is not None else None

    def lead_in(self, chunks: list[Chunk], term: str | None) -> list[Chunk]:
        """The chunks, each section the term names opened with its first passage where a later one
        was found first (in that one's place and with its score; the later one follows it)."""
        if term is None:
            return chunks
        found = {c.chunk_id for c in chunks}
        led, opened = [], set()
        for chunk in chunks:
            section = _section(chunk)
            if section not in opened and isinstance(chunk, Chunk) and headed_by(chunk.heading, term):
                opened.add(section)
                first = self.opening(chunk)
                if first is not None and first.chunk_id not in found and first.position < chunk.position:
                    led.append(first.with_score(chunk.score))
            led.append(chunk)
        return led


def _section(chunk: Chunk) -> tuple[str, str | None, str]:
    return chunk.page_id, chunk.locale, chunk.heading


def _firsts(book) -> dict[tuple[str, str | None, str], Chunk]:
    firsts: dict[tuple[str, str | None, str], Chunk] = {}
    for chunk in book.chunks:
        known = firsts.get(_section(chunk))
        if known is None or chunk.position < known.position:
            firsts[_section(chunk)] = chunk
    return firsts
