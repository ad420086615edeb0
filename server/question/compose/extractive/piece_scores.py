"""How well each piece of the retrieved passages (answer_units.py) answers a question:
- by the book's BM25 over its words: the question's words weighed by how rare they are in the
  book (five-letter prefixes, so "wobbling" meets "wobble"), saturating with repeats, normalised
  by what a piece holding every asked word once would score;
- by the heading it stands under, on the same scale at three quarters' weight (the answer to
  "what is Warp?" is the section headed "Warp");
- by its passage's similarity to the question (the embedding model's judgement), relative to
  the best passage's, at 1.5 times (a paraphrase shares no word with the sentences that answer
  it, but its passage is near it); a passage of the page the question is asked on is nearer by
  what that page weighs in retrieval's order (reader_page.py).
Questions (a quiz's, or the book asking the reader) never answer; quizzes, exercises and
reading lists only when the question asks for them. The weights were measured on all four
development books (BENCHMARKS.md, "Answers that contain the answer").
"""
from __future__ import annotations

import re
import weakref
from collections import Counter
from typing import Callable

from server.question.compose.extractive.answer_units import Unit, units_of
from server.question.compose.extractive.continuation import placed
from server.text.blocks import heading_material
from server.book.chunk import Chunk
from server.question.context import Source
from server.question.gather.lexical import bm25, defining_chunks, inverse_document_frequency
from server.question.gather.reader_page import PAGE_WEIGHT
from server.text.scripts import read_form
from server.text.quantity import QUANTITY, asks_quantity, says_quantity
from server.text.sentences import strip_markdown
from server.text.lengths import reading_length
from server.question.compose.extractive.code_lines import program_words
from server.text.asked import COMPARING
from server.question.compose.extractive.asks_for import (ASKS, NEGATED, ONLY_ASKED, asks_for_code,
                                                         asks_for_example, has_code, is_example)
from server.text.definition import (code_names, compared_terms, compares, defined_term, defines, headed_by,
                                     named_operators, says_operator)
from server.text.vocabulary import BookVocabulary, words
from server.question.compose.extractive.question_words import (asked, holds_unasked, named_apart, prefix, prefixes,
                                                                runs_said, said_alone, says_term, term_key, without_terms)

