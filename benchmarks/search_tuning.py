"""HNSW settings of the embedded store against recall@5 at library scale: for each m /
ef_construct, one build of the library of `library_scale.py`, searched with several hnsw_ef.
HNSW builds run on several threads and differ from build to build: repeat a setting to see it.

    .venv/bin/python benchmarks/search_tuning.py [--size 100000] [--builds 16:128 32:256]
"""
from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import MODELS_DIR, machine, percentile, save_result  # noqa: E402
from benchmarks.library_scale import WORK, _recall, base_library, library, questions  # noqa: E402
from server.embedding.embedder import load_embedder  # noqa: E402
from server.settings import Settings  # noqa: E402
from server.store.edge import EdgeStore, SearchTuning  # noqa: E402

EFS = (128, 256, 512, 1024)


def measure(m: int, ef_construct: int, lib_chunks, lib_vectors, asked, embedder, model_s: float) -> list[dict]:
    folder = WORK / f"tuning-{m}-{ef_construct}" / "index" / "library"
    shutil.rmtree(folder.parents[1], ignore_errors=True)
    writer = EdgeStore(folder, "library", embedder.model_name, embedder.dim,
                       tuning=SearchTuning(m=m, ef_construct=ef_construct))
    started = time.perf_counter()
    writer.create()
    for start in range(0, len(lib_chunks), 64):
        writer.upsert(lib_chunks[start : start + 64], lib_vectors[start : start + 64])
    writer.publish()
    ingest_s = time.perf_counter() - started
    writer.close()
    ids = np.array([c.chunk_id for c in lib_chunks])
    rows = []
    for ef in EFS:
        reader = EdgeStore(folder, "library", embedder.model_name, embedder.dim,
                           tuning=SearchTuning(m=m, ef_construct=ef_construct, hnsw_ef=ef))
        reader.refresh()
        recall, latency = [], []
        for _book, _text, vector in asked:
            t0 = time.perf_counter()
            found = reader.search(vector, limit=10)
            latency.append((time.perf_counter() - t0) * 1000)
            scores = lib_vectors @ vector
            recall.append(_recall([c.chunk_id for c in found], ids, scores, np.argsort(-scores)[:5]))
        reader.close()
        rows.append({"m": m, "ef_construct": ef_construct, "hnsw_ef": ef,
                     "ingest_store_share_of_model": round(ingest_s / (model_s * len(lib_chunks)), 4),
                     "recall_at_5": round(float(np.mean(recall)), 4), "search_p50_ms": round(percentile(latency, 0.5), 2),
                     "search_p95_ms": round(percentile(latency, 0.95), 2)})
        print(rows[-1], flush=True)
    shutil.rmtree(folder.parents[1], ignore_errors=True)
    return rows


def main(size: int, builds: list[tuple[int, int]]) -> dict:
    embedder = load_embedder(Settings(models_dir=MODELS_DIR))
    chunks, vectors, model_s = base_library(embedder)
    asked = questions(embedder, {c.book_id for c in chunks})
    lib_chunks, lib_vectors = library(size, chunks, vectors)
    rows = [row for m, ef_construct in builds
            for row in measure(m, ef_construct, lib_chunks, lib_vectors, asked, embedder, model_s)]
    result = {"machine": machine(), "chunks": size, "questions": len(asked), "rows": rows}
    save_result("search_tuning", result)
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--builds", nargs="+", default=["16:128", "32:256"], help="m:ef_construct, one build each")
    args = parser.parse_args()
    main(args.size, [tuple(int(v) for v in b.split(":")) for b in args.builds])
