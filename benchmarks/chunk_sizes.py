"""Chunk size and overlap sweep: retrieval hit@5 / MRR on both books for each setting.

    .venv/bin/python benchmarks/chunk_sizes.py [--books physical-ai-book rust-book]
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import CORPORA, EVAL, MODELS_DIR, OUT  # noqa: E402
from server.embedding.embedder import load_embedder  # noqa: E402
from server.evaluation import Ranking, load_questions, rank_of  # noqa: E402
from server.ingest.chunker import ChunkingOptions  # noqa: E402
from server.ingest.indexer import ingest  # noqa: E402
from server.ingest.site import detect_site  # noqa: E402
from server.question.gather.retrieval import Retriever  # noqa: E402
from server.settings import Settings  # noqa: E402
from server.store import open_store  # noqa: E402

BOOKS = {"physical-ai-book": CORPORA / "physical-ai-book" / "docs", "rust-book": CORPORA / "rust-book"}
SETTINGS = [(128, 16), (192, 32), (240, 0), (240, 32), (240, 64)]


def main(books: list[str]) -> list[dict]:
    embedder = load_embedder(Settings(models_dir=MODELS_DIR), log=lambda _m: None)
    rows = []
    for book in books:
        questions = [q for q in load_questions(EVAL / f"{book}.jsonl") if q["kind"] == "in_book"]
        for max_tokens, overlap in SETTINGS:
            work = Path(tempfile.mkdtemp(prefix="tc-chunks-"))
            store = open_store(Settings(data_dir=work, models_dir=MODELS_DIR), embedder.model_name, embedder.dim)
            started = time.perf_counter()
            report = ingest(detect_site(BOOKS[book]), store, embedder, progress=False,
                            options=ChunkingOptions(max_tokens=max_tokens, overlap_tokens=overlap))
            seconds = time.perf_counter() - started
            retriever = Retriever(store, embedder)
            ranking = Ranking([rank_of(retriever.retrieve(q["question"], max_chunks=5), q) for q in questions])
            rows.append({"book": book, "max_tokens": max_tokens, "overlap": overlap, "chunks": report.chunks_total,
                         "ingest_s": round(seconds, 1), **ranking.summary()})
            print(json.dumps(rows[-1]), flush=True)
            store.close()
            shutil.rmtree(work, ignore_errors=True)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "chunk_sizes.json").write_text(json.dumps(rows, indent=2))
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--books", nargs="+", default=list(BOOKS))
    main(parser.parse_args().books)
