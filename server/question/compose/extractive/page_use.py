"""An example of a term highlighted on the reader's page: the page's own passage using the term is
the example nearest the reader ("interior mutability" highlighted where `Mutex<T>` provides it), and
opens the answer before the book's other passages on it (answers.py)."""
from __future__ import annotations

from server.question.compose.extractive.piece_scores import Scored
from server.question.context import Source
from server.question.holding import holds

PAGE_USE = 1.0  # over any stretch's words and nearness (opening.py)


def lead_with_page_use(scored: list[Scored], sources: list[Source], page: str | None, term: str | None) -> None:
    """The pieces saying something asked, of the reader's page's passages holding the highlighted
    `term`, lead an opening stretch."""
    if not term or page is None:
        return
    for piece in scored:
        own = sources[piece.unit.source - 1]
        if piece.relevance > 0 and own.source_type == "database" and own.chunk.page_id == page \
                and holds(own.chunk.content, term):
            piece.leads += PAGE_USE
