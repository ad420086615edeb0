"""The abbreviations a book defines ("minor allele frequency (MAF)"), and a question's spelt out.

A student asks "whats MAF?" of a book that wrote "minor allele frequency (MAF)" once and "MAF"
after: a small embedding model reads "MAF" as nothing, and the passage is not found. The book's
own definitions are found as Schwartz and Hearst find them ("A simple algorithm for identifying
abbreviation definitions in biomedical text", 2003): a short form in brackets after the words it
abbreviates, each of its letters found in them from the end backwards, its first letter opening a
word. The question is then searched with the long form beside the short one.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Iterable

from server.text.spelling import English

_DEFINED = re.compile(r"\(([A-Za-z][A-Za-z0-9\-]{1,9})\)")
# a short form with its long form in brackets after it: "AMCL (Adaptive Monte Carlo Localization)"
_SPELT_AFTER = re.compile(r"(?<![\w-])([A-Z][A-Za-z0-9\-]{1,9})\s+\(([A-Za-z][A-Za-z\- ]{3,80})\)")
_CLAUSE_END = re.compile(r"[.!?;:\n(\[]")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-]*")


def _long_form(short: str, before: str) -> str | None:
    """The words of `before` that `short` abbreviates (Schwartz and Hearst's best long form)."""
    at, i = len(short) - 1, len(before) - 1  # the short form's letter looked for, and where in `before`
    while at >= 0:
        letter = short[at].lower()
        if not letter.isalnum():
            at -= 1
            continue
        # from the end backwards; the short form's first letter must open a word
        while i >= 0 and (before[i].lower() != letter or (at == 0 and i > 0 and before[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return None
        i -= 1
        at -= 1
    return before[before.rfind(" ", 0, i + 1) + 1:].strip()


def defined_in(text: str, either_way: bool = False) -> Iterable[tuple[str, str]]:
    """(short form, long form) for each abbreviation `text` defines, the short form lowercased: "minor
    allele frequency (MAF)"; `either_way`, also the other way round, "AMCL (Adaptive Monte Carlo
    Localization)" (a definition of the name, though not one a question is searched with: a question
    naming "URDF" in passing, spelt out, was searched as one about URDF itself)."""
    for match in _SPELT_AFTER.finditer(text if either_way else ""):
        short, long = match.group(1), " ".join(match.group(2).split())
        words = _WORD.findall(long)
        if sum(ch.isupper() for ch in short) >= 2 and 2 <= len(words) <= 2 * len(short) \
                and words[0][0].lower() == short[0].lower() and _long_form(short, long) == long \
                and short.lower() not in long.lower():
            yield short.lower(), long
    for match in _DEFINED.finditer(text):
        short = match.group(1)
        if sum(ch.isupper() for ch in short) < 2:  # "(e.g)", "(see)", "(x)": not an abbreviation
            continue
        clause = _CLAUSE_END.split(text[max(0, match.start() - 200):match.start()])[-1]
        words = _WORD.findall(clause)[-min(len(short) + 5, 2 * len(short)):]
        long = _long_form(short, " ".join(words)) if words else None
        if long and len(long.split()) >= 2 and short.lower() not in long.lower():
            yield short.lower(), long


def book_abbreviations(definitions: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Each short form's long form, the one the book writes most often where it has two."""
    seen: dict[str, Counter] = defaultdict(Counter)
    for short, long in definitions:
        seen[short][long] += 1
    return {short: forms.most_common(1)[0][0] for short, forms in seen.items()}


def spelt_out(question: str, abbreviations: dict[str, str]) -> str:
    """The question with the long form of each abbreviation it names in brackets after it: "whats
    MAF" → "whats MAF (minor allele frequency)". Typed in lower case, a short form is taken for an
    abbreviation only when it is no English word ("or" is not "odds ratio") and has three letters."""
    if not abbreviations:
        return question

    def spell(match: re.Match) -> str:
        typed = match.group(0)
        long = abbreviations.get(typed.lower())
        if long is None or long.lower() in question.lower():
            return typed
        if typed.islower() and (len(typed) < 3 or English.knows(typed)):
            return typed
        return f"{typed} ({long})"

    return _WORD.sub(spell, question)
