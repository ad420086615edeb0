"""Misspellings read as the book's words; everyday English never taken for a missing topic."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rapidfuzz.distance import OSA
from wordfreq import zipf_frequency

from server.text.spelling import EVERYDAY_ZIPF, English, Speller
from server.text.vocabulary import BookVocabulary

BOOK = BookVocabulary.from_texts([
    "Forward kinematics computes the pose of the end effector; inverse kinematics solves for joint angles.",
    "A Kalman filter fuses readings in sensor fusion. The battery powers the motor controller.",
    "Serve the position to the controller. The filter filters noise; the filter is linear.",
])


def test_one_edit_from_a_book_word_is_that_word():
    speller = Speller(BOOK.counts)
    assert speller.correct("kinematiks") == "kinematics"  # a letter changed (in a long word)
    assert speller.correct("filtr") == "filter"  # a letter dropped
    assert speller.correct("batery") == "battery"
    assert speller.correct("posiiton") == "position"  # two neighbours swapped
    assert speller.correct("controler") == "controller"


def test_two_edits_or_short_words_are_not_corrected():
    speller = Speller(BOOK.counts)
    assert speller.correct("pseudoinverse") is None
    assert speller.correct("kinmatiks") is None  # two edits
    assert speller.correct("pcl") is None  # too short to tell


def test_everyday_english_is_known_specialist_terms_are_not():
    for word in ("gizmo", "laggy", "sluggish", "wobbling", "trouble"):
        assert English.knows(word), word
    for word in ("ethercat", "pseudoinverse", "moveit", "tensorrt", "serde", "pwm"):
        assert not English.knows(word), word


def test_a_question_is_read_with_its_misspellings_corrected():
    reading = BOOK.read("what does a kalman filtr actually do in sensor fuzion?")
    assert reading.corrections == {"filtr": "filter", "fuzion": "fusion"}
    assert reading.text == "what does a kalman filter actually do in sensor fusion?"
    assert reading.unknown_terms == []


def test_a_misspelt_name_in_a_chinese_or_japanese_question_is_read_as_the_book_spells_it():
    """"StopIterration 是什么时候出现的" was refused: only English questions were respelled."""
    book = BookVocabulary.from_texts(["当生成器函数遇到 return 时，生成器会抛出 StopIteration 异常。"] * 3)
    reading = book.read("StopIterration 是什么时候出现的")
    assert reading.text == "stopiteration 是什么时候出现的" and reading.unknown_terms == []
    assert book.read("Celery 是什么").unknown_terms == ["celery"]  # a name the book never uses stays unknown


def test_an_everyday_word_is_not_unknown_but_a_specialist_term_is():
    assert BOOK.read("my gizmo is laggy, which battery?").unknown_terms == []
    assert BOOK.read("how do i wire ethercat drives with pwm?").unknown_terms == ["ethercat", "pwm"]


def test_a_term_with_digits_is_known_by_its_parts_unless_a_part_is_two_letters():
    book = BookVocabulary.from_texts(["ROS 2 and ROS 1 nodes; a 4x4 matrix x 3; the px value"])
    assert book.knows("ros2") and book.knows("3x3")
    assert not book.knows("px4")  # "px" is some abbreviation in any book: PX4 is not it



def test_a_word_english_makes_only_with_an_ending_is_the_book_word_it_is_one_edit_from():
    book = BookVocabulary.from_texts(["The recursor of an inductive type computes by recursion on it.",
                                      "Every inductive type comes with a recursor; the recursor is its eliminator.",
                                      "A wobble in the arm."])
    assert English.knows("recurser") and not English.lists("recurser")  # "recurs" + "er"
    reading = book.read("what's a recurser in lean?")
    assert reading.corrections == {"recurser": "recursor"} and "recursor" in reading.text
    assert book.read("what does the word recurs mean?").corrections == {}  # English lists "recurs" as written


def test_a_misspelt_everyday_word_is_that_word_not_a_term_the_book_lacks():
    """"why does alising hapen when samplng?" was refused: "hapen" is neither the book's nor English."""
    reading = BOOK.read("why does the kalman filtr hapen to lag?")
    assert reading.corrections == {"filtr": "filter", "hapen": "happen"} and reading.unknown_terms == []
    assert reading.text == "why does the kalman filter happen to lag?"
    assert BOOK.read("how do i wire ethercat drives?").unknown_terms == ["ethercat"]
    assert BOOK.read("why dosent the filter work?").corrections == {"dosent": "doesnt"}  # chat writes no apostrophe
    for term in ("serde", "lidar", "wasm", "ethercat", "moveit", "tensorrt"):  # a common word and a letter, or none
        assert English.typo_of(term) is None, term


@given(st.text(alphabet=st.characters(min_codepoint=97, max_codepoint=122), min_size=1, max_size=12))
def test_an_everyday_words_typo_is_one_edit_from_a_common_word_with_its_first_letter(word):
    meant = English.typo_of(word)
    if meant is not None:
        assert meant[0] == word[0] and meant != word and OSA.distance(meant, word) == 1
        contraction = meant[:-2] + "n't" if meant.endswith("nt") else meant  # "doesnt"
        assert max(zipf_frequency(meant, "en"), zipf_frequency(contraction, "en")) >= EVERYDAY_ZIPF
