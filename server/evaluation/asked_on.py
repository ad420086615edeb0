"""Where a question set's questions are asked from: no page (the figures' default), the page that
answers them (`gold`: a student asking about the page they read), or the page after it in the
book's reading order (`next`: a student asking about another page than the one open). Together
they measure what the reader's page weighs in retrieval (question/gather/reader_page.py)."""
from __future__ import annotations

import re
from typing import Callable

from server.book.outline import Outline

# a translated page's source file: relative to its locale's docs folder
_TRANSLATION = re.compile(r"^i18n/[^/]+/docusaurus-plugin-content-docs/(?:current|version-[^/]+)/")


def gold_path(source_file: str) -> str:
    """A page's source file as a question set's gold_docs name it (a translation by its original's)."""
    return _TRANSLATION.sub("", source_file)

ASKED_ON = ("gold", "next")


def page_of_item(outline: Outline | None, where: str | None, locale: str | None = None) -> Callable[[dict], str]:
    """The URL of the page an item is asked on ("" for none: no outline, no such page), among the
    pages of the reader's `locale` (the Urdu set on the Urdu pages; the default locale's without one)."""
    if outline is None or where not in ASKED_ON:
        return lambda item: ""
    pages = [p for p in outline.pages if p.locale == (locale or outline.default_locale) and p.version == "current"]
    by_file = {gold_path(p.source_file): p for p in pages}  # gold_docs name a translation by its original
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
