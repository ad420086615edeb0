"""The book's outline: parts → pages → sections in the reader's order, built at ingest
(ingest/outline.py) and stored with each published index generation.

A part is an outermost sidebar category (a Docusaurus book) or a numbered chapter of
SUMMARY.md (an mdBook); pages outside any part belong to the book itself (its intro).
Everything here is immutable and made from / turned into plain JSON.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from urllib.parse import unquote, urlsplit

# the kinds of block a page may have, found by their headings (ingest/blocks.py); "built": the
# questions made from the page's statements that define or explain, where it asks none itself
BLOCK_KINDS = ("objectives", "prerequisites", "key_terms", "summary", "exercises", "quiz", "built")
# what ingest records in an outline: 2, practice questions with their choices, key, sample
# answer and the section each tests (an outline of an older version has none: re-ingest)
OUTLINE_VERSION = 2


@dataclass(frozen=True)
class Item:
    """A practice question: the book's own (a quiz's, an exercise's), or one made from a statement
    of the page that defines or explains (a block of kind "built")."""

    question: str  # as the book words it (markdown: code stays fenced)
    choices: tuple[str, ...] = ()  # the choices, in order, without their letters
    key: int | None = None  # the right choice's index, when the book's key gives it
    answer: str = ""  # the book's answer: the key's explanation, the sample answer or the solution; "" when none
    tests: str = ""  # the URL of the section the question tests (its anchor), "" when none is known
    tests_heading: str = ""  # that section's heading
    number: str = ""  # as the book numbers it ("3", "Question 3"), "" when it does not

    @property
    def kind(self) -> str:
        return "choice" if len(self.choices) >= 2 else "short"


@dataclass(frozen=True)
class Block:
    kind: str  # one of BLOCK_KINDS
    heading: str
    url: str
    items: tuple[str, ...] = ()  # its list items or questions, in order
    answers: tuple[str, ...] = ()  # quiz: the answer the book gives to each item ("" when none)
    questions: tuple[Item, ...] = ()  # quiz, exercises, built: its practice questions


@dataclass(frozen=True)
class Section:
    heading: str
    url: str  # the page URL with the heading's anchor
    level: int
    key_point: str  # the section's opening sentence


@dataclass(frozen=True)
class OutlinePage:
    key: str  # the page's key in the index (its source file, with locale/version when not the default)
    source_file: str
    url: str
    title: str
    labels: tuple[str, ...]  # breadcrumbs, ending with the page's own label
    name: str  # how a reader tells it apart: its label, qualified by its part when the label repeats
    part: str | None  # the part's id; None for a page of the book itself
    order: int  # in the book's reading order (1-based, per locale and version)
    position: int  # in its part (1-based)
    prev: str | None  # key of the page before, in reading order
    next: str | None
    description: str
    locale: str = "en"
    version: str = "current"
    sections: tuple[Section, ...] = ()
    blocks: tuple[Block, ...] = ()

    @property
    def path(self) -> str:
        return unquote(urlsplit(self.url).path).rstrip("/")

    def blocks_of(self, kind: str) -> list[Block]:
        return [b for b in self.blocks if b.kind == kind]


@dataclass(frozen=True)
class Part:
    id: str
    label: str  # as in the sidebar / SUMMARY.md
    name: str  # as named to a reader: "Chapter 10: Generic Types, Traits, and Lifetimes"
    noun: str  # what the book calls it ("module", "chapter"), "" when its label says nothing
    number: int | None
    position: int  # among the parts (1-based)
    index_page: str | None  # key of the part's own page (category index / chapter page)
    pages: tuple[str, ...] = ()  # keys, in reading order


@dataclass(frozen=True)
class Outline:
    book_id: str
    title: str
    parts: tuple[Part, ...] = ()
    pages: tuple[OutlinePage, ...] = ()
    version: int = 1  # what ingest recorded (OUTLINE_VERSION when it was written)
    _by_key: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._by_key.update({p.key: p for p in self.pages})

    # --- looking things up ---------------------------------------------------------------
    def page(self, key: str | None) -> OutlinePage | None:
        return self._by_key.get(key) if key else None

    def part(self, part_id: str | None) -> Part | None:
        return next((p for p in self.parts if p.id == part_id), None) if part_id else None

    def part_of(self, page: OutlinePage) -> Part | None:
        return self.part(page.part)

    def pages_of(self, part: Part) -> list[OutlinePage]:
        return [self._by_key[k] for k in part.pages if k in self._by_key]

    def book_pages(self, locale: str | None = None) -> list[OutlinePage]:
        """The pages outside any part (the book's intro), of the default locale unless asked."""
        return [p for p in self.pages if p.part is None and p.locale == (locale or self.default_locale)
                and p.version == "current"]

    @property
    def default_locale(self) -> str:
        return self.pages[0].locale if self.pages else "en"

    def intro(self) -> OutlinePage | None:
        """The page that introduces the book: its first page outside any part, else its first."""
        own = self.book_pages()
        return own[0] if own else (self.pages[0] if self.pages else None)

    def parts_in(self, locale: str | None = None) -> list[Part]:
        wanted = locale or self.default_locale
        return [p for p in self.parts if p.pages and self._by_key[p.pages[0]].locale == wanted]

    # --- JSON ----------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {"book_id": self.book_id, "title": self.title, "version": self.version,
                "parts": [asdict(p) for p in self.parts], "pages": [asdict(p) for p in self.pages]}

    @classmethod
    def from_dict(cls, data: dict) -> "Outline":
        parts = tuple(Part(**{**p, "pages": tuple(p.get("pages", ()))}) for p in data.get("parts", []))
        pages = tuple(OutlinePage(**{
            **p, "labels": tuple(p.get("labels", ())),
            "sections": tuple(Section(**s) for s in p.get("sections", [])),
            "blocks": tuple(_block(b) for b in p.get("blocks", []))}) for p in data.get("pages", []))
        return cls(book_id=data.get("book_id", ""), title=data.get("title", ""), parts=parts, pages=pages,
                   version=int(data.get("version", 1)))


def _block(data: dict) -> Block:
    questions = tuple(Item(**{**q, "choices": tuple(q.get("choices", ()))}) for q in data.get("questions", ()))
    return Block(**{**data, "items": tuple(data.get("items", ())), "answers": tuple(data.get("answers", ())),
                    "questions": questions})
