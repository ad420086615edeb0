"""The words of a question the extractive composer weighs (piece_scores.py), as five-letter
prefixes: its content words, names with a digit, short terms the book uses, a number asked
about; and a term of several words said whole ("yield from")."""
from __future__ import annotations

import re
from functools import lru_cache

from server.question.compose.extractive.asks_for import asks_for_example
from server.text.asked import asked_words, short_terms
from server.text.scripts import loan_singular
from server.text.vocabulary import BookVocabulary, unspaced, words

_VALUE = re.compile(r"(?<!\S)(\d+)(?=[\s?!,;:]|[.?!]?$)")  # a number standing as a word of its own
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*\.?")
# the word "example" of a request for one, in the languages of the pool ("举个例子", "un ejemplo", "具体例を")
_EXAMPLE_WORD = re.compile(r"(?<!\w)(?:examples?|ejemplos?|مثال)(?!\w)|举个?例子?|例子|示例|具体例|例を", re.IGNORECASE)
_NOT_PLURAL = ("ss", "us", "is")  # "class", "focus", "axis"
_COMPOUNDED = frozenset("inter trans under super multi hyper intra".split())


def prefix(word: str) -> str:
    """A word as the composer compares it: its first five letters, a short word's -s left off
    ("takes" and "nodes" are "take" and "node", whose five letters they would otherwise not share);
    seven after a beginning many words share ("interior" is not "interested", "internal" not "interface")."""
    word = loan_singular(word)
    if len(word) in (4, 5) and word.endswith("s") and not word.endswith(_NOT_PLURAL):
        word = word[:-1]
    return word[:7] if word[:5] in _COMPOUNDED else word[:5]


def terms(text: str) -> list[str]:
    """The text's words; a name followed by its number also as one word ("ROS 2" is "ros2")."""
    found = words(text)
    return found + [a + b for a, b in zip(found, found[1:]) if a.isalpha() and b.isdigit()]


def prefixes(text: str) -> list[str]:
    return [prefix(w) for w in terms(text)]


def asked(question: str, book: BookVocabulary | None) -> list[str]:
    """The question's content words; short names with a digit too ("s1", "x86": identifiers,
    as specific as any long word), short terms the book uses ("when should I use Box?"), and a
    number asked about ("what does a mapping quality of 0 mean?")."""
    found = words(question)
    if asks_for_example(question):  # "example" frames the question: the example is what is asked for
        question = _EXAMPLE_WORD.sub(" ", question)
        found = words(question)
    named = {w for w in found if len(w) >= 2 and not w.isalpha() and not w.isdigit()}
    joined = {w for w in terms(question)[len(found):] if len(w) > 2}
    short = {w for w in short_terms(question) if book is None or book.document_frequency[w]}
    content = asked_words(question)
    # a value asked about ("an fst of 0"), not a name's number ("ROS 2", "python 3", "exit code 127")
    standing = set(_VALUE.findall(question)) - _in_a_run(question)  # nor a figure in an expression ("0.1 + 0.2")
    values = {w for before, w in zip(["", *found], found) if w in standing and before not in content | short}
    return list(dict.fromkeys(prefix(w) for w in [*sorted(content), *sorted(named | joined | short | values)]))


def _in_a_run(question: str) -> set[str]:
    """Numbers written beside another number: a command's arguments ("--indep-pairwise 50 5 0.2"),
    not a value asked about."""
    tokens = ["", *(t.strip("?!,;:()") for t in question.split()), ""]
    numeric = [bool(_NUMBER.fullmatch(t)) for t in tokens]
    return {t for n, t in enumerate(tokens[1:-1], 1) if numeric[n] and (numeric[n - 1] or numeric[n + 1])}


def holds_unasked(term: str, weights: dict[str, float]) -> bool:
    """A term of several words, one of which is no asked word ("from" of "yield from"), or a word
    too common to be asked that the question names as a term ("the difference between catch and
    try?": Haskell's `try`)."""
    said = words(term)
    return bool(said) and any(prefix(w) not in weights for w in said)


def says_whole(text: str, term: str) -> bool:
    """Does the text write the term's words in a row ("`yield from`", "Yield From")?"""
    return bool(re.search(r"(?<!\w)" + r"\W{1,3}".join(map(re.escape, words(term))) + r"(?!\w)", text.lower()))


