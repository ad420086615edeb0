"""A retrieved passage read on: the text that follows it on its page.

A chunk ends where the embedding model's window ends, not where the book's thought does: a list
of stages runs on into the next chunk, a sentence is cut at a line break and finished in the
next one, a section's lead-in is answered by the section after it. The extractive answer reads
each retrieved passage together with the next few chunks of its page, stitched back into the
page's text (the overlap a chunk repeats from the one before it removed, a sentence cut in two
joined again).
"""
from __future__ import annotations

import functools
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from server.book.chunk import Chunk
from server.question.holding import holder
from server.question.part_numbers import PartNumbers
from server.text.blocks import heading_material, split_blocks
from server.text.sentences import LEAD_IN_ENDS, normalised

if TYPE_CHECKING:
    from server.question.compose.extractive.answer_units import Unit
    from server.question.context import Source

MIN_OVERLAP = 12  # characters: a shorter opening ("1.", "}") that ends the chunk before is no overlap
Following = Callable[[Chunk], list[Chunk]]
Preceding = Callable[[Chunk], "Chunk | None"]
SENTENCE_END = re.compile(r"[.!?。！？۔؟][\"”’)]*(?=\s)")
ENDED = re.compile(r"[.!?:;)\]\"”’*_`$|>。！？」』۔؟]\s*$")


def _plain(text: str) -> str:
    return " ".join(text.split())


def joined(before: str, after: str) -> str:
    """`after` stitched to `before`: without the overlap it opens with (the end of `before`
    repeated), the paragraph cut between them going on where it was cut (a sentence cut at a
    line break is one sentence again)."""
    if _overlap(before, after):
        rest = going_on(before, after)
        gap = rest[:len(rest) - len(rest.lstrip())]
        if rest.strip() and "\n\n" not in gap:  # the paragraph goes on after what it repeats, on its line or the next
            joiner = "\n" if "\n" in gap else " "
            return f"{before.rstrip()}{joiner}{rest.lstrip()}"
        after = rest.lstrip("\n")
    if not ENDED.search(before) and _continues(after):
        return f"{before.rstrip()} {after.lstrip()}"
    return f"{before.rstrip()}\n\n{after}"


def going_on(before: str, after: str) -> str:
    """`after` from where it goes on past the end of `before` it opens with (all of it when it
    repeats none)."""
    repeated = _overlap(before, after)
    return _after_flat(after, repeated) if repeated else after


def _overlap(before: str, after: str) -> int:
    """How much of `after` (in characters of its text on one line) repeats the end of `before`:
    the longest end of `before`, from a word on, that `after` opens with; 0 for none. A chunk
    opens with the last sentences of the one before it, and a paragraph cut in two runs on
    after them."""
    tail, head = _plain(before), _plain(after)
    start = max(0, len(tail) - len(head))
    while True:
        at = tail.find(head[:MIN_OVERLAP], start)
        if at < 0 or len(head) < MIN_OVERLAP:
            return 0
        size = len(tail) - at
        if (at == 0 or tail[at - 1] == " ") and head.startswith(tail[at:]) and head[size:size + 1] in ("", " "):
            return size
        start = at + 1


def _after_flat(text: str, count: int) -> str:
    """`text` after its first `count` characters as _plain counts them (a run of spaces is one)."""
    i, seen = len(text) - len(text.lstrip()), 0
    while i < len(text) and seen < count:
        if text[i].isspace():
            while i < len(text) and text[i].isspace():
                i += 1
        else:
            i += 1
        seen += 1
    return text[i:]


def _continues(text: str) -> bool:
    """Does the text open mid-sentence: in lower case, or with inline code ("`compose` much more …")?"""
    return text[:1].islower() or (text[:1] == "`" and not text.startswith("```"))


_INTRODUCED = re.compile(r"\s*(?:```|~~~|[-*+] |\d+[.)] |\|)")  # a code block, list or table opens it


