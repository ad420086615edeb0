"""The stretch an extractive answer opens with (answers.py): the pieces of one passage in a row,
read straight through, that say the most of what is asked within part of the reading length.
An answer is usually a few sentences in a row, and the sentences beside the ones naming the
question's words are often the ones that answer it.
"""
from __future__ import annotations

from server.question.compose.extractive.answer_units import Unit, points_above
from server.question.compose.extractive.lists import cut_list, entry_asked, names_its_own
from server.question.compose.extractive.asks_for import has_code
from server.question.compose.extractive.piece_scores import Scored, reading_words
from server.question.compose.extractive.sections import PieceSections

OPENING_SHARE = 0.5  # of the reading length, for the opening stretch (BENCHMARKS.md)
# sections an answer quotes: the one that answers, and two for what it does not say (a section with
# its subsections is one; each piece counts the section it stands in, sections.PieceSections)
MAX_SECTIONS = 3
CODE_BLOCKS_ASKED = 3


def code_blocks(wants_code: bool) -> int:
    """Code blocks an answer quotes at most: one unless code is asked for; asked for, a few, not a
    page's every listing ("i typed ros2 in my terminal …" quoted seven)."""
    return CODE_BLOCKS_ASKED if wants_code else 1


def passage(unit: Unit) -> int:
    """A piece's section where its sections are not known: its passage."""
    return unit.source


def opening_stretch(scored: list[Scored], budget: int, wants_code: bool, how_to: bool = False,
                    sections: PieceSections | None = None, weighing: frozenset[tuple] = frozenset()) -> list[Unit]:
    """The pieces of one passage in a row, within a share of the reading length (the first may run
    to the whole of it, never beyond: a list longer than the answer does not open it; one code
    block unless code is asked for; code only when asked for or when it names something asked
    that the passage's prose does not: then the code is the answer), that hold the
    most of the question's words (by their share of it, each once), with what their first piece's
    heading and passage add. Between equals, a stretch that opens on a piece naming something
    asked wins."""
    limit = int(budget * OPENING_SHARE)
    section = sections or passage
    within = sections.within if sections is not None else lambda unit, opening: True
    passages: dict[int, list[Scored]] = {}
    for piece in sorted(scored, key=lambda s: s.unit.key):
        passages.setdefault(piece.unit.source, []).append(piece)
    stretches: list[tuple[float, list[Unit]]] = []
    for pieces in passages.values():
        said_in_prose = {word for p in pieces if not has_code(p.unit) for word in p.covers}
        for i, first in enumerate(pieces):
            if points_above(first.unit) or first.unit.key in weighing:
                continue  # an answer does not open on "The example above …", nor on "它还是有一些好处的" (weighing.py)
            if first.items and reading_words(first.unit) > budget:
                # a lead-in whose list is longer than the answer opens it cut to the items that say what is
                # asked ("Nav2 is composed of …: 1. **Localization**: … using AMCL (Adaptive Monte Carlo …)")
                cut = cut_list(first, budget)
                if cut is not None:
                    kept = [first.items[0], *(first.items[k + 1] for k in cut.kept_items)]
                    covers = {word: share for said in kept for word, share in said.items()}
                    stretches.append((sum(covers.values()) + first.context + first.leads, [cut]))
                continue
            covers: dict[str, float] = {}
            length = code = 0
            taken, listed_asked = [], False
            for piece in pieces[i:]:
                more, more_code = reading_words(piece.unit), has_code(piece.unit)
                # the code a section named by what is asked opens with, after its lead-in, is its answer
                if more_code and not (wants_code or set(piece.covers) - said_in_prose
                                      or (how_to and piece.relevance > 0) or (piece is first and first.heads)):
                    continue
                if (taken or more > budget) and (length + more > limit or code + more_code > code_blocks(wants_code)):
                    break
                if taken and entry_asked(pieces[i]) and names_its_own(piece.unit) and not (
                        set(piece.covers) - set(covers)):
                    break  # the entry asked about by name, not the next ones of its list ("- `done` fails if …")
                if taken and (section(piece.unit) != section(first.unit) or not within(piece.unit, first.unit)):
                    break  # the section that answers, read straight through: not on into the next one
                covers.update(piece.covers)
                length, code = length + more, code + more_code
                taken.append(piece.unit)
                listed_asked = listed_asked or piece.relevance > 0 and piece.unit.block == first.unit.block
            # a short list read from its first item to the one asked ("- Bipedal walking is inherently unstable"
            # before "- Walking on uneven terrain? Even harder") is read as the book lists it
            listed = first.unit.kind == "item" and first.unit.index == 0 and listed_asked
            value = sum(covers.values()) + first.context + first.leads - (
                0.01 if first.relevance <= 0 and not listed else 0)
            stretches.append((value, taken))
    return max(stretches, key=lambda stretch: stretch[0])[1] if stretches else []  # the first of equals
