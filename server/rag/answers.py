"""The extractive answer: the sentences, list items, tables and code of the retrieved passages
that answer the question, quoted as the book wrote them, in the book's order, each passage cited.

Each book passage is read on into the chunks after it on its page (continuation.py): a list,
a cut sentence or a lead-in's answer often runs on past the chunk's end. Every piece of the
passages (answer_units.py) is scored against the question:
- by the book's BM25 over its words: the question's words weighed by how rare they are in the
  book (five-letter prefixes, so "wobbling" meets "wobble"), saturating with repeats, normalised
  by what a piece holding every asked word once would score;
- by the heading it stands under, on the same scale at three quarters' weight (the answer to
  "what is Warp?" is the section headed "Warp");
- by its passage's similarity to the question (the embedding model's judgement), relative to
  the best passage's, at 1.5 times (a paraphrase shares no word with the sentences that answer
  it, but its passage is near it).

The best piece answers, then every piece that says something asked, best first from whichever
passage (see _choose), up to a short reading length (code and tables do not count); each piece
with what it depends on (a lead-in's block, the sentence before one that refers back), in the
book's order under the heading it stands under.
Questions (a quiz's, or the book asking the reader) are never quoted as answers; quizzes,
exercises and reading lists only when the question asks for them. The weights were measured
on all four development books (BENCHMARKS.md, "Answers that contain the answer"). Nothing is
embedded here (the passages' similarity is retrieval's), so an answer takes a few milliseconds.
"""
from __future__ import annotations

import math
import re
import weakref
from collections import Counter
from typing import Callable, NamedTuple

from .answer_units import Unit, units_of
from .blocks import Block
from ..models import Chunk
from .context import Source
from .continuation import Following, cited_where_read, read_passages
from .gate import asked_words
from .markers import cite_end, marker
from .vocabulary import BookVocabulary, words

WORDS_BY_LENGTH = {"short": 45, "normal": 90, "detailed": 180}  # reading length of prose and lists
CODE_ASKED = 0.3
HEADING_WEIGHT = 0.75
PASSAGE_WEIGHT = 1.5
K1, B, AVERAGE_WORDS = 1.2, 0.75, 20  # BM25 over sentences (about twenty words each)
WANTS_CODE = re.compile(r"\b(?:code|commands?|snippet|syntax|script|terminal|shell|cli|run|install|compile|"
                        r"implement|write|type|example program|show me)\b", re.IGNORECASE)
_ASKS = {"quiz": re.compile(r"\b(?:quiz|test (?:myself|yourself)|self-check|questions)\b", re.IGNORECASE),
         "exercise": re.compile(r"\b(?:exercises?|practice|homework|assignments?|try)\b", re.IGNORECASE),
         "references": re.compile(r"\b(?:reading|resources|references|links|books|papers|learn more)\b",
                                  re.IGNORECASE)}
_NAME_NUMBER = re.compile(r"^([a-z]+)([0-9]+)$")
_HEADING_ID = re.compile(r"\{#[^}]*\}\s*$")
Lexicon = Callable[["str | None"], BookVocabulary]
_PREFIX_FREQUENCY: "weakref.WeakKeyDictionary[BookVocabulary, tuple[Counter, int]]" = weakref.WeakKeyDictionary()


def _terms(text: str) -> list[str]:
    """The text's words; a name followed by its number also as one word ("ROS 2" is "ros2")."""
    found = words(text)
    return found + [a + b for a, b in zip(found, found[1:]) if a.isalpha() and b.isdigit()]


def _prefixes(text: str) -> list[str]:
    return [w[:5] for w in _terms(text)]


def _asked(question: str) -> list[str]:
    """The question's content words; short names with a digit too ("s1", "x86": identifiers,
    as specific as any long word)."""
    found = words(question)
    named = {w for w in found if len(w) >= 2 and not w.isalpha() and not w.isdigit()}
    joined = {w for w in _terms(question)[len(found):] if len(w) > 2}
    return list(dict.fromkeys(w[:5] for w in [*asked_words(question), *sorted(named | joined)]))


def _book_frequency(book: BookVocabulary) -> tuple[Counter, int]:
    """In how many of the book's passages each five-letter prefix occurs (at most all of them)."""
    found = _PREFIX_FREQUENCY.get(book)
    if found is None:
        frequency: Counter = Counter()
        for word, count in book.document_frequency.items():
            frequency[word[:5]] += count
        found = _PREFIX_FREQUENCY[book] = (frequency, book.documents)
    return found


