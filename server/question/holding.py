"""Which of a passage's chunks holds a piece quoted from it: a piece is cited where a reader
finds it (the chunk read on into, or the section of a chunk that runs on under another heading)."""
from __future__ import annotations

import functools

from server.book.chunk import Chunk
from server.text.sentences import normalised


TAIL = 40  # a highlighted passage's last letters, found in the book's sentence that ends it
CODE_LIKE = 0.7  # a short highlight losing more of its letters to normalising is code: held as written


def holds(text: str, passage: str) -> bool:
    """Does a book passage's text hold the highlighted passage (by its end, as the book writes it)?
    A short one that is mostly signs ("Html(..)", "x += 1") is held as written: normalised, it is only
    "html", which every passage of an HTML page holds."""
    words = normalised(passage)
    tail, written = words[-TAIL:], _flat(passage)
    if len(written) <= TAIL and len(words) < CODE_LIKE * len(written):
        return bool(tail) and written in _flat(text)
    return bool(tail) and tail in _normalised_page_text(text)


@functools.lru_cache(maxsize=1024)  # the chunks of the passages asked about again
def _normalised_page_text(text: str) -> str:
    return normalised(text)


@functools.lru_cache(maxsize=1024)
def _flat(text: str) -> str:
    return " ".join(text.split())


def holder(piece: str, chunks: list[Chunk]) -> Chunk | None:
    """Which of a passage's chunks (the retrieved one, then those read on) holds a piece quoted
    from it: the first holding it whole, else (a sentence the chunker cut in two) the one holding
    its opening. A piece is cited where a reader finds it."""
    if not chunks:
        return None
    raw = piece.strip()
    as_written = next((c for c in chunks if raw and raw in c.content), None)  # code, tables: as the book wrote them
    if as_written is not None:
        return as_written
    flat = " ".join(raw.split())  # a sentence as quoted: its paragraph's lines joined
    on_one_line = next((c for c in chunks if flat and flat in _flat(c.content)), None)
    if on_one_line is not None:
        return on_one_line
    wanted = normalised(piece)
    if not wanted:
        return None
    texts = [_normalised_page_text(c.content) for c in chunks]
    whole = next((c for c, text in zip(chunks, texts) if wanted in text), None)
    if whole is not None:
        return whole
    opening = " ".join(wanted.split()[:6])
    return next((c for c, text in zip(chunks, texts) if opening in text), None)
