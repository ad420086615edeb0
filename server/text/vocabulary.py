"""Which words a book uses, to notice questions about things it never mentions, and to read
misspelt words as the book words they were meant to be.

Dense similarity alone cannot tell "how do I deserialize JSON with serde?" from a Rust-book
question: the topic is near. But "serde" is a specialist term (not English, per a dictionary and
word frequencies) that the book never uses: strong evidence the book does not cover it. Everyday
words that the book happens not to use ("bunch", "gizmo", "laggy") do not count; a word one edit
from a book word ("kinematiks", "recurser": English only as "recurs" + "er") is that word misspelt.

An everyday word the book never uses says something only when English uses it so often that a
book of this length would be expected to use it too (`Reading.unused`): "phone" (about 2 uses
expected in a 12,000-word book, none made) but not "laggy" or "gizmo" (a hundredth of a use).
Whether the question leans on such a word is judged with its meaning (focus.py).
"""
from __future__ import annotations

import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Mapping, Protocol, Sequence

from wordfreq import word_frequency, zipf_frequency

from server.book.chunk import Chunk
from server.text import own_language
from server.text.abbreviations import book_abbreviations, defined_in
from server.text.scripts import read_form, tex_names, unaccented
from server.text.lengths import CJK_RUN, CJK_RUNS, WORD
from server.text.spelling import English, Speller

EXPECTED_USES = 1.5  # an English word the book never uses counts from this many uses expected of it
_SPLIT_DIGITS = re.compile(r"[a-z]+|[0-9]+")
_LATIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_SENTENCES = re.compile(r"[.?!¿¡:;]+")
_LATIN_LETTERS = 0x024F  # the last of Latin Extended-B: "é", "ñ", "ß" are Latin letters


def words(text: str, *, as_typed: bool = False) -> list[str]:
    """The text's words, lower-cased and without accents ("Mónada" is "monada"), a TeX name with its
    subscript one word ("$F_{ST}$" is "fst"), in any script.
    Chinese and Japanese write words without spaces: a run of their characters is read as its
    overlapping pairs of characters (as search engines index them), so word-level mechanisms
    (BM25, what a piece of an answer says, a word asked) work there too. `as_typed`: with their
    accents, for telling the language and for naming a word back to the reader."""
    found: list[str] = []
    for run in WORD.findall(tex_names(text.lower()) if as_typed else read_form(text)):
        if CJK_RUN.match(run):
            found.extend(run[i:i + 2] for i in range(max(1, len(run) - 1)))
        else:
            found.append(run)
    return found


def other_script_share(text: str) -> float:
    """The share of the text's letters not in Latin script (0 when it has none)."""
    letters = [ch for ch in text if ch.isalpha()]
    return sum(not ch.isascii() for ch in letters) / len(letters) if letters else 0.0


def unspaced(word: str) -> bool:
    """A word of a script written without spaces (a pair of Chinese or Japanese characters)."""
    return bool(CJK_RUN.match(word))


def _variants(word: str) -> set[str]:
    forms = {word}
    if word.endswith("es"):
        forms.add(word[:-2])
    if word.endswith("s"):
        forms.add(word[:-1])
    forms.update({word + "s", word + "es"})
    return forms


@dataclass(frozen=True)
class Reading:
    """A question as the book's vocabulary reads it."""

    text: str  # the question with its misspellings corrected
    corrections: dict[str, str] = field(default_factory=dict)  # misspelling → book word
    unknown_terms: list[str] = field(default_factory=list)  # specialist words the book never uses
    unused: list[str] = field(default_factory=list)  # English words the book would be expected to use, but never does