def _weights(asked: list[str], units: list[Unit], book: BookVocabulary | None) -> dict[str, float]:
    """Each asked prefix's inverse document frequency: in the book, or (without one) among the pieces."""
    if book is not None and book.documents:
        frequency, documents = _book_frequency(book)
    else:
        frequency = Counter(p for u in units for p in set(_prefixes(u.plain)))
        documents = len(units)
    found = {}
    for p in asked:
        name_number = _NAME_NUMBER.match(p)
        # a joined name and number ("ros2") is in at most the passages holding both its parts
        count = max(frequency[p], min(frequency[name_number[1][:5]], frequency[name_number[2]])) if name_number \
            else frequency[p]
        count = min(count, documents)
        found[p] = math.log((documents - count + 0.5) / (count + 0.5) + 1)
    return found


def _bm25(prefixes: list[str], weights: dict[str, float]) -> float:
    counts = Counter(prefixes)
    norm = K1 * (1 - B + B * len(prefixes) / AVERAGE_WORDS)
    return sum(w * counts[p] * (K1 + 1) / (counts[p] + norm) for p, w in weights.items() if p in counts)


def _page_material(source: Source) -> str:
    """Quiz, exercise or reading-list material when the passage's headings say so."""
    for heading in [*getattr(source.chunk, "section_hierarchy", []), getattr(source.chunk, "heading", "")]:
        material = Block("paragraph", "", heading).material
        if material != "prose":
            return material
    return "prose"


def _eligible(unit: Unit, question: str, wants_code: bool, everything: bool) -> bool:
    if unit.asks:
        return False
    if not everything and unit.material in _ASKS and not _ASKS[unit.material].search(question):
        return False
    return unit.kind != "sentence" or len(unit.plain.split()) >= 4


def _has_code(unit: Unit) -> bool:
    return unit.kind == "code" or unit.introduces == "code"


def _reading_words(unit: Unit) -> int:
    if unit.kind in ("code", "table", "formula"):
        return 0
    text = unit.text.split("\n\n", 1)[0] if unit.introduces in ("code", "table", "formula") else unit.text
    return len(words(text))


class _Scored:
    __slots__ = ("unit", "relevance", "score")

    def __init__(self, unit: Unit, relevance: float, score: float):
        self.unit, self.relevance, self.score = unit, relevance, score  # relevance: by its words alone


def _score(question: str, sources: list[Source], book: BookVocabulary | None, *, everything: bool,
           read: list[tuple[str, list[Chunk]]]) -> list[_Scored]:
    wants_code = everything or bool(WANTS_CODE.search(question))
    units, seen = [], set()
    for number, (source, (text, _)) in enumerate(zip(sources, read), 1):
        for unit in units_of(text, number, _page_material(source)):
            said = " ".join(unit.plain.lower().split())
            if said in seen:  # passages overlap, and some books repeat a page
                continue
            seen.add(said)
            units.append(unit)
    asked = _asked(question)
    weights = _weights(asked, units, book)
    full = sum(weights.values()) or 1.0
    best_passage = max((s.score for s in sources), default=0.0)
    scored = []

    for unit in units:
        if not _eligible(unit, question, wants_code, everything):
            continue
        source = sources[unit.source - 1]
        heading = _prefixes(" ".join([unit.heading, getattr(source.chunk, "heading", "")]))
        relevance = _bm25(_prefixes(unit.plain), weights) / full
        score = (relevance + HEADING_WEIGHT * sum(w for p, w in weights.items() if p in heading) / full
                 + PASSAGE_WEIGHT * (source.score - best_passage))
        if wants_code and _has_code(unit):
            score += CODE_ASKED
        scored.append(_Scored(unit, relevance, score))
    return scored


def _with_dependencies(unit: Unit, by_key: dict[tuple, Unit]) -> list[Unit]:
    found = [unit]
    while found[0].refers_back:
        before = by_key.get((found[0].source, found[0].block, found[0].index - 1))
        if before is None:
            break
        found.insert(0, before)
    return found


