"""Polite refusals that point the reader somewhere useful."""
from __future__ import annotations

from server.book.chunk import Chunk


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


def selection_refusal(question: str = "", book_may_answer: bool = True) -> str:
    asked = " ".join(question.split())
    asked = f"“{asked[:140]}{'…' if len(asked) > 140 else ''}”" if asked else "this question"
    text = f"The highlighted passage doesn't cover {asked}."
    if book_may_answer:
        text += " The rest of the book may: search the whole book instead."
    else:
        text += " Nothing else in the book seems to either."
    return text
