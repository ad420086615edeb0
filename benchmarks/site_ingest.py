"""Ingest of a built Docusaurus site: where the time goes outside the model.

    .venv/bin/python benchmarks/site_ingest.py [SITE_DIR]

SITE_DIR is a Docusaurus site folder with its build/ (default: physical-ai-i18n, built and
cached by tests/built_sites.py). Measured in one run into a fresh local index: reading the
rendered pages (lxml), chunking, the model's own time (embed_documents) and the rest (store
writes), and a second, unchanged ingest.
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from benchmarks.common import MODELS_DIR, StealMeter, machine, save_result  # noqa: E402
from benchmarks.ingest_and_query import TimedEmbedder  # noqa: E402
from server.embedding.embedder import load_embedder  # noqa: E402
from server.ingest.chunker import chunk_page  # noqa: E402
from server.ingest.indexer import ingest  # noqa: E402
from server.ingest.pages import discover_pages  # noqa: E402
from server.ingest.site import detect_site  # noqa: E402
from server.settings import Settings  # noqa: E402
from server.store import ChunkStore  # noqa: E402


def main(site_dir: Path) -> dict:
    work = Path(tempfile.mkdtemp(prefix="tc-site-bench-"))
    settings = Settings(data_dir=work / "data", models_dir=MODELS_DIR)
    embedder = load_embedder(settings, log=lambda _m: None)
    site = detect_site(site_dir)
    assert site.build_dir is not None, f"{site_dir}: no build/ to read"

    started = time.perf_counter()
    pages = discover_pages(site).pages
    read_s = time.perf_counter() - started
    started = time.perf_counter()
    chunks = [c for p in pages for c in chunk_page(p, book_id="b", book_title=site.title,
                                                    count_tokens=embedder.count_tokens)]
    chunk_s = time.perf_counter() - started

    store = ChunkStore.open(settings, embedder.model_name, embedder.dim)
    steal = StealMeter()
    timed = TimedEmbedder(embedder)
    started = time.perf_counter()
    ingest(site, store, timed, progress=False)
    full_s = time.perf_counter() - started
    started = time.perf_counter()
    again = ingest(site, store, embedder, progress=False)
    unchanged_s = time.perf_counter() - started
    store.close()
    result = {
        "machine": machine(), "cpu_steal_share": steal.share(), "site": site_dir.name,
        "pages": len(pages), "chunks": len(chunks), "words": sum(len(c.content.split()) for c in chunks),
        "read_rendered_pages_s": round(read_s, 2), "chunking_s": round(chunk_s, 2),
        "full_ingest_s": round(full_s, 1), "model_in_run_s": round(timed.seconds, 1),
        "outside_model_s": round(full_s - timed.seconds, 1), "ratio": round(full_s / timed.seconds, 3),
        "unchanged_reingest_s": round(unchanged_s, 2), "unchanged_files": again.unchanged,
    }
    save_result("site_ingest", result)
    return result


if __name__ == "__main__":
    if len(sys.argv) > 1:
        target = Path(sys.argv[1])
    else:
        from built_sites import built_site

        target = built_site("physical-ai-i18n")
    print(main(target))
