"""A student on the genomics course's page on population structure (whg-genomics, "Controlling for
population structure"). What they met: "what is population stratificaton" was answered with a
function that evolves a simulated population: "population" fills a simulation chapter, nearer in
meaning than the page's one passage on stratification (0.24); "why do my test statistics look
inflated?" from a QQ plot's section, though the page says what inflates them. A word asked that the
book seldom uses (or its forms: "inflation" of "inflated") names what the reader's page's passage
using it is about (question/gather/reader_page.py); and the
challenge questions of the page's admonition are practice (test_answers.py); and "--keep-allele-order"
is defined in an aside of its item (test_gate.py)."""
from __future__ import annotations

import shutil

from hypothesis import given, strategies as st

from apps import index_book, make_app
from places import CORPORA

DOCS = CORPORA / "whg-genomics" / "docs"
PAGES = ["genome_wide_association_studies/genome_wide_association_analysis/population_structure.md",
         "genome_wide_association_studies/genome_wide_association_analysis/gwas_association.md",
         "statistical_modelling/regression_modelling/interpreting_p_values.md",
         "genome_wide_association_studies/genome_wide_association_analysis/allele_frequencies.md",
         "population_genetics/simulation/popgen_simulation.md", "population_genetics/simulation/statistics.md"]


def test_a_word_the_book_seldom_uses_is_answered_from_the_readers_page(tmp_path, embedder):
    for page in PAGES:
        (tmp_path / "book" / "docs" / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(DOCS / page, tmp_path / "book" / "docs" / page)
    book = index_book(tmp_path / "data", embedder, tmp_path / "book" / "docs")
    client = make_app(book, tmp_path / "app").test_client()
    page = "http://localhost:3000/genome_wide_association_studies/genome_wide_association_analysis/population_structure"
    for question in ("what is population stratificaton",  # a typo of a word in two passages of the book
                     "why do my test statistics look inflated?"):  # the page writes "inflation"
        on_page = client.post("/chat", json={"question": question, "metadata": {"page_url": page}}).get_json()
        assert "The most common source of test statistic inflation is population stratification" in on_page["answer"], \
            (question, on_page["answer"])


def test_forms_of_a_word_differ_only_in_their_last_letters():
    from server.question.gather import _forms
    assert _forms("inflated", "inflation") and _forms("stratified", "stratification") and _forms("statistics", "statistic")
    assert not _forms("stratification", "strategy") and not _forms("pipe", "pipeline")


@given(st.text(alphabet="abcdefghij", min_size=0, max_size=12), st.text(alphabet="abcdefghij", min_size=0, max_size=12))
def test_being_forms_of_one_word_goes_both_ways(one, other):
    from server.question.gather import _forms
    assert _forms(one, other) == _forms(other, one)
    assert _forms(one, one) == (len(one) >= 5)
