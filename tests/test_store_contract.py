"""The ChunkStore contract, the same tests on every backend: Qdrant Edge (the embedded default),
qdrant-client's own embedded mode (the client code a server is used through) and, when
QDRANT_URL names one (`make test-qdrant-server`), a real Qdrant server."""
from __future__ import annotations

import os
import uuid

import numpy as np
import pytest

from server.errors import EmbeddingMismatch
from server.book.chunk import Chunk, chunk_uuid
from server.store import PENDING, Filters
from server.store.edge import EdgeStore
from server.store.qdrant_server import QdrantServerStore

BACKENDS = ["edge", "qdrant-client"] + (["qdrant-server"] if os.environ.get("QDRANT_URL") else [])


def _open(kind: str, tmp_path, model: str, dim: int, collection: str):
    if kind == "edge":
        return EdgeStore(tmp_path / "index" / collection, collection, model, dim)
    from qdrant_client import QdrantClient

    if kind == "qdrant-client":
        return QdrantServerStore(QdrantClient(path=str(tmp_path / "qdrant")), collection, model, dim,
                                 payload_indexes=False)
    return QdrantServerStore(QdrantClient(url=os.environ["QDRANT_URL"], check_compatibility=False),
                             collection, model, dim)


@pytest.fixture(params=BACKENDS)
def backend(request, tmp_path, embedder):
    collection = f"contract_{uuid.uuid4().hex[:8]}"
    opened = []

    def open_(model=embedder.model_name, dim=embedder.dim):
        store = _open(request.param, tmp_path, model, dim, collection)
        opened.append(store)
        return store

    yield open_
    for store in opened:
        if request.param == "qdrant-server" and store.exists():
            store.client.delete_collection(collection)
        store.close()


TEXTS = {
    ("rust", "ownership.md", "en"): "Ownership: each value in Rust has a single owner, and the value is dropped when the owner goes out of scope.",
    ("rust", "borrowing.md", "en"): "References borrow a value without taking ownership; the borrow checker enforces the rules.",
    ("rust", "guide/cargo.md", "en"): "Cargo builds your code, downloads the crates it depends on, and runs the tests.",
    ("robots", "ros/nodes.md", "en"): "A ROS 2 node publishes messages on topics and subscribes to the topics of other nodes.",
    ("robots", "ros/nodes.md", "ur"): "ROS 2 نوڈ ٹاپکس پر پیغامات شائع کرتا ہے۔",
    ("robots", "sim/gazebo.md", "en"): "Gazebo simulates robots with physics, sensors and a zx81kestrel plugin for lidar.",
}


def _chunks(embedder, file_hash: str = "h1") -> tuple[list[Chunk], np.ndarray]:
    chunks = []
    for n, ((book, source, locale), text) in enumerate(TEXTS.items()):
        chunks.append(Chunk(
            chunk_id=chunk_uuid(book, source, [locale], 0), book_id=book, book_title=book.title(), content=text,
            content_hash=f"c{n}", source_file=source, url=f"/{source}", module=source.split("/")[0], chapter="",
            section="", heading="", section_hierarchy=[], page=n, source_location=source, citation=source,
            file_hash=file_hash, embed_text=text, path_prefixes=[source.rsplit("/", 1)[0]] if "/" in source else [],
            locale=locale, labels=[book.title(), source]))
    return chunks, embedder.embed_documents([c.embed_text for c in chunks])


def _filled(backend, embedder, **options) -> tuple:
    """A new store of the backend holding the test chunks (not yet published)."""
    store = backend()
    store.create()
    chunks, vectors = _chunks(embedder, **options)
    store.upsert(chunks, vectors)
    return store, chunks, vectors


def _ids(chunks) -> list[str]:
    return [c.chunk_id for c in chunks]


def test_an_empty_store_answers_empty(backend, embedder):
    store = backend()
    assert not store.exists() and store.count() == 0 and store.books() == []
    assert store.search(embedder.embed_query("ownership"), limit=3) == []
    assert store.stored_files("rust") == {}


def test_chunks_come_back_with_their_payload_and_cosine_scores(backend, embedder):
    store, chunks, vectors = _filled(backend, embedder)
    store.publish()
    assert store.count() == len(chunks) and store.count("rust") == 3 and store.books() == ["robots", "rust"]
    query = embedder.embed_query("Who owns a value in Rust and when is it dropped?")
    found = store.search(query, limit=3)
    assert found[0].chunk_id == chunks[0].chunk_id and found[0].content == chunks[0].content
    assert found[0].score == pytest.approx(float(np.dot(query, vectors[0])), abs=1e-4)
    assert [c.score for c in found] == sorted((c.score for c in found), reverse=True)
    stored = {c.chunk_id: c for c in store.all_chunks("robots")}
    assert set(stored) == set(_ids(chunks[3:]))
    assert stored[chunks[4].chunk_id].citation == chunks[4].citation
    assert np.allclose(store.vectors([chunks[1].chunk_id])[chunks[1].chunk_id], vectors[1], atol=1e-6)


