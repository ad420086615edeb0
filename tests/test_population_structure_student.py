"""A student on the genomics course's page on population structure (whg-genomics, "Controlling for
population structure"). What they met: "what is population stratificaton" was answered with a
function that evolves a simulated population: "population" fills a simulation chapter, nearer in
meaning than the page's one passage on stratification (0.24). A word asked that the book seldom uses
names what the reader's page's passage using it is about (question/gather/reader_page.py); and the
challenge questions of the page's admonition are practice (test_answers.py); and "--keep-allele-order"
is defined in an aside of its item (test_gate.py)."""
from __future__ import annotations

import shutil

from apps import index_book, make_app
from places import CORPORA

DOCS = CORPORA / "whg-genomics" / "docs"
PAGES = ["genome_wide_association_studies/genome_wide_association_analysis/population_structure.md",
         "genome_wide_association_studies/genome_wide_association_analysis/allele_frequencies.md",
         "population_genetics/simulation/popgen_simulation.md", "population_genetics/simulation/statistics.md"]


def test_a_word_the_book_seldom_uses_is_answered_from_the_readers_page(tmp_path, embedder):
    for page in PAGES:
        (tmp_path / "book" / "docs" / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(DOCS / page, tmp_path / "book" / "docs" / page)
    book = index_book(tmp_path / "data", embedder, tmp_path / "book" / "docs")
    client = make_app(book, tmp_path / "app").test_client()
    on_page = client.post("/chat", json={"question": "what is population stratificaton", "metadata": {
        "page_url": "http://localhost:3000/genome_wide_association_studies/genome_wide_association_analysis/"
                    "population_structure"}}).get_json()
    assert "The most common source of test statistic inflation is population stratification" in on_page["answer"], \
        on_page["answer"]
