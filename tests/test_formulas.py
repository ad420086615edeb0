"""A book's mathematics as its reader sees it: "$F_{ST}$" is the name a student types as "fst", a
displayed formula is one block (its blank lines and all, ended by its closing "$$"), and a value
asked about ("an fst of 0") picks the sentence that says it. Found asking a genomics course
"what does an fst of 0 mean?": it answered with R code, its page's definition never read."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from places import CORPORA
from server.book.chunk import Chunk
from server.ingest.clean import clean_markdown
from server.question.compose.extractive.answer_units import units_of
from server.question.compose.extractive.answers import block_answer
from server.question.context import Source
from server.text.blocks import split_blocks
from server.text.definition import defines
from server.text.vocabulary import words

FST = CORPORA / "whg-genomics" / "docs" / "population_genetics" / "admixture_and_biobanks" / "fst.md"


def _source(text: str) -> Source:
    chunk = Chunk(chunk_id="c", book_id="b", book_title="B", content=text, content_hash="", source_file="f.md",
                  url="", module="", chapter="", section="", heading="", section_hierarchy=[], page=0,
                  source_location="", citation="", file_hash="", score=0.6)
    return Source(chunk, "database")


def test_a_tex_name_with_its_subscript_is_one_word_and_code_keeps_its_parts():
    assert "fst" in words("When $F_{ST}$ is 0, the populations are the same.")
    assert "fst" in words("$F_{ST}^{Hudson}$") and "hudson" in words("$F_{ST}^{Hudson}$")
    assert words("Fst_eur_afr <- Hudson_Fst(p1)") == ["fst", "eur", "afr", "hudson", "fst", "p1"]
    assert defines("$F_{ST}$ is a statistical measure of genetic differentiation.", "fst")


@given(st.text(alphabet="aF_{}ST $\\0é", max_size=40))
def test_reading_tex_names_loses_and_adds_no_letter(text):
    assert "".join(words(text)) == "".join(words(text.replace("_", " ").replace("{", " ").replace("}", " "))
                                           ).replace(" ", "")


def test_a_displayed_formula_is_one_block_ended_by_its_closing_dollars():
    page = ("Hudson's $F_{ST}$ can be calculated by:\n\n$$\n\nF_{ST} = \\frac{a}{b}\n\n$$\n"
            "where $n_i$ is the sample size of population $i$.\n")
    blocks = split_blocks(clean_markdown(page))
    assert [b.text for b in blocks] == ["Hudson's $F_{ST}$ can be calculated by:", "$$\nF_{ST} = \\frac{a}{b}\n$$",
                                        "where $n_i$ is the sample size of population $i$."]
    formula = [u for u in units_of(clean_markdown(page), 1) if u.introduces == "formula"]
    assert formula and formula[0].text.endswith("$$"), formula
    # inside a sentence, a formula stays in it: alone, "$$p-value ~ uniform(0,1)$$" was quoted as an answer
    within = "Under the null model we will have\n$$\n\n\\beta \\sim N(0, 1)\n\n$$\nand so on.\n"
    assert [b.text for b in split_blocks(clean_markdown(within))] == [
        "Under the null model we will have\n$$\n\\beta \\sim N(0, 1)\n$$\nand so on."]


def test_a_value_asked_about_is_answered_by_the_sentence_that_says_it():
    page = clean_markdown(FST.read_text(encoding="utf-8").split("---", 2)[2])
    intro = page[:page.index("## Setting up R environment")]
    answer = block_answer("what does an fst of 0 mean?", [_source(intro)])
    assert "When $F_{ST}$ is 0, it means that there is no genetic differentiation" in answer, answer
    assert "```" not in answer and answer.count("$$") in (0, 2), answer


def test_a_number_asked_about_is_a_word_of_the_question_and_a_names_number_is_not():
    """"a mapping quality of 0": the 0 is what is asked; in "ros 2" or "python 3" the number is the name's."""
    page = ("## Mapping quality\n\nThe mapping quality of a read says how sure the aligner is that the read comes from "
            "the place it was aligned to. The aligner computes the mapping quality from how well the read matches "
            "there and how well it matches anywhere else in the genome, and writes it in the fifth column of the "
            "file. Filtering on mapping quality removes reads whose placement is doubtful.\n\n"
            "## Repeats\n\nA read from a repeat matches several places equally well. Its mapping quality is then 0, "
            "whichever of those places the aligner reports.")
    answer = block_answer("what does a mapping quality of 0 mean?", [_source(page)])
    assert "Its mapping quality is then 0" in answer, answer
    assert "Repeats" not in block_answer("what does mapping quality mean for python 3?", [_source(page)])
    # numbers written beside numbers are a command's arguments: "what does --indep-pairwise 50 5 0.2
    # mean?" was answered from an R page's "> 5^2", the "5" read as a value asked about
    assert "Repeats" not in block_answer("what does a mapping quality filter of 20 30 0 mean?", [_source(page)])


