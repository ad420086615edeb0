"""Incremental ingest: only files whose content or place in the book changed are re-chunked,
and only chunks whose embedded text changed are re-embedded."""
from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import asdict, dataclass, field
from typing import Callable, Mapping

import numpy as np
from tqdm import tqdm

from server.embedding.protocol import TextEmbedder
from server.book.chunk import Chunk
from server.store import PENDING, ChunkStore, EmbeddingMismatchError
from server.ingest.chunker import ChunkingOptions, chunk_page
from server.ingest.outline import build_outline
from server.ingest.page import Page, SkippedFile
from server.ingest.pages import discover_pages
from server.ingest.site import Site
from server.ingest.reach.unlisted import LeftOut, left_out_summary, readers_pages


@dataclass
class IngestReport:
    book_id: str
    book_title: str
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    chunks_total: int = 0
    chunks_embedded: int = 0
    chunks_reused: int = 0
    chunks_deleted: int = 0
    skipped: list[SkippedFile] = field(default_factory=list)
    without_text: list[str] = field(default_factory=list)  # pages with nothing to index (not in `pages`)
    left_out: list[LeftOut] = field(default_factory=list)  # templates and pages no reader can reach (unlisted.py)
    notes: list[str] = field(default_factory=list)  # what the reader could not know (printed as it goes)
    seconds: float = 0.0

    @property
    def pages(self) -> int:
        """The pages in the index now: what `textbook-chat pages` lists."""
        return self.added + self.updated + self.unchanged

    def summary(self) -> str:
        empty = f"; {len(self.without_text)} without text, not indexed" if self.without_text else ""
        return (f"{self.book_title} ({self.book_id}): {self.pages} pages: {self.added} added, {self.updated} updated, "
                f"{self.unchanged} unchanged; {self.removed} removed{empty}; "
                f"{self.chunks_embedded} chunks embedded, {self.chunks_total} in the index; "
                f"{len(self.skipped)} files skipped; {self.seconds:.1f} s"
                + (f"\n{left_out_summary(self.left_out)}" if self.left_out else ""))

    def to_dict(self) -> dict:
        return asdict(self)


def default_book_id(site: Site) -> str:
    """The site's projectName (what the widget plugin sends too), else the book's folder name."""
    if site.project_name:
        return site.project_name
    root = site.content_root.resolve()
    name = root.parent.name if root.name in ("docs", "src") else root.name
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "book"


# Bump when cleaning or chunking changes, so that unchanged files are chunked again on upgrade.
# 4: chunks know their position in the page; 5: and where merged-in sections start; 6: a table split
# across chunks keeps its header in every part; 7: a paragraph cut across chunks runs on from its overlap;
# 8: a twoslash code block as its page shows it; 9: a heading's inline code as written ("1. `<link>`");
# 10: a reference link shown as a link ("[text][label]" read by the page's definitions); 11: a table written
# in HTML read as a Markdown table
CHUNKER_VERSION = 11


def _fingerprint(page: Page, site: Site, options: ChunkingOptions, model_name: str) -> str:
    """Changes whenever anything that ends up in this file's chunks changes: the page as it is
    read (its text after cleaning, so that a change in what cleaning keeps is read again too)."""
    body = hashlib.sha256(page.body.encode()).hexdigest()
    basis = json.dumps([CHUNKER_VERSION, page.file_hash, body, page.url, page.title, page.labels, page.order,
                        page.locale, page.version, site.title, asdict(options), model_name], sort_keys=True)
    return hashlib.sha256(basis.encode()).hexdigest()[:32]


