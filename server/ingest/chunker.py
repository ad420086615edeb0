"""Split a page into heading sections, then into chunks sized for the embedding model.

all-MiniLM-L6-v2 reads at most 256 tokens (the rest is silently cut), so a chunk's
embedded text (heading path + content) is kept under `max_tokens`. Fenced code is never
split: a fence larger than the budget becomes a chunk of its own. Sections smaller than
`min_tokens` are merged into a neighbour so that no chunk is a lone heading.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable

from server.book.citation import ieee_citation, source_location
from server.book.chunk import Chunk, chunk_uuid
from server.ingest.page import Page
from server.text.references import definitions, inlined
from server.ingest.sections import Block, Section, reading_sections

TokenCounter = Callable[[str], int]
_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+(?=[A-Z0-9`*\"'(\[])")
_TABLE_DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")


@dataclass(frozen=True)
class ChunkingOptions:
    max_tokens: int = 240  # embedded text incl. heading path; the model's window is 256
    overlap_tokens: int = 32  # carried from the previous chunk of the same section
    min_tokens: int = 48  # smaller sections are merged into a neighbour


class _Counts:
    """Token counts for packing, each text tokenised once.

    Packing asks again and again whether a growing list of texts fits; tokenising each
    candidate join made chunking quadratic (22,000 tokeniser calls for the Rust book). A join
    on whitespace is counted as the sum of its parts instead: the model's tokenizer splits at
    whitespace before it splits words (WordPiece), so no token spans two parts and only the
    [CLS]/[SEP] pair is not repeated. Every chunk's final count is still measured whole.
    """

    def __init__(self, count: TokenCounter):
        self._count = count
        self._known: dict[str, int] = {}
        self._special = count("")

    def __call__(self, text: str) -> int:
        tokens = self._known.get(text)
        if tokens is None:
            tokens = self._known[text] = self._count(text)
        return tokens

    def joined(self, texts: list[str]) -> int:
        """Tokens of the texts joined by whitespace."""
        return self._special + sum(self(t) - self._special for t in texts)


def table_header(text: str) -> str:
    """A markdown table's header row and delimiter row ("" for anything else): every part of a
    table split across chunks starts with them, or the part is no table at all."""
    lines = text.split("\n")
    if len(lines) > 2 and lines[0].lstrip().startswith("|") and _TABLE_DELIMITER.match(lines[1]):
        return "\n".join(lines[:2])
    return ""


def _units(block: Block, budget: int, count: _Counts, header: str) -> tuple[list[str], str]:
    """A too-long prose block as (units, joiner): its lines (lists, tables: the header with its
    delimiter row as one, `header`) or its sentences, each within the budget (a single enormous
    sentence is cut by words)."""
    lines = block.text.split("\n")
    if header:
        lines = [header, *lines[2:]]
    units, joiner = (lines, "\n") if len(lines) > 1 else (_SENTENCE_END.split(block.text), " ")
    fitted: list[str] = []
    for unit in units:
        if count(unit) <= budget:
            fitted.append(unit)
            continue
        current: list[str] = []
        for word in unit.split(" "):
            if current and count.joined(current + [word]) > budget:
                fitted.append(" ".join(current))
                current = []
            current.append(word)
        if current:
            fitted.append(" ".join(current))
    return fitted, joiner


def _tail(block: Block, overlap: int, count: _Counts) -> str:
    """The last sentences of a prose block, at most `overlap` tokens; never code."""
    if block.is_code or overlap <= 0:
        return ""
    sentences = _SENTENCE_END.split(block.text)
    tail: list[str] = []
    for sentence in reversed(sentences):
        if count.joined([sentence] + tail) > overlap:
            break
        tail.insert(0, sentence)
    return " ".join(tail)


@dataclass
class _Draft:
    section: Section
    texts: list[str]
    has_code: bool = False
    parts: tuple[tuple[int, Section], ...] = ()  # (index in texts, section) where a merged-in section starts


def _joined(first: _Draft, heading_line: list[str], second: _Draft) -> _Draft:
    """Two drafts as one; the second's section (when another) starts at its heading line."""
    at = len(first.texts)
    own = ((at, second.section),) if heading_line else ()
    later = tuple((at + len(heading_line) + i, section) for i, section in second.parts)
    return _Draft(first.section, first.texts + heading_line + second.texts, first.has_code or second.has_code,
                  first.parts + own + later)


def _header(page: Page, section: Section) -> str:
    return " › ".join([page.title, *section.titles])


