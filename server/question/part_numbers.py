"""Source numbers for what an answer quotes from the parts of its passages. A chunk that runs on
under further headings (Chunk.parts) is cited, for what is quoted from a later part, as that
part: its own heading and link, a source numbered after the retrieved ones; a chunk read on
into is cited as itself the same way."""
from __future__ import annotations

from server.book.chunk import Chunk
from server.question.holding import holder
from server.question.context import Source


class PartNumbers:
    def __init__(self, sources: list[Source]):
        self._count = len(sources)
        self._numbers = {(s.chunk.chunk_id, s.chunk.url): n for n, s in enumerate(sources, 1)
                         if s.source_type == "database"}
        self._sections: dict[str, list[Chunk]] = {}  # a chunk cut at its headings once, however many pieces it gives
        self.extra: list[Chunk] = []  # the parts cited that are no source of their own, numbered after the sources

    def number(self, chunk: Chunk, text: str) -> int:
        """The number `text`, quoted from `chunk`, is cited with."""
        if chunk.chunk_id not in self._sections:
            self._sections[chunk.chunk_id] = chunk.sections()
        place = holder(text, self._sections[chunk.chunk_id]) or chunk
        key = (chunk.chunk_id, place.url)
        if key not in self._numbers:
            self.extra.append(place)
            self._numbers[key] = self._count + len(self.extra)
        return self._numbers[key]
