"""A library of books in one index: the embedded store of before (qdrant-client's local mode)
against Qdrant Edge, at 1.5k, 20k and 100k chunks of real embeddings.

The chunks are the corpora's own (the Rust book and the physical-AI book, embedded once and
cached); larger libraries re-use them as further books, each copy's vectors moved a little
(Gaussian noise, cosine about 0.93 to the original) so that books are alike but not identical.
Per store and size: the store's share of ingest time (writing, compacting, publishing; the
model's time is measured on the same passages), question p50/p95 (embedding the question and
searching), recall@5 of the served search against exact search (library-wide
and within one book), memory of a reading process, and disk after re-ingesting one book 10 times.

    .venv/bin/python benchmarks/library_scale.py [--sizes 1500,20000,100000] [--old-max 20000] [--from-index DIR]
"""
from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import time
import uuid
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import CORPORA, EVAL, MODELS_DIR, OUT, StealMeter, machine, percentile, save_result  # noqa: E402
from server.embedding.embedder import load_embedder  # noqa: E402
from server.ingest.indexer import ingest  # noqa: E402
from server.ingest.site import detect_site  # noqa: E402
from server.book.chunk import Chunk  # noqa: E402
from server.settings import Settings  # noqa: E402
from server.store import Filters, open_store  # noqa: E402
from server.store.edge import EdgeStore  # noqa: E402
from server.store.qdrant_server import QdrantServerStore  # noqa: E402

WORK = OUT / "library-scale"
BOOKS = (("rust-book", CORPORA / "rust-book", EVAL / "rust-book.jsonl"),
         ("physical-ai-book", CORPORA / "physical-ai-book" / "docs", EVAL / "physical-ai-book.jsonl"))
NOISE = 0.02  # per dimension, on unit vectors of 384 dimensions: cosine about 0.93 to the original
BATCH = 64  # chunks per write, as ingest writes them


def _rss_mb() -> float:
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _disk_mb(folder: Path, skip: str = "replicas") -> float:
    return sum(p.stat().st_blocks * 512 for p in folder.rglob("*") if p.is_file() and skip not in p.parts) / 1e6


def base_library(embedder, from_index: Path | None = None) -> tuple[list[Chunk], np.ndarray, float]:
    """The corpora's chunks and vectors (embedded once, kept under benchmarks/out; or read from
    `from_index`, an index of the previous store), and the model's seconds per passage measured now."""
    if from_index is not None:
        from qdrant_client import QdrantClient

        client = QdrantClient(path=str(from_index))
        points, offset = [], None
        while True:
            batch, offset = client.scroll("textbook_chunks", limit=1024, offset=offset, with_payload=True,
                                          with_vectors=["dense"])
            points.extend(batch)
            if offset is None:
                break
        client.close()
        chunks = [Chunk.from_payload(str(p.id), p.payload or {}) for p in points]
        vectors = np.array([p.vector["dense"] for p in points], dtype=np.float32)
    else:
        settings = Settings(data_dir=WORK / "base", models_dir=MODELS_DIR)
        store = open_store(settings, embedder.model_name, embedder.dim)
        for book_id, path, _ in BOOKS:
            ingest(detect_site(path), store, embedder, book_id=book_id, progress=False)
        chunks = store.all_chunks()
        found = store.vectors([c.chunk_id for c in chunks])
        store.close()
        vectors = np.array([found[c.chunk_id] for c in chunks], dtype=np.float32)
    sample = [c.embed_text for c in chunks[:64]]
    started = time.perf_counter()
    embedder.embed_documents(sample)
    return chunks, vectors, (time.perf_counter() - started) / len(sample)


def library(size: int, chunks: list[Chunk], vectors: np.ndarray) -> tuple[list[Chunk], np.ndarray]:
    rng = np.random.default_rng(size)
    out_chunks, out_vectors, copy = [], [], 0
    while len(out_chunks) < size:
        take = min(len(chunks), size - len(out_chunks))
        v = vectors[:take]
        if copy:
            v = v + rng.normal(0, NOISE, v.shape).astype(np.float32)
            v /= np.linalg.norm(v, axis=1, keepdims=True)
        book = f"{chunks[0].book_id}" if copy == 0 else f"shelf-{copy:03d}"
        for c in chunks[:take]:
            out_chunks.append(c if copy == 0 else replace(
                c, chunk_id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"{copy}/{c.chunk_id}")),
                book_id=f"{book}-{c.book_id}", book_title=f"{c.book_title} ({copy})"))
        out_vectors.append(v)
        copy += 1
    return out_chunks, np.concatenate(out_vectors)


def questions(embedder, books: set[str]) -> list[tuple[str, str, np.ndarray]]:
    asked = []
    for book_id, _, path in BOOKS:
        if book_id not in books:
            continue
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if row.get("kind") == "in_book":
                asked.append((book_id, row["question"]))
    return [(book, text, embedder.embed_query(text)) for book, text in asked]


def _recall(found: list[str], ids: np.ndarray, scores: np.ndarray, exact_top: np.ndarray, k: int = 5) -> float:
    """Share of the exact top k found, counting a result as right if it scores at least the
    exact k-th (ties of equal scores are equally right)."""
    kth = scores[exact_top[k - 1]]
    by_id = {ids[i]: scores[i] for i in range(len(ids))}
    return sum(1 for f in found[:k] if by_id.get(f, -1) >= kth - 1e-5) / k


