"""The one place that builds the product's parts and wires them together, for the app
factory, the CLI and the tests: build, warm up, after a fork, close."""
from __future__ import annotations

import logging
import threading
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator

from server.library.shelf import Bookshelf
from server.library.published import PublishedBook, PublishedOutlines
from server.course.service import Course
from server.course.practice import PracticeStage
from server.course.practice.hints import Tutor
from server.course.practice.tutoring import Tutoring
from server.course.stage import CourseStage
from server.embedding.choice import Choice, on_gate_scale, threshold_for
from server.embedding.embedder import Embedder
from server.library.opening import BookToIndex, open_with_model
from server.errors import TextbookChatError
from server.index_size import IndexSize
from server.insights.asked import Keeping
from server.insights.pages import PageFinder
from server.book.chunk import Chunk
from server.question.compose.generator import Generator
from server.question.compose import Compose
from server.question.gather import Gather
from server.question.judge import Judge
from server.question.pipeline import ChatPipeline
from server.question.record import Record
from server.question.route import Passages
from server.question.gather.openings import SectionOpenings
from server.question.gather.reader_page import ReaderPages
from server.question.gather.retrieval import Retriever
from server.question import Question
from server.question.understand import KnownBooks, Rewriter, Understand
from server.question.compose.extractive.page_order import PageOrder
from server.text.vocabulary import StoreVocabulary
from server.sessions import SessionStore, default_server_name
from server.settings import Settings
from server.store import ChunkStore, open_store

log = logging.getLogger("textbook_chat.index")


@dataclass
class Index:
    """The embedding model and the store of the books' chunks, with what every part reads of
    the store through one cache: its size, and the books as published (`outlines`: each book's
    outline and chunks, read from the store by it alone). The course path, the book tools, the
    pages questions are asked on, the extractive answer's reading order and the books' words
    (the vocabulary that understanding, the retriever's re-ranking and the extractive
    generator all read) are made from it."""

    embedder: Embedder
    store: ChunkStore
    choice: Choice | None = None  # which model, and why (None: the embedder given as is)
    # the locales read with another model (a translation with the multilingual one), and it
    locale_embedders: dict[str, Embedder] = field(default_factory=dict)
    size: IndexSize = field(init=False)
    vocabulary: StoreVocabulary = field(init=False)
    outlines: PublishedOutlines = field(init=False)

    def __post_init__(self):
        self.size = IndexSize(self.store)
        self.outlines = PublishedOutlines(self.store)
        self.vocabulary = StoreVocabulary(self.outlines.books, self.book)
        self._forgets: list[Callable[[], None]] = [self.size.forget, self.outlines.forget]
        self._following = threading.Lock()
        self._followed = self._generation()  # what is kept from now on is at least this new

    def on_follow(self, forget: Callable[[], None]) -> None:
        """Call `forget` (a cache of what the store held) whenever a newer publication is followed."""
        self._forgets.append(forget)

    def follow(self) -> None:
        """Read the newest publication from now on, if there is a newer one than this process
        last followed: its replica opened and every view of the books read again before use.
        Called before each request (app.py) and MCP tool call, in every process, so that the
        next question after an ingest or a `remove-book` is answered from what they published.
        The check is one stat() of a marker file (embedded index) or one point read by id (Qdrant
        server); only a change costs more (the replica's copy, the books read again)."""
        mark = self._generation()
        if mark == self._followed:
            return
        with self._following:
            if mark == self._followed:
                return  # another thread followed it meanwhile
            try:
                self.store.refresh()
            except (TextbookChatError, OSError):  # the old replica serves; the next request tries again
                log.warning("could not open the newest publication of the index", exc_info=True)
                return
            for forget in self._forgets:
                forget()
            self._followed = mark

    def _generation(self) -> object:
        try:
            return self.store.generation()
        except TextbookChatError:  # the store is down: the request meets it its own way
            return self._followed if hasattr(self, "_followed") else None

    def book(self, book_id: str) -> PublishedBook:
        """The book as the index publishes it now: its chunks and outline, and every view made
        of them (`PublishedBook.view`), made again only when a newer ingest publishes another."""
        return self.outlines.book(book_id)

    def close(self) -> None:
        self.store.close()


