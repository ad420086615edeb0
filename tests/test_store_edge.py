"""The embedded store (Qdrant Edge): readers see published generations only, in replicas of
their own; one writer at a time; forks; compaction; an index of the previous store moved in."""
from __future__ import annotations

import os
import shutil
import time

import pytest

from apps import make_settings
from processes import wait_until
from server.errors import StoreUnavailable
from server.book.chunk import Chunk, chunk_uuid
from server.store import open_store
from server.store.edge import EdgeStore


def _chunks(embedder, book: str, n: int, text: str = "Sampling turns a continuous signal into numbers") -> tuple:
    chunks = [Chunk(chunk_id=chunk_uuid(book, f"p{i}.md", [], 0), book_id=book, book_title=book, content=f"{text} ({i}).",
                    content_hash=f"c{i}", source_file=f"p{i}.md", url=f"/p{i}", module="m", chapter="", section="",
                    heading="", section_hierarchy=[], page=i, source_location=f"p{i}", citation=f"p{i}",
                    file_hash="h", embed_text=f"{text} ({i}).") for i in range(n)]
    return chunks, embedder.embed_documents([c.embed_text for c in chunks])


@pytest.fixture
def root(tmp_path):
    return tmp_path / "index" / "textbook_chunks"


def _store(root, embedder) -> EdgeStore:
    return EdgeStore(root, "textbook_chunks", embedder.model_name, embedder.dim)


def test_readers_see_a_publication_whole_and_keep_theirs_during_a_rebuild(root, embedder):
    writer, reader = _store(root, embedder), _store(root, embedder)
    writer.create()
    writer.upsert(*_chunks(embedder, "one", 5))
    assert reader.count() == 0  # nothing published yet
    writer.publish()
    reader.refresh()
    assert reader.count() == 5

    writer.create(recreate=True)  # a full rebuild, written aside
    writer.upsert(*_chunks(embedder, "two", 3))
    assert writer.books() == ["two"]
    reader.refresh()
    assert reader.books() == ["one"] and reader.count() == 5  # still the published index
    writer.close()  # publishes
    reader.refresh()
    assert reader.books() == ["two"] and reader.count() == 3
    # the retired one closes (on a thread of its own, not the switching request's): no read held it
    wait_until(lambda: [p.name for p in (root / "replicas").iterdir()] == [f"{os.getpid()}-g000002-{reader.layout.reader}"],
               timeout_s=30, what="the retired replica to close")
    assert [p.name for p in (root / "published").glob("g*")] == ["g000002"]  # nobody copies the older one
    reader.close()
    assert not list((root / "replicas").iterdir())


def test_a_replaced_replica_stays_until_the_reads_that_hold_it_end(root, embedder):
    writer, reader = _store(root, embedder), _store(root, embedder)
    writer.create()
    writer.upsert(*_chunks(embedder, "one", 3))
    writer.publish()
    scroll = reader._scroll(None, True)  # a read in flight: a generator holding the replica
    next(scroll)
    writer.upsert(*_chunks(embedder, "two", 2))
    writer.publish()
    with reader.layout.reading() as copying:  # a reader copying the newest keeps it through a publication
        writer.upsert(*_chunks(embedder, "three", 1))
        writer.publish()
        assert copying.is_dir() and copying.name == "g000002"
    reader.refresh()
    assert sorted(p.name for p in (root / "replicas").iterdir()) == [f"{os.getpid()}-g000001-{reader.layout.reader}",
                                                                          f"{os.getpid()}-g000003-{reader.layout.reader}"]
    assert len(list(scroll)) == 2  # the old read ends on the old generation, whole
    assert [p.name for p in (root / "replicas").iterdir()] == [f"{os.getpid()}-g000003-{reader.layout.reader}"]
    assert reader.count() == 6
    writer.upsert(*_chunks(embedder, "four", 1))
    writer.close()  # the next publication removes the generation that was being copied
    assert [p.name for p in (root / "published").glob("g*")] == ["g000004"]
    assert not list((root / "published").glob(".*.lock"))[1:]  # the current one's lock at most
    reader.close()


