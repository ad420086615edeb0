"""A highlighted term ("dither", "Exists.intro"): a request about it with the book is a question
about the term asked of the book, "this" read as the term. Its sentences cannot answer it (it has
none): tpil4, "give me an example" of a highlighted `Exists.intro` was answered "Exists.intro [1].
The passage gives no example of its own", and "what does this do" with the `intro` tactic."""
from __future__ import annotations

from hypothesis import given, strategies as st

from server.question.understand.term import about_term, highlighted_term


def test_a_term_is_a_few_words_that_end_no_sentence():
    assert highlighted_term("  Exists.intro ") == "Exists.intro"
    assert highlighted_term("TPDF dither") == "TPDF dither"
    assert highlighted_term("型推論") == "型推論"
    assert highlighted_term("Dither fixes this.") is None  # a sentence
    assert highlighted_term("adding a tiny amount of random noise") is None  # a phrase
    assert highlighted_term("dither\nnoise") is None and highlighted_term("") is None


def test_the_request_names_the_term_in_place_of_this():
    assert about_term("what does this do", "Exists.intro") == "what does Exists.intro do"
    assert about_term("give me an example", "dither") == "give me an example of dither"
    assert about_term("explain", "dither") == "explain dither"
    assert about_term("what is dither for?", "dither") == "what is dither for?"


@given(st.text(max_size=80), st.text(max_size=80))
def test_any_request_about_any_highlight_names_the_term(question, selected):
    term = highlighted_term(selected)
    if term is None:
        return
    assert term and len(term) <= 60 and "\n" not in term
    assert term.lower() in about_term(question, term).lower()


def _ask(client, question: str, mode: str) -> dict:
    response = client.post("/chat", json={"question": question, "selected_text": "dither", "selection_mode": mode})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_highlighted_term_is_explained_by_the_book_with_it(chat_app):
    client = chat_app().test_client()
    for question, said in (("give me an example", "24-bit"), ("what does this do", "random noise")):
        data = _ask(client, question, "combined")
        assert data["status"] == "completed", (question, data["answer"])
        # the book's passages, not the one-word highlight quoted back as the answer
        assert data["sources"] and all(s["source_type"] == "database" for s in data["sources"]), data["sources"]
        assert said in data["answer"] and "no example of its own" not in data["answer"], (question, data["answer"])


def test_asked_of_the_term_alone_it_says_plainly_what_it_cannot_do_and_where_to_ask(chat_app):
    client = chat_app().test_client()
    for question in ("give me an example", "explain this"):
        data = _ask(client, question, "exclusive")
        assert data["status"] == "completed" and "“This passage and the book”" in data["answer"], data["answer"]
        assert all(s["source_type"] == "selected_text" for s in data["sources"])
    response = client.post("/chat", json={"question": "explícame esto", "selected_text": "dither",
                                          "selection_mode": "exclusive", "metadata": {"locale": "es"}})
    assert "“Este pasaje y el libro”" in response.get_json()["answer"]


def test_a_term_highlighted_on_a_page_is_answered_from_the_passage_holding_it(chat_app):
    """lhbg: `shouldBe` highlighted on the testing page, "what does this do?", and `-threaded`, "why do we
    need this?", were declined ("Nothing else in the book seems to either"): the request's words lie far from
    every passage, the one holding the term too. What "this" points at is the page's passage holding
    it, whatever the request's words are near; a question of its own beside the term is judged as before."""
    client = chat_app().test_client()
    page = "http://127.0.0.1:8000/book/docs/foundations/quantization-and-bit-depth"
    body = {"selection_mode": "combined", "selected_text": "clipping", "metadata": {"page_url": page}}
    for question in ("what does this do?", "why do we need this?"):
        data = client.post("/chat", json={**body, "question": question}).get_json()
        assert data["status"] == "completed" and "the samples stick at the maximum" in data["answer"], data["answer"]
    elsewhere = client.post("/chat", json={**body, "question": "what is the capital of France?"}).get_json()
    assert "the samples stick at the maximum" not in elsewhere["answer"], elsewhere["answer"]


def test_a_request_points_at_the_term_or_asks_beside_it():
    from server.question.understand.term import points_at
    assert all(points_at(q, "shouldBe") for q in ("what does this do?", "give me an example", "why is shouldBe used",
                                                  "¿qué hace esto?", "这个是什么意思"))
    assert not any(points_at(q, "shouldBe") for q in ("what is the capital of France?", "how do I install stack"))
