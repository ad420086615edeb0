"""`textbook-chat check-book`: each check judged on answers made to fail it, and the command run
on a book through the real /chat, reporting every check with its failing examples."""
from __future__ import annotations

import json

from click.testing import CliRunner

from places import MODELS_DIR, SAMPLE_BOOK
from server.checkbook import checks, probes
from server.book.chunk import Chunk
from server.checkbook.citations import BookSections, in_citation_order, placements, quoted_pieces
from server.checkbook.runner import book_of
from server.cli import main
from server.ingest.page import Page

URL = "https://book.example/docs/robots"
BODY = ("# Robots\n\nA robot senses and acts.\n\n## Center of Mass (CoM)\n\nThe center of mass is the average "
        "position of the body's mass.\n\n## Zero Moment Point\n\nThe ZMP is the point on the ground where the net "
        "moment of the contact forces is zero.\n")


def _book() -> BookSections:
    return BookSections([Page("robots.md", "Robots", URL, [], 1, BODY, "h")])


def test_a_piece_is_placed_under_the_heading_its_anchor_names():
    book = _book()
    answer = ("The ZMP is the point on the ground where the net moment of the contact forces is zero [1].\n\n"
              "The center of mass is the average position of the body's mass [2].")
    right = [{"source_type": "database", "url": f"{URL}#zero-moment-point"},
             {"source_type": "database", "url": f"{URL}#center-of-mass-com"}]
    assert [p.placed for p in placements(answer, right, book)] == [True, True]
    wrong = [right[1], right[0]]  # the ZMP cited under "Center of Mass (CoM)"
    assert [p.placed for p in placements(answer, wrong, book)] == [False, False]
    assert placements("Words of the answer's own, not the book's [1].", right, book) == []  # nothing to place


def test_pieces_are_the_paragraph_before_each_marker_and_code_holds_no_marker():
    answer = "**Heading**\n\nFirst para.\n\nThe quoted one [1]. More `x[2]` text [2].\n\n```\ny[3]\n```\n\n[3]"
    assert [(n, p.strip()) for n, p in quoted_pieces(answer)] == [
        (1, "The quoted one"), (2, ". More `x[2]` text"), (3, "```\ny[3]\n```")]


def test_markers_must_be_first_used_in_order():
    assert in_citation_order("a [1] b [2] c [1] d [3]")
    assert not in_citation_order("a [1] b [3] c [2]")
    assert not in_citation_order("a [2] b [1]")
    assert in_citation_order("no markers, and `code[5]`")


def test_a_long_unasked_code_block_and_long_prose_fail_the_length_check():
    code = "```python\n" + "\n".join(f"x{n} = {n}" for n in range(40)) + "\n```"
    short = {"answer": "A short answer of a few words [1]."}
    assert checks.answer_length([("what is x?", short)] * 3).passed
    failed = checks.answer_length([("what is x?", {"answer": f"Some words [1].\n\n{code}"})] * 3)
    assert not failed.passed and "40-line code block" in failed.failures[0]
    assert checks.answer_length([("show me the code for x", {"answer": code})]).passed  # asked for
    wordy = {"answer": " ".join(["word"] * 170)}
    assert not checks.answer_length([("q", wordy)] * 3).passed


