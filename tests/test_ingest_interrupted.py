"""An ingest killed in the middle of a file (kill -9) and then run again gives exactly the
index a clean run gives: no file looks complete with chunks missing."""
from __future__ import annotations

import subprocess
import sys

from apps import make_settings
from places import MODELS_DIR, REPO, SAMPLE_BOOK
from server.ingest.indexer import ingest
from server.ingest.site import detect_site
from server.store import open_store

# A real ingest in its own process, killed with SIGKILL while the store writes its chunks: the
# first WRITTEN chunks are stored, the rest of that write never happens.
WRITTEN = 20
KILLED_INGEST = """
import os, signal, sys
from pathlib import Path
from server.embedding.embedder import load_embedder
from server.ingest.indexer import ingest
from server.ingest.site import detect_site
from server.settings import Settings
from server.store import open_store

book, data, models, written = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
settings = Settings(data_dir=Path(data), models_dir=Path(models))
embedder = load_embedder(settings)
store = open_store(settings, embedder.model_name, embedder.dim)
upsert = store.upsert

def upsert_then_die(chunks, vectors):
    upsert(chunks[:written], vectors[:written])
    os.kill(os.getpid(), signal.SIGKILL)

store.upsert = upsert_then_die
ingest(detect_site(book), store, embedder, progress=False)
"""


def _index(store) -> set[tuple]:
    return {(c.chunk_id, c.source_file, c.content_hash, c.file_hash, c.url) for c in store.all_chunks()}


def test_a_killed_ingest_then_a_normal_one_equals_a_clean_one(tmp_path, embedder):
    killed = make_settings(tmp_path / "killed")
    run = subprocess.run([sys.executable, "-c", KILLED_INGEST, str(SAMPLE_BOOK), str(killed.data_dir), str(MODELS_DIR),
                          str(WRITTEN)], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert run.returncode == -9, run.stderr

    store = open_store(killed, embedder.model_name, embedder.dim)
    store.create()  # the writer's own state, as the kill left it
    files = store.stored_files("sample-book")
    assert store.count() == WRITTEN and files
    assert all(f.file_hash == "" for f in files.values())  # none looks complete

    again = ingest(detect_site(SAMPLE_BOOK), store, embedder, progress=False)
    clean_settings = make_settings(tmp_path / "clean")
    clean_store = open_store(clean_settings, embedder.model_name, embedder.dim)
    clean = ingest(detect_site(SAMPLE_BOOK), clean_store, embedder, progress=False)
    assert _index(store) == _index(clean_store)
    assert again.chunks_total == clean.chunks_total
    assert again.chunks_reused == WRITTEN and again.chunks_embedded == clean.chunks_total - WRITTEN
    assert all(f.file_hash and not f.file_hash.startswith("pending:") for f in store.stored_files("sample-book").values())
    store.close()
    clean_store.close()
