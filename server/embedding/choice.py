"""Which embedding model reads a book. MiniLM reads English only; multilingual-e5-small reads the
pool's Japanese, Spanish, Chinese and Urdu pages but is worse on English books and slower
(BENCHMARKS.md, "Books in other languages"). With EMBEDDING_MODEL unset ("auto") an index keeps
the model it was made with, and a new one takes the model its first book calls for: the
multilingual one when the book declares a locale other than English or enough of its pages are
in another language. Each model has its own similarity gate: e5's cosines are compressed (an
unrelated question scores about 0.8), so MiniLM's 0.30 would let every question through."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from server.embedding import e5

AUTO = "auto"
OTHER = "pages in another language"  # what book_languages says of pages it reads as not English
ENGLISH = "sentence-transformers/all-MiniLM-L6-v2"
MULTILINGUAL = e5.MODEL_NAME
# the similarity gate each model's answers were calibrated with (BENCHMARKS.md): in-book
# questions answered and out-of-scope ones refused over the pool's question sets
THRESHOLDS = {ENGLISH: 0.30, MULTILINGUAL: 0.82}
DEFAULT_THRESHOLD = 0.30
OTHER_LANGUAGE_SHARE = 0.2  # of a book's sampled pages, not in English: the book calls for the multilingual model
OTHER_SCRIPT_SHARE = 0.3  # of a page's letters: the page is in another script
SAMPLED_PAGES = 60
SAMPLED_WORDS = 80
_MARKUP = re.compile(r"```.*?```|<[^>]*>|\{[^{}]*\}|^[ \t]*(import|export)\b[^\n]*$|https?://\S+", re.DOTALL | re.MULTILINE)


@dataclass(frozen=True)
class Choice:
    """The model an index uses, and why (said by `ingest`)."""

    model: str
    reason: str
    replaces: str | None = None  # the index's model this choice replaces (its books are embedded again)


def threshold_for(model: str, configured: float | None = None) -> float:
    """The similarity gate: SIMILARITY_THRESHOLD when set, else the one calibrated for `model`."""
    return configured if configured is not None else THRESHOLDS.get(model, DEFAULT_THRESHOLD)


def reads_any_language(model: str) -> bool:
    return model == MULTILINGUAL


def book_languages(locales: Iterable[str], content_root: Path) -> tuple[str, ...]:
    """What calls for a model other than English: the book's declared locales that are not
    English, and "other" when at least OTHER_LANGUAGE_SHARE of its sampled pages' prose is not
    in English (a book whose locales are set in a file of their own, or in none)."""
    from server.text.vocabulary import in_english

    declared = tuple(sorted({locale for locale in locales if not locale.lower().startswith("en")}))
    sampled = other = 0
    pages = sorted([*content_root.rglob("*.md"), *content_root.rglob("*.mdx")])
    for path in pages[:: max(1, len(pages) // SAMPLED_PAGES)][:SAMPLED_PAGES]:
        try:
            text = _MARKUP.sub(" ", path.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        prose = " ".join(" ".join(text.split()).split(" ")[:SAMPLED_WORDS * 4])
        if not any(ch.isalpha() for ch in prose):
            continue
        letters = [ch for ch in text if ch.isalpha()]
        sampled += 1
        # another script (a page of JSX around Urdu strings opens with English code words), else the words
        other += sum(not ch.isascii() for ch in letters) >= OTHER_SCRIPT_SHARE * len(letters) \
            or not in_english(_opening_words(prose))
    if sampled and other / sampled >= OTHER_LANGUAGE_SHARE:
        declared += (OTHER,)
    return declared


def _opening_words(prose: str) -> str:
    """The page's first SAMPLED_WORDS words (CJK characters count a word each)."""
    out, count = [], 0
    for token in prose.split():
        out.append(token)
        count += 1 if token.isascii() else max(1, len(token) // 2)
        if count >= SAMPLED_WORDS:
            break
    return " ".join(out)


def choose(configured: str, stored: str | None, languages: tuple[str, ...] | None = None, *,
           alone: bool = False) -> Choice:
    """The model to use. `configured`: EMBEDDING_MODEL; `stored`: the model the index was made
    with (None: no index yet); `languages`: what the book being ingested calls for (None: no
    book, a server starting); `alone`: the index holds no other book, so a full ingest may
    change its model."""
    if configured != AUTO:
        return Choice(configured, "EMBEDDING_MODEL")
    wanted = None
    if languages is not None:
        wanted = MULTILINGUAL if languages and e5.packaged(MULTILINGUAL) else ENGLISH
    if stored is None or (wanted is not None and wanted != stored and alone):
        model = wanted or ENGLISH
        why = (f"the book's languages: {', '.join(languages)}" if languages else "the book is in English") \
            if wanted else "no index yet"
        return Choice(model, why, stored if stored not in (None, model) else None)
    return Choice(stored, "the index was made with it")
