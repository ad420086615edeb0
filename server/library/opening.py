"""Opening the index with its embedding model, chosen before any model is loaded: EMBEDDING_MODEL,
else the model the index was made with, else the one the book about to be ingested calls for
(embedding/choice.py)."""
from __future__ import annotations

from dataclasses import dataclass

from server.embedding.choice import AUTO, BookLanguages, Choice, book_languages, choose, translation_models
from server.embedding.embedder import Embedder, load_embedder
from server.ingest.site import Site
from server.settings import Settings
from server.store import ChunkStore, open_store


@dataclass(frozen=True)
class BookToIndex:
    """What an ingest tells the index about its book before the model is chosen."""

    book_id: str
    languages: BookLanguages
    full: bool = False

    @classmethod
    def of(cls, site: Site, book_id: str, *, full: bool = False) -> "BookToIndex":
        """`full`: the ingest rebuilds the book (a private index of one book, as `eval` and
        `check-book` make, passes True: the model `ingest` would choose for the book alone)."""
        return cls(book_id, book_languages(site.default_locale, site.locales, site.content_root), full)


def open_with_model(settings: Settings, book: BookToIndex | None = None
                    ) -> tuple[Embedder, ChunkStore, Choice, dict[str, Embedder]]:
    """The model and the store, the store told the model's name and size; and the model of each
    locale the index reads with another (a translation read with the multilingual model)."""
    store = open_store(settings, settings.embedding_model, 0)
    try:
        stored = store.built_with()
        alone = bool(book) and book.full and set(store.books()) <= {book.book_id}
        choice = choose(settings.embedding_model, stored, book and book.languages, alone=alone)
        embedder = load_embedder(settings.with_overrides(embedding_model=choice.model))
        if settings.embedding_model != AUTO:
            locales: dict[str, str] = {}
        elif book is not None and (stored is None or alone):  # a new index, or this book's alone
            locales = translation_models(choice.model, book.languages)
        else:
            locales = store.built_locale_models() if stored == choice.model else {}
        models = {model: load_embedder(settings.with_overrides(embedding_model=model), log=lambda _: None)
                  for model in set(locales.values())}
    except BaseException:
        store.close()
        raise
    store.model_name, store.dim, store.locale_models = embedder.model_name, embedder.dim, locales
    return embedder, store, choice, {locale: models[model] for locale, model in locales.items()}