def begun(before: Chunk, chunk: Chunk) -> Chunk | None:
    """Where a chunk opens inside a sentence (the chunker cut a wrapped paragraph at a line: "with
    minor allele frequency (MAF) at least 1% …"), the sentence's beginning at the end of the chunk
    before it ("This tells plink to … leaving SNPs"), as a chunk of its own; None where it opens on
    a sentence of its own, or the chunk before ends one. Where a chunk opens on a code block, list
    or table and the chunk before ends on the lead-in that introduces it ("Add this to your URDF:"),
    that lead-in."""
    text = before.content.rstrip()
    if _INTRODUCED.match(chunk.content) and text.endswith(LEAD_IN_ENDS):
        lead = text[text.rfind("\n\n") + 2:].strip() if "\n\n" in text else text.strip()
        return None if _INTRODUCED.match(lead) or lead.startswith("#") else _end_of(before, lead)
    if not _continues(chunk.content.lstrip()) or ENDED.search(text) or _overlap(text, chunk.content):
        return None
    start = max([m.end() for m in SENTENCE_END.finditer(text)] + [text.rfind("\n\n") + 2])
    begins = text[start:].strip()
    if not begins or "```" in begins or begins.startswith("#"):
        return None
    return _end_of(before, begins)


def _end_of(before: Chunk, text: str) -> Chunk:
    """The end of a chunk as a chunk of its own: the section of it that holds the text (its heading
    and link, where the chunk runs on under another), placed after the rest of it on the page."""
    part = before.sections()[-1]
    return replace(part, chunk_id=f"{before.chunk_id}:begun", content=text, position=before.position + 0.5)


def read_on(chunk: Chunk, following: list[Chunk]) -> str:
    """The chunk's text and the text of the chunks after it on its page, as one passage. The
    headings of sections it runs into are not added: the pieces read on stand under the
    retrieved passage's heading, so that a later section's heading does not make its pieces
    look asked for (measured: with them, the Rust book lost 0.05 of its keywords). Reading on stops
    at a section the book sets apart (exercises, a quiz, a reading list): its pieces would stand
    under the passage's heading as if they explained it."""
    text = chunk.content
    read = read_with(chunk, following)
    for after in read:
        text = joined(text, after.content)
    return _finished(text) if read else text


def _finished(text: str) -> str:
    """A passage read on, up to where its last sentence ends: the rest of a paragraph the last
    chunk read cuts is on a chunk not read, and half a sentence is no answer. A list's last item
    is left as it is: items end without a full stop ("- Hands = use human tools")."""
    blocks = split_blocks(text) if not ENDED.search(text) else []
    if not blocks or blocks[-1].kind != "paragraph":
        return text
    ends = [m.end() for m in SENTENCE_END.finditer(text)] + [text.rfind("\n\n")]
    end = max(ends)
    return text[:end].rstrip() if end > 0 else text


def read_with(chunk: Chunk, following: list[Chunk]) -> list[Chunk]:
    """The chunks after it that a passage is read on into: up to a section the book sets apart."""
    for n, after in enumerate(following):
        if _set_apart(after) not in ("prose", _set_apart(chunk)):
            return following[:n]  # exercises, a quiz, a reading list: the reader's work, not the answer
    return following


def _set_apart(chunk: Chunk) -> str:
    """The material a chunk's own section is (blocks.py): prose, or what the book sets apart."""
    return heading_material(chunk.heading)


@functools.lru_cache(maxsize=1024)
def _sections(text: str) -> tuple[tuple[str, str, str], ...]:
    """Each block of a chunk's text (normalised, and as written on one line) with the heading above
    it in the chunk."""
    return tuple((normalised(b.text), " ".join(b.text.split()), b.heading) for b in split_blocks(text)
                 if b.kind != "heading")


def heading_in(chunk: Chunk, piece: str) -> str:
    """The heading a piece read on from a later chunk stands under in the book: the last heading
    before it in that chunk, else the section the chunk runs in (a passage is read on without the
    headings of the sections it runs into, so the piece's own says only where the passage began)."""
    flat = " ".join(piece.split())
    sections = _sections(chunk.content)
    found = next((heading for _, written, heading in sections if flat in written), None)
    if found is None:
        wanted = " ".join(normalised(piece).split()[:6])
        found = next((heading for text, _, heading in sections if wanted and wanted in text), None)
    return found or chunk.heading


