"""Incremental ingest: only files whose content or place in the book changed are re-chunked,
and only chunks whose embedded text changed are re-embedded."""
from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np
from tqdm import tqdm

from ..embedding.protocol import TextEmbedder
from ..models import Chunk
from ..store import ChunkStore, EmbeddingMismatchError
from .chunker import ChunkingOptions, chunk_page
from .pages import Page, SkippedFile, discover_pages
from .site import Site


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
    seconds: float = 0.0

    def summary(self) -> str:
        return (f"{self.book_title} ({self.book_id}): {self.added} added, {self.updated} updated, "
                f"{self.removed} removed, {self.unchanged} unchanged files; "
                f"{self.chunks_embedded} chunks embedded, {self.chunks_total} in the index; "
                f"{len(self.skipped)} skipped; {self.seconds:.1f} s")

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
CHUNKER_VERSION = 3


def _fingerprint(page: Page, site: Site, options: ChunkingOptions, model_name: str) -> str:
    """Changes whenever anything that ends up in this file's chunks changes."""
    basis = json.dumps([CHUNKER_VERSION, page.file_hash, page.url, page.title, page.labels, page.order,
                        page.locale, page.version, site.title, asdict(options), model_name], sort_keys=True)
    return hashlib.sha256(basis.encode()).hexdigest()[:32]


def ingest(
    site: Site,
    store: ChunkStore,
    embedder: TextEmbedder,
    *,
    book_id: str | None = None,
    full: bool = False,
    options: ChunkingOptions = ChunkingOptions(),
    progress: bool = True,
    log: Callable[[str], None] = lambda _msg: None,
) -> IngestReport:
    started = time.perf_counter()
    book_id = book_id or default_book_id(site)
    discovery = discover_pages(site)
    report = IngestReport(book_id=book_id, book_title=site.title, skipped=discovery.skipped)
    for skipped in discovery.skipped:
        log(f"skipped {skipped.source_file}: {skipped.reason}")

    if full:
        try:
            store.create()
        except EmbeddingMismatchError as exc:
            log(f"{exc}\nrebuilding the collection for the new model; re-ingest any other books in it")
            store.create(recreate=True)
        store.delete_book(book_id)
    else:
        store.create()  # fails clearly if the collection belongs to another model
    stored = store.stored_files(book_id)

    to_embed: list[Chunk] = []
    to_reuse: list[Chunk] = []
    stale_ids: list[str] = []
    current_files = set()
    for page in discovery.pages:
        current_files.add(page.key)
        fingerprint = _fingerprint(page, site, options, embedder.model_name)
        previous = stored.get(page.key)
        if previous and previous.file_hash == fingerprint:
            report.unchanged += 1
            continue
        chunks = chunk_page(page, book_id=book_id, book_title=site.title,
                            count_tokens=embedder.count_tokens, options=options)
        for chunk in chunks:
            chunk.file_hash = fingerprint
            same = previous and previous.chunks.get(chunk.chunk_id) == chunk.content_hash
            (to_reuse if same else to_embed).append(chunk)
        if previous:
            report.updated += 1
            keep = {c.chunk_id for c in chunks}
            stale_ids.extend(cid for cid in previous.chunks if cid not in keep)
        else:
            report.added += 1
    for page_key, previous in stored.items():
        if page_key not in current_files:
            report.removed += 1
            stale_ids.extend(previous.chunks)

    _write_reused(store, to_reuse)
    _write_embedded(store, embedder, to_embed, progress=progress)
    store.delete_ids(stale_ids)
    report.chunks_embedded = len(to_embed)
    report.chunks_reused = len(to_reuse)
    report.chunks_deleted = len(stale_ids)
    report.chunks_total = store.count(book_id)
    report.seconds = time.perf_counter() - started
    return report


def _write_reused(store: ChunkStore, chunks: list[Chunk]) -> None:
    """Chunks whose text is unchanged keep their vectors; only the payload is rewritten."""
    if not chunks:
        return
    vectors = store.vectors([c.chunk_id for c in chunks])
    dense = np.array([vectors[c.chunk_id][0] for c in chunks], dtype=np.float32)
    store.upsert(chunks, dense)


def _write_embedded(store: ChunkStore, embedder: TextEmbedder, chunks: list[Chunk], *, progress: bool) -> None:
    if not chunks:
        return
    step = 64
    bar = tqdm(total=len(chunks), unit="chunk", desc="embedding", disable=not progress or len(chunks) < step)
    for start in range(0, len(chunks), step):
        batch = chunks[start : start + step]
        vectors = embedder.embed_documents([c.embed_text for c in batch])
        store.upsert(batch, vectors)
        bar.update(len(batch))
    bar.close()
