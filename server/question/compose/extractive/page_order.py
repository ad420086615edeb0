"""The chunks after a passage on its page, in reading order, so that a passage can be read on
into them (continuation.py): a few chunks, and the words that finish a sentence the last of them
cuts ("- Because `RefCell<T>` allows … you can" goes on "mutate the value … immutable.")."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from server.book.chunk import Chunk, pages_in_order
from server.question.compose.extractive.continuation import ENDED, SENTENCE_END, begun, going_on

READ_ON = 3  # chunks read after a retrieved one (measured: BENCHMARKS.md, "Answers that contain the answer")
FINISH = 2  # chunks, at most, whose opening finishes a sentence the last one read cuts


class PageOrder:
    """The chunks of each page in reading order. `book_of(book_id)` gives a book as the index
    publishes it (library/published.py): its pages are put in order once per published book (`view`)."""

    def __init__(self, book_of: Callable[[str], object], count: int = READ_ON):
        self.book_of = book_of
        self.count = count

    def after(self, chunk: Chunk) -> list[Chunk]:
        """The next `count` chunks of the chunk's page (none for a chunk the index does not hold),
        then, when the last of them ends mid-sentence, the opening of the next up to the sentence's
        end."""
        page, i = self._place(chunk)
        taken = page[i + 1:i + 1 + self.count]
        if not taken:
            return taken
        return taken + finishing(taken[-1], page[i + 1 + self.count:i + 1 + self.count + FINISH])

    def before(self, chunk: Chunk) -> Chunk | None:
        """The beginning of the sentence the chunk opens inside of, at the end of the chunk before
        it on its page (continuation.begun); None for a chunk opening on a sentence of its own."""
        page, i = self._place(chunk)
        return begun(page[i - 1], chunk) if i > 0 else None

    def _place(self, chunk: Chunk) -> tuple[list[Chunk], int]:
        """The chunk's page in reading order and where the chunk is on it (no page: not in the index)."""
        return self.book_of(chunk.book_id).view(_places).get(chunk.chunk_id, ([], 0))


def finishing(last: Chunk, more: list[Chunk]) -> list[Chunk]:
    """The openings of the chunks after `last`, up to where the sentence it cuts ends: chunks of
    their own (an id of their own), so that the rest of each stays another passage's to read."""
    found = []
    for after in more:
        if ENDED.search(last.content):
            break
        text = after.content
        start = len(text) - len(going_on(last.content, text))  # past the end of `last` it repeats
        sentence = SENTENCE_END.search(text, start)
        paragraph = text.find("\n\n", start)
        end = min(sentence.end() if sentence else len(text), paragraph if paragraph >= 0 else len(text))
        found.append(replace(after, chunk_id=f"{after.chunk_id}:opening", content=text[:end]))
        if end < len(text):
            break
        last = after
    return found


def _places(book) -> dict[str, tuple[list[Chunk], int]]:
    places = {}
    for page in pages_in_order(book).values():
        places.update((c.chunk_id, (page, i)) for i, c in enumerate(page))
    return places
