"""Does a question lean on an everyday word the book never uses?

"can you recommend a phone with really long battery life?" asked of a robotics book whose power
chapter has a table of battery types: the passage names "battery", "long" and "life", and it is
near enough in meaning to pass the threshold. But the question is about a phone, which the book
never mentions. Three things together say the book lacks what is asked:

- the book never uses the word, though English (or the question's own language, of a book written
  in it: own_language.py) uses it so often that a book of this length would be expected to
  (vocabulary.py, `Reading.unused`). Rare everyday words the book lacks ("laggy",
  "gizmo", "sluggish") say nothing: a book about the thing might well never use them;
- the question leans on it: taking the word out of the question moves the question's meaning at
  least CARRIES as far as taking out its weightiest word does ("phone" 0.87 of "battery"). Words
  that only frame the question ("instead", "someone", "stuff", "myself") barely move it;
- and no passage is clearly close (gate.py, CLEAR_EVIDENCE): "what cheap little board should I use
  to spin motors and read sensors?" leans on "board", which that book never uses either (it says
  "microcontroller"), and its passage scores 0.46, while the phone question's best is 0.34.

No list of words decides it: English frequencies, the book's length and the embedding model's
reading of the question do. Calibrated on the four development books (BENCHMARKS.md, "Words the
book never uses").
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from server.text import own_language
from server.text.asked import asked_words
from server.text.vocabulary import in_english, unspaced

if TYPE_CHECKING:
    from server.embedding.protocol import TextEmbedder

CARRIES = 0.5  # share of the weightiest word's pull on the question's meaning that makes a word carry it


class Focus:
    """The words of `unused` (English words the book never uses) that the question `text` leans
    on, worked out when first asked: it embeds the question once without each of its words, which
    only matters when no passage is clearly close (gate.py), so most questions never pay for it."""

    def __init__(self, text: str, unused: list[str], embedder: TextEmbedder):
        self.text = text
        self.unused = tuple(unused)
        self.embedder = embedder
        self._found: tuple[str, ...] | None = None

    def __call__(self) -> tuple[str, ...]:
        if self._found is None:
            self._found = leaned_on(self.text, list(self.unused), self.embedder)
        return self._found


def leaned_on(text: str, unused: list[str], embedder: TextEmbedder) -> tuple[str, ...]:
    """The words of `unused` that the question `text` leans on."""
    asked = _asked(text, unused)
    candidates = [w for w in unused if w in asked]
    if not candidates:
        return ()
    without = [_without(text, w) for w in asked]
    vectors = embedder.embed_documents([text, *without])
    pull = dict(zip(asked, 1.0 - vectors[1:] @ vectors[0]))  # how far the meaning moves without the word
    weightiest = max(pull.values())
    if weightiest <= 0:
        return ()
    return tuple(w for w in candidates if pull[w] >= CARRIES * weightiest)


def _asked(text: str, unused: list[str]) -> list[str]:
    """The words whose pull is weighed: in a question in another language, its words in that
    language (own_language.py); in English, the asked words and any three-letter word the book
    never uses (every book uses the function words: "sun")."""
    languages = None if in_english(text) else own_language.question_language(text)
    if languages is not None:
        return list(dict.fromkeys(own_language.question_words(text, languages)))
    said = set(re.findall(r"[a-z0-9]+", text.lower()))
    return sorted(asked_words(text) | {w for w in unused if len(w) == 3 and w in said})


def _without(text: str, word: str) -> str:
    if unspaced(word):  # no spaces part a Chinese or Japanese word from the next
        return text.replace(word, " ")
    return re.sub(rf"(?i)(?<!\w){re.escape(word)}(?!\w)", " ", text)
