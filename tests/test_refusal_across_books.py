"""Refusal that holds on any book: the near-miss terms of every development set (serde, PX4,
MoveIt, …), asked of each of the four books, are never "corrected" into a book word and are read
as terms the book never uses wherever it does not use them; each book's typos are still
corrected. Everyday words: a common one that no book uses ("phone") is read as unused by every
book, a rare one ("laggy") by none, and a question leans on the first but not on words that only
frame it. Then, on an indexed book, the other books' near misses are refused end to end."""
from __future__ import annotations

import json
import re
from functools import lru_cache

import pytest

from apps import make_settings
from places import CORPORA, EVAL
from server.question.understand.focus import leaned_on
from server.question import Question
from server.text.spelling import English
from server.text.vocabulary import BookVocabulary

ROOTS = {"physical-ai-book": CORPORA / "physical-ai-book" / "docs", "rust-book": CORPORA / "rust-book" / "src",
         "physical-ai-i18n": CORPORA / "physical-ai-i18n" / "docs", "aibook": CORPORA / "aibook" / "docs"}
# the two older sets name their near misses only in the eval README (no `checked_terms`)
OLDER_NEAR_MISSES = {"p-o07": ["mujoco", "mjcf"], "p-o08": ["px4"], "p-o09": ["arduino", "pwm"],
                     "p-o10": ["lora"], "r-o03": ["serde"], "r-o04": ["wasm"], "r-o05": ["sqlx"]}


def _items(book: str) -> list[dict]:
    return [json.loads(line) for line in (EVAL / f"{book}.jsonl").read_text(encoding="utf-8").splitlines() if line]


def _near_misses() -> list[tuple[str, str, list[str]]]:
    """(set, question, its key terms) for every near-miss out-of-scope item of the four sets."""
    found = []
    for book in ROOTS:
        for item in _items(book):
            terms = item.get("checked_terms") or OLDER_NEAR_MISSES.get(item["id"])
            if item["kind"] == "out_of_scope" and terms and all(" " not in t for t in terms):
                found.append((book, item["question"], [t.lower() for t in terms]))
    return found


@lru_cache(maxsize=None)
def _text(book: str) -> str:
    return "\n".join(p.read_text(encoding="utf-8", errors="replace")
                     for p in sorted(ROOTS[book].rglob("*")) if p.suffix in (".md", ".mdx"))


@lru_cache(maxsize=None)
def _vocabulary(book: str) -> BookVocabulary:
    return BookVocabulary.from_texts(_text(book).split("\n\n"))


@pytest.mark.parametrize("book", list(ROOTS))
def test_near_miss_terms_of_every_set_are_never_corrected_and_are_unknown_where_the_book_lacks_them(book):
    vocabulary = _vocabulary(book)
    text = _text(book).lower()
    checked = 0
    for source, question, terms in _near_misses():
        reading = vocabulary.read(question)
        assert not set(reading.corrections) & set(terms), (book, question, reading.corrections)
        # English words ("lora", "llama") are never taken for a missing topic (spelling.py): the
        # score gate decides for them
        absent = [t for t in terms if not re.search(rf"(?<![a-z0-9]){re.escape(t)}(?![a-z0-9])", text)
                  and not English.knows(t)]
        if absent:
            checked += 1
            assert reading.unknown_terms, (book, source, question)
    assert checked >= 10  # most near misses of the other sets are absent from any one book


@pytest.mark.parametrize("book", ["aibook", "physical-ai-i18n"])
def test_each_books_typos_are_still_read_as_the_words_meant(book):
    vocabulary = _vocabulary(book)
    for item in _items(book):
        if item.get("typos"):
            reading = vocabulary.read(item["question"])
            for typo, meant in item["typos"].items():  # (a dictionary word, "controler", is left as typed)
                assert reading.corrections.get(typo) == meant or English.knows(typo), (item["id"], typo)
            assert any(reading.corrections.get(t) == m for t, m in item["typos"].items()), item["id"]
            assert not reading.unknown_terms, item["id"]


@pytest.mark.parametrize("book", list(ROOTS))
def test_a_common_word_no_book_uses_is_unused_by_every_book_and_rare_everyday_words_by_none(book):
    vocabulary = _vocabulary(book)
    foreign = [i["question"] for b in ROOTS for i in _items(b) if "not_in_book" in i.get("tags", [])]
    assert foreign
    for question in foreign:  # the phone and the gaming laptop: English, but expected of any book
        reading = vocabulary.read(question)
        assert reading.unused or reading.unknown_terms, (book, question)
    assert "phone" in vocabulary.read("can you recommend a phone with really long battery life?").unused
    # a book about the thing might never use a rare everyday word: its absence says nothing
    for question in ("the camera in my sim makes everything super laggy", "what's the gizmo that tells which way is up?"):
        assert not {"laggy", "gizmo"} & set(vocabulary.read(question).unused), (book, question)


def test_a_question_leans_on_the_word_it_is_about_not_on_words_that_frame_it(embedder):
    question = "can you recommend a phone with really long battery life?"
    assert leaned_on(question, ["phone"], embedder) == ("phone",)
    assert leaned_on("how do i get gpt to reply with something my code can parse instead of free text?",
                     ["something", "instead"], embedder) == ()
    assert leaned_on(question, [], embedder) == ()
    # a three-letter word is as much a topic as a longer one, when it is one the book never uses
    assert leaned_on("what time does the sun set in winter?", ["sun"], embedder) == ("sun",)


def test_the_other_books_near_misses_are_refused_on_an_indexed_book(physical_ai, tmp_path):
    settings = make_settings(tmp_path)
    chat = physical_ai.components(settings)
    ask = lambda q: chat.pipeline.answer(Question(q, max_chunks=5, similarity_threshold=chat.threshold))  # noqa: E731
    text = _text("physical-ai-book").lower()
    asked = 0
    for source, question, terms in _near_misses():
        if source == "physical-ai-book" or any(re.search(rf"\b{re.escape(t)}\b", text) for t in terms):
            continue
        answer = ask(question)
        assert answer.refused, (source, question, answer.text[:200])
        asked += 1
    # and its own typo-free questions still answered
    assert not ask("how do ros 2 nodes talk to each other?").refused
    assert asked >= 8
    chat.close()
