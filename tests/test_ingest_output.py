"""What ingest and pages print is what happened: pages counted as `pages` lists them, a page
without text neither added nor updated on every run, every note said, one line when the site to
check against does not answer, and a second writer told that another ingest is running."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from apps import make_settings, small_site
from places import MODELS_DIR
from server.cli import main
from server.ingest.indexer import ingest
from server.ingest.report import pages_report
from server.ingest.site import detect_site
from server.store import open_store

CLI = Path(sys.executable).with_name("textbook-chat")


def _count_in_pages(settings, embedder) -> int:
    store = open_store(settings, embedder.model_name, embedder.dim)
    try:
        return len(pages_report(store.all_chunks()))
    finally:
        store.close()


def test_a_page_without_text_is_neither_added_nor_updated_again(tmp_path, embedder):
    site_dir = small_site(tmp_path / "site")
    settings = make_settings(tmp_path / "data")
    site = detect_site(site_dir)
    store = open_store(settings, embedder.model_name, embedder.dim)
    try:
        first = ingest(site, store, embedder, progress=False)
        again = ingest(site, store, embedder, progress=False)
        (site_dir / "docs" / "01-basics" / "02-second.md").write_text("---\ntitle: Second\n---\n")  # its text goes
        emptied = ingest(site, store, embedder, progress=False)
    finally:
        store.close()
    assert (first.added, first.updated, first.unchanged, first.without_text) == (2, 0, 0, ["01-basics/03-blank.md"])
    assert (again.added, again.updated, again.unchanged, again.removed, again.chunks_embedded) == (0, 0, 2, 0, 0)
    assert "Small (small): 2 pages: 0 added, 0 updated, 2 unchanged; 0 removed; 1 without text, not indexed" \
        in again.summary()
    assert (emptied.pages, emptied.removed, len(emptied.without_text)) == (1, 1, 2)
    assert emptied.pages == _count_in_pages(settings, embedder)  # ingest and `pages` count alike


def _env(tmp_path) -> dict:
    return {"TEXTBOOK_CHAT_DATA_DIR": str(tmp_path / "data"), "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR)}


def test_every_note_is_printed_and_check_url_without_a_site_is_one_line(tmp_path):
    site_dir = small_site(tmp_path / "site")
    ingested = CliRunner().invoke(main, ["ingest", str(site_dir)], env=_env(tmp_path))
    assert ingested.exit_code == 0, ingested.output
    assert "note: " in ingested.stderr and "sidebars.js is code" in ingested.stderr
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    checked = CliRunner().invoke(main, ["pages", "--check-url", f"http://127.0.0.1:{closed}"], env=_env(tmp_path))
    assert checked.exit_code == 1 and checked.stdout == ""
    assert checked.stderr.splitlines() == [
        f"error: nothing answers at http://127.0.0.1:{closed} ([Errno 111] Connection refused): "
        "is the site served there?"]


def test_a_second_writer_is_told_another_ingest_is_running(tmp_path, embedder):
    site_dir = small_site(tmp_path / "site")
    settings = make_settings(tmp_path / "data")
    writer = open_store(settings, embedder.model_name, embedder.dim)
    writer.create()  # holds the index as a running ingest does
    try:
        second = subprocess.run([str(CLI), "ingest", str(site_dir)], env={**os.environ, **_env(tmp_path)},
                                capture_output=True, text=True, timeout=300)
    finally:
        writer.close()
    assert second.returncode == 1 and "Traceback" not in second.stderr
    assert second.stderr.splitlines()[-1] == ("error: Another ingest (or remove-book) is writing this index now: "
                                              "wait for it to finish, then run this again.")
