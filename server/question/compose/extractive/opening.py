"""The stretch an extractive answer opens with (answers.py): the pieces of one passage in a row,
read straight through, that say the most of what is asked within part of the reading length.
An answer is usually a few sentences in a row, and the sentences beside the ones naming the
question's words are often the ones that answer it.
"""
from __future__ import annotations

import re
from dataclasses import replace

from server.question.compose.extractive.answer_units import Unit
from server.question.compose.extractive.pointing import points_above
from server.question.compose.extractive.lists import cut_list, entry_asked, names_its_own
from server.question.compose.extractive.asks_for import has_code
from server.question.compose.extractive.piece_scores import Scored, reading_words
from server.question.compose.extractive.sections import PieceSections
from server.question.compose.extractive.question_words import prefixes
from server.text.quantity import QUANTITY, says_quantity
from server.text.sentences import strip_markdown

OPENING_SHARE = 0.5  # of the reading length, for the opening stretch (BENCHMARKS.md)
# sections an answer quotes: the one that answers, and two for what it does not say (a section with
# its subsections is one; each piece counts the section it stands in, sections.PieceSections)
MAX_SECTIONS = 3
CODE_BLOCKS_ASKED = 3
_LEAD_IN_END = re.compile(r"[:：]\s*$")
_CLAUSE_APART = re.compile(r"\s+[-–—]\s+|;\s+")  # a dash or a semicolon between two clauses
# a lead-in that says nothing without its block: it points at it ("The following is …", "Let's see how
# many …:", "次のように…") or stops short of it ("… our output is:", "… such as:")
_POINTS_AHEAD = re.compile(
    r"\b(?:(?:the )?following|follows?|below|like (?:this|so)|as shown|here(?:'s| is| are)|let's|let us|e\.g\.|"
    r"for (?:example|instance)|"
    r"a continuación|siguientes?|como sigue|por ejemplo|veamos)\b|如下|下面|以下|例如|比如|次の|下記|例えば|"
    r"مندرجہ ذیل|درج ذیل|"
    r"\b(?:is|are|was|were|be|by|with|to|of|the|a|an|and|or|in|on|into|as|like|using|such as|include|includes|"
    r"es|son|como|con|de|el|la|los|las|un|una|y|o|en)\W*[:：]\s*$", re.IGNORECASE)


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
        # each lead-in to code as its sentence alone, once for every stretch that reaches it
        alone_of = {id(p): lead_in_alone(p) for p in pieces if p.unit.introduces == "code"}
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
                unit, says = piece.unit, piece.covers
                # the code a section named by what is asked opens with, after its lead-in, is its answer
                alone = alone_of.get(id(piece))
                # a lead-in that turns to its code as an aside is prose: its code answers for what it does not say
                aside = set(alone[1]) if alone and said_before_aside(piece.unit.text.partition("\n\n")[0]) else set()
                if more_code and not (wants_code or set(piece.covers) - said_in_prose - aside
                                      or (how_to and piece.relevance > 0) or (piece is first and first.heads)):
                    if alone is None:
                        continue
                    (unit, says), more, more_code = alone, reading_words(alone[0]), False
                if (taken or more > budget) and (length + more > limit or code + more_code > code_blocks(wants_code)):
                    break
                if taken and entry_asked(pieces[i]) and names_its_own(piece.unit) and not (
                        set(piece.covers) - set(covers)):
                    break  # the entry asked about by name, not the next ones of its list ("- `done` fails if …")
                if taken and (section(piece.unit) != section(first.unit) or not within(piece.unit, first.unit)):
                    break  # the section that answers, read straight through: not on into the next one
                covers.update(says)
                length, code = length + more, code + more_code
                taken.append(unit)
                listed_asked = listed_asked or piece.relevance > 0 and piece.unit.block == first.unit.block
            # a short list read from its first item to the one asked ("- Bipedal walking is inherently unstable"
            # before "- Walking on uneven terrain? Even harder") is read as the book lists it
            listed = first.unit.kind == "item" and first.unit.index == 0 and listed_asked
            # between equals, a stretch opening on a sentence, not on a lead-in whose code is left out
            value = sum(covers.values()) + first.context + first.leads - (
                0.01 if first.relevance <= 0 and not listed else 0) - (0.01 if taken and taken[0] is not first.unit else 0)
            stretches.append((value, taken))
    return max(stretches, key=lambda stretch: stretch[0])[1] if stretches else []  # the first of equals


def said_before_aside(sentence: str) -> str | None:
    """A lead-in that says its piece, then turns to its code as an aside ("This returns a duplication
    rate of about 4% - let's plot it:"): the clause before the aside, ending as a sentence does; None
    for one whose block completes it ("… plink has created three new files:")."""
    apart = list(_CLAUSE_APART.finditer(sentence))
    if not apart or not _POINTS_AHEAD.search(strip_markdown(sentence[apart[-1].end():])):
        return None
    said = sentence[:apart[-1].start()].rstrip()
    return said if said[-1:] in ".!?。" else f"{said}."


def lead_in_alone(piece: Scored) -> tuple[Unit, dict[str, float]] | None:
    """A lead-in to code nobody asked for, as its sentence alone, with the asked words that sentence
    says ("A factory method handles complex initialization logic, … returning a configured object:"
    says what one is; its 25 lines of code do not need to); None where the sentence says none, or
    says nothing without its code."""
    sentence = piece.unit.text.partition("\n\n")[0]
    said = said_before_aside(sentence)
    sentence = said if said is not None else sentence
    if piece.unit.introduces != "code" or _POINTS_AHEAD.search(strip_markdown(sentence)):
        return None
    own = set(prefixes(sentence)) | ({QUANTITY} if says_quantity(strip_markdown(sentence)) else set())
    says = {word: share for word, share in piece.covers.items() if word in own}
    return (replace(piece.unit, text=closed(sentence), introduces=""), says) if says else None


def shown_alone(chosen: dict[tuple, Unit], by_key: dict[tuple, Unit]) -> set[tuple]:
    """The lead-ins to code chosen as their sentence alone (lead_in_alone)."""
    return {key for key, unit in chosen.items() if not unit.introduces and by_key[key].introduces == "code"}


def closed(sentence: str) -> str:
    """A lead-in shown without its block, ending as a sentence does."""
    return _LEAD_IN_END.sub(lambda end: "。" if end[0].startswith("：") else ".", sentence)