class BookVocabulary:
    """A book's words: how often each occurs, and (for lexical ranking) in how many chunks."""

    def __init__(self, counts: Counter, document_frequency: Counter | None = None, documents: int = 0,
                 total_length: int = 0, unspaced_text: str = "", abbreviations: dict[str, str] | None = None):
        self.counts = counts
        self.abbreviations = abbreviations or {}  # short form → long form, as the book defines them
        self.vocabulary = counts.keys()
        self.speller = Speller(counts)
        self.document_frequency = document_frequency if document_frequency is not None else Counter()
        self.documents = documents
        self.total_length = total_length
        self._lengths: dict[tuple[str, ...], float] = {}  # how many of its words are in a language (own_language.py)
        # its Chinese and Japanese runs, where a word of those languages is looked for whole: the
        # pairs of characters counted above are in カレント and ストレージ, カレー is not
        self.unspaced_text = unspaced_text

    @classmethod
    def from_texts(cls, texts) -> "BookVocabulary":
        counts: Counter = Counter()
        document_frequency: Counter = Counter()
        documents = total_length = 0
        runs: list[str] = []
        definitions: list[tuple[str, str]] = []
        for text in texts:
            found = words(text)
            counts.update(found)
            document_frequency.update(set(found))
            documents += 1
            total_length += len(found)
            runs.extend(CJK_RUNS.findall(text))
            definitions.extend(defined_in(text))
        return cls(counts, document_frequency, documents, total_length, "\n".join(runs), book_abbreviations(definitions))

    def knows(self, word: str) -> bool:
        if _variants(unaccented(word)) & self.vocabulary:
            return True
        # "ros1" is "ROS 1" in the book, "3x3" a size written with a letter for "by"; but "px4" is
        # not "px" and "4": two letters are some abbreviation in almost any book, which says
        # nothing about the term
        parts = _SPLIT_DIGITS.findall(unaccented(word))
        return len(parts) > 1 and all((p.isdigit() or len(p) != 2) and _variants(p) & self.vocabulary for p in parts)

    def expected_uses(self, word: str) -> float:
        """How often a text of the book's length uses the word (or its singular) if it uses it as
        often as English does."""
        singular = word[:-1] if word.endswith("s") else word
        return self.total_length * max(word_frequency(word, "en"), word_frequency(singular, "en"))

    def read(self, question: str) -> Reading:
        """Corrections, unknown terms and unused English words, in question order. The dictionary
        and the word lists are looked up only for words the book lacks (a set lookup is much cheaper).
        A question not in English (most of its words not English ones) is read as it is: its names
        are checked, and its everyday words in its own language (own_language.py); spelling is
        English's only."""
        corrections: dict[str, str] = {}
        unknown, unused = [], []
        if not in_english(question):
            unknown, corrections = self._names(question)
            return Reading(respelled(question, corrections), corrections, unknown, self._unused_in_own(question))
        for word in words(question, as_typed=True):
            if len(word) < 3 or word.isdigit() or word in unknown or word in corrections or word in unused \
                    or self.knows(word) or len(set(word)) == 1:  # "GGGGG", "zzz": a run of one letter names no term
                continue
            if English.knows(word):
                if not English.lists(word) and self._a_typo(word):
                    corrections[word] = self.speller.correct(word)
                elif self.expected_uses(word) >= EXPECTED_USES:
                    unused.append(word)
                continue
            corrected = self.speller.correct(word) or English.typo_of(word)
            if corrected:
                corrections[word] = corrected
            else:
                unknown.append(word)
        return Reading(respelled(question, corrections), corrections, unknown, unused)

    def unknown_terms(self, question: str) -> list[str]:
        return self.read(question).unknown_terms

    def _unused_in_own(self, question: str) -> list[str]:
        """Of a question not in English, the everyday words of its language that a book of this
        length in that language would be expected to use, but this one never does (own_language.py)."""
        languages = own_language.question_language(question)
        if languages is None:
            return []
        if languages not in self._lengths:
            self._lengths[languages] = own_language.length_in(languages, self.counts)
        length = self._lengths[languages]
        return [w for w in dict.fromkeys(own_language.question_words(question, languages))
                if not self._writes(w) and length * own_language.frequency(w, languages) >= EXPECTED_USES]

    def _writes(self, word: str) -> bool:
        if unspaced(word):
            return word in self.unspaced_text
        return self.knows(word)

    def _names(self, question: str) -> tuple[list[str], dict[str, str]]:
        """In a question not in English, the names: in one written in another script (Japanese,
        Chinese, Urdu) every word in Latin letters ("PrismaでDBの型を…", "用 Celery 做…"); in one
        in Latin letters (Spanish), the words capitalised inside a sentence or inside the word
        ("¿cómo creo mocks con MockK?"). A name the book never uses, and not a typo of a book
        word ("interfase", "lamda": one edit away, the first letter kept, as typos keep it;
        "Cython" is not "python"), is a term it does not cover; a typo is searched for as the book
        spells it ("StopIterration 是什么时候出现的")."""
        if any(ch.isalpha() and ord(ch) > _LATIN_LETTERS for ch in question):
            names = _LATIN_NAME.findall(question)
        else:
            names = _capitalised(question)
        unknown: list[str] = []
        corrections: dict[str, str] = {}
        for word in names:
            for part in _SPLIT_DIGITS.findall(word.lower()):
                if len(part) < 3 or part.isdigit() or part in unknown or self.knows(part):
                    continue
                if not self._a_typo(part):
                    unknown.append(part)
                elif part == word.lower():
                    corrections[part] = self.speller.correct(part)
        return unknown, corrections

    def _a_typo(self, word: str) -> bool:
        corrected = self.speller.correct(word)
        return corrected is not None and corrected[0] == word[0]


