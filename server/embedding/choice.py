"""Which embedding model reads a book. MiniLM reads English only; multilingual-e5-small reads the
pool's Japanese, Spanish, Chinese and Urdu pages but is worse on English questions, in ranking
and in telling an out-of-scope question apart, and slower (BENCHMARKS.md, "Books in other
languages"). With EMBEDDING_MODEL unset ("auto") an index keeps the model it was made with, and
a new one takes the model its first book's own language calls for: the multilingual one when
the book's default locale is not English, or most of its pages are not in English. A book in
English with a translation keeps MiniLM (most of its readers ask in English), and the pages of
its translations not in English are read with the multilingual model (translation_models: the
index records each locale's model; retrieval searches a locale with its own). Each model has its own similarity gate: e5's
cosines are compressed (an unrelated question scores about 0.8), so MiniLM's 0.30 would let
every question through."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from server.embedding import e5

AUTO = "auto"
OTHER = "pages in another language"  # a book's language, read from its pages (no locale says it)
ENGLISH = "sentence-transformers/all-MiniLM-L6-v2"
MULTILINGUAL = e5.MODEL_NAME
# the similarity gate each model's answers were calibrated with (BENCHMARKS.md): in-book
# questions answered and out-of-scope ones refused over the pool's question sets
THRESHOLDS = {ENGLISH: 0.30, MULTILINGUAL: 0.83}
DEFAULT_THRESHOLD = 0.30
# the gates' other figures (judge/gate.py) are MiniLM cosines; e5's are put on that scale by
# matching the two models' best-passage scores on physical-ai-book's questions (in-book p10 0.465
# and p90 0.718 against 0.866 and 0.920: 4.7 MiniLM per e5), anchored at the two thresholds
SCALES = {MULTILINGUAL: 4.7}
# of a book's sampled pages, not in English: the book is in another language (a book with an
# English default and a translation in the same files reads about half)
OTHER_LANGUAGE_SHARE = 0.6
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


# two questions (both read with the "query: " prefix) score higher in e5 than a question and a
# passage of the same likeness; MiniLM reads both alike (p90, p99 and p99.9 of 12,720 pairs of
# the development sets' questions: 0.007, 0.010, 0.011 higher)
QUESTION_PAIRS = {MULTILINGUAL: 0.01}


def on_gate_scale(model: str, *, two_questions: bool = False) -> Callable[[float], float]:
    """A cosine of `model` on the scale the gates were calibrated in (MiniLM's): of a question and
    a passage, or with `two_questions` of two texts both embedded as questions."""
    slope = SCALES.get(model)
    if slope is None:
        return lambda score: score
    anchor = THRESHOLDS[model] + (QUESTION_PAIRS.get(model, 0.0) if two_questions else 0.0)
    return lambda score: DEFAULT_THRESHOLD + slope * (score - anchor)


@dataclass(frozen=True)
class BookLanguages:
    """What a book is written in, as far as the choice of model goes."""

    own: str | None  # the book's language when not English: its default locale, or OTHER read in its pages
    translations: tuple[str, ...] = ()  # its other locales not in English


def book_languages(default_locale: str, locales: Iterable[str], content_root: Path) -> BookLanguages:
    """The book's own language when it is not English: its default locale, else OTHER when at
    least OTHER_LANGUAGE_SHARE of its sampled pages' prose is not in English (a book whose
    locales are set in a file of their own, or in none); and its non-English translations."""
    from server.text.vocabulary import in_english, other_script_share

    translations = tuple(sorted({locale for locale in locales
                                 if not _english(locale) and locale != default_locale}))
    if not _english(default_locale):
        return BookLanguages(default_locale, translations)
    sampled = other = 0
    pages = sorted([*content_root.rglob("*.md"), *content_root.rglob("*.mdx")])
    for path in pages[:: max(1, len(pages) // SAMPLED_PAGES)][:SAMPLED_PAGES]:
        try:
            text = _MARKUP.sub(" ", path.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        prose = " ".join(text.split()[:SAMPLED_WORDS * 4])
        if not any(ch.isalpha() for ch in prose):
            continue
        sampled += 1
        # another script (a page of JSX around Urdu strings opens with English code words), else the words
        other += other_script_share(text) >= OTHER_SCRIPT_SHARE or not in_english(_opening_words(prose))
    own = OTHER if sampled and other / sampled >= OTHER_LANGUAGE_SHARE else None
    return BookLanguages(own, translations)


def _english(locale: str) -> bool:
    return locale.lower().split("-")[0] == "en"


def _opening_words(prose: str) -> str:
    """The page's first SAMPLED_WORDS words (CJK characters count a word each)."""
    out, count = [], 0
    for token in prose.split():
        out.append(token)
        count += 1 if token.isascii() else max(1, len(token) // 2)
        if count >= SAMPLED_WORDS:
            break
    return " ".join(out)


def choose(configured: str, stored: str | None, languages: BookLanguages | None = None, *,
           alone: bool = False) -> Choice:
    """The model to use. `configured`: EMBEDDING_MODEL; `stored`: the model the index was made
    with (None: no index yet); `languages`: the book being ingested (None: no book, a server
    starting); `alone`: the index holds no other book, so a full ingest may change its model."""
    if configured != AUTO:
        return Choice(configured, "EMBEDDING_MODEL")
    wanted = None
    if languages is not None:
        wanted = MULTILINGUAL if languages.own and e5.packaged(MULTILINGUAL) else ENGLISH
    if stored is None or (wanted is not None and wanted != stored and alone):
        model = wanted or ENGLISH
        why = "no index yet" if wanted is None else (
            f"the book's language: {languages.own}" if languages.own else "the book is in English")
        return Choice(model, why, stored if stored not in (None, model) else None)
    return Choice(stored, "the index was made with it")


def translation_models(model: str, languages: BookLanguages) -> dict[str, str]:
    """The book's translations not in English, each read with the multilingual model, in an index
    whose own model reads English only (physical-ai-i18n's Urdu pages: BENCHMARKS.md)."""
    if model != ENGLISH or not e5.packaged(MULTILINGUAL):
        return {}
    return {locale: MULTILINGUAL for locale in languages.translations}


def model_warnings(languages: BookLanguages, model: str, locale_models: dict[str, str] | None = None) -> list[str]:
    """What `ingest` says when `model` reads English only and the book, or a translation of it, is not."""
    if model == MULTILINGUAL:
        return []
    change = ("EMBEDDING_MODEL=intfloat/multilingual-e5-small (the `multilingual` extra) and ingest again with "
              "--full (and the index's other books)")
    if languages.own:
        return [f"{model} reads English only, and this book is in {languages.own}: set {change}"]
    unread = [locale for locale in languages.translations if locale not in (locale_models or {})]
    if unread:  # an index made before, or with EMBEDDING_MODEL set, keeps its choice
        return [f"the book's {', '.join(unread)} pages are read with {model}, which reads English only: questions "
                f"in those languages find their pages poorly. `ingest --full` of this book alone in its index, "
                f"with EMBEDDING_MODEL unset, reads them with {MULTILINGUAL} and its English pages with {model}"]
    return []
