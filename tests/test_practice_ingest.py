"""The book's own practice material read at ingest into the outline, in the formats books give it:
a module quiz page with A–D choices, an answer key and sample answers (tests/data/practice-book,
shaped like the one a student met outside the development set); physical-ai-book's quiz pages
("**Answer**: c) …", and keys hidden in markdown comments); lhbg's exercises with solutions in
<details>; dibs-es's <Exercise> with its <Solution>; whg-genomics's ":::tip Question"
admonitions. Instructions, objectives and label/value lists are never questions; a page that asks
nothing gets questions only from statements that define or explain, each with its answer and source."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from places import CORPORA, PHYSICAL_AI, REPO, RUST_BOOK, SAMPLE_BOOK
from server.book.outline import OUTLINE_VERSION, Outline
from server.ingest.outline import build_outline
from server.ingest.pages import discover_pages
from server.ingest.practice import practice_blocks
from server.ingest.sections import reading_sections
from server.ingest.site import detect_site

PRACTICE_BOOK = REPO / "tests" / "data" / "practice-book"


@lru_cache(maxsize=None)
def _outline(path: Path) -> Outline:
    site = detect_site(path)
    return Outline.from_dict(build_outline(site, discover_pages(site).pages, "t").to_dict())  # as stored


@lru_cache(maxsize=None)
def _pages(path: Path) -> dict:
    return {p.source_file: p for p in discover_pages(detect_site(path)).pages}


def _questions(path: Path, source_file: str):
    page = _pages(path)[source_file]
    return [q for b in practice_blocks(page, reading_sections(page)) for q in b.questions]


def test_a_module_quiz_page_keeps_its_choices_key_and_sample_answers_not_its_instructions():
    outline = _outline(PRACTICE_BOOK)
    assert outline.version == OUTLINE_VERSION
    quiz = outline.page("01-dynamics/02-module-quiz.md")
    (block,) = quiz.blocks_of("quiz")
    items = block.questions
    assert [i.kind for i in items] == ["choice"] * 6 + ["short"] * 3
    assert items[0].question == "What is torque at a joint?"
    assert items[0].choices == ("The speed of the motor", "The turning force a motor applies at a joint",
                                "The length of a link", "The mass of the arm")
    assert [i.key for i in items[:6]] == [1, 2, 1, 0, 1, 2]  # B C B A B C, the key's letters
    assert items[0].answer.startswith("B — torque is the turning force")
    assert items[6].answer.startswith("A longer link has more inertia")  # the sample answers, numbered again
    assert items[8].answer.startswith("The torque a joint needs grows with the load")
    asked = " ".join(i.question for i in items)
    for never in ("Answer every question", "Explain how torque relates to load", "The answer key is at the end"):
        assert never not in asked  # instructions and objectives are not questions
    # each question tests a section of the lesson the quiz is about
    lesson = "https://practice.example/docs/dynamics/arm-dynamics"
    assert items[2].tests == f"{lesson}#inertia" and items[2].tests_heading == "Inertia"
    assert items[3].tests == f"{lesson}#gravity-compensation" and items[0].tests == f"{lesson}#joint-torque"


def test_a_lesson_without_questions_gets_them_from_its_definitions_never_from_its_facts():
    page = _outline(PRACTICE_BOOK).page("01-dynamics/01-arm-dynamics.md")
    assert not page.blocks_of("quiz") and not page.blocks_of("exercises")  # "… in Practice" is no practice
    (built,) = page.blocks_of("built")
    questions = {i.question: i for i in built.questions}
    torque = questions["What is **Torque**?"]
    assert torque.answer == "Torque is the turning force a motor applies at a joint."
    assert torque.tests.endswith("#joint-torque")
    assert "Explain why the torque a joint needs grows with the load." in questions  # a cause and its effect
    said = " ".join(i.question + i.answer for i in built.questions)
    assert "60 kg" not in said and "0.4 m" not in said and "120 Nm" not in said


def test_physical_ai_quiz_pages_visible_and_hidden_keys():
    outline = _outline(PHYSICAL_AI)
    (block,) = outline.page("01-module-ros/quizzes/01-quiz-intro-to-ros2.md").blocks_of("quiz")
    first = block.questions[0]
    assert first.question.startswith("What is the primary communication mechanism")
    assert first.choices == ("Services", "Actions", "Topics", "Parameters") and first.key == 2
    assert first.answer == "c) Topics"
    assert "/docs/module-ros/intro-to-ros2#" in first.tests  # the lesson the quiz is named after
    # the VSLAM quiz keeps its key in comments a reader never sees: "[Comment]: # (Correct Answer: C) …)"
    (vslam,) = outline.page("03-module-nvidia-isaac/quizzes/02-quiz-isaac-ros-vslam.md").blocks_of("quiz")
    assert len(vslam.questions) >= 10 and all(q.key is not None for q in vslam.questions)
    assert vslam.questions[0].choices[vslam.questions[0].key] == "Path Planning"
    assert vslam.questions[3].question == 'What problem does "Loop Closure" address in Visual SLAM?'


def test_lhbg_exercises_with_solutions_in_details():
    lhbg = CORPORA / "lhbg"
    numbered = _questions(lhbg, "03-html/01-html_content.md")  # "Solution for exercise #N"
    assert len(numbered) == 5 and numbered[1].question == "Change `myhtml` to use these two functions."
    assert 'myhtml = html_ (body_ "Hello, world!")' in numbered[1].answer
    assert "1. One that wraps content in `html` tag" in numbered[0].question  # its parts stay with it
    titled = _questions(lhbg, "03-html/08-exercises.md")  # solutions titled like their exercises
    assert [q.question.splitlines()[0] for q in titled][::2] == ["**Unordered lists**", "**Code blocks**"]
    assert "ol_ :: [Structure] -> Structure" in titled[1].answer
    inline = _questions(lhbg, "07-environment.md")  # "Question: …" and a collapsed "Answer"
    assert inline[0].question.startswith("what is the type of `withReaderT`") and "withReaderT" in inline[0].answer


def test_the_code_an_exercise_introduces_is_part_of_it():
    """tpil4: "1. Prove these equivalences:" then its Lean block, unindented (the book's Markdown ends the
    list there): the quiz asked "Prove these equivalences:" and never said which. A paragraph after the
    block is not the exercise's, and an exercise that introduces nothing keeps its own text."""
    asked = _questions(CORPORA / "tpil4", "quantifiers_and_equality.md")
    assert [q.question.split("\n")[0] for q in asked][:2] == [
        "Prove these equivalences:", "It is often possible to bring a component of a formula outside a universal "
        "quantifier, when it does not depend on the quantified variable. Try proving these (one direction of the "
        "second of these requires classical logic):"]  # one paragraph, as the page shows it (not as wrapped)
    first = asked[0].question
    assert "```lean" in first and "example : (∀ x, p x ∧ q x) ↔ (∀ x, p x) ∧ (∀ x, q x) := sorry" in first
    assert first.count("```") == 2 and "reverse implication" not in first
    assert "def prime (n : Nat) : Prop" in asked[3].question  # "… below, and construct …"
    assert "```" not in asked[4].question