def measure(kind: str, size: int, lib_chunks, lib_vectors, asked, embedder, model_s: float) -> dict:
    folder = WORK / f"{kind}-{size}"
    shutil.rmtree(folder, ignore_errors=True)
    collection = "library"
    if kind == "edge":
        writer = EdgeStore(folder / "index" / collection, collection, embedder.model_name, embedder.dim)
    else:
        from qdrant_client import QdrantClient

        writer = QdrantServerStore(QdrantClient(path=str(folder / "qdrant")), collection, embedder.model_name,
                                   embedder.dim, payload_indexes=False)
    started = time.perf_counter()
    writer.create()
    for start in range(0, len(lib_chunks), BATCH):
        writer.upsert(lib_chunks[start : start + BATCH], lib_vectors[start : start + BATCH])
    writer.publish()
    ingest_s = time.perf_counter() - started
    if kind == "edge":
        writer.close()
        rss_before = _rss_mb()
        reader = EdgeStore(folder / "index" / collection, collection, embedder.model_name, embedder.dim)
        reader.refresh()
    else:
        writer.close()
        from qdrant_client import QdrantClient

        rss_before = _rss_mb()
        reader = QdrantServerStore(QdrantClient(path=str(folder / "qdrant")), collection, embedder.model_name,
                                   embedder.dim, payload_indexes=False)
    reader.count()

    ids = np.array([c.chunk_id for c in lib_chunks])
    books = np.array([c.book_id for c in lib_chunks])
    dense, search_only, recall_all, recall_book = [], [], [], []
    for book, text, _ in asked:
        t0 = time.perf_counter()
        vector = embedder.embed_query(text)
        t1 = time.perf_counter()
        found = reader.search(vector, limit=10)
        t2 = time.perf_counter()
        dense.append((t2 - t0) * 1000)
        search_only.append((t2 - t1) * 1000)
        scores = lib_vectors @ vector
        recall_all.append(_recall([c.chunk_id for c in found], ids, scores, np.argsort(-scores)[:5]))
        mask = np.flatnonzero(books == book)
        within = reader.search(vector, limit=5, filters=Filters(book_id=book))
        top = mask[np.argsort(-scores[mask])[:5]]
        recall_book.append(_recall([c.chunk_id for c in within], ids, scores, top))
    rss = _rss_mb() - rss_before

    one_book = [i for i, c in enumerate(lib_chunks) if c.book_id == lib_chunks[0].book_id]
    rewriter = reader if kind != "edge" else EdgeStore(folder / "index" / collection, collection,
                                                        embedder.model_name, embedder.dim)
    for _ in range(10):
        for start in range(0, len(one_book), BATCH):
            part = one_book[start : start + BATCH]
            rewriter.upsert([lib_chunks[i] for i in part], lib_vectors[part])
        rewriter.publish()
    if rewriter is not reader:
        rewriter.close()
    reader.close()
    disk = _disk_mb(folder)
    shutil.rmtree(folder, ignore_errors=True)
    return {
        "store": kind, "chunks": size,
        "ingest_store_s": round(ingest_s, 2),
        "ingest_store_share_of_model": round(ingest_s / (model_s * size), 4),
        "question_p50_ms": round(percentile(dense, 0.5), 2), "question_p95_ms": round(percentile(dense, 0.95), 2),
        "search_p50_ms": round(percentile(search_only, 0.5), 2),
        "recall_at_5": round(float(np.mean(recall_all)), 4),
        "recall_at_5_one_book": round(float(np.mean(recall_book)), 4),
        "reader_memory_mb": round(rss, 1),
        "disk_mb_after_10_reingests": round(disk, 1),
    }


def table(rows: list[dict]) -> str:
    head = ("| store | chunks | store share of ingest | question p50 / p95 ms | search p50 ms "
            "| recall@5 (library / one book) | reader memory MB | disk MB after 10 re-ingests |")
    lines = [head, "|" + "---|" * 8]
    for r in rows:
        lines.append(f"| {r['store']} | {r['chunks']:,} | {r['ingest_store_s']} s ({r['ingest_store_share_of_model']:.1%}) "
                     f"| {r['question_p50_ms']} / {r['question_p95_ms']} | {r['search_p50_ms']} "
                     f"| {r['recall_at_5']} / {r['recall_at_5_one_book']} | {r['reader_memory_mb']} "
                     f"| {r['disk_mb_after_10_reingests']} |")
    return "\n".join(lines)


def main(sizes=(1_500, 20_000, 100_000), old_max: int = 20_000, from_index: Path | None = None) -> dict:
    embedder = load_embedder(Settings(models_dir=MODELS_DIR))
    chunks, vectors, model_s = base_library(embedder, from_index)
    asked = questions(embedder, {c.book_id for c in chunks})
    steal = StealMeter()
    rows = []
    for size in sizes:
        lib_chunks, lib_vectors = library(size, chunks, vectors)
        for kind in ("edge", "old-local-mode"):
            if kind == "old-local-mode" and size > old_max:
                continue
            rows.append(measure(kind, size, lib_chunks, lib_vectors, asked, embedder, model_s))
            print(table(rows[-1:]), flush=True)
    result = {"machine": machine(), "base_chunks": len(chunks), "questions": len(asked),
              "model_ms_per_passage": round(model_s * 1000, 1), "old_store_max_chunks": old_max,
              "steal": steal.share(), "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
              "rows": rows}
    save_result("library_scale", result)
    print(table(rows))
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1500,20000,100000")
    parser.add_argument("--old-max", type=int, default=20_000)
    parser.add_argument("--from-index", type=Path, help="take the chunks and vectors from this index of the previous "
                        "store (a data/qdrant folder) instead of embedding the corpora")
    args = parser.parse_args()
    main(tuple(int(s) for s in args.sizes.split(",")), args.old_max, args.from_index)