def test_a_collage_of_four_pages_or_two_unasked_code_blocks_fails_the_sections_check():
    sources = [{"url": f"https://book.example/docs/p{n}#s{n}"} for n in range(1, 5)]
    three = {"answer": "One [1]. Two [2]. Three [3].", "sources": sources}
    assert checks.sections_quoted([("what is x?", three)]).passed
    four = {"answer": "One [1]. Two [2]. Three [3]. Four [4].", "sources": sources}
    failed = checks.sections_quoted([("what is x?", four)])
    assert not failed.passed and "4 sections cited" in failed.failures[0]
    subsections = {"answer": "One [1]. Two [2]. Three [3]. Four [4].",
                   "sources": [{"url": f"https://book.example/docs/p#s{n}", "section_hierarchy": ["P", "S", f"S{n}"]}
                               for n in range(1, 5)]}
    assert checks.sections_quoted([("what is x?", subsections)]).passed  # one page's section and its subsections
    # four sections of one page (aibook's small sections merged into one chunk) are a collage too
    one_page = {"answer": "One [1]. Two [2]. Three [3]. Four [4].",
                "sources": [{"url": f"https://book.example/docs/p#s{n}", "section_hierarchy": ["P", f"S{n}"]}
                            for n in range(1, 5)]}
    assert not checks.sections_quoted([("what is x?", one_page)]).passed
    dump = {"answer": "Some [1].\n\n```py\na = 1\n```\n\n```py\nb = 2\n```", "sources": sources}
    assert "2 code blocks" in checks.sections_quoted([("what is x?", dump)]).failures[0]
    assert checks.sections_quoted([("show me the code for x", dump)]).passed  # asked for


def test_label_value_quiz_items_fail_and_questions_pass():
    def ask(question, **body):
        return 200, {"status": "completed", "answer": "**Quiz**\n\n1. What is a node? [1]\n2. Robot mass: 60 kg\n"
                                                      "3. Task 1: Compute the torque at the elbow for a 2 kg load\n"
                                                      "4. **Ejercicio de cierre: Duplicar niveles**\n\n   Define una "
                                                      "función `doublePowers` que duplique cada valor.\n"
                                                      "5. **Robot mass: 60 kg**"}

    result = checks.quiz_items(ask, None, ["https://book.example/docs/arm"])
    # a titled exercise with its task set under it is asked; a bold label alone is not
    assert not result.passed and result.failures == ["arm: “Robot mass: 60 kg”", "arm: “**Robot mass: 60 kg**”"]
    assert result.measure.startswith("3/5")


def test_the_probes_are_one_edit_from_the_books_words_and_phrased_every_way():
    questions = probes.typo_questions(["kinematics", "controller", "sensor"], 30)
    assert len(questions) == 30 and len(set(questions)) > 20
    assert not any(w in q.lower().split() for q in questions for w in ("kinematics", "controller", "sensor"))
    phrasings = probes.request_phrasings()
    assert "can you give me an example?" in phrasings and "REPHRASE THIS" in phrasings
    assert len(phrasings) == 6 * 7
    # a book with Spanish and Urdu pages is asked as their readers ask, accents left out too
    spanish = probes.request_phrasings(("es", "ur"))
    assert {"explícame esto", "explicame esto", "اس کی وضاحت کریں"} <= set(spanish) and len(spanish) == 6 * 7 + 7 + 6
    assert probes.term_requests("A trait defines shared behaviour. Traits are like interfaces.") == [
        "what is interfaces?", "what does interfaces mean?"]


def test_a_paragraph_in_chinese_japanese_or_urdu_is_highlighted_too():
    # their sentences end at 。 ！ ？ ۔ with no space after: a book in them has highlights to ask of
    paragraphs = [("型アサーションは、コンパイラに型の推論を上書きさせる構文です。コンパイラはそれを信じて、"
                   "間違っていても警告を出しません。そのため、使いすぎには注意が必要です。", "https://b.example/ja"),
                  ("装饰器是一个接受函数作为参数的函数，它在不修改原函数代码的情况下增加功能。它返回一个新的函数！"
                   "这样我们就能在很多地方复用同一段逻辑。", "https://b.example/zh"),
                  ("نوڈ ایک پروگرام ہے جو روبوٹ میں ایک خاص کام کرتا ہے۔ نوڈز ٹاپکس کے ذریعے ایک دوسرے کو پیغامات "
                   "بھیجتے ہیں اور وصول کرتے ہیں۔ ہر نوڈ کا ایک الگ نام ہوتا ہے۔", "https://b.example/ur"),
                  ("One sentence only, and no second one follows it here", "https://b.example/en")]
    assert [p.url for p in probes.highlightable(paragraphs, 4)] == [url for _, url in paragraphs[:3]]


