"""Which of the book's retrieved passages may answer, before any generator runs.

The book is taken to lack a topic only when the evidence is clear:
- the question names a specialist term the book never uses (not English, and not one edit from
  a book word, see vocabulary.py), and no passage is very close anyway; or
- the question leans on an everyday word that a book of its length would be expected to use but
  this one never does ("can you recommend a phone with really long battery life?" of a robotics
  book, see focus.py), and no passage is clearly close: whatever else its words match (the power
  chapter's "battery" and "long life"), it asks about something the book never mentions; or it
  leans on two such words and no passage is very close ("what time does the sun set in winter?"
  of a Python book: its `time` module and sets match, "sun" and "winter" say what is asked); or
- the passages that reach the threshold name none of the words the question asks about (by
  their first five letters: "robots" names "robot"), and none is very close anyway: "what is
  quantum computing?" near a book's introduction to AI (0.32) or "what is blockchain?" near the
  Rust book's hash maps (0.30) are about what the book never discusses, while every in-book
  question of the four development sets shares a word with its passages, everyday and
  paraphrased ones included ("why is my camera so laggy" and the passage's "camera"); unless a
  passage near the threshold names all of what it asks, as the last rule lets one answer; or
- no passage reaches the similarity threshold, and none near it has every word the question
  asks about (a short question about a named idea, "what is the embodiment hypothesis?", can
  score low with a small embedding model while its passage names it word for word), and none
  near it is headed by what a one-word question asks about ("whats Either used for?" near the
  section "Handling errors with Either": one word in a passage's text may be chance, in its
  heading it is the passage's subject, so such a passage counts from a lower floor). With a
  language model configured, a question whose best passage is near the threshold goes to the
  model with its passages instead: the model reads them and can answer NOT_IN_BOOK itself.

The figures are calibrated on the four development books (BENCHMARKS.md, "Thresholds"), with
MiniLM's cosines; another model's scores are put on that scale first (`scale`, from
embedding/choice.py), while the similarity threshold is the model's own.
"""
from __future__ import annotations

from typing import Callable

from server.book.chunk import Chunk
from server.text.asked import COMPARING, short_terms, uncommon_asked_words
from server.text.definition import defined_term, defines, defining
from server.text import own_language
from server.text.scripts import read_form, script_of, share_in
from server.text.vocabulary import in_english, unspaced, words

UNKNOWN_TERM_CEILING = 0.7  # a question naming a term the book never uses is refused below this
CLEAR_EVIDENCE = 0.4  # a question leaning on an everyday word the book never uses is refused below this
MODEL_FLOOR = 0.2  # with a model, passages from here up go to it when none reaches the threshold
# a passage headed by every word asked, or by the term asked about, from here up: its heading is its
# subject, so its text may be far in meaning from the question (a paragraph between two listings). A
# passage whose text defines the term asked about needs no floor: a definition inside a note on three
# things ("1. Guards, as seen in `sayDiv2` are …") or an item of a list of twelve ("**Restitution**: …
# Defines how "bouncy" a collision is", 0.075) is far in meaning from the question, and still the book
# saying what the term is
HEADED_FLOOR = 0.1
PASSAGE_WORDS = 60  # of a passage's opening, read for its language
PASSAGE_SCRIPT_SHARE = 0.1  # of a passage's letters in a question's script other than Latin: the passage is in its language (its code is not)


