"""What a code block names, as opposed to the text it holds as data (code_lines.program_words)."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.question.compose.extractive.code_lines import program_words
from server.text.vocabulary import words


def test_a_code_blocks_held_text_is_left_out_and_its_names_and_comments_kept():
    text = ('Now:\n\n```hs\nsample = [r|\nCreate a new source file\n|]\n-- read all of a file\n'
            'main = putStrLn "print these three words" >> print "hi there"\n```\n\nA "quoted phrase of prose" stays.')
    kept = program_words(text)
    assert "Create a new source file" not in kept and "print these three words" not in kept
    assert "-- read all of a file" in kept and "putStrLn" in kept and '"hi there"' in kept  # a short string is a name
    assert '"quoted phrase of prose"' in kept  # outside code, a quotation is the book's words
    assert 'x = """a b c d"""' not in program_words('```py\nx = """a b c d"""\n```')


@given(st.text(max_size=300))
def test_prose_without_code_is_unchanged_and_no_text_gains_words(text):
    if "```" not in text and "~~~" not in text:
        assert program_words(text) == text
    assert len(words(program_words(text))) <= len(words(text))