def test_two_readers_in_one_process_keep_their_replicas_apart(root, embedder):
    """A command run inside a serving process (a backup, llms-txt) opens the same folder: its
    replica, and its removal on close, must leave the server's alone."""
    writer, serving, command = _store(root, embedder), _store(root, embedder), _store(root, embedder)
    writer.create()
    writer.upsert(*_chunks(embedder, "one", 3))
    writer.save_outline("one", {"book_id": "one", "pages": []})
    writer.close()  # publishes
    assert serving.outline("one") == {"book_id": "one", "pages": []}
    assert command.count() == 3
    command.close()
    assert serving.outline("one") == {"book_id": "one", "pages": []} and serving.count() == 3
    assert len(list((root / "replicas").iterdir())) == 1
    serving.close()


def test_a_reader_picks_up_a_publication_on_its_own(root, embedder):
    writer, reader = _store(root, embedder), _store(root, embedder)
    writer.create()
    writer.upsert(*_chunks(embedder, "one", 2))
    writer.publish()
    assert reader.count() == 2
    writer.upsert(*_chunks(embedder, "two", 2))
    writer.publish()
    deadline = time.monotonic() + 60
    while reader.count() != 4 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert reader.count() == 4
    writer.close()
    reader.close()


def test_a_reader_returns_the_text_of_the_publication_it_reads(root, embedder, monkeypatch):
    """Replicas keep the chunks they have read; a new publication that rewrites the same
    chunks must be read anew, and a full cache lets the oldest go without losing a hit."""
    monkeypatch.setattr("server.store.replica.CACHED_CHUNKS", 2)
    writer, reader = _store(root, embedder), _store(root, embedder)
    writer.create()
    chunks, vectors = _chunks(embedder, "one", 4)
    writer.upsert(chunks, vectors)
    writer.publish()
    reader.refresh()
    first = reader.search(vectors[0], limit=4)
    assert sorted(c.content for c in first) == sorted(c.content for c in chunks)
    assert first[0].content == chunks[0].content and first[0].score > first[1].score
    assert first[0].labels is not None and first[0].book_id == "one"

    rewritten = [Chunk(**{**vars(c), "content": c.content.replace("Sampling", "Quantising")}) for c in chunks]
    writer.upsert(rewritten, vectors)  # the same ids, new text
    writer.publish()
    reader.refresh()
    again = reader.search(vectors[0], limit=4)
    assert sorted(c.content for c in again) == sorted(c.content for c in rewritten)
    assert [c.score for c in again] == [c.score for c in first]
    writer.close()
    reader.close()


def test_one_writer_at_a_time(root, embedder):
    first, second = _store(root, embedder), _store(root, embedder)
    first.create()
    with pytest.raises(StoreUnavailable, match="Another ingest .* is writing this index now"):
        second.create()
    first.close()
    second.create()
    second.close()


def test_a_forked_child_reads_from_a_replica_of_its_own(root, embedder):
    store = _store(root, embedder)
    store.create()
    store.upsert(*_chunks(embedder, "one", 4))
    store.close()
    parent = _store(root, embedder)
    assert parent.count() == 4
    parent.before_fork()
    pid = os.fork()
    if pid == 0:  # the child: exit status 0 only if it could read its own replica
        parent.after_fork()
        ok = parent.count() == 4 and len(parent.search(embedder.embed_query("sampling"), limit=2)) == 2
        parent.close()
        os._exit(0 if ok else 1)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, 9)
        pytest.fail("the child hung on the index")
    assert os.waitstatus_to_exitcode(status) == 0
    assert parent.count() == 4  # and the parent opens a replica again when asked
    parent.close()


def test_rewrites_are_compacted(root, embedder):
    store = _store(root, embedder)
    store.create()
    chunks, vectors = _chunks(embedder, "one", 40)
    store.upsert(chunks, vectors)
    store.publish()
    first = _size(root / "published")
    for _ in range(10):
        store.upsert(chunks, vectors)
        store.delete_ids([chunks[0].chunk_id])
        store.upsert(chunks[:1], vectors[:1])
        store.publish()
    assert store.count() == 40
    assert _size(root / "published") < 2 * first + 1_000_000
    store.close()


