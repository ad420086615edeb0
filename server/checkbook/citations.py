"""Whether an answer's citations say where its words are: the text quoted before each `[n]`
stands under the heading that source n's URL anchor names (read from the build's HTML when the
book was read from one, else from its sources), and the markers are numbered 1, 2, 3 … in the
order they are first used (IEEE), the sources listed in that order."""
from __future__ import annotations

import re
from dataclasses import dataclass

from server.ingest.sections import reading_sections
from server.question import markers
from server.text.emphasis import as_rendered
from server.text.sentences import strip_markdown
from server.text.lengths import spaced_length

_BOLD_LINE = re.compile(r"^\s*\*\*[^*\n]+\*\*\s*$", re.M)
_WORD = re.compile(r"\w+", re.UNICODE)
PIECE_WORDS = 12  # the first words of a quoted piece, looked for in its section


def words(text: str) -> list[str]:
    """Its words, the markdown's marks left out (an answer quotes "_trait_" as "*trait*")."""
    return _WORD.findall(as_rendered(strip_markdown(text)).lower())


@dataclass(frozen=True)
class Placement:
    marker: int
    piece: str
    url: str
    placed: bool  # found under the anchor's heading


class BookSections:
    """Each page's sections, by page URL: (the anchors of its heading path, its words)."""

    def __init__(self, pages):
        self.pages: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for page in pages:
            self.pages[page.url.rstrip("/")] = [
                (tuple(anchor for _, _, anchor in section.headings if anchor),
                 " ".join(words(" \n".join([*section.titles[-1:], *(b.text for b in section.blocks)]))))
                for section in reading_sections(page)]

    def where(self, url: str, piece: str) -> bool | None:
        """True: the piece is under the URL's heading; False: elsewhere on its page; None: not
        on the page at all (words of the answer's own, which no citation places)."""
        page, _, anchor = url.partition("#")
        sections = self.pages.get(page.rstrip("/"))
        wanted = " ".join(words(piece)[:PIECE_WORDS])
        if not sections or spaced_length(wanted) < 3:
            return None
        anchor = anchor.split(":~:", 1)[0]
        under = [text for anchors, text in sections if not anchor or anchor in anchors]
        if any(wanted in text for text in under):
            return True
        return False if any(wanted in text for _, text in sections) else None


def quoted_pieces(answer: str) -> list[tuple[int, str]]:
    """(n, the text quoted just before marker [n]): its last paragraph, headings left out."""
    hidden = markers.CODE.sub(lambda m: re.sub(r"[\[\]]", " ", m.group(0)), answer)  # no marker inside code
    pieces, start = [], 0
    for found in markers.MARKER.finditer(hidden):
        before = _BOLD_LINE.sub("", answer[start:found.start()])
        paragraphs = [p for p in re.split(r"\n\s*\n", before) if p.strip()]
        if paragraphs:
            pieces.append((int(found.group(1)), paragraphs[-1]))
        start = found.end()
    return pieces


def placements(answer: str, sources: list[dict], book: BookSections) -> list[Placement]:
    found = []
    for n, piece in quoted_pieces(answer):
        if 1 <= n <= len(sources) and sources[n - 1].get("source_type") == "database":
            placed = book.where(sources[n - 1]["url"], piece)
            if placed is not None:
                found.append(Placement(n, piece, sources[n - 1]["url"], placed))
    return found


def in_citation_order(answer: str) -> bool:
    """Markers first used in the order 1, 2, 3 …"""
    order = markers.cited_in_order(answer)
    return order == list(range(1, len(order) + 1))
