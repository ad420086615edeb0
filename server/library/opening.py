"""Opening the index with its embedding model, chosen before any model is loaded: EMBEDDING_MODEL,
else the model the index was made with, else the one the book about to be ingested calls for
(embedding/choice.py)."""
from __future__ import annotations

from dataclasses import dataclass

from server.embedding.choice import BookLanguages, Choice, book_languages, choose
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


def open_with_model(settings: Settings, book: BookToIndex | None = None) -> tuple[Embedder, ChunkStore, Choice]:
    """The model and the store, the store told the model's name and size."""
    store = open_store(settings, settings.embedding_model, 0)
    try:
        choice = choose(settings.embedding_model, store.built_with(), book and book.languages,
                        alone=bool(book) and book.full and set(store.books()) <= {book.book_id})
        embedder = load_embedder(settings.with_overrides(embedding_model=choice.model))
    except BaseException:
        store.close()
        raise
    store.model_name, store.dim = embedder.model_name, embedder.dim
    return embedder, store, choice