def _size(folder) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def test_an_index_of_the_previous_store_is_moved_in_once(tmp_path, embedder):
    from qdrant_client import QdrantClient, models

    settings = make_settings(tmp_path / "data")
    chunks, vectors = _chunks(embedder, "old-book", 3)
    old = QdrantClient(path=str(settings.qdrant_path))
    old.create_collection(settings.collection,
                          vectors_config={"dense": models.VectorParams(size=embedder.dim, distance=models.Distance.DOT)},
                          metadata={"embedding_model": embedder.model_name, "dim": embedder.dim, "schema": 1})
    old.upsert(settings.collection, points=[models.PointStruct(id=c.chunk_id, vector={"dense": v.tolist()},
                                                               payload=c.payload()) for c, v in zip(chunks, vectors)])
    old.close()
    said: list[str] = []
    store = open_store(settings, embedder.model_name, embedder.dim, log=said.append)
    assert len(said) == 1 and "moved 3 chunks" in said[0] and "without embedding them again" in said[0]
    assert store.books() == ["old-book"]
    assert store.search(embedder.embed_query("sampling a signal"), limit=1)[0].book_id == "old-book"
    store.close()
    assert not settings.qdrant_path.exists()
    again = open_store(settings, embedder.model_name, embedder.dim, log=said.append)
    assert len(said) == 1 and again.count() == 3
    again.close()
    shutil.rmtree(settings.data_dir)


def _search_threads() -> set[str]:
    """The ids of this process's search threads (other tests' replicas may still be closing theirs)."""
    tasks, found = f"/proc/{os.getpid()}/task", set()
    for task in os.listdir(tasks):
        try:
            if open(f"{tasks}/{task}/comm").read().startswith("edge-search"):
                found.add(task)
        except FileNotFoundError:  # a thread that ended meanwhile
            pass
    return found


def test_a_replica_searches_on_one_thread(root, embedder):
    """Each serving process has its own replica and many request threads; a search pool per
    core in every replica only made them compete for the cores."""
    writer = _store(root, embedder)
    writer.create()
    chunks, vectors = _chunks(embedder, "one", 3)
    writer.upsert(chunks, vectors)
    writer.close()
    deadline = time.monotonic() + 10
    while _search_threads() and time.monotonic() < deadline:  # the writer's pool ends on its own
        time.sleep(0.05)
    before = _search_threads()
    reader = _store(root, embedder)
    new: set[str] = set()
    for _ in range(5):  # sampled while it searches: an idle pool may end its thread between searches
        assert len(reader.search(vectors[0], limit=3)) == 3
        new |= _search_threads() - before
    # the reader's own, at most one: a pool per core starts two here (a loaded clean-clone run
    # once saw none new, so this is an upper bound)
    assert len(new) <= 1
    reader.close()


def test_an_index_written_with_bm25_vectors_still_opens_and_takes_new_writes(root, embedder):
    """Indexes written before sparse vectors were dropped hold a BM25 vector per chunk: they
    are read, searched and added to as they are."""
    from qdrant_edge import Bm25, Point, UpdateOperation

    from server.store.contract import DENSE, SPARSE

    old, vectors = _chunks(embedder, "old", 3)
    writer = _store(root, embedder)
    writer.create()
    bm25 = Bm25()
    writer._open_writer().update(UpdateOperation.upsert_points([  # as the previous version wrote them
        Point(c.chunk_id, {DENSE: vectors[i].tolist(), SPARSE: bm25.embed_document(c.embed_text)}, c.payload())
        for i, c in enumerate(old)]))
    writer._dirty = True
    writer.close()  # publishes

    reader, writer = _store(root, embedder), _store(root, embedder)
    found = reader.search(vectors[1], limit=1)
    assert [c.chunk_id for c in found] == [old[1].chunk_id] and found[0].score > 0.99
    writer.create()
    writer.upsert(*_chunks(embedder, "new", 2, text="Quantization rounds each sample to a level"))
    writer.close()
    reader.refresh()
    assert reader.books() == ["new", "old"] and reader.count() == 5
    reader.close()
