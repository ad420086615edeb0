"""A page's answer key ("Answer Key", "Solutions", "Sample Answers"), read as entries and given to
the questions they answer: by number when the page numbers its questions once, by the title a
solution names ("Unordered lists"), else group by group in order (the choice questions' letters,
then the short questions' sample answers)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from server.ingest.blocks import plain
from server.ingest.practice.items import Read, entry_letter
from server.ingest.practice.marks import mark_of
from server.text.sentences import normalised

_ENTRY = re.compile(r"^\s{0,3}(?:[-*+]\s+)?(?:\*\*|__)?(?:(?:Q|Question|Pregunta|Exercise|Ejercicio)\s*)?(?P<n>\d{1,3})"
                    r"(?:[.):]|\s*[-–—])?(?:\*\*|__)?\s*(?P<text>\S.*)?$", re.IGNORECASE)
_PAIRS = re.compile(r"(?<!\w)(?P<n>\d{1,3})\s*[.):\-–—]\s*\(?(?P<letter>[A-Ha-h])\b(?![’'-]\w)")
# what a solution's title says before naming what it solves: "Solution for exercise #1", "Answer 2"
_NAMING = re.compile(r"(?i)^\W*(?:sample\s+|model\s+)?(?:solutions?|answers?|respuestas?|soluci[oó]n(?:es)?|答案|解答)"
                     r"\s*(?:for|to|of|de|del|a)?\s*(?:the\s+)?(?:exercises?|questions?|ejercicios?|preguntas?|problems?)?"
                     r"\s*(?:#|no\.?|n[ºo°])?\s*")
_ROW = re.compile(r"^\s*\|\s*(?:Q\s*)?(?P<n>\d{1,3})\s*\|\s*(?P<text>[^|]+?)\s*\|")


@dataclass
class Entry:
    number: str
    text: list[str]
    title: str = ""  # a collapsed solution's summary
    group: int = 0  # which of the key's sections it is in


def read_key(lines: list[str], group: int) -> list[Entry]:
    """The entries of one section of a key."""
    entries: list[Entry] = []
    in_code, open_marks = False, 0
    for line in lines:
        if re.match(r"^\s*(```|~~~)", line):
            in_code = not in_code
        marked = mark_of(line) if not in_code else None
        if marked is not None:
            kind, title = marked
            if kind == "end":
                open_marks = max(0, open_marks - 1)
            else:
                open_marks += 1
                if open_marks == 1 and title:
                    core = _NAMING.sub("", title).strip()
                    number = re.fullmatch(r"\(?(\d{1,3})\)?\W*", core)
                    entries.append(Entry(number.group(1) if number else "", [], "" if number else core, group))
            continue
        if not in_code and not open_marks:
            pairs = _PAIRS.findall(line)
            if len(pairs) >= 2:  # "1-B, 2-C, 3-A"
                entries += [Entry(n, [letter], "", group) for n, letter in pairs]
                continue
            found = _ENTRY.match(line) or _ROW.match(line)
            if found and found["text"] is not None:
                entries.append(Entry(found["n"], [found["text"]], "", group))
                continue
        if entries and line.strip() and not re.fullmatch(r"\s*\|?[-:| ]+\|?\s*", line):
            entries[-1].text.append(line)
    return entries


def _letter_like(entry: Entry) -> bool:
    return entry_letter(" ".join(entry.text)[:80])[0] is not None


def give_answers(groups: list[list[Read]], entries: list[Entry]) -> None:
    """Each entry's answer given to the question it answers (one that has none yet)."""
    items = [item for group in groups for item in group]
    if not items or not entries:
        return
    waiting = [e for e in entries if e.title]
    for entry in waiting:  # a solution titled like its exercise
        said = normalised(entry.title)
        for item in items:
            if not item.answer and said and (said in normalised(item.title) or said in normalised(item.text[:200])):
                item.answer = entry.text or [entry.title]
                entries = [e for e in entries if e is not entry]
                break
    numbers = [i.number for i in items if i.number]
    unique = len(numbers) == len(set(numbers)) == len(items)
    if unique and all(e.number in numbers for e in entries if e.number):
        by_number = {i.number: i for i in items}
        for entry in entries:
            item = by_number.get(entry.number)
            if item is not None and not item.answer:
                item.answer = entry.text
        return
    # numbered again in each part: the key's parts in the order of the questions' parts, or
    # its letters to the choice questions and its prose to the short ones
    key_groups: list[list[Entry]] = []
    for entry in entries:
        if not key_groups or key_groups[-1][0].group != entry.group:
            key_groups.append([])
        key_groups[-1].append(entry)
    if len(key_groups) == len(groups):
        pairs = list(zip(groups, key_groups))
    else:
        choice = [i for i in items if len(i.choices) >= 2]
        short = [i for i in items if len(i.choices) < 2]
        pairs = [(choice, [e for e in entries if _letter_like(e)]), (short, [e for e in entries if not _letter_like(e)])]
    for group, keyed in pairs:
        by_number = {i.number: i for i in group if i.number}
        for n, entry in enumerate(keyed):
            item = by_number.get(entry.number) if entry.number in by_number else (group[n] if n < len(group) else None)
            if item is not None and not item.answer:
                item.answer = entry.text


def key_of(item: Read) -> tuple[int | None, str]:
    """The right choice's index (from the key's letter, a checked box, or the key naming the
    choice's words) and the answer's text."""
    text = "\n".join(item.answer).strip()
    if item.checked is not None:
        return item.checked, text
    if len(item.choices) < 2:
        return None, text
    index, rest = entry_letter(text.split("\n", 1)[0])
    if index is not None and index < len(item.choices):
        return index, text
    said = normalised(plain(text))
    named = [n for n, c in enumerate(item.choices) if normalised(c) and normalised(c) in said]
    return (named[0] if len(named) == 1 else None), text
