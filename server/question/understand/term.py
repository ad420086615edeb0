"""A highlighted term: a name or a few words, not a sentence ("Exists.intro", "borrow checker").
The passage says nothing of it but its name, so "give me an example" or "what does this do"
asked of it, with the book, is a question about the term: asked of the book with the term in
place of "this" ("what does Exists.intro do"). Its sentences cannot answer it: there are none."""
from __future__ import annotations

import re

from server.text.lengths import spaced_length

TERM_WORDS = 4  # longer than this (in words, Chinese and Japanese by characters in twos), a phrase
TERM_CHARACTERS = 60
_SENTENCE_END = re.compile(r"[.!?。！？؟]\s*$")
# "this" in the request, taken for the term ("what does this do" → "what does Exists.intro do")
_POINTER = re.compile(r"\b(?:this|that|it|esto|eso|este|esta)\b|これ|この|それ|这个|这|یہ", re.IGNORECASE)
# a request ending in a noun that takes the term after "of" ("an example" → "an example of X")
_OF_NOUN = re.compile(r"\b(?:examples?|definition|meaning|use|uses|purpose|explanation|summary)\s*[?.!]*\s*$",
                      re.IGNORECASE)


def highlighted_term(selected: str | None) -> str | None:
    """The term when the highlight is one (a line of at most four words that ends no sentence)."""
    text = " ".join((selected or "").split())
    if not text or "\n" in (selected or "").strip() or len(text) > TERM_CHARACTERS:
        return None
    if spaced_length(text) > TERM_WORDS or _SENTENCE_END.search(text):
        return None
    return text


def about_term(question: str, term: str) -> str:
    """The request with the term in it: in place of its first "this", else after it."""
    if term.lower() in question.lower():
        return question
    if _POINTER.search(question):
        return _POINTER.sub(lambda _: term, question, count=1)
    stem = question.rstrip(" ?.!？。")
    return f"{stem} of {term}" if _OF_NOUN.search(question) else f"{stem} {term}"


def points_at(question: str, term: str) -> bool:
    """Does the request point at the highlighted term ("why do we need this?", "give me an example",
    "what does shouldBe do?"), rather than ask something of its own beside it?"""
    return term.lower() in question.lower() or bool(_POINTER.search(question) or _OF_NOUN.search(question))