def shown_under(units: list[Unit], read: list[tuple[str, list[Chunk]]]) -> list[Unit]:
    """Each piece with the heading a reader finds it under: a piece read on from a later chunk of
    its page stands under that chunk's heading, not under the one its passage began with; so does
    one before any heading of a passage whose own chunk an earlier passage read (it is read from
    the next chunk on)."""
    found = []
    for unit in units:
        chunks = read[unit.source - 1][1]
        holding = holder(unit.text.partition("\n\n")[0], chunks) if len(chunks) > 1 or chunks and not unit.heading \
            else None
        if holding is not None and (holding is not chunks[0] or not unit.heading):
            unit = replace(unit, heading=heading_in(holding, unit.text))
        found.append(unit)
    return found


def placed(units: list[Unit], read: list[tuple[str, list[Chunk]]]) -> list[Unit]:
    """Each piece read on from a later chunk under the heading it stands under there, before it is
    scored: a passage read on into the next section ("### Reactive Balance" after the MPC section)
    does not lend its heading to that section's pieces."""
    found = []
    for unit in units:
        chunks = read[unit.source - 1][1]
        holding = holder(unit.text.partition("\n\n")[0], chunks) if len(chunks) > 1 else None
        if holding is not None and holding is not chunks[0]:
            unit = replace(unit, heading=heading_in(holding, unit.text))
        found.append(unit)
    return found


def read_passages(sources: list[Source], following: Following | None,
                  preceding: Preceding | None = None) -> list[tuple[str, list[Chunk]]]:
    """Each passage's text and the chunks it was read from: a book passage read on into the
    chunks after it on its page, and read from the beginning of the sentence it opens inside of
    (`preceding`, continuation.begun); a chunk that a passage before it has read is left out
    (retrieved passages are often neighbours)."""
    read: set[str] = set()
    texts = []
    for source in sources:
        if following is None or source.source_type != "database":
            texts.append((source.chunk.content, []))
            continue
        opening = preceding(source.chunk) if preceding is not None and source.chunk.chunk_id not in read else None
        unread = [c for c in [*([opening] if opening is not None else []), source.chunk,
                              *read_with(source.chunk, following(source.chunk))] if c.chunk_id not in read]
        read.update(c.chunk_id for c in unread)
        texts.append((read_on(unread[0], unread[1:]) if unread else "", unread))
    return texts


def passage_texts(sources: list[Source], following: Following | None) -> list[str]:
    return [text for text, _ in read_passages(sources, following)]


def _holds(chunk: Chunk, lead: str, block: str) -> bool:
    """Does the chunk hold a lead-in and its block together (the block as written: the words of
    code are not in a chunk's normalised text)?"""
    return normalised(lead) in normalised(chunk.content) and block.strip() in chunk.content


def cited_where_read(units: list[Unit], sources: list[Source],
                      read: list[tuple[str, list[Chunk]]]) -> tuple[list[Unit], list[Chunk]]:
    """Each piece cited where a reader finds it: read on from a later chunk of its passage's page,
    as that chunk (one of the sources when it is one, else a source of its own numbered after
    them, the chunks returned); from a part of a chunk that runs on under another heading, as
    that part (Chunk.sections)."""
    numbers = PartNumbers(sources)
    cited = []
    for unit in units:
        own = sources[unit.source - 1]
        chunks = read[unit.source - 1][1]  # the passage's chunk first, unless a passage before it read it
        if not chunks or [c.chunk_id for c in chunks] == [own.chunk.chunk_id]:
            held = own.chunk if own.source_type == "database" and own.chunk.parts else None
            cited.append(unit if held is None else replace(unit, source=numbers.number(held, unit.text)))
            continue
        lead, _, block = unit.text.partition("\n\n")
        if unit.introduces and block and not any(_holds(c, lead, block) for c in chunks):
            # a lead-in on one chunk, the list, table or code it introduces on the next: each cited where it is
            parts = [replace(unit, text=lead, introduces="", kept_items=None),
                     replace(unit, text=block, kind=unit.introduces, introduces="")]
        else:
            parts = [unit]
        for part in parts:
            found = holder(part.text, chunks)
            cited.append(part if found is None else replace(part, source=numbers.number(found, part.text)))
    return cited, numbers.extra