def test_dibs_exercise_components_and_whg_question_admonitions():
    option = _questions(CORPORA / "dibs-es", "fp/monads/examples/option/kt.mdx")
    assert option[0].question == "¿Son los tipos anulables en Kotlin mónadas? ¿Por qué?"
    assert option[0].answer.startswith("No, los **tipos anulables** en Kotlin no se consideran **mónadas**")
    assert "fun <T> getOrElse" in option[1].answer
    headed = _questions(CORPORA / "dibs-es", "build-systems/tasks/custom/custom-kt.mdx")  # "🧪 Ejercicio: …"
    assert headed[0].question.startswith("Cambia la definición") and headed[0].answer.startswith("Al ejecutar")
    assert "```" not in headed[1].question and headed[1].answer.startswith("```kotlin")
    whg = _questions(CORPORA / "whg-genomics", "bioinformatics/401_command_line/05_tour.md")
    assert whg[0].question.startswith("What happens if there are two files starting 'ba'")
    assert "Hint" not in whg[0].question  # the book's hint is not the question


def test_exercises_headed_in_other_languages():
    codex = _questions(CORPORA / "python-codex-i18n" / "docs", "string.md")  # "## 练习"
    assert len(codex) == 7 and codex[1].question.startswith("反转字符串")


def test_questions_made_from_a_pages_statements_ask_what_it_teaches():
    """The Rust book's ownership and borrowing pages: "Because ownership is a new concept …" defines
    no "Because ownership", "The variable s refers to …" no "variable s"; "However, multiple
    immutable references are allowed because …" asks why they are allowed."""
    ownership = _outline(RUST_BOOK).page("ch04-01-what-is-ownership.md")
    asked = [i.question for b in ownership.blocks_of("built") for i in b.questions]
    assert "What is **Ownership**?" in asked and "What is a **scope**?" in asked
    assert not any("Because" in q or "variable s" in q for q in asked), asked
    borrowing = _outline(RUST_BOOK).page("ch04-02-references-and-borrowing.md")
    asked = [i.question for b in borrowing.blocks_of("built") for i in b.questions]
    assert "Explain why multiple immutable references are allowed." in asked, asked
    assert not any(q.startswith(("Explain why however", "Explain why for instance", "Explain why it")) for q in asked)
    closures = _outline(RUST_BOOK).page("ch13-01-closures.md")
    asked = [i.question for b in closures.blocks_of("built") for i in b.questions]
    assert "Explain why a closure that moves captured values" in " ".join(asked), asked
    assert not any("listing" in q.lower() or "**reason" in q for q in asked), asked


def test_a_term_the_page_marks_where_it_names_it_is_asked_and_a_lead_in_is_not():
    """whg-genomics's sequencing appendix (a page "in theory and practice", no practice set): it
    names its terms in bold where it introduces them ("what is called a **read pair**", "called a
    **cluster**", "known as **optical duplicates**"); "Well here are a few common issues:" announces
    a list and was asked as "What are **Well here**?"."""
    from server.ingest.practice.statements import built_questions

    page = _pages(CORPORA / "whg-genomics")[
        "sequence_data_analysis/introduction_to_next_generation_sequencing_data_analysis/Short_read_theory.md"]
    assert not [b for b in practice_blocks(page, reading_sections(page)) if b.kind in ("quiz", "exercises")]
    built = built_questions(page, reading_sections(page))
    asked = {i.question: i for i in built.questions}
    assert "What is a **read pair**?" in asked, list(asked)
    assert asked["What is a **read pair**?"].answer.startswith("Read 1 and 2 form what is called a read pair")
    assert asked["What is a **read pair**?"].tests.endswith("#what-paired-end-sequence-data-should-look-like")
    assert "What are **optical duplicates**?" in asked or "What is a **cluster**?" in asked, list(asked)
    assert not any("Well here" in q or "here**" in q for q in asked), list(asked)
    from server.ingest.practice.statements import _question, _term_ok

    assert not _term_ok("Well here") and not _term_ok("Over there")
    assert _question("A pipeline is a sequence of steps that each read the output of the one before:", False) is None
    assert _question("A pipeline is a sequence of steps that each read the output of the one before.", False)
