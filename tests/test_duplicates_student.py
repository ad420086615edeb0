"""A student on the genomics book's page on duplicate reads (whg-genomics, "Appendix 2: understanding
sequence duplication levels"). What they met: "how many duplicates would i get just by chance?" was
answered without the number the section gives ("This returns a duplication rate of about 4% - let's
plot it:", the lead-in to plotting code nobody asked for, left out with its code)."""
from __future__ import annotations

from book_pages import passage, section
from places import CORPORA
from server.question.compose.extractive.answers import quoted_answer
from server.question.context import Source

PAGE = (CORPORA / "whg-genomics" / "docs" / "sequence_data_analysis" /
        "introduction_to_next_generation_sequencing_data_analysis" / "duplicates.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return section(PAGE, title)


def _source(text: str, heading: str, score: float) -> Source:
    return passage(text, heading, score, file="duplicates.md", hierarchy=["Appendix 2", heading])


CHANCE = _source(_section("## Duplicates by chance!"), "Duplicates by chance!", 0.52)
# as the index cut it: the section's opening and its simulation, then the rest from the plot's lead-in on
_AT = _section("## Duplicates by chance!").index("This returns a duplication rate")
OPENING = _source(_section("## Duplicates by chance!")[:_AT], "Duplicates by chance!", 0.52)
PLOT = _source(_section("## Duplicates by chance!")[_AT:], "Duplicates by chance!", 0.45)
GENOMES = _source(_section("## Genomes contain true duplicates"), "Genomes contain true duplicates", 0.4)


def test_how_many_is_answered_with_the_number_the_section_gives():
    for sources in ([CHANCE, GENOMES], [OPENING, GENOMES, PLOT]):  # read on in its passage, or from another one
        answer = quoted_answer("how many duplicates would i get just by chance?", sources).text
        assert "This returns a duplication rate of about 4%" in answer, answer
        assert "let's plot it" not in answer and "```" not in answer, answer  # no code was asked for


def test_a_lead_in_comes_without_its_code_only_for_what_it_says():
    # asked for the code, the section's code is quoted
    shown = quoted_answer("show me the R code that simulates duplicates", [CHANCE]).text
    assert "simulate_duplicates = function( genome_size, number_of_reads )" in shown, shown
    # asked what no number answers, the lead-in's sentence is not brought for a word the answer says already
    genomes = quoted_answer("can duplicates come from the genome itself?", [CHANCE, GENOMES]).text
    assert "about 4%" not in genomes and "It's worth noting also that genomes contain truly duplicated" in genomes, genomes