@pytest.mark.parametrize("filters, expected", [
    (Filters(book_id="robots"), {3, 4, 5}),
    (Filters(book_id="robots", locale="ur"), {4}),
    (Filters(version="current", locale="en", book_id="rust"), {0, 1, 2}),
    (Filters(book_id="rust", source_file="guide/"), {2}),
    (Filters(book_id="robots", module="sim"), {5}),
    (Filters(book_id="nobody"), set()),
    # a locale another model embedded is searched only by its own locale
    (Filters(book_id="robots", apart=("ur",)), {3, 5}),
    (Filters(book_id="robots", locale="ur", apart=("ur",)), {4}),
])
def test_filters_are_hard(backend, embedder, filters, expected):
    store, chunks, vectors = _filled(backend, embedder)
    found = store.search(embedder.embed_query("how do nodes talk to each other"), limit=10, filters=filters)
    assert {_ids(chunks).index(c.chunk_id) for c in found} == expected


def test_a_file_counts_as_stored_only_when_all_its_chunks_share_a_complete_hash(backend, embedder):
    store, chunks, vectors = _filled(backend, embedder, file_hash=PENDING + "h2")
    files = store.stored_files("robots")
    assert set(files) == {"ros/nodes.md", "sim/gazebo.md"} and files["ros/nodes.md"].file_hash == ""
    assert files["ros/nodes.md"].chunks == {chunks[3].chunk_id: "c3", chunks[4].chunk_id: "c4"}
    store.set_file_hash([chunks[3].chunk_id], "h2")  # one of the file's two chunks: still incomplete
    assert store.stored_files("robots")["ros/nodes.md"].file_hash == ""
    store.set_file_hash([chunks[3].chunk_id, chunks[4].chunk_id], "h2")
    assert store.stored_files("robots")["ros/nodes.md"].file_hash == "h2"


def test_deletes_by_id_and_by_book(backend, embedder):
    store, chunks, vectors = _filled(backend, embedder)
    store.delete_ids([chunks[0].chunk_id])
    assert store.count("rust") == 2
    store.delete_book("robots")
    store.publish()
    assert store.books() == ["rust"] and store.count() == 2


def test_a_books_outline_is_kept_with_its_chunks_and_goes_with_the_book(backend, embedder):
    store, chunks, vectors = _filled(backend, embedder)
    outline = {"book_id": "rust", "title": "The Book", "parts": [], "pages": [{"key": "ownership.md"}]}
    store.save_outline("rust", outline)
    store.publish()
    store.close()
    reader = backend()  # another process's view, after publication
    assert reader.outline("rust") == outline and reader.outline("robots") is None
    reader.create()
    reader.delete_book("rust")
    reader.publish()
    assert reader.outline("rust") is None


def test_each_publication_changes_the_generation_readers_follow(backend, embedder):
    store, chunks, vectors = _filled(backend, embedder)
    assert store.generation() is None  # nothing published yet
    store.publish()
    first = store.generation()
    assert first is not None and store.generation() == first  # the same until the next publication
    store.delete_book("robots")
    store.publish()
    second = store.generation()
    assert second not in (None, first)
    store.close()
    reader = backend()  # another process's view
    assert reader.generation() == second
    reader.refresh()
    assert reader.books() == ["rust"]


def test_another_model_is_a_mismatch_until_recreated(backend, embedder):
    store, chunks, vectors = _filled(backend, embedder)
    store.close()
    other = backend("some/other-model", 8)
    with pytest.raises(EmbeddingMismatch, match="Re-index"):
        other.check_compatible()
    with pytest.raises(EmbeddingMismatch):
        other.create()
    other.create(recreate=True)
    other.publish()
    assert other.count() == 0
    other.check_compatible()


def test_the_locales_read_with_another_model_are_kept_with_the_index(backend, embedder):
    store, chunks, vectors = _filled(backend, embedder)
    assert store.built_locale_models() == {}
    store.close()
    again = backend()
    again.locale_models = {"ur": "intfloat/multilingual-e5-small"}
    again.create()  # as an ingest that reads the Urdu pages with another model starts
    again.publish()
    again.close()
    assert backend().built_locale_models() == {"ur": "intfloat/multilingual-e5-small"}