def _pack(page: Page, section: Section, opts: ChunkingOptions, count: _Counts) -> list[_Draft]:
    budget = max(32, opts.max_tokens - count(_header(page, section)) - 2)
    drafts: list[_Draft] = []
    current: list[str] = []
    state = {"code": False, "last": None}

    def fits(texts: list[str]) -> bool:
        return count.joined(texts) <= budget

    def flush() -> None:
        nonlocal current
        drafts.append(_Draft(section, current, state["code"]))
        last = state["last"]
        overlap = _tail(last, opts.overlap_tokens, count) if last else ""
        current = [overlap] if overlap else []
        state["code"] = False

    for block in section.blocks:
        if block.is_code or fits(current + [block.text]):
            if current and not fits(current + [block.text]):
                flush()
                if not fits(current + [block.text]):
                    current = []  # the overlap would push the block over: drop it
            current.append(block.text)
            state["code"] = state["code"] or block.is_code
            state["last"] = block
            continue
        header = table_header(block.text)
        units, joiner = _units(block, budget, count, header)
        open_block = False  # is current[-1] a part of this block?
        for unit in units:
            candidate = current[:-1] + [current[-1] + joiner + unit] if open_block else current + [unit]
            if current and not fits(candidate):
                state["last"] = Block(current[-1]) if open_block else state["last"]
                flush()
                if header and unit != header and fits([f"{header}\n{unit}"]):
                    current = [header]  # the table goes on under its header, not after a sentence of overlap
                    candidate = [f"{header}\n{unit}"]
                elif current and open_block and fits([current[-1] + joiner + unit]):
                    # the overlap is this block's own end: the paragraph runs on from it, not after a
                    # blank line ("… a ``by" / "<tactics>`` block" is one sentence, one code span)
                    candidate = [current[-1] + joiner + unit]
                else:
                    if current and not fits(current + [unit]):
                        current = []
                    candidate = current + [unit]
            current = candidate
            open_block = True
        state["last"] = Block(current[-1]) if current else None
    if current and any(t.strip() for t in current):
        drafts.append(_Draft(section, current, state["code"]))
    return drafts


def _merge_tiny(page: Page, drafts: list[_Draft], opts: ChunkingOptions, count: _Counts) -> list[_Draft]:
    """Fold a draft below min_tokens into the next one (or the previous, at the end)."""

    def fits(section: Section, texts: list[str]) -> bool:
        return count.joined([_header(page, section), *texts]) <= opts.max_tokens

    merged: list[_Draft] = []
    carry: _Draft | None = None
    for draft in drafts:
        if carry is not None:
            heading = draft.section.headings[-1] if draft.section.headings else None
            heading_line = [f"{'#' * heading[0]} {heading[1]}"] if heading and draft.section is not carry.section else []
            combined = carry.texts + heading_line + draft.texts
            if fits(carry.section, combined):
                draft = _joined(carry, heading_line, draft)
            else:
                merged.append(carry)
            carry = None
        if count.joined(draft.texts) < opts.min_tokens:
            carry = draft
        else:
            merged.append(draft)
    if carry is not None:
        if merged and fits(merged[-1].section, merged[-1].texts + ["#" * 6] + carry.texts):
            last = merged[-1]
            heading = carry.section.headings[-1] if carry.section.headings else None
            extra = [f"{'#' * heading[0]} {heading[1]}"] if heading and carry.section is not last.section else []
            merged[-1] = _joined(last, extra, carry)
        else:
            merged.append(carry)
    return merged


def chunk_page(
    page: Page,
    *,
    book_id: str,
    book_title: str,
    count_tokens: TokenCounter,
    options: ChunkingOptions = ChunkingOptions(),
) -> list[Chunk]:
    counts = _Counts(count_tokens)
    drafts: list[_Draft] = []
    for section in reading_sections(page):
        drafts.extend(_pack(page, section, options, counts))
    drafts = _merge_tiny(page, drafts, options, counts)
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    references = definitions(page.body)
    chunks: list[Chunk] = []
    positions: dict[tuple[str, ...], int] = {}
    for position, draft in enumerate(drafts):
        titles = draft.section.titles
        key = tuple(titles)
        positions[key] = positions.get(key, -1) + 1
        written = "\n\n".join(t for t in draft.texts if t).strip()
        embed_text = f"{_header(page, draft.section)}\n\n{written}"
        # a reader sees a reference link as a link; the model reads it as the book wrote it (the
        # page's path and file name, written out, pulled passages away from their questions)
        content = inlined(written, references)
        anchor = draft.section.anchor
        url = f"{page.url}#{anchor}" if anchor else page.url
        heading = titles[-1] if titles else page.title
        chunks.append(Chunk(
            chunk_id=chunk_uuid(book_id, page.key, titles, positions[key]),
            book_id=book_id,
            book_title=book_title,
            content=content,
            content_hash=hashlib.sha256(embed_text.encode()).hexdigest()[:32],
            source_file=page.source_file,
            url=url,
            module=page.module,
            chapter=page.title,
            section=titles[0] if titles else page.title,
            heading=heading,
            section_hierarchy=[page.title, *titles],
            page=page.order,
            source_location=source_location(page.labels[:-1], page.labels[-1], titles),
            citation=ieee_citation(heading, book_title, page.title, url),
            file_hash=page.file_hash,
            embed_text=embed_text,
            token_count=count_tokens(embed_text),
            created_at=now,
            updated_at=now,
            path_prefixes=_prefixes(page.source_file),
            labels=list(page.labels),
            locale=page.locale,
            version=page.version,
            page_key=page.key,
            position=position,
            parts=_parts(content, draft),
        ))
    return chunks


def _parts(content: str, draft: _Draft) -> list[dict]:
    """Where each merged-in section's heading line starts in the chunk's content."""
    parts, start = [], 0
    for index, section in draft.parts:
        at = content.find(draft.texts[index], start)
        if at < 0:
            continue
        parts.append({"at": at, "titles": list(section.titles), "anchor": section.anchor})
        start = at + 1
    return parts


def _prefixes(source_file: str) -> list[str]:
    parts = source_file.split("/")
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]
