"""Which words a book uses, to notice questions about things it never mentions.

Dense similarity alone cannot tell "how do I deserialize JSON with serde?" from a Rust-book
question: the topic is near. But "serde" is a specialist term (rare in general English, per
wordfreq) that the book never uses: strong evidence the book does not cover it. Everyday words
that the book happens not to use ("bunch", "tweak") are common in English and do not count.
"""
from __future__ import annotations

import re
import threading

from wordfreq import zipf_frequency

from ..index_size import IndexSize

RARE_ZIPF = 3.0  # below this a word is a specialist term (e.g. "pwm" 2.4, "json" 2.75; "tweak" 3.3)
_WORD = re.compile(r"[a-z0-9]+")
_SPLIT_DIGITS = re.compile(r"[a-z]+|[0-9]+")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _variants(word: str) -> set[str]:
    forms = {word}
    if word.endswith("es"):
        forms.add(word[:-2])
    if word.endswith("s"):
        forms.add(word[:-1])
    forms.update({word + "s", word + "es"})
    return forms


class BookVocabulary:
    def __init__(self, vocabulary: set[str]):
        self.vocabulary = vocabulary

    @classmethod
    def from_texts(cls, texts) -> "BookVocabulary":
        vocabulary: set[str] = set()
        for text in texts:
            vocabulary.update(words(text))
        return cls(vocabulary)

    def knows(self, word: str) -> bool:
        if _variants(word) & self.vocabulary:
            return True
        parts = _SPLIT_DIGITS.findall(word)  # "ros1" is "ROS 1" in the book
        return len(parts) > 1 and all(_variants(p) & self.vocabulary for p in parts)

    def unknown_terms(self, question: str) -> list[str]:
        """Specialist terms in the question that the book never uses, in question order.
        The word list is looked up only for words the book lacks (a set lookup is much cheaper);
        wordfreq loads its list on the first lookup (about half a second)."""
        found: list[str] = []
        for word in words(question):
            if len(word) < 3 or word.isdigit() or word in found:
                continue
            if not self.knows(word) and zipf_frequency(word, "en") < RARE_ZIPF:
                found.append(word)
        return found


class StoreVocabulary:
    """The vocabulary of everything in the store, rebuilt when the index size changes."""

    def __init__(self, store, size: IndexSize):
        self.store = store
        self.size = size
        self._lock = threading.Lock()
        self._size = -1
        self._vocabulary = BookVocabulary(set())

    def warm_up(self) -> None:
        """Build the vocabulary and load wordfreq's English list (about half a second) now,
        not inside the first questions."""
        self.get()
        zipf_frequency("the", "en")

    def get(self) -> BookVocabulary:
        size = self.size.get()
        with self._lock:
            if size != self._size:
                self._vocabulary = BookVocabulary.from_texts(c.embed_text for c in self.store.all_chunks())
                self._size = size
            return self._vocabulary
