"""A question asking for a quantity is answered by a sentence saying a number (text/quantity.py)."""
from __future__ import annotations

from hypothesis import given, strategies as st

from server.text.quantity import asks_quantity, counted, says_quantity


def test_a_question_asking_how_many_or_how_much_asks_for_a_quantity():
    for asked in ("how many duplicates would i get just by chance?", "how much does a turtlebot 4 kit cost?",
                  "What percentage of reads map?", "¿Cuántos hilos usa el servidor?", "这个列表有多少个元素", "何個ありますか"):
        assert asks_quantity(asked), asked
    for other in ("how do i count duplicates?", "what is a duplicate?", "why many threads?", "开了好几个线程算质数，结果一点没变快",
                  "what tells a robot which way is up and how fast it's turning?"):
        assert not asks_quantity(other), other


def test_a_number_said_as_an_amount_is_a_quantity_and_a_numbered_thing_is_not():
    for amount in ("This returns a duplication rate of about 4% - let's plot it:", "a char is 4 bytes",
                   "imagine 2 million single-end reads", "the first 50bp of duplicates", "the rate is 0.5",
                   "a rugby union team has 15 players", "有 15 个", "Rust's char type is four bytes in size"):
        assert says_quantity(amount), amount
    for name in ("Listing 8-24 shows it", "see Chapter 3", "it uses Python 3 now", "step 2: run it", "ch10 and s1",
                 "x86 machines", "both read 1 and read 2 should be duplicated", "no numbers here",
                 "one of the two is used", "the two of them"):
        assert not says_quantity(name), name


@given(st.text(max_size=200))
def test_any_text_is_read_without_error(text):
    assert says_quantity(text) in (True, False)
    assert asks_quantity(text) in (True, False)


def test_a_number_of_what_is_counted_answers_how_many_of_it():
    """"how many bytes is a char?" of the Rust book's strings page: "Calling `chars` on "Зд" … returns
    two values of type `char`" says a number, of values, not of bytes."""
    assert counted("how many bytes is a char, and why can't i index into a String?") == "bytes"
    assert counted("how much does a kit cost?") == ""
    assert says_quantity("contains the first 4 bytes of the string", "how many bytes is a char?")
    assert says_quantity("This returns a duplication rate of about 4% - let's plot it:", "how many duplicates?")
    assert not says_quantity("Calling `chars` on it returns two values of type `char`", "how many bytes is a char?")
    assert says_quantity("Calling `chars` on it returns two values of type `char`")
