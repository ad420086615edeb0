"""IEEE-style reference strings for chunks."""
from __future__ import annotations


def ieee_citation(heading: str, book_title: str, chapter: str, url: str, number: int | None = None) -> str:
    """`[1] "Topics," in *Book*, ch. "Nodes, Topics, and Services". [Online]. Available: URL`."""
    prefix = f"[{number}] " if number is not None else ""
    parts = [f'{prefix}"{heading}," in *{book_title}*']
    if chapter and chapter != heading:
        parts.append(f', ch. "{chapter}"')
    text = "".join(parts) + "."
    if url:
        text += f" [Online]. Available: {url}"
    return text


def source_location(categories: list[str], chapter: str, headings: list[str]) -> str:
    """"Module 1 › Nodes, Topics, and Services › Topics", with repeats removed."""
    parts: list[str] = []
    for part in [*categories, chapter, *headings]:
        if part and (not parts or parts[-1] != part):
            parts.append(part)
    return " › ".join(parts)
