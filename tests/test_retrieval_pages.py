"""Retrieval gives other pages their turn: one page fills at most two of the first places, so a
page whose every chunk is near the question does not keep the page that answers out of them.
The real model and a real index."""
from __future__ import annotations

import uuid

import pytest

from server.book.chunk import Chunk
from server.question.gather.retrieval import PER_PAGE, Retriever
from server.store.edge import EdgeStore

# four passages of one page on LD pruning for ADMIXTURE, one of the page that answers for PCA
ADMIXTURE = ["Perform LD pruning in PLINK before ADMIXTURE: plink --indep-pairwise 50 10 0.1 prunes the SNPs.",
             "LD pruning in PLINK for ADMIXTURE keeps SNPs in low linkage disequilibrium with each other.",
             "After LD pruning in PLINK, the pruned SNPs are written to a prune.in file for ADMIXTURE.",
             "The LD pruning step in PLINK makes the ADMIXTURE run quicker and its estimates better."]
PCA = "Before PCA, LD pruning removes correlated SNPs: plink --indep-pairwise 50 5 0.2 keeps roughly independent ones."
QUESTION = "which plink options do the LD pruning?"


def _chunk(key: str, text: str, source_file: str, locale: str = "en") -> Chunk:
    return Chunk(chunk_id=str(uuid.uuid5(uuid.NAMESPACE_URL, key)), book_id="b", book_title="B", content=text,
                 content_hash="", source_file=source_file, url=f"https://b.example/{source_file}", module="",
                 chapter="", section="", heading="LD pruning", section_hierarchy=[], page=0, source_location="",
                 citation="", file_hash="", embed_text=text, locale=locale)


@pytest.fixture
def index(tmp_path, embedder):
    def make(chunks: list[Chunk]) -> EdgeStore:
        store = EdgeStore(tmp_path / "index", "chunks", embedder.model_name, embedder.dim)
        store.create()
        store.upsert(chunks, embedder.embed_documents([c.content for c in chunks]))
        store.publish()
        return store
    return make


def test_one_page_fills_at_most_two_of_the_first_places(index, embedder):
    chunks = [_chunk(f"a{i}", text, "admixture.md") for i, text in enumerate(ADMIXTURE)] + [_chunk("p", PCA, "pca.md")]
    store = index(chunks)
    found = Retriever(store, embedder).retrieve(QUESTION, max_chunks=3)
    assert [c.source_file for c in found].count("admixture.md") == PER_PAGE == 2
    assert "pca.md" in [c.source_file for c in found]
    # with no other page to give a turn to, the page's other passages fill the places left
    assert [c.source_file for c in Retriever(store, embedder).retrieve(QUESTION, max_chunks=5)].count("admixture.md") == 4
    store.close()


def test_the_readers_locale_fills_its_places_before_another_locales_passages(index, embedder):
    """A page's waiting passages in the reader's locale come before any passage of another locale."""
    chunks = ([_chunk(f"a{i}", text, "admixture.md", "fr") for i, text in enumerate(ADMIXTURE)]
              + [_chunk("p", PCA, "pca.md", "en")])
    store = index(chunks)
    found = Retriever(store, embedder).retrieve(QUESTION, max_chunks=4, prefer_locale="fr")
    assert [c.locale for c in found] == ["fr"] * 4
    store.close()
