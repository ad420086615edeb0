"""A highlighted sentence asked "what does this mean?" without a model is followed by what the book
says right after it (question/judge/goes_on.py). A student on a TypeScript page highlighted
"undefined is a variable and null is a literal", asked what it meant, and was given the sentence
back; the book's next two sentences say what it means."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from server.book.chunk import Chunk
from server.question.context import HighlightedPassage, Source
from server.question.judge.goes_on import goes_on
from server.question.judge.highlight import passage_answer
from server.question.markers import cite_end
from server.question.understand.intent import Intent
from server.text.sentences import split_sentences

SELECTED = "undefined is a variable and null is a literal"
SECTION = ("Both undefined and null are primitive values, but undefined is a variable and null is a literal. "
           "Since null is a literal, no variable can be named null. Undefined is no literal but a variable, so a "
           "variable named undefined can be made.\n\n"
           "This is rarely useful.\n\n"
           "**Tip: Note**\n\n"
           "Older engines let a program assign to undefined.\n\n"
           "## typeof\n\n"
           "The typeof operator tells the two apart.")


def _book(text: str, parts: list[dict] | None = None) -> Source:
    chunk = Chunk(chunk_id="c1", book_id="b", book_title="B", content=text, content_hash="", source_file="p.md",
                  url="https://example.org/p/", module="", chapter="", section="", heading="undefined is a variable",
                  section_hierarchy=["undefined is a variable"], page=0, source_location="", citation="",
                  file_hash="", embed_text=text, page_key="p.md", position=0, path_prefixes=["p.md"], score=0.6,
                  parts=parts or [])
    return Source(chunk, "database")


def _selected(text: str) -> Source:
    return Source(HighlightedPassage(0, text, 0.7), "selected_text")


def test_the_book_goes_on_from_the_highlighted_sentence_up_to_a_notes_label():
    found = goes_on([_selected(SELECTED), _book(SECTION)], [SELECTED], 5)
    assert [n for n, _ in found] == [2, 2, 2]
    assert found[0][1].startswith("Since null is a literal") and found[-1][1] == "This is rarely useful."
    assert goes_on([_selected(SELECTED), _book(SECTION)], [SELECTED], 1) == [(2, found[0][1])]


def test_a_passage_no_book_passage_holds_or_no_room_goes_on_to_nothing():
    assert goes_on([_selected("a sentence the book never wrote"), _book(SECTION)],
                   ["a sentence the book never wrote"], 3) == []
    assert goes_on([_selected(SELECTED), _book(SECTION)], [SELECTED], 0) == []
    assert goes_on([_selected(SELECTED)], [SELECTED], 3) == []  # exclusive mode: the passage alone


def test_what_does_this_mean_of_a_sentence_quotes_what_the_book_says_after_it():
    sources = [_selected(SELECTED), _book(SECTION)]
    for question, intent in (("what does this mean?", Intent.DEFINE), ("explain this", Intent.EXPLAIN),
                             ("explain this in simpler words", Intent.SIMPLIFY)):
        text, parts = passage_answer(intent, question, sources)
        assert parts == []
        assert text.startswith(SELECTED) and "no variable can be named null" in text, text
        assert "[2]" in text and "what the book says right after it" in text, text
    summary, _ = passage_answer(Intent.SUMMARIZE, "summarize this", sources)
    assert "no variable can be named null" not in summary  # a summary is the passage's own
    alone, _ = passage_answer(Intent.EXPLAIN, "explain this", [_selected(SELECTED)])
    assert "[2]" not in alone and "key sentences" in alone


def test_what_the_book_says_after_a_passage_under_a_later_heading_of_its_chunk_is_cited_there():
    """A chunk opening in one section runs on under the next heading, where the highlighted
    sentence and the book's next ones are: they are cited under that heading and its anchor, not
    the chunk's first ("Rust strings don't support indexing. But why not?" was cited under
    "Concatenating with + or format!")."""
    text = ("## Concatenating\n\nThe format! macro returns a String with the contents.\n\n"
            "## Indexing into Strings\n\n" + SECTION.split("\n\n**Tip")[0])
    later = {"titles": ["Indexing into Strings"], "at": text.index("## Indexing"), "anchor": "indexing-into-strings"}
    sources = [_selected(SELECTED), _book(text, [later])]
    answer, parts = passage_answer(Intent.EXPLAIN, "explain this", sources)
    assert "This is rarely useful [3]." in answer and "[2]" not in answer, answer
    assert [(p.heading, p.url) for p in parts] == [("Indexing into Strings",
                                                    "https://example.org/p/#indexing-into-strings")]
    assert parts[0].content.startswith("## Indexing into Strings")


def test_a_japanese_sentence_is_cited_before_its_full_stop():
    assert cite_end("undefinedは変数でありnullはリテラルです", 1) == "undefinedは変数でありnullはリテラルです[1]。"
    assert cite_end("It folds", 2) == "It folds [2]."


def test_a_highlighted_part_of_an_urdu_sentence_ends_with_urdus_full_stop():
    """"Gazebo کلائنٹ-سرور فن تعمیر کا استعمال کرتا ہے" highlighted on the Urdu Gazebo page was quoted
    back as "… کرتا ہے [1]." with a Latin full stop."""
    assert cite_end("Gazebo کلائنٹ-سرور فن تعمیر کا استعمال کرتا ہے", 1) == \
        "Gazebo کلائنٹ-سرور فن تعمیر کا استعمال کرتا ہے [1]۔"
    assert cite_end("ہے۔", 2) == "ہے [2]۔"
    assert cite_end("مرحبا بالعالم", 3) == "مرحبا بالعالم [3]."  # Arabic's own full stop is the Latin one
    assert cite_end("Gazebo ہے and then English", 4) == "Gazebo ہے and then English [4]."


def test_a_sentence_keeps_the_bracket_that_closes_on_its_full_stop():
    assert split_sentences("Two clusters. (Another version is a cluster.) This has the effect. "
                           "He said \"stop.\" Then he left.") == [
        "Two clusters.", "(Another version is a cluster.)", "This has the effect.", "He said \"stop.\"",
        "Then he left."]
    # and so does a piece of an answer
    from server.question.compose.extractive.answer_units import units_of
    assert [u.text for u in units_of("Two clusters. (Another version is a cluster.) **Note.** It helps.", 1)] == [
        "Two clusters.", "(Another version is a cluster.)", "**Note.**", "It helps."]


def test_a_line_ends_where_markdown_ends_one_and_nowhere_else():
    """Found by the property below: a record separator (U+001E) broke a paragraph for the blocks
    (str.splitlines) and was a space for the sentences, so the book "went on" with sentences the
    section does not split into. A form feed, U+2028 and the like are spaces to both; "\\r\\n" and a
    lone "\\r" end a line for both."""
    from server.text.blocks import split_blocks
    for odd in ("\x1e\x1e", "\x0c\x0c", "\u2028\u2028", "\x1c\x1d"):
        section = f"First one{odd}second one. Third one."
        assert [b.text for b in split_blocks(section)] == [section]
        assert split_sentences(section) == ["First one second one.", "Third one."]
        assert goes_on([_selected("First one"), _book(section)], ["First one"], 2) == [(2, "Third one.")]
    for ending in ("\r\n", "\r"):
        section = f"First one{ending}{ending}Second one"  # no full stop: the paragraph ends each
        assert [b.text for b in split_blocks(section)] == ["First one", "Second one"]
        assert split_sentences(section) == ["First one", "Second one"]
        assert goes_on([_selected("First one"), _book(section)], ["First one"], 2) == [(2, "Second one")]


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=80), st.text(max_size=300), st.integers(min_value=0, max_value=6))
def test_whatever_is_highlighted_the_book_goes_on_with_its_own_sentences_only(selected, section, room):
    found = goes_on([_selected(selected), _book(section)], split_sentences(selected) or [selected], room)
    assert len(found) <= room
    book = split_sentences(section)
    assert all(n == 2 and sentence in book for n, sentence in found)


STEPPER = ("### Stepper Motors\n\nPrecise positioning:\n\n- Move in discrete steps\n- No feedback needed\n"
           "- Can lose steps under load\n\n## Actuator Selection\n\n| Application | Best Choice |\n|---|---|\n"
           "| Grippers | Small servos |")


def test_a_highlighted_line_of_a_list_is_shown_in_its_list():
    """The AIbook's stepper motors: "Can lose steps under load" highlighted, "what does this mean?",
    was given back alone (the book says nothing after it: a table under the next heading). The list
    it stands in, under its heading and lead-in, says what it is about."""
    sources = [_selected("Can lose steps under load"), _book(STEPPER)]
    for question, intent in (("what does this mean?", Intent.DEFINE), ("explain this", Intent.EXPLAIN)):
        text, _ = passage_answer(intent, question, sources)
        assert text.startswith("**Stepper Motors**\n\nPrecise positioning:\n\n- Move in discrete steps\n"
                               "- No feedback needed\n- Can lose steps under load [2]."), text
    # the passage alone in exclusive mode; a question asking about one of its words is answered as before
    alone, _ = passage_answer(Intent.DEFINE, "what does this mean?", [_selected("Can lose steps under load")])
    assert alone.startswith("Can lose steps under load [1].")
    worded, _ = passage_answer(Intent.DEFINE, "what does load mean here?", sources)
    assert "Precise positioning" not in worded
    # a long list is no context to quote for one line
    long = _book("Lead:\n\n" + "\n".join(f"- item {i} " + "word " * 8 for i in range(12)))
    listed, _ = passage_answer(Intent.EXPLAIN, "explain this", [_selected("item 3 " + "word " * 8), long])
    assert "item 4" not in listed


def test_the_chunk_holding_a_highlighted_line_answers_about_it_however_far_the_request_is(tmp_path, embedder):
    """"what does this mean?" of "Can lose steps under load" found the book's passages by the request
    and the line together; the stepper motors' chunk scored under the threshold (0.14) and the answer
    had only the line. The chunk holding the highlighted passage answers a request about it."""
    import shutil

    from apps import index_book, make_app
    from places import CORPORA

    docs = tmp_path / "book" / "docs"
    docs.mkdir(parents=True)
    shutil.copy(CORPORA / "aibook" / "docs" / "chapter-03-hardware" / "actuators-motors.md", docs / "actuators.md")
    (docs / "actuators.md").write_text((docs / "actuators.md").read_text().replace(
        "import ChapterActions from '@site/src/components/ChapterActions';\n\n<ChapterActions />", ""))
    book = index_book(tmp_path / "data", embedder, docs)
    try:
        client = make_app(book, tmp_path / "app").test_client()
        response = client.post("/chat", json={"question": "what does this mean?", "selected_text":
                                              "Can lose steps under load", "selection_mode": "combined"}).get_json()
        assert response["status"] == "completed", response["answer"]
        assert "Precise positioning:\n\n- Move in discrete steps\n- No feedback needed\n- Can lose steps under load" \
            in response["answer"], response["answer"]
        assert response["sources"][0]["section_hierarchy"][-1] == "Stepper Motors", response["sources"][0]
    finally:
        book.index.close()


def test_a_highlighted_lead_in_goes_on_to_the_list_it_introduces():
    """The Urdu Gazebo page: "Gazebo کلائنٹ-سرور فن تعمیر کا استعمال کرتا ہے" (Gazebo uses a
    client-server architecture:) highlighted, "explain its meaning", came back alone: the book goes on
    to what it introduces, the two programs, a list (which ended what the book "goes on" to say)."""
    lead = "Gazebo uses a client-server architecture"
    book = _book(f"{lead}:\n\n- gzserver: runs the physics loop\n- gzclient: the graphical interface\n\n## Next\n\nMore.")
    listed = "- gzserver: runs the physics loop\n- gzclient: the graphical interface"
    assert goes_on([_selected(lead), book], [lead], 3) == [(2, listed)]
    text, _ = passage_answer(Intent.EXPLAIN, "explain this", [_selected(lead), book])
    assert text.startswith(f"{lead} [1].\n\n{listed} [2].\n\n*"), text
    # a sentence that introduces nothing goes on to nothing past its paragraph's list
    assert goes_on([_selected("It ends here"), _book("It ends here.\n\n- one\n- two")], ["It ends here"], 3) == []
