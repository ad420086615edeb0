"""Checking a student's answer to a quiz item, without a model.

A choice is checked against the book's key: the student may give its letter ("b", "B)", "option
B") or its words. A short answer is checked by the key terms of the book's sample answer (or, when
the book gives none, of the tested section's sentences that answer the question): all of them
there, or most and close in meaning, is correct; some is "partly"; none is incorrect. Terms the
question itself gives away do not count."""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from server.embedding.choice import on_gate_scale
from server.question.practice import QuizItem
from server.text.sentences import normalised, split_sentences
from server.text.terms import term_set, terms
from server.text.lengths import spaced_length

CORRECT_TERMS, PARTLY_TERMS = 0.6, 0.25
CLOSE_MEANING, NEAR_MEANING = 0.75, 0.6  # cosine of the student's answer and the book's
MAX_KEY_TERMS = 12
_LETTER = re.compile(r"(?i)^\W*(?:(?:option|answer|choice|respuesta|opci[oó]n)\s+)?\(?(?P<letter>[a-h])\)?\W*$")
_LEADING_LETTER = re.compile(r"(?i)^\W*\(?(?P<letter>[a-h])(?:[).:]|\s+[-–—])\s*(?P<rest>.*)$")
_NOTHING = re.compile(r"(?i)^\W*(i\s+don'?t\s+know|no\s+idea|not\s+sure|idk|pass|no\s+s[eé]|\?+)\W*$")


@dataclass(frozen=True)
class Checked:
    verdict: str  # correct | partly | incorrect
    expected: str  # the book's answer as feedback states it
    missing: tuple[str, ...] = ()  # a short answer's key words the student left out
    chosen: int | None = None  # a choice item: the choice the student gave


def chosen_choice(item: QuizItem, answer: str) -> int | None:
    """The choice a student's answer names: its letter, or its words."""
    found = _LETTER.match(answer) or _LEADING_LETTER.match(answer)
    if found:
        index = ord(found["letter"].lower()) - ord("a")
        if index < len(item.choices):
            return index
    said = normalised(answer)
    if not said:
        return None
    exact = [n for n, c in enumerate(item.choices) if normalised(c) == said]
    if exact:
        return exact[0]
    given = term_set(answer)
    scored = sorted(((len(given & term_set(c)) / max(1, len(term_set(c) | given)), n)
                     for n, c in enumerate(item.choices)), reverse=True)
    if scored and scored[0][0] >= 0.5 and (len(scored) == 1 or scored[0][0] > scored[1][0]):
        return scored[0][1]
    return None


def answering_sentences(section_text: str, question: str, limit: int = 2) -> str:
    """The section's sentences that share most of the question's terms: what it answers with."""
    asked = term_set(question)
    sentences = [s for s in split_sentences(section_text) if spaced_length(s) >= 5]
    ranked = sorted(sentences, key=lambda s: -len(asked & term_set(s)))
    return " ".join(ranked[:limit])


def key_terms(expected: str, question: str) -> list[str]:
    """The terms an answer must say: the expected answer's, less those the question gives away,
    rarest (longest) first when there are many."""
    given = term_set(question)
    found = list(dict.fromkeys(t for t in terms(expected) if t not in given))
    return sorted(found, key=lambda t: -len(t))[:MAX_KEY_TERMS] if len(found) > MAX_KEY_TERMS else found


def _words_for(stems: list[str], expected: str) -> tuple[str, ...]:
    """The expected answer's own words for some of its terms (to name what is missing)."""
    words = re.findall(r"[A-Za-zÀ-ÿ0-9][\w'-]*", expected)
    named = []
    for stem in stems:
        word = next((w for w in words if w.lower().startswith(stem)), stem)
        named.append(word.lower())
    return tuple(dict.fromkeys(named))


def check_choice(item: QuizItem, answer: str, section_text: str = "") -> Checked:
    chosen = chosen_choice(item, answer)
    key = item.key
    if key is None and section_text:  # no key: the choice the tested section says most of
        said = term_set(section_text)
        scored = sorted(((len(term_set(c) & said) / max(1, len(term_set(c))), n) for n, c in enumerate(item.choices)),
                        reverse=True)
        key = scored[0][1] if scored and scored[0][0] > 0 and (len(scored) < 2 or scored[0][0] > scored[1][0]) else None
    expected = f"{chr(65 + key)}) {item.choices[key]}" if key is not None else ""
    if key is None:
        return Checked("partly" if chosen is not None else "incorrect", expected, (), chosen)
    return Checked("correct" if chosen == key else "incorrect", expected, (), chosen)


def check_short(item: QuizItem, answer: str, section_text: str, similarity=None) -> Checked:
    """`similarity(a, b)`: the cosine of two texts' embeddings, when a model is at hand."""
    expected = item.answer or answering_sentences(section_text, item.question)
    if not expected:
        return Checked("partly" if answer.strip() else "incorrect", "")
    if _NOTHING.match(answer) or not term_set(answer):
        return Checked("incorrect", expected, _words_for(key_terms(expected, item.question)[:5], expected))
    wanted = key_terms(expected, item.question)
    said = term_set(answer)
    # the book's words for the same things count where the section uses them
    found = [t for t in wanted if t in said]
    coverage = len(found) / len(wanted) if wanted else 0.0
    close = float(similarity(answer, expected)) if similarity is not None else 0.0
    missing = _words_for([t for t in wanted if t not in said][:5], expected)
    if coverage >= CORRECT_TERMS or (coverage >= CORRECT_TERMS - 0.2 and close >= CLOSE_MEANING):
        return Checked("correct", expected, missing)
    if coverage >= PARTLY_TERMS or close >= NEAR_MEANING:
        return Checked("partly", expected, missing)
    return Checked("incorrect", expected, missing)


def cosine(embedder):
    """similarity(a, b) with the book's embedding model, on the scale CLOSE_MEANING and NEAR_MEANING
    are MiniLM cosines in. Both are read as questions, as that scale knows two questions; a model
    with a passage prefix ("passage: ") reads two passages as nearer than either."""
    scale = on_gate_scale(getattr(embedder, "model_name", ""), two_questions=True)

    def similarity(a: str, b: str) -> float:
        return scale(float(np.dot(embedder.embed_query(a), embedder.embed_query(b))))
    return similarity