def ingest(
    site: Site,
    store: ChunkStore,
    embedder: TextEmbedder,
    *,
    book_id: str | None = None,
    full: bool = False,
    include_unlisted: bool = False,
    options: ChunkingOptions = ChunkingOptions(),
    progress: bool = True,
    log: Callable[[str], None] = lambda _msg: None,
    locale_embedders: Mapping[str, TextEmbedder] | None = None,
) -> IngestReport:
    """`locale_embedders`: the locales embedded with another model than `embedder` (the index's
    own), a translation read with the multilingual model."""
    started = time.perf_counter()
    locale_embedders = locale_embedders or {}
    book_id = book_id or default_book_id(site)
    discovery = discover_pages(site)
    pages, left_out = readers_pages(discovery.pages, include_unlisted=include_unlisted)
    report = IngestReport(book_id=book_id, book_title=site.title, skipped=discovery.skipped, notes=discovery.notes,
                          left_out=left_out)
    for note in discovery.notes:
        log(f"note: {note}")
    for skipped in discovery.skipped:
        log(f"skipped {skipped.source_file}: {skipped.reason}")

    made_with = store.built_locale_models()  # the vectors kept: each locale's model when they were made
    if full:
        try:
            store.create()
        except EmbeddingMismatchError as exc:
            log(f"{exc}\nrebuilding the collection for the new model; re-ingest any other books in it")
            store.create(recreate=True)
    else:
        store.create()  # fails clearly if the collection belongs to another model
    stored = store.stored_files(book_id)

    files = _Files(store)
    to_embed: list[Chunk] = []
    to_reuse: list[Chunk] = []
    current_files = set()
    for page in pages:
        current_files.add(page.key)
        model = locale_embedders.get(page.locale, embedder).model_name
        fingerprint = _fingerprint(page, site, options, model)
        kept = made_with.get(page.locale, embedder.model_name) == model  # its stored vectors are this model's
        previous = stored.get(page.key)
        if not full and previous and previous.file_hash == fingerprint:
            report.unchanged += 1
            continue
        chunks = chunk_page(page, book_id=book_id, book_title=site.title,
                            count_tokens=embedder.count_tokens, options=options)
        for chunk in chunks:
            chunk.file_hash = PENDING + fingerprint  # until every chunk of the file is written
            same = not full and kept and previous and previous.chunks.get(chunk.chunk_id) == chunk.content_hash
            (to_reuse if same else to_embed).append(chunk)
        keep = {c.chunk_id for c in chunks}
        files.expect(page.key, fingerprint, [c.chunk_id for c in chunks],
                     stale=[cid for cid in (previous.chunks if previous else {}) if cid not in keep])
        if not chunks:  # nothing to search (front matter or links only): not a page of the index
            report.without_text.append(page.source_file)
            if previous:
                report.removed += 1  # its chunks go with its text (expect() above deleted them)
        elif previous:
            report.updated += 1
        else:
            report.added += 1
    removed_ids: list[str] = []
    for page_key, previous in stored.items():
        if page_key not in current_files:
            report.removed += 1
            removed_ids.extend(previous.chunks)

    missing = _write_reused(store, files, to_reuse)
    to_embed.extend(missing)
    for model in {id(e): e for e in [embedder, *locale_embedders.values()]}.values():
        _write_embedded(store, files, model, [c for c in to_embed if locale_embedders.get(c.locale, embedder) is model],
                        progress=progress)
    store.delete_ids(removed_ids)
    # the outline goes with the chunks: readers get both in the same publication
    store.save_outline(book_id, build_outline(site, pages, book_id).to_dict())
    store.publish()  # readers in other processes (a running server) switch to this index now
    report.chunks_embedded = len(to_embed)
    report.chunks_reused = len(to_reuse) - len(missing)
    report.chunks_deleted = files.deleted + len(removed_ids)
    report.chunks_total = store.count(book_id)
    report.seconds = time.perf_counter() - started
    return report


class _Files:
    """The files being written. A file's chunks carry a pending hash until the last of them is
    written; then its stale chunks go and its fingerprint is recorded on all of them. So a run
    that stops midway (killed, out of disk) leaves files that the next run sees as changed,
    never one that looks complete with chunks missing."""

    def __init__(self, store: ChunkStore):
        self.store = store
        self.deleted = 0
        self._waiting: dict[str, set[str]] = {}
        self._files: dict[str, tuple[str, list[str], list[str]]] = {}
        self._file_of: dict[str, str] = {}

    def expect(self, page_key: str, fingerprint: str, ids: list[str], *, stale: list[str]) -> None:
        self._files[page_key] = (fingerprint, ids, stale)
        self._waiting[page_key] = set(ids)
        self._file_of.update((cid, page_key) for cid in ids)
        if not ids:
            self._complete(page_key)

    def written(self, chunks: list[Chunk]) -> None:
        for chunk in chunks:
            page_key = self._file_of[chunk.chunk_id]
            waiting = self._waiting[page_key]
            waiting.discard(chunk.chunk_id)
            if not waiting:
                self._complete(page_key)

    def _complete(self, page_key: str) -> None:
        fingerprint, ids, stale = self._files.pop(page_key)
        del self._waiting[page_key]
        self.store.delete_ids(stale)
        self.deleted += len(stale)
        self.store.set_file_hash(ids, fingerprint)


def _write_reused(store: ChunkStore, files: _Files, chunks: list[Chunk]) -> list[Chunk]:
    """Chunks whose text is unchanged keep their vectors; only the payload is rewritten.
    Returns those whose vector was not found (to be embedded again)."""
    if not chunks:
        return []
    vectors = store.vectors([c.chunk_id for c in chunks])
    found = [c for c in chunks if vectors.get(c.chunk_id) is not None]
    for start in range(0, len(found), 256):
        batch = found[start : start + 256]
        store.upsert(batch, np.array([vectors[c.chunk_id] for c in batch], dtype=np.float32))
        files.written(batch)
    return [c for c in chunks if vectors.get(c.chunk_id) is None]


def _write_embedded(store: ChunkStore, files: _Files, embedder: TextEmbedder, chunks: list[Chunk], *,
                    progress: bool) -> None:
    if not chunks:
        return
    step = 64
    bar = tqdm(total=len(chunks), unit="chunk", desc="embedding", disable=not progress or len(chunks) < step)
    for start in range(0, len(chunks), step):
        batch = chunks[start : start + step]
        vectors = embedder.embed_documents([c.embed_text for c in batch])
        store.upsert(batch, vectors)
        files.written(batch)
        bar.update(len(batch))
    bar.close()
