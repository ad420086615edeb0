"""Personal details are masked however they are typed (spaces, fullwidth or invisible
characters, "at"/"dot" spellings, other separators), in every text a reader sends that is
stored; what a book writes about is left alone; and any text goes through without an error."""
from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings, strategies as st

from server.text.privacy import mask, readable

EMAILS = ["jane @ uni.edu", "jane＠uni.edu", "ja\u200bne@uni\u200d.edu", "jane@u\u00adni.edu", "jane at uni dot edu",
          "jane [at] uni [dot] edu", "jane (at) uni (dot) edu", "JANE AT UNI DOT EDU", "user@localhost",
          "jane.doe+x@mail.example.co.uk", "jane @ uni . example . edu", "jane\u2060@uni.edu"]
CARDS = ["4111.1111.1111.1111", "4111_1111_1111_1111", "4111,1111,1111,1111", "4111-1111-1111-1111",
         "4111 1111 1111 1111", "4111111111111111", "３７８２ ８２２４６３ １０００５", "3782.822463.10005"]
IBANS = ["DE89.3704.0044.0532.0130.00", "DE89 3704 0044 0532 0130 00", "GB82-WEST-1234-5698-7654-32",
         "DE89370400440532013000"]
BOOK_TEXT = ["Python 3.11.4, ROS 2 Humble, v2.0.1, ISO 8601, IEEE 754-2008, 192.168.0.1:8080, 2024-01-31, 44100 Hz",
             "look at the dot product of two vectors", "C = A @ B.T in numpy", "@property and @staticmethod",
             "pi is 3.1415926535897932", "a 1,234,567 row table", "meet at the station at noon",
             "the decorator @app.route('/')", "x@y is matrix product"]


@pytest.mark.parametrize("email", EMAILS)
def test_an_address_however_typed_is_masked(email):
    assert mask(f"write to {email} please") == "write to [email] please"


@pytest.mark.parametrize("card", CARDS)
def test_a_card_number_with_any_separator_is_masked(card):
    assert mask(f"my card {card} ok") == "my card [card] ok"


@pytest.mark.parametrize("number", IBANS)
def test_an_iban_with_any_separator_is_masked(number):
    assert mask(f"IBAN {number} ok") == "IBAN [id] ok"


@pytest.mark.parametrize("text", BOOK_TEXT)
def test_what_a_book_writes_about_is_kept_as_typed(text):
    assert mask(text) == text


def test_a_luhn_invalid_group_of_digits_is_no_card():
    assert mask("serial 4111.1111.1111.1112 ok") == "serial 4111.1111.1111.1112 ok"


def test_text_is_kept_as_sent_unless_something_is_masked():
    assert mask("ｆｕｌｌwidth ② ﬁne") == "ｆｕｌｌwidth ② ﬁne"
    assert mask("ｆｕｌｌwidth jane＠uni.edu") == "fullwidth [email]"


def _chat(client, **body):
    return client.post("/chat", json={"question": "what is aliasing?", **body})


def test_every_text_a_reader_sends_is_stored_masked(chat_app):
    """The question, the highlighted passage, the page's title and URL, and the comment."""
    from sqlalchemy import select

    from server.sessions.schema import feedback_table, messages_table, queries_table

    app = chat_app()
    client = app.test_client()
    secret = "jane＠uni.edu"
    answer = _chat(client, question=f"what is aliasing? mail jane at uni dot edu",
                   selected_text=f"Aliasing is bad. Reach me at {secret}.", selection_mode="combined",
                   metadata={"page_url": "https://other.example/p?email=jane%40uni.edu&card=4111.1111.1111.1111",
                             "page_title": "Notes of ja\u200bne@uni.edu"})
    assert answer.status_code == 200
    client.post("/feedback", json={"message_id": answer.get_json()["assistant_message_id"], "rating": "down",
                                   "comment": "call 4111_1111_1111_1111"})
    with app.extensions["textbook_chat"].sessions.engine.connect() as conn:
        stored = [v for table in (queries_table, messages_table, feedback_table)
                  for row in conn.execute(select(table)).mappings() for v in row.values() if isinstance(v, str)]
    text = " ".join(stored)
    for leaked in ("jane", "uni.edu", "4111", "uni%40", "%40uni"):
        assert leaked not in text, [v for v in stored if leaked in v]
    assert "[email]" in text and "[card]" in text


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_masked_without_error_and_masking_again_changes_nothing(text):
    once = mask(text)
    assert isinstance(once, str)
    assert mask(once) == once


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40), st.sampled_from(EMAILS + CARDS))
@example("0000", "4111 1111 1111 1111")  # run together into one 20-digit number: an [id]
def test_a_detail_inside_any_text_is_masked(prefix, detail):
    masked = mask(f"{prefix} {detail} end")
    if detail in EMAILS:
        assert "[email]" in masked, masked
    else:  # a card, perhaps run together with digits before it into a longer number: hidden either way
        digits = re.sub(r"\D", "", readable(detail))
        assert digits not in re.sub(r"\D", "", readable(masked)) and re.search(r"\[(?:card|id)\]", masked), masked