def open_index(settings: Settings, *, store_check: bool = True, book: BookToIndex | None = None) -> Index:
    """The index with its model: EMBEDDING_MODEL, else the one the index was made with, else the
    one `book` (about to be ingested) calls for (library/opening.py)."""
    embedder, store, choice, locale_embedders = open_with_model(settings, book)
    if store_check:
        store.check_compatible()
    return Index(embedder, store, choice, locale_embedders)


@contextmanager
def index_of(settings: Settings, *, store_check: bool = True, book: BookToIndex | None = None) -> Iterator[Index]:
    with closing(open_index(settings, store_check=store_check, book=book)) as index:
        yield index


@contextmanager
def bookshelf_of(settings: Settings) -> Iterator[Bookshelf]:
    """The indexed books' outlines alone, from the index's payloads (no model is loaded)."""
    store = open_store(settings, settings.embedding_model, 0)
    try:
        yield Bookshelf(PublishedOutlines(store))
    finally:
        store.close()


def make_generator(settings: Settings, index: Index) -> tuple[Generator, Rewriter | None]:
    """Gemini with the extractive generator as its fallback when a key is set; else extractive alone.
    Also the follow-up rewriter, which shares Gemini's client (and so its view of the key)."""
    from server.question.compose.extractive import ExtractiveGenerator

    order = PageOrder(index.book)
    extractive = ExtractiveGenerator(index.embedder, index.vocabulary, order.after, order.before)
    if not settings.gemini_api_key:
        return extractive, None
    from server.question.compose.fallback import WithFallback
    from server.question.compose.gemini import GeminiClient, GeminiGenerator, GeminiRewriter

    client = GeminiClient(settings)
    return WithFallback(GeminiGenerator(settings, client), extractive, label="Gemini"), GeminiRewriter(client)


@dataclass
class BookSearch:
    """How a question finds the book's passages, for /chat and `textbook-chat ask` alike: it is
    understood (spelling, follow-ups), then the dense candidates are re-ranked by its words."""

    retriever: Retriever
    understand: Understand
    gather: Gather
    course: Course | None = None  # the book as a course: its outline, the page a question is asked on

    @classmethod
    def build(cls, index: Index, rewriter: Rewriter | None = None, *, course: bool = False) -> "BookSearch":
        """`course`: questions about the book, a part or the page are told apart too."""
        retriever = Retriever(index.store, index.embedder, lexicon=index.vocabulary,
                              locale_embedders=index.locale_embedders, openings=SectionOpenings(index.book),
                              pages=ReaderPages(index.book))
        book_course = Course(index.outlines, index.embedder, retriever) if course else None
        known = KnownBooks(index.store.count)
        index.on_follow(known.forget)  # a removed book is unknown from the next question on
        understand = Understand(index.embedder, index.vocabulary, known, rewriter=rewriter, course=book_course,
                                pages=retriever.pages)
        return cls(retriever, understand, Gather(retriever, index.embedder), book_course)

    def passages(self, question: Question) -> list[Chunk]:
        """The book's passages for a question without a conversation, best first, before any
        gate. Raises UnknownBook."""
        self.understand.require_book(question)
        return list(self.gather(self.understand(question, ())).candidates)


def open_sessions(settings: Settings) -> SessionStore:
    return SessionStore(settings.sqlalchemy_url, server=settings.server_name or default_server_name(settings.data_dir),
                        retention_days=settings.retention_days)


