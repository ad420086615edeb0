"""An extractive answer's pieces (answer_units.py) as the reader sees them: each passage's pieces
in reading order under the heading they stand under, sentences of a paragraph run together, items of
a list as one list, each run of a passage's pieces cited at its end."""
from __future__ import annotations

from itertools import groupby

from server.question.compose.extractive.answer_units import Unit
from server.question.compose.extractive.asks_for import has_code
from server.question.compose.extractive.code_lines import trimmed_code
from server.question.compose.extractive.lists import unwrapped
from server.question.compose.extractive.piece_scores import HEADING_ID
from server.question.markers import cite_end, marker
from server.text.emphasis import as_rendered
from server.text.sentences import CJK_STOPS


def _shown(unit: Unit, asked: set[str] | None) -> str:
    """What the answer shows of a piece: long code cut to the lines naming what is `asked`; the
    book's `_emphasis_` as the widget renders it."""
    if unit.kind == "code":
        return unit.shown if asked is None else trimmed_code(unit.shown, asked)
    shown = unwrapped(unit.shown) if unit.kind == "item" or unit.introduces == "list" else unit.shown
    if asked is None or not has_code(unit):
        return as_rendered(shown)
    lead_in, _, block = shown.partition("\n\n")
    return f"{as_rendered(lead_in)}\n\n{trimmed_code(block, asked)}"


def _joint(before: str, kind: str) -> str:
    """What goes between two pieces of one block: a list's items a line each; sentences a space,
    none after a Chinese or Japanese full stop ("説明します。というのは")."""
    return "\n" if kind != "sentence" else "" if before.endswith(CJK_STOPS) else " "


def rendered(units: list[Unit], asked: set[str] | None = None) -> str:
    """Each passage's pieces in reading order under the heading they stand under, sentences of
    one paragraph run together, items of one list as one list, the passage cited at the end of its
    pieces in a row (twice where the answer comes back to it).
    `asked`: the question's words (long code is cut to the lines naming them)."""
    out: list[str] = []
    heading = ""  # a heading is not repeated over the next passage quoted under it
    for number, run in groupby(units, key=lambda u: u.source):
        parts: list[list] = []  # [unit or None for a heading, text]
        for unit in run:
            if unit.heading and unit.heading != heading:
                parts.append([None, f"**{HEADING_ID.sub('', unit.heading).strip()}**"])
            heading = unit.heading or heading
            previous = parts[-1][0] if parts else None
            same_block = previous is not None and previous.block == unit.block and not previous.introduces
            if same_block and unit.kind in ("sentence", "item"):
                parts[-1] = [unit, parts[-1][1] + _joint(parts[-1][1], unit.kind) + _shown(unit, asked)]
            else:
                parts.append([unit, _shown(unit, asked)])
        last, text = parts[-1]
        if _ends_in_words(last, text):
            parts[-1][1] = cite_end(text.rstrip(), number)
        else:
            parts[-1][1] = f"{text}\n\n{marker(number)}"
        out.extend(text for _, text in parts)
    return "\n\n".join(out)


def _ends_in_words(unit: Unit, text: str) -> bool:
    """Is the run's last piece cited at its end: a sentence, an item, a lead-in's list whose last
    item ends in words (the citation on its own line after a list reads as a stray number), not
    code, a table or a formula, which take it on a line of their own?"""
    last_line = text.rstrip().rsplit("\n", 1)[-1].strip()
    return unit.kind in ("sentence", "item") and (not unit.introduces or unit.introduces == "list" and not last_line.startswith(
        ("```", "~~~", "|", "$$")))