def test_a_sentence_running_on_into_its_formula_is_quoted_with_it_and_a_formula_never_alone():
    page = ("The loss of the model is computed as\n\n$$\nL = \\sum_i (y_i - \\hat{y}_i)^2\n$$\n\n"
            "A smaller loss means a better fit of the model to the data.")
    units = units_of(page, 1)
    assert units[0].introduces == "formula" and units[0].text.startswith("The loss of the model is computed as")
    assert not any(u.kind == "formula" for u in units), units
    answer = block_answer("how is the loss of the model computed?", [_source(page)])
    assert "computed as\n\n$$" in answer, answer


def test_a_formula_a_paragraph_runs_into_is_a_block_and_stays_with_its_lead_in():
    """The genomics course's "… that paper's formula can be defined as:" has its formula on the next
    line, no blank line between: it was one paragraph, and the answer quoted "defined as: $$"."""
    page = (CORPORA / "whg-genomics" / "docs" / "statistical_modelling" / "regression_modelling"
            / "interpreting_p_values.md").read_text(encoding="utf-8")
    at = page.index("In our terminology")
    text = clean_markdown(page[page.rindex("\n", 0, at):page.index("In other words", at)])
    kinds = [(b.kind, b.text.split("\n")[0]) for b in split_blocks(text)]
    assert kinds == [("paragraph", text.strip().split("\n")[0]), ("paragraph", "$$")]
    answer = block_answer("how is the positive false discovery rate defined?", [_source(text)])
    assert "can be defined as:\n\n$$\n\\text{pFDR}" in answer and "as: $$" not in answer


def test_an_indented_block_is_code_where_the_books_markdown_reads_it_so():
    """The genomics course (Docusaurus 2, MDX 1) lists plink's output files as an indented block:
    read as a paragraph, the files were dropped as a sentence cut off, and "what files does plink
    --make-bed create?" was answered without them. MDX 2 and later (Docusaurus 3) read indented
    lines as text: there they stay as written."""
    from server.ingest.site import detect_site

    page = (CORPORA / "whg-genomics" / "docs" / "genome_wide_association_studies" / "genome_wide_association_analysis"
            / "gwas_quality_control.md").read_text(encoding="utf-8").split("---", 2)[2]
    assert detect_site(CORPORA / "whg-genomics").indented_code and not detect_site(CORPORA / "dibs-es").indented_code
    text = clean_markdown(page, indented_code=True)
    assert "three new files:\n\n```\nchr19-example.bed\nchr19-example.bim\nchr19-example.fam\n```" in text
    assert "```\nchr19-example.bed" not in clean_markdown(page)
    answer = block_answer("what files does plink --make-bed create?", [_source(text[:text.index("We can tell")])])
    assert "chr19-example.fam" in answer, answer


@given(st.lists(st.sampled_from(["    ", "\t", "a", "b.", " ", "\n", "\n\n", "```", "- ", "$$"]), max_size=30).map("".join))
def test_fencing_indented_code_keeps_every_word_in_its_order(text):
    from server.ingest.clean import _indented_code_fenced

    def words(t):
        return [w for w in t.split() if w != "```"]
    assert words(_indented_code_fenced(text)) == words(text)
