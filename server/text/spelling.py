"""Misspelt words, corrected against the book's own vocabulary; everyday English told apart
from specialist terms.

Students type fast: "kinematiks", "filtr", "posiiton". Most misspellings are one edit away
from the word meant (a letter inserted, dropped, changed, or two neighbours swapped), so a word
that is neither the book's nor English is read as the book word one such edit away, the most
frequent one in the book when there are several. Two edits would turn too many real terms the
book lacks into book words ("deserialize" into "serialize").

Whether a word is English is asked of a general dictionary (pyspellchecker's) and of word
frequencies (wordfreq): an English word the book does not use ("gizmo", "laggy") is no sign that
the book lacks the topic, so it never counts as an unknown term.
"""
from __future__ import annotations

import threading
from collections import defaultdict

from rapidfuzz.distance import OSA
from rapidfuzz.process import extract
from wordfreq import zipf_frequency

COMMON_ZIPF = 3.0  # at or above this a word is common English (e.g. "tweak" 3.3; "pwm" 2.4, "json" 2.75)
EVERYDAY_ZIPF = 4.5  # a typo one edit from a word this common meant it ("happen" 5.2; not "liar" 4.0 for "lidar")
MIN_LENGTH = 4  # shorter words are too easily one edit from a book word ("pcl" → "pc")
SUBSTITUTION_LENGTH = 6  # a changed letter (not one added, dropped or swapped) only from here up
_SUFFIXES = ("iness", "ness", "ishly", "ish", "ily", "ly", "iest", "ier", "ies", "ied", "ing", "ed", "er", "est",
             "es", "s", "y")


class English:
    """The general dictionary, loaded once per process (about a second) on first use."""

    _lock = threading.Lock()
    _words = None

    @classmethod
    def dictionary(cls):
        with cls._lock:
            if cls._words is None:
                from spellchecker import SpellChecker

                cls._words = SpellChecker().word_frequency.dictionary
            return cls._words

    @classmethod
    def lists(cls, word: str) -> bool:
        """An English word as it is written: common, or in the dictionary."""
        return zipf_frequency(word, "en") >= COMMON_ZIPF or word in cls.dictionary()

    @classmethod
    def knows(cls, word: str) -> bool:
        """An English word: common, in the dictionary, or a dictionary word with an everyday
        ending ("laggy" from "lag", "wobbly" from "wobble")."""
        if cls.lists(word):
            return True
        words = cls.dictionary()
        for suffix in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                stem = word[: -len(suffix)]
                for base in (stem, stem + "e", stem[:-1] if len(stem) > 3 and stem[-1] == stem[-2] else None,
                             stem[:-1] + "y" if suffix.startswith("i") else None):
                    if base and base in words:
                        return True
        return False

    @classmethod
    def typo_of(cls, word: str) -> str | None:
        """The everyday English word one edit from `word` ("hapen": "happen"), the commonest if
        several, or None: its first letter kept, as typos keep it; in a word of five letters only a
        letter left out or two swapped, as a short term the book lacks is often a common word with
        a letter more or changed ("wasm", "lidar", "serde"). A misspelt everyday word is no
        specialist term the book lacks."""
        if len(word) <= MIN_LENGTH or not word.isalpha() or not word.isascii():
            return None
        letters = "abcdefghijklmnopqrstuvwxyz"
        rest = [(word[:i], word[i:]) for i in range(1, len(word) + 1)]
        edits = {a + c + b for a, b in rest for c in letters} | {a + b[1] + b[0] + b[2:] for a, b in rest if len(b) > 1}
        if len(word) >= SUBSTITUTION_LENGTH:
            edits |= {a + b[1:] for a, b in rest if b} | {a + c + b[1:] for a, b in rest if b for c in letters}
        found = max(edits - {word}, key=_everyday, default=None)
        return found if found is not None and _everyday(found) >= EVERYDAY_ZIPF else None


def _everyday(word: str) -> float:
    """How common the word is in English, written as chat writes it too: "doesnt" is "doesn't"."""
    contraction = word[:-2] + "n't" if word.endswith("nt") else word
    return max(zipf_frequency(word, "en"), zipf_frequency(contraction, "en"))


def _substitution(a: str, b: str) -> bool:
    """Two words of one length that differ by a letter changed (not two neighbours swapped)."""
    if len(a) != len(b):
        return False
    differ = [i for i in range(len(a)) if a[i] != b[i]]
    return not (len(differ) == 2 and differ[1] == differ[0] + 1
                and a[differ[0]] == b[differ[1]] and a[differ[1]] == b[differ[0]])


class Speller:
    """Corrections against one book's words (letters only, at least MIN_LENGTH long).

    A correction must leave the question about what it asked. A typed word loses or gains a
    letter, or swaps two, about as easily at any length; but a word with one letter *changed*
    keeps only four of a five-letter word's letters, and an unknown five-letter term is very
    often one changed letter from some common word of any book ("serde" from "serve", "lidar"
    from "radar"). So a changed letter is read as a typo only in words of SUBSTITUTION_LENGTH
    letters or more, where the letters kept say which word was meant; no list of words decides it.
    """

    def __init__(self, counts: dict[str, int]):
        self.counts = counts
        self._by_length: dict[int, list[str]] = defaultdict(list)
        for word in counts:
            if len(word) >= MIN_LENGTH and word.isalpha():
                self._by_length[len(word)].append(word)

    def correct(self, word: str) -> str | None:
        """The book word one edit away (the book's most frequent if several), or None."""
        if len(word) < MIN_LENGTH or not word.isalpha():
            return None
        best, best_count = None, 0
        for length in (len(word) - 1, len(word), len(word) + 1):
            for found, _, _ in extract(word, self._by_length.get(length, ()), scorer=OSA.distance,
                                       score_cutoff=1, limit=None):
                if len(word) < SUBSTITUTION_LENGTH and _substitution(word, found):
                    continue
                if self.counts[found] > best_count:
                    best, best_count = found, self.counts[found]
        return best