def _capitalised(question: str) -> list[str]:
    """The words in ASCII capitalised inside a sentence or inside the word ("MockK", "Mockito"),
    whole words, so that "Programación" is one Spanish word, not a name "Programaci"."""
    found = []
    for sentence in _SENTENCES.split(question):
        for i, word in enumerate(re.findall(r"\w+", sentence)):
            if word.isascii() and word[0].isalpha() and (any(c.isupper() for c in word[1:])
                                                          or (i > 0 and word[0].isupper())):
                found.append(word)
    return found


Lexicon = Callable[["str | None"], BookVocabulary]  # a book's vocabulary by book id (None: the whole index)


class StoreVocabulary:
    """The vocabulary of each indexed book (and of all of them), a Lexicon: `vocabulary(book_id)`.

    `books()` lists the indexed books and `book_of(book_id)` gives a book as the index publishes
    it (library/published.py): its words are counted once per published book (`view`), again only
    when a newer ingest publishes another."""

    def __init__(self, books: Callable[[], Sequence[str]], book_of: Callable[[str], "Published"]):
        self.books = books
        self.book_of = book_of
        self._lock = threading.Lock()
        self._whole: tuple[tuple, BookVocabulary] = ((), BookVocabulary(Counter()))

    def warm_up(self) -> None:
        """Build the vocabulary and load the English word lists (a second or two) now, not
        inside the first questions."""
        self.get()
        English.knows("warm")
        English.dictionary()
        in_english("warm up the word lists of other languages")

    def get(self, book_id: str | None = None) -> BookVocabulary:
        if book_id is None:
            ids = self.books()
            if len(ids) != 1:
                return self._every_book([self.book_of(book) for book in ids])
            book_id = ids[0]  # the whole index is this book
        return self.book_of(book_id).view(_vocabulary_of)

    def _every_book(self, books: list) -> BookVocabulary:
        with self._lock:
            read, vocabulary = self._whole
            if list(map(id, read)) != list(map(id, books)):  # `read` holds them: their ids are not reused
                vocabulary = BookVocabulary.from_texts(c.embed_text for book in books for c in book.chunks)
                self._whole = (tuple(books), vocabulary)
            return vocabulary

    __call__ = get


class Published(Protocol):
    """A book as the index publishes it (library/published.py PublishedBook)."""

    chunks: Sequence[Chunk]

    def view(self, build: Callable) -> object: ...


def _vocabulary_of(book: Published) -> BookVocabulary:
    return BookVocabulary.from_texts(c.embed_text for c in book.chunks)


def respelled(text: str, corrections: Mapping[str, str]) -> str:
    """The text with its misspelt words (lower-cased keys) as the book spells them."""
    if not corrections:
        return text
    return re.sub(r"[A-Za-z0-9]+", lambda m: corrections.get(m.group(0).lower(), m.group(0)), text)


def in_english(question: str) -> bool:
    """Is the question in English: no more of its words in another language (another script,
    letters English does not write, or a word far more common in another European language)
    than English words? A misspelt word is neither ("waht is kinematiks" is English)."""
    english = other = 0
    for word in words(question, as_typed=True):
        if unspaced(word) or not word.isascii():
            other += word.isalpha()
        elif len(word) >= 3 and not word.isdigit():
            elsewhere = max(zipf_frequency(word, language, wordlist="small") for language in own_language.LATIN_LANGUAGES)
            if elsewhere >= own_language.OWN_ZIPF and elsewhere > zipf_frequency(word, "en", wordlist="small") + 1:
                other += 1  # "como", "una": far more common in another language
            elif English.knows(word):
                english += 1
    return other <= english