def _choose(scored: list[_Scored], budget: int, wants_code: bool, highlighted: dict[int, int]) -> list[Unit]:
    """The best piece, then every piece that says something asked, best first, whichever passage
    holds it; then the sentence or item right after each of those in its paragraph or list (the
    rest of the thought); then the rest of the highlighted passage in its order (`highlighted`:
    its pieces' numbers among the sources, and their places in it). Each while it fits the
    reading length (and, unless code is asked for, one code block at most)."""
    by_key = {s.unit.key: s.unit for s in scored}
    ranked = sorted(scored, key=lambda s: s.score, reverse=True)
    relevant = [s for s in ranked if s is ranked[0] or s.relevance > 0]
    answering = {s.unit.key for s in relevant}
    unasked = sorted((s for s in ranked if s.relevance <= 0 and not _has_code(s.unit)), key=lambda s: s.unit.key)
    after = [s for s in unasked if (s.unit.source, s.unit.block, s.unit.index - 1) in answering]
    rest = sorted((s for s in unasked if s.unit.source in highlighted), key=lambda s: highlighted[s.unit.source])
    chosen: dict[tuple, Unit] = {}
    length = code = 0
    for candidate in relevant + after + rest:
        adding = [u for u in _with_dependencies(candidate.unit, by_key) if u.key not in chosen]
        more_length, more_code = sum(map(_reading_words, adding)), sum(map(_has_code, adding))
        if chosen and (length + more_length > budget or (code + more_code > 1 and not wants_code)):
            continue
        chosen.update((u.key, u) for u in adding)
        length, code = length + more_length, code + more_code
    if wants_code and not any(u.kind == "code" or u.introduces == "code" for u in chosen.values()):
        code = next((s.unit for s in ranked if s.unit.kind == "code"), None)
        if code is not None:
            chosen[code.key] = code
    return sorted(chosen.values(), key=lambda u: u.key)


def _render(units: list[Unit]) -> str:
    """Each passage's pieces in reading order under the heading they stand under, sentences of
    one paragraph run together, items of one list as one list, the passage cited at its end."""
    out: list[str] = []
    for number in dict.fromkeys(u.source for u in units):
        parts: list[list] = []  # [unit or None for a heading, text]
        heading = ""
        for unit in (u for u in units if u.source == number):
            if unit.heading and unit.heading != heading:
                parts.append([None, f"**{_HEADING_ID.sub('', unit.heading).strip()}**"])
            heading = unit.heading
            previous = parts[-1][0] if parts else None
            same_block = previous is not None and previous.block == unit.block and not previous.introduces
            if same_block and unit.kind in ("sentence", "item"):
                parts[-1] = [unit, parts[-1][1] + (" " if unit.kind == "sentence" else "\n") + unit.text]
            else:
                parts.append([unit, unit.text])
        last, text = parts[-1]
        if last.kind in ("sentence", "item") and not last.introduces:
            parts[-1][1] = cite_end(text.rstrip(), number)
        else:
            parts[-1][1] = f"{text}\n\n{marker(number)}"
        out.extend(text for _, text in parts)
    return "\n\n".join(out)


class Quoted(NamedTuple):
    text: str  # "" when the sources hold nothing to quote
    extra_sources: tuple[Chunk, ...] = ()  # chunks read on that pieces are cited from, numbered after the sources


def quoted_answer(question: str, sources: list[Source], answer_length: str = "normal",
                  book: BookVocabulary | None = None, following: Following | None = None) -> Quoted:
    """The answer quoted from `sources` (best first). `book`: the book's vocabulary, for how
    rare each asked word is (else the passages'); `following`: the chunks after a book passage
    on its page, read with it (continuation.py), a piece from them cited where it is."""
    wants_code = bool(WANTS_CODE.search(question))
    read = read_passages(sources, following)
    scored = _score(question, sources, book, everything=False, read=read)
    if not any(s.relevance > 0 for s in scored):  # nothing asked in the prose: quizzes, exercises too
        everything = _score(question, sources, book, everything=True, read=read)
        if not scored or any(s.relevance > 0 for s in everything):
            scored = everything
    if not scored:
        return Quoted("")
    highlighted = {n: getattr(s.chunk, "position", 0) for n, s in enumerate(sources, 1)
                   if s.source_type == "selected_text"}
    units, extra = cited_where_read(_choose(scored, WORDS_BY_LENGTH.get(answer_length, 70), wants_code, highlighted),
                                     sources, read)
    return Quoted(_render(units), tuple(extra))


def block_answer(question: str, sources: list[Source], answer_length: str = "normal",
                 book: BookVocabulary | None = None, following: Following | None = None) -> str:
    """The text of quoted_answer."""
    return quoted_answer(question, sources, answer_length, book, following).text
