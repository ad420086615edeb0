"""Where a question set's questions are asked from: no page (the figures' default), the page that
answers them (`gold`: a student asking about the page they read), or the page after it in the
book's reading order (`next`: a student asking about another page than the one open). Together
they measure what the reader's page weighs in retrieval (question/gather/reader_page.py)."""
from __future__ import annotations

from typing import Callable

from server.book.outline import Outline

ASKED_ON = ("gold", "next")


def page_of_item(outline: Outline | None, where: str | None) -> Callable[[dict], str]:
    """The URL of the page an item is asked on ("" for none: no outline, no such page)."""
    if outline is None or where not in ASKED_ON:
        return lambda item: ""
    pages = [p for p in outline.pages if p.locale == outline.default_locale and p.version == "current"]
    by_file = {p.source_file: p for p in pages}
    by_key = {p.key: p for p in pages}

    def url(item: dict) -> str:
        gold = next((by_file[d] for d in item.get("gold_docs", []) if d in by_file), None)
        if gold is None:
            return ""
        if where == "gold":
            return gold.url
        other = by_key.get(gold.next or "") or by_key.get(gold.prev or "")
        return other.url if other is not None and other.source_file not in item["gold_docs"] else ""
    return url