CODE_ASKED = 0.3
EXAMPLE_ASKED = 0.3  # the book's example of what is asked, over its other sentences on it
# a piece saying asked words in a row as the question does ("… catch any exception …") opens it, where
# no other piece says them so ("proof by contradiction" is a term the section says again and again)
PHRASED = 0.3
NAMED_ASKED = 0.3  # an exercise, a quiz question or a reading when the question asks for them by name
NAMED = ("exercise", "quiz", "references")
DEFINES = 0.85  # "what's a trait?": the sentence that defines the term (text/definition.py) opens the answer,
# over a heading that only shares a stem with it ("hierarchical clustering" of "what does cluster mean?")
FRAGMENT_WORDS = 3  # a sentence's end this long, said whole by another piece, is left out (a shorter one may be chance)
HEADING_WEIGHT = 0.75
PASSAGE_WEIGHT = 1.5
K1, B, AVERAGE_WORDS = 1.2, 0.75, 20  # BM25 over sentences (about twenty words each)
_LINK = re.compile(r"\[[^\]]*\]\([^)]*\)")
_LINK_TARGET = re.compile(r"\[[^\]]*\]\(([^)]*)\)")
# a link's words that send the reader on to another page ("go here", "go to the next page", "continue to …")
_SENDS_ON = re.compile(r"\b(?:go|continue|proceed|move on|next|back|forward|previous|here)\b", re.IGNORECASE)
_EXTERNAL = re.compile(r"\s*(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)  # https:, mailto:, //host
_TAG_ONLY = re.compile(r"^\s*</?[A-Za-z][^>]*>\s*$")  # "<Listing number=…>": a page's markup, not its words
_NAME_NUMBER = re.compile(r"^([a-z]+)([0-9]+)$")
HEADING_ID = re.compile(r"\{#[^}]*\}\s*$")
_COMPARING = frozenset(prefix(word) for word in COMPARING)
_PREFIX_FREQUENCY: "weakref.WeakKeyDictionary[BookVocabulary, tuple[Counter, int]]" = weakref.WeakKeyDictionary()


def _book_frequency(book: BookVocabulary) -> tuple[Counter, int]:
    """In how many of the book's passages each five-letter prefix occurs (at most all of them)."""
    found = _PREFIX_FREQUENCY.get(book)
    if found is None:
        frequency: Counter = Counter()
        for word, count in book.document_frequency.items():
            frequency[prefix(word)] += count
        found = _PREFIX_FREQUENCY[book] = (frequency, book.documents)
    return found


def _weights(asked: list[str], units: list[Unit], book: BookVocabulary | None) -> dict[str, float]:
    """Each asked prefix's inverse document frequency: in the book, or (without one) among the pieces."""
    if book is not None and book.documents:
        frequency, documents = _book_frequency(book)
    else:
        frequency = Counter(p for u in units for p in set(prefixes(u.plain)))
        documents = len(units)
    found = {}
    for p in asked:
        name_number = _NAME_NUMBER.match(p)
        # a joined name and number ("ros2") is in at most the passages holding both its parts
        count = max(frequency[p], min(frequency[prefix(name_number[1])], frequency[name_number[2]])) if name_number \
            else frequency[p]
        found[p] = inverse_document_frequency(documents, min(count, documents))
    return found


def _without_fragments(units: list[Unit]) -> list[Unit]:
    """The pieces less the end of a sentence another piece says whole: a passage that opens inside
    a sentence ("returns `Option`, but you can't mix and match.") repeats the end of one another
    passage holds."""
    said = [" ".join(u.plain.split()) for u in units]
    whole = [t for u, t in zip(units, said) if u.kind in ("sentence", "item")]
    return [u for u, t in zip(units, said)
            if u.kind not in ("sentence", "item") or not t[:1].islower() or len(t.split()) < FRAGMENT_WORDS
            or not any(len(other) > len(t) and other.endswith(t) for other in whole)]


def _bm25(prefixes: list[str], weights: dict[str, float]) -> float:
    return bm25(weights, Counter(prefixes), len(prefixes), AVERAGE_WORDS, K1, B)


def _page_material(source: Source) -> str:
    """Quiz, exercise or reading-list material when the passage's headings say so."""
    for heading in [*getattr(source.chunk, "section_hierarchy", []), getattr(source.chunk, "heading", "")]:
        material = heading_material(heading)
        if material != "prose":
            return material
    return "prose"


def _words_beside_links(unit: Unit) -> int | None:
    """How many words a sentence or item with a link says outside its links (None: no such unit)."""
    if unit.kind not in ("sentence", "item") or unit.introduces or not _LINK.search(unit.text):
        return None
    return len(words(_LINK.sub(" ", unit.text)))


def _link_only(unit: Unit) -> bool:
    """A sentence or item that is a link and a word or two ("**Next:** [Inverse Kinematics →](…)",
    "[The Cargo Book](https://…)")."""
    beside = _words_beside_links(unit)
    return beside is not None and beside <= 3


def _navigation(unit: Unit) -> bool:
    """Links only, to the book's own pages ("[Up to the table of contents](README.md) / [Back to
    the Introduction](…)", a contents list's entry), or a few words sending the reader on ("When
    you're ready, [go to the next page to identify …](relatedness_pruning.md)"): the way to another
    page, not something the book says. Never an answer, not even when its link's words are the
    only ones naming what is asked. Links out of the book are a reading list, quoted when asked for."""
    beside = _words_beside_links(unit)
    if beside is None or any(_EXTERNAL.match(target) for target in _LINK_TARGET.findall(unit.text)):
        return False
    return beside <= 3 or (beside <= 6 and bool(_SENDS_ON.search(" ".join(_LINK.findall(unit.text)))))


def _eligible(unit: Unit, question: str, wants_code: bool, everything: bool, names_its_heading: bool) -> bool:
    if unit.asks or _TAG_ONLY.match(unit.text) or _navigation(unit):
        return False
    material = "references" if _link_only(unit) else unit.material
    if material in ONLY_ASKED and not ONLY_ASKED[material].search(question):
        return False
    # a troubleshooting entry answers the question that tells its symptom, something that does not
    # happen, in any words or language ("ros2 topic echo shows nothing …" of "Topic Not Showing Data")
    symptom = material == "troubleshooting" and names_its_heading and bool(NEGATED.search(question))
    if not everything and material in ASKS and not ASKS[material].search(question) and not symptom:
        return False
    return unit.kind != "sentence" or len(words(unit.plain)) >= 4


def reading_words(unit: Unit) -> int:
    return 0 if unit.kind in ("code", "table", "formula") else reading_length(unit.read)


def _holds(text: str, weights: dict[str, float], full: float) -> dict[str, float]:
    """The asked words a text holds, each with its share of the question."""
    said = set(prefixes(text))
    return {p: w / full for p, w in weights.items() if p in said}


def _page_weight(source: Source, page: str | None) -> float:
    """What the reader's page adds to a passage's nearness, as it does in the retrieval's order."""
    chunk = source.chunk
    on_page = page is not None and source.source_type == "database" and chunk.page_id == page
    return PAGE_WEIGHT if on_page else 0.0


def _names_its_section(unit: Unit, opens: list, term: str, on_term: list[bool]) -> bool:
    """Is the piece under a heading naming the term: its own, or that of the chunk its passage's
    text opens with (`opens`, each passage's), where that chunk opens the section (lexical.defining_chunks)?"""
    if unit.heading:
        return headed_by(unit.heading, term)
    return on_term[unit.source - 1] and headed_by(getattr(opens[unit.source - 1], "heading", ""), term)


class Scored:
    __slots__ = ("unit", "relevance", "score", "covers", "context", "items", "leads", "titled", "heads")

    def __init__(self, unit: Unit, relevance: float, score: float, covers: dict[str, float], context: float,
                 items: tuple[dict[str, float], ...] = (), leads: float = 0.0, titled: bool = False,
                 heads: bool = False):
        self.unit, self.relevance, self.score = unit, relevance, score  # relevance: by its words alone
        self.covers = covers  # the asked words it holds, each with its share of the question (rarer: more)
        self.context = context  # what its heading and its passage's nearness add
        self.items = items  # a lead-in's list: the asked words the lead-in holds, then each item
        self.leads = leads  # what it adds to a stretch it opens: the kind of piece asked for (exercises, an example)
        self.titled = titled  # its heading is asked words alone ("SLAM", "2. <joint>")
        self.heads = heads  # it opens the section named by what is asked ("Model Predictive Control (MPC)")


def score_pieces(question: str, sources: list[Source], book: BookVocabulary | None, *, everything: bool,
                 read: list[tuple[str, list[Chunk]]], page: str | None = None,
                 scale: Callable[[float], float] = lambda score: score) -> list[Scored]:
    """`scale`: the index's model's cosine on MiniLM's scale, where the weights were measured (e5's
    passages of a page lie within a few hundredths of each other: their nearness counted for little)."""
    wants_code = everything or asks_for_code(question)
    example = asks_for_example(question)
    term = defined_term(question)
    compared = compared_terms(question) if term is None else []
    terms = [term] if term is not None else list(compared)  # "what's X?"; "difference between X and Y?"
    terms += [name for name in code_names(question) if name not in terms]  # "DateのgetMonth()って…"
    asking = without_terms(question, terms)  # "catch and try?" asks for no exercise ("try")
    units, seen = [], set()
    for number, (source, (text, _)) in enumerate(zip(sources, read), 1):
        for unit in units_of(text, number, _page_material(source)):
            said = " ".join(unit.plain.lower().split())
            if said in seen:  # passages overlap, and some books repeat a page
                continue
            seen.add(said)
            units.append(unit)
    units = _without_fragments(placed(units, read))
    weights = _weights(asked(question, book), units, book)
    if compared:  # "the difference between String and &str" asks about the two: "different ways" is no answer
        weights = {p: w for p, w in weights.items() if p not in _COMPARING}
    # an operator asked about by name ("what does the $ operator do?") is asked as a word is, said
    # where a piece writes it: rare among the passages, it weighs as their rarest word does
    operators = [o for o in named_operators(question) if o not in weights]
    for operator in operators:
        weights[operator] = max(weights.values(), default=1.0)
    # a term that holds a word the question's words leave out ("yield from", "if let", "try") is asked
    # as a word is, said where a piece writes it whole (or as code): it weighs as the rarest asked word does
    phrases = {term_key(t.lower()): t.lower() for t in terms if holds_unasked(t, weights)}
    for phrase in phrases:
        weights[phrase] = max(weights.values(), default=1.0)
    if asks_quantity(question) and weights:  # "how many …?": a number said is asked, as much as its words on average
        weights[QUANTITY] = sum(weights.values()) / len(weights)
    alone = said_alone(question, weights)
    full = sum(weights.values()) or 1.0
    best_passage = scale(max((s.score for s in sources), default=0.0))
    scored, runs = [], []  # runs: the question's words each piece says in a row
    apart_in: dict[str, set[str]] = {}  # a heading's names in code that are not the question's words (named_apart)
    opened: set[tuple[int, str]] = set()  # the headings whose first piece has been read
    # the chunk each passage's text opens with: not its own where a passage before it read that one
    # (continuation.read_passages), and a piece before its first heading stands under that chunk's
    opens = [chunks[0] if chunks else source.chunk for source, (_, chunks) in zip(sources, read)]
    on_term = {t: defining_chunks(opens, t) for t in terms}
    for unit in units:
        source = sources[unit.source - 1]
        # the heading a piece stands under, not its chunk's first one: a chunk merges small sections, and
        # "getMonth()" heads the first of them, not the "getDay()" section after it
        headings = unit.heading or getattr(opens[unit.source - 1], "heading", "")
        written = read_form(headings) if alone else ""  # once, not for each of its words; only for a short term
        if headings not in apart_in:  # "Composing IO + Either using ExceptT" does not say "exceptions"
            apart_in[headings] = named_apart(headings, question)
        apart = apart_in[headings]
        heading = [p for p in prefixes(headings) if (p not in alone or alone[p].search(written)) and p not in apart]
        if not _eligible(unit, asking, wants_code, everything, any(p in weights for p in heading)):
            continue
        plain = program_words(unit.plain) if has_code(unit) else unit.plain  # a program's data is not what it names
        written = read_form(plain) if alone else ""
        apart = named_apart(unit.text, question)
        said = [p for p in prefixes(plain) if (p not in alone or alone[p].search(written)) and p not in apart]
        said += [o for o in operators if says_operator(unit.text, o)]
        heading += [o for o in operators if says_operator(headings, o)]
        said += [key for key, t in phrases.items() if says_term(unit.text, unit.plain, t)]
        if QUANTITY in weights and weights.keys() & set(said) and unit.kind != "code" and says_quantity(unit.read, question):
            said.append(QUANTITY)  # the number of something asked: "imagine … 2 million reads" counts no duplicates
        heading += [key for key, t in phrases.items() if says_term(headings, headings, t)]
        relevance = _bm25(said, weights) / full
        context = (HEADING_WEIGHT * sum(w for p, w in weights.items() if p in heading) / full
                   + PASSAGE_WEIGHT * (scale(source.score) - best_passage + _page_weight(source, page)))
        covers = {p: w / full for p, w in weights.items() if p in set(said)}
        given = EXAMPLE_ASKED if example and relevance > 0 and is_example(unit) else 0.0
        # "are there exercises on …?" is answered with them, not with prose naming them
        named = NAMED_ASKED if unit.material in NAMED and ASKS[unit.material].search(asking) else 0.0
        runs.append(runs_said(plain, question, weights) if relevance > 0 else set())
        leads = given + named
        asked_for = max(CODE_ASKED if wants_code and has_code(unit) else 0.0, given) + named
        # a section the question names whole ("what's functional core, imperative shell?" of the section
        # "Functional core, imperative shell", its words said nowhere in its text) is the one that answers
        first = (unit.source, unit.heading) not in opened
        named_whole = not terms and bool(weights) and set(heading) == set(weights)
        heads = first and (named_whole or any(_names_its_section(unit, opens, t, on_term[t]) for t in terms))
        if unit.kind != "code" and (heads or any(defines(unit.text, t) for t in terms)
                                    or (first and compares(headings, compared))):
            # a stretch opening on it leads (answers.py _opening), as a section named by the term, or by
            # the two compared ("Generators vs. Lists"), does
            context += DEFINES
        if unit.kind != "code":
            opened.add((unit.source, unit.heading))
        items = ()
        if unit.introduces == "list":
            items = tuple(_holds(strip_markdown(part), weights, full)
                          for part in [unit.text.partition("\n\n")[0], *unit.items])
        scored.append(Scored(unit, relevance, relevance + context + asked_for, covers, context, items, leads,
                             any(p in weights for p in heading) and all(p in weights or p.isdigit() for p in heading),
                             heads and unit.kind != "code"))
    said_by = Counter(run for said in runs for run in said)
    for piece, said in zip(scored, runs):
        piece.leads += PHRASED if any(said_by[run] == 1 for run in said) else 0.0
    return scored
