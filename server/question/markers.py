"""Every rule about citation markers: `[n]` cites the n-th source of an answer.

Code is never touched: `x[0]` inside inline code or a fenced block is not a marker, and a
link's `[text](url)` is not one either.
"""
from __future__ import annotations

import re
from typing import Callable

from server.text.lengths import CJK

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


_CJK_END = re.compile(rf"[{CJK}]$")
# an Urdu word at the end: Arabic letters, with one only Urdu writes among the sentence's (ے ں ٹ ڈ ڑ ھ ہ)
_URDU_END = re.compile(r"(?=.*[ٹڈڑںھہےۓ])[\u0600-\u06FF][\u064B-\u065F]*$", re.DOTALL)


def cite_end(sentence: str, number: int) -> str:
    """The sentence with `[n]` before its final punctuation: "It folds [2].", "as follows [2]:"
    (a lead-in cited apart from the block it introduces); in Chinese and Japanese with no space
    ("できます[1]。"), in Urdu before its full stop ("ہے [1]۔")."""
    unspaced = re.search(r"([。！？：])$", sentence)
    if unspaced:
        return f"{sentence[:-1]}{marker(number)}{unspaced.group(1)}"
    if _CJK_END.search(sentence):  # a highlighted part of a sentence: "リテラルです[1]。", not "です [1]."
        return f"{sentence}{marker(number)}。"
    # a highlighted part of an Urdu sentence ends with Urdu's full stop: "کرتا ہے [1]۔", not "ہے [1]."
    stop = "۔" if _URDU_END.search(sentence) else "."
    return re.sub(r"([.!?:۔؟])?$", lambda m: f" {marker(number)}{m.group(1) or stop}", sentence, count=1)


_HELD_MARKER = re.compile(r"\[\d+\]$")  # may yet become a link's `[text](`


def renumber(text: str, numbers: dict[int, int], same: dict[int, int] | None = None) -> str:
    """The markers rewritten old → new by `numbers`; an old number not in it gets the next new one,
    so markers read 1, 2, 3 … in the order first cited (IEEE). `same`: a source that is another's
    place in the book again (same_places), cited by that one's number."""
    same = same or {}

    def fix(prose: str) -> str:
        return MARKER.sub(lambda m: marker(numbers.setdefault(same.get(int(m.group(1)), int(m.group(1))),
                                                              len(numbers) + 1)), prose)
    return map_prose(text, fix)


def same_places(places: list) -> dict[int, int]:
    """Each source (by number) whose place in the book an earlier one has (`places`: each source's,
    None for one that is no place), with that earlier one's number: a chunk and the lead-in read
    from the chunk before it, two chunks of one short section, are one source to a reader."""
    first: dict = {}
    return {n: first.setdefault(place, n) for n, place in enumerate(places, 1)
            if place is not None and first.setdefault(place, n) != n}


def in_citation_order(sources: tuple | list, cited: list[int], same: dict[int, int] | None = None) -> tuple:
    """The sources renumbered to match `renumber`: those cited, in the order first cited, then the
    rest; a source another is `same` as once."""
    first = [n for n in cited if 1 <= n <= len(sources)]
    return tuple(sources[n - 1] for n in first) + tuple(
        s for n, s in enumerate(sources, 1) if n not in first and n not in (same or {}))


class CitationOrder:
    """Streamed text with its markers renumbered in the order first cited.

    What is released is always a prefix of the renumbered whole: text is held back while it ends in
    a marker still being written (or one a `(` could make a link) or inside unclosed inline code,
    and from a marker to a source beyond the `known` ones (found while answering, listed only when
    the answer is done) on, so that every marker streamed cites a source the reader can be shown.
    """

    def __init__(self, known: int | None = None, same: dict[int, int] | None = None):
        self.known = known
        self.same = same or {}
        self.numbers: dict[int, int] = {}
        self.raw = ""
        self.text = ""  # released so far
        self._done = 0  # how much of raw is released

    @property
    def cited(self) -> list[int]:
        """The old numbers cited so far, in the order first cited."""
        return list(self.numbers)

    def feed(self, delta: str) -> str:
        self.raw += delta
        end = _safe_end(self.raw)
        if self.known is not None and "[" in self.raw[self._done:end]:
            end = min(end, _first_beyond(self.raw[:end], self._done, self.known))
        if end <= self._done:
            return ""
        piece = self.raw[self._done:end]
        if "[" in piece or "`" in piece:
            whole = renumber(self.raw[:end], self.numbers, self.same)
            piece = whole[len(self.text):] if whole.startswith(self.text) else ""
        self._done = end
        self.text += piece
        return piece

    def finish(self, text: str, same: dict[int, int] | None = None) -> str:
        """The rest of `text`, the answer as finally composed, numbered afresh (a marker dropped
        at the end leaves no gap; `same` of all its sources, those found while answering too).
        Should the two part, `text` wins and nothing more streams."""
        self.numbers, self.same = {}, same if same is not None else self.same
        whole = renumber(text, self.numbers, self.same)
        rest = whole[len(self.text):] if whole.startswith(self.text) else ""
        self.text = whole
        return rest


def _first_beyond(text: str, start: int, known: int) -> int:
    """Where, from `start` on, the first marker outside code citing a source past `known` begins
    (the text's end when there is none)."""
    code = [(m.start(), m.end()) for m in CODE.finditer(text)]
    for found in MARKER.finditer(text, start):
        if int(found.group(1)) > known and not any(a <= found.start() < b for a, b in code):
            return found.start()
    return len(text)


def _safe_end(text: str) -> int:
    end = len(text)
    held = open_tail(text)
    if held is None and (m := _HELD_MARKER.search(text)):
        held = m.start()
    if held is not None:
        end = held
    while end and text[end - 1] == "`":  # a run of backticks may yet become a fence
        end -= 1
    line = text[text.rfind("\n", 0, end) + 1:end]
    if line.replace("```", "").count("`") % 2:  # inside inline code: wait for it to close
        end = text.rfind("`", 0, end)
    return end