def admitted(question: str, candidates: list[Chunk], threshold: float, *, unknown_terms: list[str],
             model_judges: bool, about_a_passage: bool = False,
             unused_focus: Callable[[], tuple[str, ...]] | None = None,
             scale: Callable[[float], float] = lambda score: score) -> list[Chunk]:
    """The candidates (best first) that go on to generation; none means the question is refused.
    `unused_focus()`: the everyday words the question leans on that the book never uses (focus.py),
    asked only when no passage is clearly close.
    `about_a_passage`: asked of a highlighted passage with the book beside it, the passage is
    what the question names ("what does this line do?"), so the book's passages are not held to
    the question's own words. `scale`: the model's cosine on MiniLM's scale, what the constants
    here are in."""
    top = scale(max((c.score for c in candidates), default=0.0))
    if unknown_terms and top < UNKNOWN_TERM_CEILING:
        return []  # it asks about something the book never names
    if unused_focus is not None and not about_a_passage and top < UNKNOWN_TERM_CEILING:
        leaned = unused_focus()
        if leaned and (top < CLEAR_EVIDENCE or len(leaned) >= 2):
            # it leans on a word the book never uses, and no passage is clearly about it anyway;
            # or on two: whatever its other words match, its topic is not the book's
            return []
    term = defined_term(question)
    # "what is shadowing?", "what are lifetimes?": the book's passage on the term, though its cosine is low
    passing = [c for c in candidates if c.score >= threshold or (
        term is not None and (defines(c.content, term) or scale(c.score) >= HEADED_FLOOR
                              and defining(c.headings(), c.content, term)))]
    if passing and (model_judges or about_a_passage or top >= UNKNOWN_TERM_CEILING
                    or not same_language(question, passing[0]) or names_any_asked(question, passing)):
        return passing
    # none is close, or those close in meaning are about none of what it asks: only a passage naming
    # all of it answers ("my simulation runs very slow" and the reader's page's "complex meshes slow the
    # simulation down", just under the threshold, under others about crashing nodes)
    near = [c for c in candidates if scale(c.score) >= MODEL_FLOOR]
    if model_judges:
        return near
    asked = _asked(question)
    if not asked:
        return []
    return [c for c in candidates if len(asked) >= 2 and scale(c.score) >= MODEL_FLOOR
            and asked <= set(words(c.embed_text or c.content))
            or scale(c.score) >= HEADED_FLOOR and heading_names_all(asked, c)]


def heading_names_all(asked: set[str], passage: Chunk) -> bool:
    """Is the passage headed by every word asked (first five letters alike: "when should I use a where
    clause?" and "Clearer Trait Bounds with where Clauses")? Its heading is its subject, so its cosine
    may be low (a short paragraph between two listings) from HEADED_FLOOR up."""
    heading = {w[:5] for w in words(" ".join([*passage.section_hierarchy, passage.heading]))}
    return {w[:5] for w in asked} <= heading


def _asked(question: str) -> set[str]:
    """What the question asks about: "what's the difference between Rc and Arc?" asks about the
    two names ("difference" is its frame, and a name may be short)."""
    return (uncommon_asked_words(question) | short_terms(question)) - COMPARING


def same_language(question: str, passage: Chunk) -> bool:
    """False for a question not in English whose passage is in another language: a multilingual
    model finds an Urdu question's passage in English, and their words cannot be compared. A
    question in another script is in its passage's language when a good part of the passage's
    letters are in that script (an Urdu page's commands and names are in Latin letters); one in
    Latin letters when the passage's opening is not English either. (An English question is
    always held to its words: a passage of formulas full of Greek letters reads as not English.)"""
    if in_english(question):
        return True
    text = passage.embed_text or passage.content
    scripts = {script_of(ch) for ch in question if ch.isalpha() and not ch.isascii()} - {"LATIN"}
    if scripts:
        return share_in(text, scripts) >= PASSAGE_SCRIPT_SHARE
    return not in_english(" ".join(text.split()[:PASSAGE_WORDS]))


def names_any_asked(question: str, passages: list[Chunk]) -> bool:
    """Does any passage name a word the question asks about (first five letters alike; a word of
    Chinese or Japanese whole, as the language's word list cuts the question)? A question that
    asks about nothing in particular ("how does it work?") is not judged by it."""
    topics = own_language.topic_words(question)
    if topics is not None:  # with the words it writes in Latin letters ("functools.wraps 是干嘛的")
        whole = (topics - COMPARING) | {w for w in _asked(question) if not unspaced(w)}  # "区别" frames it
        return not whole or any(w in text for text in (read_form(c.embed_text or c.content) for c in passages)
                                for w in whole)
    asked = {w[:5] for w in _asked(question)}
    if not asked:
        return True
    return any(asked & {w[:5] for w in words(c.embed_text or c.content)} for c in passages)
