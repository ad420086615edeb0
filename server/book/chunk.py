"""The Chunk: one retrievable passage of a book, with everything needed to cite it."""
from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass, field, replace

from server.book.citation import ieee_citation, source_location

# Fixed namespace so a chunk's id depends only on where it is in the book.
_CHUNK_NAMESPACE = uuid.UUID("5b0c7f0e-9a53-4c1e-9b1a-6f0b6d8a2c11")


def top_section(path: list[str]) -> str:
    """The section a heading path stands in: its page's second-level heading (subsections are their
    section's), or the page itself for its opening ("" for no path)."""
    return path[1] if len(path) > 1 else path[0] if path else ""


def chunk_uuid(book_id: str, source_file: str, heading_path: list[str], position: int) -> str:
    key = "\x1f".join([book_id, source_file, *heading_path, str(position)])
    return str(uuid.uuid5(_CHUNK_NAMESPACE, key))


@dataclass
class Chunk:
    chunk_id: str
    book_id: str
    book_title: str
    content: str  # readable markdown shown to readers and the generator
    content_hash: str  # of the text that was embedded
    source_file: str
    url: str
    module: str
    chapter: str
    section: str
    heading: str
    section_hierarchy: list[str]
    page: int
    source_location: str
    citation: str
    file_hash: str
    embed_text: str = ""  # content with its heading path, what the model reads
    token_count: int = 0
    created_at: str = ""
    updated_at: str = ""
    score: float = 0.0
    path_prefixes: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)  # breadcrumbs the reader sees, ending with the page's label
    locale: str = "en"
    version: str = "current"  # the docs version; "current" when the book is not versioned
    page_key: str = ""  # the page's key for incremental ingest (source_file unless locale/version differ)
    position: int = 0  # the chunk's place in its page, so that a page can be read back in order
    # a chunk that runs on under further headings (small sections are merged): where each starts
    # in `content` ({"at", "titles", "anchor"}), so that what is quoted from it is cited there
    parts: list[dict] = field(default_factory=list)

    def payload(self) -> dict:
        data = asdict(self)
        data.pop("score")
        data.pop("chunk_id")
        return data

    @classmethod
    def from_payload(cls, chunk_id: str, payload: dict, score: float = 0.0) -> "Chunk":
        known = {k: v for k, v in payload.items() if k in cls.__dataclass_fields__}
        return cls(chunk_id=str(chunk_id), score=score, **known)

    def headings(self) -> list[str]:
        """Its heading, and those of the sections it runs on under."""
        return [self.heading, *(part["titles"][-1] for part in self.parts if part["titles"])]

    @property
    def page_id(self) -> str:
        """The page it stands on: its key, or its source file where the index recorded no key."""
        return self.page_key or self.source_file

    def sections(self) -> list["Chunk"]:
        """The chunk cut at the headings it runs on under, each piece labelled and linked as its
        own section; the chunk itself when it holds one section."""
        if not self.parts:
            return [self]
        page_url = self.url.split("#", 1)[0]
        cuts = [part["at"] for part in self.parts] + [len(self.content)]
        pieces = [replace(self, content=self.content[:cuts[0]].strip(), parts=[])]
        for part, end in zip(self.parts, cuts[1:]):
            titles, anchor = list(part["titles"]), part["anchor"]
            url = f"{page_url}#{anchor}" if anchor else page_url
            heading = titles[-1] if titles else self.chapter
            pieces.append(replace(
                self, content=self.content[part["at"]:end].strip(), parts=[], url=url, heading=heading,
                section=titles[0] if titles else self.chapter, section_hierarchy=[self.chapter, *titles],
                source_location=source_location(self.labels[:-1], self.labels[-1] if self.labels else self.chapter,
                                                titles),
                citation=ieee_citation(heading, self.book_title, self.chapter, url)))
        return [piece for piece in pieces if piece.content]

    def with_score(self, score: float) -> "Chunk":
        """A shallow copy with another score (dataclasses.replace runs __init__, 20 times slower)."""
        scored = object.__new__(Chunk)
        scored.__dict__.update(self.__dict__)
        scored.score = score
        return scored



def pages_in_order(book) -> dict[str, list[Chunk]]:
    """A published book's chunks (`book.chunks`), page by page (its key), each page in reading order."""
    pages: dict[str, list[Chunk]] = {}
    for chunk in book.chunks:
        pages.setdefault(chunk.page_id, []).append(chunk)
    for page in pages.values():
        page.sort(key=lambda c: c.position)
    return pages
