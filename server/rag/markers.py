"""Every rule about citation markers: `[n]` cites the n-th source of an answer.

Code is never touched: `x[0]` inside inline code or a fenced block is not a marker, and a
link's `[text](url)` is not one either.
"""
from __future__ import annotations

import re
from typing import Callable

MARKER = re.compile(r"\[(\d+)\](?!\()")
_SPACED_MARKER = re.compile(r"[ \t]*\[(\d+)\](?!\()")  # with the space before it
_ANY_MARKER = re.compile(r"\s*\[\d+\]")
_LIST = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)+)\]")  # [1, 2]
_RANGE = re.compile(r"\[(\d+)\s*[-–]\s*(\d+)\]")  # [1-3]
_OPEN_TAIL = re.compile(r"\[[\d\s,;\-–]{0,12}$")  # a marker still being written: "[1", "[2, "
CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`", re.S)  # fenced blocks and inline code


def marker(number: int) -> str:
    return f"[{number}]"


def map_prose(text: str, fix: Callable[[str], str]) -> str:
    """Apply `fix` to the text outside code (fenced blocks and inline code are left as written)."""
    parts, last = [], 0
    for code in CODE.finditer(text):
        parts += [fix(text[last:code.start()]), code.group(0)]
        last = code.end()
    parts.append(fix(text[last:]))
    return "".join(parts)


def cited_in_order(text: str) -> list[int]:
    """The source numbers the text's markers cite, in the order first cited (code not counted)."""
    found: list[int] = []
    map_prose(text, lambda prose: found.extend(int(n) for n in MARKER.findall(prose)) or prose)
    return list(dict.fromkeys(found))


def cited(text: str) -> set[int]:
    """The source numbers the text's markers cite (code not counted)."""
    found: set[int] = set()
    map_prose(text, lambda prose: found.update(int(n) for n in MARKER.findall(prose)) or prose)
    return found


def drop_unknown(answer: str, n_sources: int) -> str:
    """Drop markers that point at no source, with the space before them."""
    def fix(prose: str) -> str:
        return _SPACED_MARKER.sub(lambda m: m.group(0) if 1 <= int(m.group(1)) <= n_sources else "", prose)
    return map_prose(answer, fix).strip()


def spell_out(text: str) -> str:
    """`[1, 2]` and `[1-3]` written as `[1][2]` and `[1][2][3]`."""
    def expand(m: re.Match) -> str:
        low, high = int(m.group(1)), int(m.group(2))
        return "".join(marker(n) for n in range(low, high + 1)) if 0 < high - low <= 10 else m.group(0)

    def fix(prose: str) -> str:
        prose = _LIST.sub(lambda m: "".join(marker(int(n)) for n in re.split(r"\s*[,;]\s*", m.group(1))), prose)
        return _RANGE.sub(expand, prose)
    return map_prose(text, fix)


def normalise(text: str, n_sources: int) -> str:
    """Lists and ranges spelled out, then markers to no source dropped."""
    return drop_unknown(spell_out(text), n_sources)


def strip(text: str) -> str:
    """The text without markers (an earlier answer quoted back to a model)."""
    return _ANY_MARKER.sub("", text).strip()


def open_tail(text: str) -> int | None:
    """Where an unfinished marker at the end of streamed text starts, if there is one."""
    match = _OPEN_TAIL.search(text)
    return match.start() if match else None


def cite_end(sentence: str, number: int) -> str:
    """The sentence with `[n]` before its final punctuation: "It folds [2].", "as follows [2]:"
    (a lead-in cited apart from the block it introduces)."""
    return re.sub(r"([.!?:])?$", lambda m: f" {marker(number)}{m.group(1) or '.'}", sentence, count=1)
