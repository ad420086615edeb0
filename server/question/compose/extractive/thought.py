"""A piece of an answer with the rest of its thought: the sentences it points back at ("This is
why …" with the sentence before it), and the sentence a short topic sentence goes on into."""
from __future__ import annotations

import re

from server.question.compose.extractive.answer_units import Unit, dangling
from server.question.compose.extractive.pointing import points_above, shows_a_block
from server.question.compose.extractive.asks_for import has_code
from server.text.lengths import reading_length

# a sentence this short that says something asked opens a thought the next sentence carries on
# ("There could be various reasons. From inefficient algorithms … to laziness issues.")
TOPIC_SENTENCE = 8
MAX_GAP = 2  # sentences or items read between two quoted ones of a paragraph or list (in_a_row)
# the sentence after says how it is done ("… we have to explicitly opt in. To do that, we add …")
_HOW_IT_IS_DONE = re.compile(r"^\W*(?:to do (?:this|that|so)\b|here[’']s how\b|this is done by\b|"
                             r"para (?:ello|hacerlo|esto)\b|そのためには|为此)", re.IGNORECASE)


def with_dependencies(unit: Unit, by_key: dict[tuple, Unit]) -> list[Unit]:
    """A piece with the sentences it points back at: the one before it in its paragraph, or, for
    a paragraph that opens on "This is what …", the last piece of the paragraph or list before;
    and, where the first of them is said of the code, table or formula above it, that too."""
    found = [unit]
    while found[0].refers_back or dangling(found[0]):
        first = found[0]
        before = by_key.get((first.source, first.block, first.index - 1)) if first.refers_back else max(
            (u for key, u in by_key.items() if key[0] == first.source and key[1] == first.block - 1),
            key=lambda u: u.index, default=None)
        if before is None or before.kind not in ("sentence", "item"):
            break
        found.insert(0, before)
    if points_above(found[0]):  # "El código anterior dará un warning …": with the code above it
        first = found[0]
        shown = [u for key, u in by_key.items()
                 if key[0] == first.source and first.block - 2 <= key[1] < first.block and shows_a_block(u)]
        if shown:
            found.insert(0, max(shown, key=lambda u: u.key))
    return found


def carried_on(unit: Unit, by_key: dict[tuple, Unit]) -> Unit | None:
    """For a topic sentence (short, its paragraph going on), the sentence after it; and for any
    sentence, the one after that says how it is done."""
    after = by_key.get((unit.source, unit.block, unit.index + 1))
    if (unit.kind == "sentence" and not unit.introduces and after is not None and not has_code(after)
            and (reading_length(unit.plain) <= TOPIC_SENTENCE or _HOW_IT_IS_DONE.match(after.plain))):
        return after
    return None


def going_on(unit: Unit, by_key: dict[tuple, Unit]) -> Unit | None:
    """The sentence that goes on from it ("This is mostly an aesthetic decision …" after "… I've decided
    to suffix the functions … with an underscore")."""
    after = by_key.get((unit.source, unit.block, unit.index + 1))
    return after if unit.kind == "sentence" and not unit.introduces and after is not None \
        and after.kind == "sentence" and after.refers_back and not has_code(after) else None


def with_rest_of_thought(unit: Unit, by_key: dict[tuple, Unit]) -> list[Unit]:
    """A piece with what it depends on and the sentence a topic sentence goes on into."""
    after = carried_on(unit, by_key)
    return with_dependencies(unit, by_key) + ([after] if after is not None else [])


def in_a_row(chosen: dict[tuple, Unit], by_key: dict[tuple, Unit]) -> dict[tuple, Unit]:
    """The sentences between two quoted ones of a paragraph, the items between two quoted ones of a
    list: a paragraph or list quoted in part is read in a row, not as a collage ("… comes with the risk
    of creating _deadlocks_. If you're interested in deadlocks …" without the sentence saying what they
    are); a list quoted as a list (two items or more) from its first item ("2. Integration Complexity",
    "3. Calibration" of "what are the challenges …?" without "1. Hardware Requirements")."""
    rows: dict[tuple[int, int, str], list[int]] = {}
    for unit in chosen.values():
        if unit.kind in ("sentence", "item"):
            rows.setdefault((unit.source, unit.block, unit.kind), []).append(unit.index)
    between = {}
    for (source, block, kind), indexes in rows.items():
        indexes.sort()
        if kind == "item" and len(indexes) > 1 and 0 < indexes[0] <= MAX_GAP:
            indexes.insert(0, -1)
        for first, last in zip(indexes, indexes[1:]):
            if last - first - 1 > MAX_GAP:
                continue  # two pieces far apart in a long paragraph: what lies between is another thought
            for index in range(first + 1, last):
                unit = by_key.get((source, block, index))
                if unit is not None and unit.kind == kind and unit.key not in chosen:
                    between[unit.key] = unit
    return {**chosen, **between}
