"""A list in an answer: cut to the items that answer, its entries told apart, each item on a line.

A list longer than the answer is cut to the items that say something asked (a lead-in's "the
main stages are:" keeps its first items). A list of entries that each name their own subject
("- `simp` applies the simplifier …", "- `done` fails if …") answers a question about one of them
with that entry, not the entries after it; a list whose entries answer together ("- **Manufacturer**
…", "- **Operator** …" of who is responsible) is read on.
"""
from __future__ import annotations

import re
from dataclasses import replace

from server.question.compose.extractive.answer_units import ITEM_MARKER, Unit
from server.question.compose.extractive.piece_scores import Scored, reading_words
from server.question.compose.extractive.question_words import prefix
from server.text.definition import headed_by
from server.text.vocabulary import words

_BARE = re.compile(r"^\s*(?:[-*+]|\d+[.)])?\s*$")  # a marker alone: what follows is no part of its line
_BLOCK_LINE = re.compile(r"^\s*(?:```|~~~|\||>|#)")  # code fences, table rows, quotes, headings keep their lines
_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef"
_CJK_EDGE = re.compile(f"[{_CJK}]$")
_CJK_START = re.compile(f"^[{_CJK}]")
# an item that names its own subject ("- `done` fails if …", "- **Latency**: …")
_NAMED_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(`[^`\n]+`|\*\*[^*\n]+\*\*|__[^_\n]+__)")


def names_its_own(unit: Unit) -> bool:
    """Is the piece an entry of a list that names its own subject?"""
    return bool(_NAMED_ITEM.match(unit.text))


def cut_list(piece: Scored, room: int) -> Unit | None:
    """A lead-in with its list cut to fit in `room` reading words: the items that say something
    asked that the lead-in does not, most first while they fit (at least one), shown in the
    book's order; when none does, the list is the answer ("the main stages are:"): its first
    items. None for a piece that is not a lead-in with a list."""
    if not piece.items:
        return None
    unit = piece.unit
    said, items = piece.items[0], piece.items[1:]
    adds = [sum(share for word, share in holds.items() if word not in said) for holds in items]
    order = sorted((i for i in range(len(items)) if adds[i] > 0), key=lambda i: -adds[i]) or range(len(items))
    bare = reading_words(replace(unit, kept_items=()))
    kept, length = [], bare
    for i in order:
        more = reading_words(replace(unit, kept_items=(i,))) - bare
        if kept and length + more > room:
            continue
        kept.append(i)
        length += more
    return replace(unit, kept_items=tuple(sorted(kept)))


def compared_entries(unit: Unit, terms: list[str]) -> Unit:
    """A lead-in's list of entries that name their own subjects cut to the entries of the two compared
    ("whats the difference between ODE and DART" of Gazebo's four physics engines, each an entry "**ODE
    (Open Dynamics Engine)**: …"); any other piece as it is."""
    if unit.introduces != "list" or len(terms) != 2:
        return unit
    names = [(i, named.group(1).strip("`*_")) for i, item in enumerate(unit.items)
             if (named := _NAMED_ITEM.match(item))]
    sides = [{i for i, name in names if headed_by(name, term)} for term in terms]
    kept = sides[0] | sides[1]
    if not all(sides) or unit.kept_items is not None and not kept <= set(unit.kept_items):
        return unit
    return replace(unit, kept_items=tuple(sorted(kept)))


def entry_asked(piece: Scored) -> bool:
    """Is the piece a list's entry whose own name is asked about ("- `simp` applies the simplifier …"
    of "what does simp do?"), as opposed to an entry of a list that answers whole ("- **Manufacturer** …"
    of "who gets in trouble if a robot hurts somebody?")?"""
    named = _NAMED_ITEM.match(piece.unit.text)
    return named is not None and any(prefix(word) in piece.covers for word in words(named.group(1)))


def unwrapped(items: str) -> str:
    """A list as a reader sees it: the lines the book wrapped an item's text into joined into one
    ("- [`-threaded`] -\n    Use the multi-core runtime …"), each item and nested item on a line of its
    own; code, tables and quotes in an item as written."""
    lines: list[str] = []
    fenced = False
    for line in items.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        joins = not fenced and lines and line.strip() and lines[-1].strip() and not ITEM_MARKER.match(line) \
            and not _BLOCK_LINE.match(line) and not _BLOCK_LINE.match(lines[-1]) and not _BARE.match(lines[-1])
        if not joins:
            lines.append(line)
            continue
        before, after = lines[-1].rstrip(), line.strip()
        lines[-1] = before + ("" if _CJK_EDGE.search(before) and _CJK_START.match(after) else " ") + after
    return "\n".join(lines)