def test_a_highlight_asked_what_its_words_mean_is_answered_in_both_modes():
    """"what is X?" on a highlight looked for the section named by X in the highlight, and the answer failed."""
    asked = []

    def ask(question, **body):
        asked.append((question, body["selection_mode"]))
        if question.startswith("what is"):  # the passage need not say what its every word is
            return 200, {"status": "refused"}
        return (500, {"code": "INTERNAL"}) if "mean" in question and failing else (200, {"status": "completed"})

    passage = ("A trait defines the functionality a particular type has and can share with other types. We can use "
               "traits to define shared behaviour in an abstract way. Traits are similar to a feature often called "
               "interfaces in other languages, although with some differences.")
    book = type("Book", (), {"paragraphs": [(passage, "https://book.example/docs/traits")], "languages": ("en",)})()
    failing = False
    assert checks.highlight_requests(ask, book).passed
    failing = True
    result = checks.highlight_requests(ask, book)
    assert not result.passed and result.failures == ["exclusive: 'what does functionality mean?' → 500 INTERNAL",
                                                     "combined: 'what does functionality mean?' → 500 INTERNAL"]
    assert ("what is functionality?", "combined") in asked and ("what does functionality mean?", "exclusive") in asked


def test_check_book_reports_every_check_on_a_book(tmp_path):
    env = {"TEXTBOOK_CHAT_DATA_DIR": str(tmp_path / "data"), "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR)}
    off_book = tmp_path / "off-book.txt"
    off_book.write_text("Borrowing and ownership rules\nLifetimes in function signatures\n")
    result = CliRunner().invoke(main, ["check-book", str(SAMPLE_BOOK), "--json", "--off-book", str(off_book)], env=env)
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.stdout.strip().splitlines()[-1])
    by_name = {c["check"]: c for c in report["checks"]}
    assert list(by_name) == ["typo fuzz", "highlight requests", "citations under their heading",
                             "citations numbered in order", "answer length", "sections quoted", "off-book refused",
                             "course routing",
                             "quiz items", "own quizzes"]
    for name in ("typo fuzz", "highlight requests", "citations under their heading", "off-book refused", "quiz items"):
        assert by_name[name]["passed"], by_name[name]
    assert "en 1.00 of 22" in by_name["off-book refused"]["measure"]  # the everyday list and the file's two
    assert report["passed"] == all(c["passed"] for c in report["checks"]) and (result.exit_code == 1) != report["passed"]
    assert all(len(c["failures"]) <= checks.MAX_EXAMPLES for c in report["checks"])


def test_a_piece_quoting_the_books_emphasis_starred_is_the_books_words():
    from server.checkbook.citations import words

    assert words("A _trait_ defines the functionality") == words("A *trait* defines the functionality") == [
        "a", "trait", "defines", "the", "functionality"]
    assert words("snake_case and my_var_name") == ["snake_case", "and", "my_var_name"]


def test_a_book_with_english_pages_is_probed_in_english_with_their_headings():
    """"where does the book cover کسٹم سروس کی تعریف?" mixes an English frame with an Urdu heading:
    no reader asks it, and its English words read as names the book never uses. The probes of a book
    with English pages take their headings; a book without any keeps its own."""
    def chunk(heading: str, locale: str) -> Chunk:
        return Chunk(chunk_id=heading, book_id="b", book_title="B", content="Text.", content_hash="",
                     source_file="f.md", url="u", module="", chapter="Page", section="", heading=heading,
                     section_hierarchy=[], page=0, source_location="", citation="", file_hash="", locale=locale)
    both = book_of("b", [chunk("Custom Services", "en"), chunk("کسٹم سروس کی تعریف", "ur")], None, [], [])
    assert both.headings == ["Custom Services"]
    urdu = book_of("b", [chunk("کسٹم سروس کی تعریف", "ur")], None, [], [])
    assert urdu.headings == ["کسٹم سروس کی تعریف"]