@dataclass
class Components:
    """Everything answering a question needs, built once per process."""

    settings: Settings
    index: Index
    sessions: SessionStore
    generator: Generator
    pipeline: ChatPipeline
    owns_index: bool = True
    bookshelf: Bookshelf = field(default=None)  # the books' outlines and pages' text (llms.txt, MCP tools)
    retriever: Retriever = field(default=None)  # the pipeline's own, for tools that only search
    search: BookSearch = field(default=None)  # the pipeline's understanding and gathering, as `ask` uses them
    pages: PageFinder = field(default=None)  # the indexed page a URL names (where questions were asked)

    @classmethod
    def build(cls, settings: Settings, *, index: Index | None = None, generator: Generator | None = None,
              rewriter: Rewriter | None = None, store_check: bool = True,
              book: BookToIndex | None = None) -> "Components":
        """`index`, when given, stays the caller's (close() leaves it open). A `generator` given
        replaces the configured one (and its rewriter, unless one is given too). `book`: the book
        about to be ingested, when the index's model is yet to be chosen (open_index)."""
        owns_index = index is None
        index = index or open_index(settings, store_check=store_check, book=book)
        if generator is None:
            generator, rewriter = make_generator(settings, index)
        sessions = open_sessions(settings)
        search = BookSearch.build(index, rewriter, course=True)
        retriever, course = search.retriever, search.course
        course.quizzes = sessions.practice_of  # a quiz posed earlier in the conversation, on any server
        # a language model reads borderline questions itself (it can answer NOT_IN_BOOK); the
        # extractive generator cannot tell, so the gates decide for it
        pages = PageFinder(index.outlines.books, index.book)  # where questions are asked
        passages = Passages(search.gather, Judge(model_judges=generator.name != "extractive",
                                                 scale=on_gate_scale(index.embedder.model_name)),
                            Compose(generator, retriever))
        pipeline = ChatPipeline(
            search.understand, [PracticeStage(course, generator, sessions.practice_of,
                                              Tutoring(Tutor(course, index.embedder), passages, search.understand)),
                                CourseStage(course, generator), passages],
            Record(sessions, keep=Keeping(pages, embed=index.embedder.embed_query)))
        return cls(settings, index, sessions, generator, pipeline, owns_index,
                   bookshelf=Bookshelf(index.outlines), retriever=retriever, search=search, pages=pages)

    @property
    def embedder(self) -> Embedder:
        return self.index.embedder

    @property
    def threshold(self) -> float:
        """The similarity gate: SIMILARITY_THRESHOLD, else the one calibrated for the index's model."""
        return threshold_for(self.embedder.model_name, self.settings.similarity_threshold)

    @property
    def store(self) -> ChunkStore:
        return self.index.store

    @property
    def index_size(self) -> IndexSize:
        return self.index.size

    @property
    def vocabulary(self) -> StoreVocabulary:
        return self.index.vocabulary

    def warm_up(self) -> None:
        """Load what the first question would otherwise wait for: the book's vocabulary, the
        English word list behind the unknown-term gate, the index's pages (where questions are
        asked) and the model's first run."""
        self.index_size.get(fresh=True)
        self.vocabulary.warm_up()
        self.pages.page_of("/")
        self.embedder.embed_query("warm-up")
        for route in self.pipeline.routes:  # the course's task descriptions and the book's outline
            route.warm_up()

    def before_fork(self) -> None:
        """In the process about to fork workers, after warming up: let go of the index shard
        (an embedded shard does not survive a fork; each worker opens its own replica) and of
        every database connection and lock. SQLite keeps its file locks per process: a
        connection the workers inherited would leave the master holding them, and when it died
        another process could take the database for unused and lose the workers' writes."""
        self.store.before_fork()
        self.sessions.close()

    def after_fork(self) -> None:
        """In a forked worker process: connections and index replica of its own. The model
        (loaded with one thread, so no thread pool to lose in the fork) is shared."""
        self.sessions.after_fork()
        self.store.after_fork()

    def leave_worker(self) -> None:
        """A worker about to end: its index replica is removed and its database connections
        closed (the model is the parent's)."""
        self.store.close()
        self.sessions.close()

    def close(self) -> None:
        self.sessions.close()
        if self.owns_index:
            self.index.close()


@contextmanager
def components(settings: Settings, **options) -> Iterator[Components]:
    built = Components.build(settings, **options)
    try:
        yield built
    finally:
        built.close()
