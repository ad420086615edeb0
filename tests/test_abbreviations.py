"""A book's own abbreviations: found where it defines them ("minor allele frequency (MAF)"), and a
question naming one searched with its long form, so "whats MAF" finds the book's passage."""
from __future__ import annotations

import shutil

from hypothesis import given, strategies as st

from apps import index_book, make_app
from places import CORPORA
from server.text.abbreviations import book_abbreviations, defined_in, spelt_out
from server.text.vocabulary import BookVocabulary

PCA_PAGE = ("leaving SNPs with minor allele frequency (MAF) at least 1%, and with no pairs remaining. We compute "
            "principal components analysis (PCA) on single nucleotide polymorphisms (SNPs). Report the odds ratio (OR).")


def test_a_short_form_in_brackets_is_found_with_the_words_it_abbreviates():
    assert dict(defined_in(PCA_PAGE)) == {"maf": "minor allele frequency", "pca": "principal components analysis",
                                          "snps": "single nucleotide polymorphisms", "or": "odds ratio"}
    # brackets that abbreviate nothing: a letter, an aside, words whose letters do not spell it
    assert list(defined_in("a value (x) and the other (see above) or a robot arm (ZMP)")) == []


def test_a_short_form_with_its_long_form_in_brackets_after_it_is_found_too():
    text = ("Localization is often achieved using AMCL (Adaptive Monte Carlo Localization). It needs a GPU (see "
            "below), an ARM (a robot) and SLAM (simultaneous localization and mapping).")
    assert dict(defined_in(text, either_way=True)) == {"amcl": "Adaptive Monte Carlo Localization",
                                                       "slam": "simultaneous localization and mapping"}
    assert dict(defined_in(text)) == {}  # the forms a question is spelt out with: the long one first


def test_the_long_form_the_book_writes_most_often_is_kept():
    found = [("ld", "linkage disequilibrium"), ("ld", "linkage disequilibrium"), ("ld", "local distance")]
    assert book_abbreviations(found) == {"ld": "linkage disequilibrium"}


def test_a_question_naming_an_abbreviation_is_spelt_out():
    known = BookVocabulary.from_texts([PCA_PAGE]).abbreviations
    assert spelt_out("whats MAF", known) == "whats MAF (minor allele frequency)"
    assert spelt_out("what is maf?", known) == "what is maf (minor allele frequency)?"
    assert spelt_out("is the OR big?", known) == "is the OR (odds ratio) big?"
    # typed in lower case, an English word is that word; and a long form already asked is not repeated
    assert spelt_out("pca or tsne?", known) == "pca (principal components analysis) or tsne?"
    assert spelt_out("what does minor allele frequency (MAF) mean", known) == "what does minor allele frequency (MAF) mean"


@given(st.text(max_size=300))
def test_any_text_is_read_for_abbreviations_without_failing(text):
    definitions = list(defined_in(text))
    assert all(short == short.lower() and len(long.split()) >= 2 for short, long in definitions)


@given(st.text(max_size=200))
def test_a_spelt_out_question_keeps_every_character_it_had(text):
    out = spelt_out(text, {"maf": "minor allele frequency", "ld": "linkage disequilibrium"})
    assert out.replace(" (minor allele frequency)", "").replace(" (linkage disequilibrium)", "") == text


def test_whats_maf_is_answered_from_the_page_that_defines_it(tmp_path, embedder):
    """On a genomics book's LD-pruning page and two others, "whats MAF" was refused: MiniLM reads
    "MAF" as nothing near the page that defines it."""
    pca = CORPORA / "whg-genomics" / "docs" / "population_genetics" / "principal_components_analysis"
    response = _asked(tmp_path, embedder, pca, ("ld_pruning.md", "overview.md", "relatedness_pruning.md"), "whats MAF")
    assert response["status"] == "completed", response["answer"]
    assert response["sources"][0]["source_file"] == "ld_pruning.md", response["sources"]


def test_a_highlighted_passage_is_judged_on_the_abbreviation_as_asked(tmp_path, embedder):
    """A Spanish course names its technique in English ("Property-Based Testing (PBT)"); a highlighted
    paragraph that says "PBT" alone answers "¿entonces cuándo me conviene más usar PBT?". Spelt out,
    the question asked English words the paragraph does not say, and it was declined."""
    docs = tmp_path / "book" / "docs"
    docs.mkdir(parents=True)
    choosing = ("Al final, elegir entre DDT o PBT depende de las necesidades del proyecto. Si bien DDT es útil para "
                "pruebas controladas y específicas, PBT ofrece una ventaja considerable para pruebas exhaustivas y "
                "automatizadas, especialmente en funciones complejas o con muchas combinaciones de entradas posibles.")
    (docs / "pbt.md").write_text("# Pruebas basadas en propiedades\n\nEl Property-Based Testing (PBT) genera las entradas "
                                 "de una prueba a partir de una propiedad que debe cumplirse para todas ellas. El "
                                 "Data-Driven Testing (DDT) ejecuta una prueba sobre una tabla de entradas escrita a "
                                 "mano.\n\n## Cómo elegir\n\n" + choosing + "\n", encoding="utf-8")
    book = index_book(tmp_path / "data", embedder, docs)
    try:
        client = make_app(book, tmp_path / "app").test_client()
        for mode in ("exclusive", "combined"):
            response = client.post("/chat", json={"question": "¿entonces cuándo me conviene más usar PBT?",
                                                  "selected_text": choosing, "selection_mode": mode}).get_json()
            assert response["status"] == "completed", (mode, response["answer"])
    finally:
        book.index.close()


def test_an_abbreviation_is_answered_from_the_passage_that_spells_it_out(tmp_path, embedder):
    """The robotics book's Nav2 page: "what does AMCL do?" was refused: no passage was near it (MiniLM
    reads "AMCL" as nothing), and the one spelling it out, "AMCL (Adaptive Monte Carlo Localization)", was
    no definition of it. It is; and its list, longer than an answer, opens the answer cut to the item
    saying it, over another list naming AMCL in passing ("Using AMCL or Isaac ROS' localization tools")."""
    isaac = CORPORA / "physical-ai-book" / "docs" / "03-module-nvidia-isaac"
    pages = ("03-nav2-path-planning.md", "02-isaac-ros-vslam.md", "01-isaac-sim-intro.md")
    response = _asked(tmp_path, embedder, isaac, pages, "what does AMCL do?")
    answer = response["answer"]
    assert response["status"] == "completed" and "Determines the robot's pose" in answer, answer
    assert "Using AMCL" not in answer or answer.index("Determines the robot's pose") < answer.index("Using AMCL"), answer


def _asked(tmp_path, embedder, folder, pages: tuple[str, ...], question: str) -> dict:
    """The answer to `question` of a book of a few of a corpus's pages."""
    docs = tmp_path / "book" / "docs"
    docs.mkdir(parents=True)
    for name in pages:
        shutil.copy(folder / name, docs / name)
    book = index_book(tmp_path / "data", embedder, docs)
    try:
        return make_app(book, tmp_path / "app").test_client().post("/chat", json={"question": question}).get_json()
    finally:
        book.index.close()
