"""Polite refusals that point the reader somewhere useful."""
from __future__ import annotations

from ..models import Chunk


def book_refusal(book_title: str, nearest: list[Chunk], unknown_terms: list[str] | None = None) -> str:
    where = f"the book *{book_title}*" if book_title else "the book"
    if unknown_terms:
        names = ", ".join(f"“{t}”" for t in unknown_terms[:3])
        text = f"The book{f' *{book_title}*' if book_title else ''} never mentions {names}, so I can't answer this from it."
    else:
        text = f"I couldn't find this in {where}, so I won't guess."
    if nearest:
        names = "; ".join(f"[{c.source_location}]({c.url})" if c.url.startswith("http") else c.source_location
                          for c in nearest)
        text += f" The closest sections are: {names}."
    return text + " Try rephrasing, or ask about something the book covers."


def selection_refusal(combined_available: bool = True) -> str:
    text = "The highlighted passage doesn't answer this question."
    if combined_available:
        text += " Choose “this passage and the book” to search the whole book."
    return text