def runs_said(text: str, question: str, weights: dict[str, float], longest: int = 6) -> set[str]:
    """The runs of the question's words the text says as the question does: two or more asked words
    in a row, three words at least, the words between them too ("how can i catch any exception?" of
    "if we wanted to catch any exception, we'd catch `SomeException`", not of "we can chain catches",
    which names both words; two asked words side by side are a name the book says everywhere: "SAM
    file"). None in a language written without spaces, where the words in a row are a word and its
    particles."""
    runs = _runs(question, frozenset(weights), longest)
    if not runs:
        return set()
    said = f" {' '.join(prefixes(text))} "
    return {run for run in runs if f" {run} " in said}


@lru_cache(maxsize=64)
def _runs(question: str, asked_prefixes: frozenset[str], longest: int) -> tuple[str, ...]:
    """The question's runs of words from an asked word to another (once a question, not once a piece)."""
    wording = prefixes(question)
    if any(unspaced(word) for word in wording):
        return ()
    ends = [n for n, p in enumerate(wording) if p in asked_prefixes]
    return tuple(" ".join(wording[i:j + 1]) for a, i in enumerate(ends) for j in ends[a + 1:] if 2 <= j - i < longest)


def term_key(term: str) -> str:
    """A term's key among the asked words: a word too common to be asked is keyed as code ("`try`"),
    apart from the prefix of the word ("Try to use …")."""
    return term if len(words(term)) >= 2 else f"`{term}`"


def says_term(text: str, plain: str, term: str) -> bool:
    """Does the text say the term: a term of several words written whole in its `plain` words; a
    common word named as a term where the text sets it as code ("[`try`](…)", not "Try to use …")?"""
    if len(words(term)) >= 2:
        return says_whole(plain, term)
    return bool(re.search(rf"`{re.escape(term)}`|(?<!\w)[\"'“‘]{re.escape(term)}[\"'”’](?!\w)", text, re.IGNORECASE))


def without_terms(question: str, terms: list[str]) -> str:
    """The question with the terms it names left out: what it asks for is in its other words
    ("the difference between catch and try?" asks for no exercise to try)."""
    for term in terms:
        question = re.sub(rf"(?<!\w){re.escape(term)}(?!\w)", " ", question, flags=re.IGNORECASE)
    return question


# a name set as code, or written as one ("ExceptT", "readFile": a capital inside a word)
_CODE = re.compile(r"`+([^`\n]+)`+|(?<![A-Za-z0-9_`])([A-Za-z]*[a-z][A-Z][A-Za-z0-9]*)(?![A-Za-z0-9_`])")


# a name that begins with an underscore: a special method or attribute ("__name__", "__init__", "_cache")
_UNDERSCORED = re.compile(r"(?<![\w.])_{1,2}[A-Za-z][A-Za-z0-9]*(?:__)?(?!\w)")


def said_alone(question: str, weights: dict[str, float]) -> dict[str, re.Pattern]:
    """The asked prefixes a text says only by a word standing whole: a short term ("&str" is not the
    "str" of `push_str`), a name written as code is, a capital inside it ("StringIO" is not the
    "strin" of "strings"), underscores before it ("__name__"); standing whole against Japanese or
    Chinese too ("tscのバージョン")."""
    alone = {w: _whole(w) for w in short_terms(question) if w in weights}
    for name in (m[2] for m in _CODE.finditer(question) if m[2] and len(m[2]) > 5):
        if (key := prefix(name.lower())) in weights:
            alone[key] = _whole(name)
    for name in _UNDERSCORED.findall(question):  # "__name__" is not the "name" of `greet(name)`
        if len(found := words(name)) == 1 and (key := prefix(found[0])) in weights:
            alone[key] = _whole(name)
    return alone


def _whole(name: str) -> re.Pattern:
    return re.compile(rf"(?<![a-z0-9_]){re.escape(name)}(?![a-z0-9_])", re.IGNORECASE)


def named_apart(text: str, question: str) -> set[str]:
    """The prefixes a text says only in a name of code that is another word than the question's
    ("exceptions" of `Except` and "ExceptT": five letters alike, another name); `Exception`,
    `KalmanFilter` and `asyncio` name "exceptions", "kalman filter" and "async" (they begin with it)."""
    names = {w for m in _CODE.finditer(text) for w in words(m[1] or m[2])}
    if not names:
        return set()
    prose = {prefix(w) for w in words(_CODE.sub(" ", text))}
    asked = _asked_forms(question)
    return {p for w in names if (p := prefix(w)) in asked and p not in prose
            and not w.startswith(asked[p])}


@lru_cache(maxsize=64)
def _asked_forms(question: str) -> dict[str, str]:
    """Each word of the question by its prefix, as one of it ("exceptions": "exception")."""
    return {prefix(w): re.sub(r"(?:es|s)$", "", w) if len(w) > 3 else w for w in words(question)}
