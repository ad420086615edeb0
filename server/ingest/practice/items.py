"""Reading questions from a practice region's lines (marked by marks.py): each question's text,
its choices (A–D, a)–d), checkboxes), and the answer the book writes beside it ("Answer: c)",
a collapsed solution, a "[x]" box).

One region is read either as one question (a section headed "Question 3", an admonition "Question")
or as a list of them (numbered items, else bulleted prompts). A paragraph before the first item is
the region's instructions, never a question."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from server.ingest.blocks import is_prompt, plain
from server.ingest.practice.marks import ANSWER, HINT_WORDS, QUESTION, mark_of
from server.text.sentences import LEAD_IN_ENDS

_FENCE = re.compile(r"^\s*(```|~~~)")
_BELOW = re.compile(r"\b(?:below|the following)\b", re.IGNORECASE)  # "fill in the definitions … below"
_STARTS_BLOCK = re.compile(r"^\s*(?:[-*+]\s|\d{1,3}[.)]\s|[A-Ha-h][).]\s|\(?[A-Ha-h]\)\s|>|\||#|\[[ xX]\]|<)")
_NUMBERED = re.compile(r"^(?P<indent>\s{0,3})(?:\*\*|__)?(?:(?:Q|Question|Pregunta|Exercise|Ejercicio)\s*)?"
                       r"(?P<n>\d{1,3})(?:[.)]|\s*[:：])(?:\*\*|__)?\s+(?P<text>\S.*)$", re.IGNORECASE)
_BULLET = re.compile(r"^(?P<indent>\s{0,3})[-*+]\s+(?P<text>\S.*)$")
_OPTION = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?\(?(?P<letter>[A-Ha-h])(?:[).]|\s*[:：])(?:\*\*|__)?\s+(?P<text>\S.*)$")
_CHECKBOX = re.compile(r"^\s*[-*+]\s+\[(?P<mark>[ xX])\]\s+(?P<text>\S.*)$")
_ANSWER_LINE = re.compile(r"^\W*(?:correct\s+|sample\s+|model\s+)?(?:answers?|respuestas?|soluci[oó]n|solutions?|"
                          r"答案|解答|正解)\W*?[:：]\s*(?P<text>.*)$", re.IGNORECASE)
_QUESTION_LINE = re.compile(r"^\W*(?:question|pregunta|问题|問題)\s*[:：]\s*(?P<text>\S.*)$", re.IGNORECASE)
_HINT_LINE = re.compile(r"(?i)^\W*(hints?|pistas?|提示|ヒント)\W")
LETTER = re.compile(r"^\W{0,2}(?P<letter>[A-Ha-h])(?:\s*[).:\]]|\s*$|\s+[-–—]\s|\s+(?=[A-Z]))\W*(?P<rest>.*)$")
MAX_ANSWER = 1500
MAX_QUESTION = 1200


@dataclass
class Read:
    """A question as read: its text's lines, choices, and the answer given beside it."""

    number: str = ""
    lines: list[str] = field(default_factory=list)
    choices: list[str] = field(default_factory=list)
    checked: int | None = None  # a "[x]" choice
    answer: list[str] = field(default_factory=list)
    title: str = ""  # a heading or admonition title naming it ("Unordered lists")

    @property
    def text(self) -> str:
        text = _joined(self.lines)[:MAX_QUESTION]
        return text + "\n```" if sum(bool(_FENCE.match(line)) for line in text.split("\n")) % 2 else text  # closed

    @property
    def answer_text(self) -> str:
        return _joined(self.answer)[:MAX_ANSWER]


def _joined(lines: list[str]) -> str:
    text = "\n".join(_unwrapped([line.rstrip() for line in lines]))
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _unwrapped(lines: list[str]) -> list[str]:
    """A paragraph the book's source wraps at a width (mdBook's "Try proving these (one direction
    of the second of these\n   requires classical logic):") as one line: a quiz card shows each line
    as one. Code, list items and choices keep their lines."""
    out: list[str] = []
    code = False
    for line in lines:
        starts = _FENCE.match(line) or _STARTS_BLOCK.match(line)
        if out and not code and not starts and line.strip() and out[-1].strip() and not _FENCE.match(out[-1]) \
                and not out[-1].endswith("  "):
            out[-1] = f"{out[-1]} {line.strip()}"
        else:
            out.append(line)
        if _FENCE.match(line):
            code = not code
    return out


def _letter_index(letter: str) -> int:
    return ord(letter.lower()) - ord("a")


class _Reader:
    """Lines in, questions out; the state of one region."""

    def __init__(self, listed: bool, start: Read | None = None):
        self.listed = listed  # a list of questions (else one question)
        self.items: list[Read] = [start] if start else []
        self.where = "question"  # where the next text line goes: question | answer | skip
        self.depth: list[str] = []  # the marks open: what each held
        self.in_code = False
        self.indent: int | None = None  # of the list's own numbers (a deeper list is the item's text)
        self.blank = False  # the line before was blank
        self.closed = False  # a list's item ended (a paragraph after the list): its text is complete

    @property
    def current(self) -> Read | None:
        return self.items[-1] if self.items else None

    def _to(self, line: str) -> None:
        item = self.current
        if item is None or self.where == "skip" or (self.closed and self.where != "answer"):
            return
        (item.answer if self.where == "answer" else item.lines).append(line)

    def feed(self, line: str) -> None:
        blank, self.blank = self.blank, not line.strip()
        if self.listed and blank and line.strip() and not line.startswith((" ", "\t")) and not self.in_code \
                and not self.depth and not (_FENCE.match(line) and self._introduces()):
            # (inside a question's own block, its paragraphs are its text; so is the code an item
            # introduces, "1. Prove these equivalences:", though the book's Markdown ends the list there)
            self.closed = True  # unless the line opens an item, a choice or an answer (below)
        if _FENCE.match(line):
            self.in_code = not self.in_code
            self._to(line)
            return
        if self.in_code:
            self._to(line)
            return
        marked = mark_of(line)
        if marked is not None:
            self._mark(*marked)
            return
        if self.where == "skip" or re.fullmatch(r"\s*([-*_]\s*){3,}", line):
            return
        numbered = _NUMBERED.match(line) if self.listed else None
        if numbered and self.indent is not None and len(numbered["indent"]) != self.indent:
            numbered = None
        if self.where == "answer" and not (numbered and not self.depth):
            self._to(line)
            return
        self.where = "question"
        item = self.current
        answered = _ANSWER_LINE.match(line)
        if answered and item is not None:
            self.where = "answer"
            if answered["text"].strip():
                item.answer.append(answered["text"].strip())
            return
        option = _OPTION.match(line)
        if option and item is not None and _letter_index(option["letter"]) == len(item.choices):
            item.choices.append(plain(option["text"]))
            return
        box = _CHECKBOX.match(line)
        if box and item is not None and (item.choices or item.lines):
            if box["mark"].lower() == "x":
                item.checked = len(item.choices)
            item.choices.append(plain(box["text"]))
            return
        asked = _QUESTION_LINE.match(line)
        if asked:
            self.items.append(Read(lines=[asked["text"]]))
            return
        if _HINT_LINE.match(line):
            return
        if numbered:
            self.closed = False
            self.indent = len(numbered["indent"])
            self.items.append(Read(number=numbered["n"], lines=[numbered["text"]]))
            if _FENCE.match(numbered["text"]):  # "1. ```org": the item opens with code
                self.in_code = True
            return
        if self.closed:
            return
        if item is not None and not (self.listed and not line.strip() and not item.lines):
            if item.choices and line.strip():
                return  # after its choices, a question says no more
            item.lines.append(line)

    def _introduces(self) -> bool:
        """Does the open item's text end on a colon (what follows it is part of it)?"""
        item = self.current
        said = [line for line in item.lines if line.strip()] if item is not None and not self.closed else []
        return bool(said) and (said[-1].rstrip().endswith(LEAD_IN_ENDS) or any(_BELOW.search(line) for line in said))

    def _mark(self, kind: str, title: str) -> None:
        if kind == "end":
            if self.depth:
                self.depth.pop()
            if not self.depth:
                self.where = "question"
            elif self.depth == [QUESTION] and self.where == "answer":
                self.where = "skip"  # its answer closed: the rest of the question's block is neither
            return
        if self.depth == [QUESTION] and kind == ANSWER and self.current is not None:
            self.depth.append(kind)  # the question's own answer (a <Solution> inside its <Exercise>)
            self.where = "answer"
            return
        if self.depth:  # inside an answer or a question's own block: its marks are its text
            self.depth.append(kind)
            return
        self.depth.append(kind)
        if kind == ANSWER and self.current is not None:
            self.where = "answer"
        elif kind == QUESTION:
            self.items.append(Read(title=_title(title)))
            self.where = "question"
        elif HINT_WORDS.search(title):
            self.where = "skip"
        elif self.current is not None and self.current.answer:
            self.where = "answer"


def read_questions(lines: list[str], *, listed: bool, title: str = "", number: str = "") -> list[Read]:
    """The questions of a region: one (`listed` False: a section that is one question, titled
    `title`) or a list of them."""
    reader = _Reader(listed, None if listed else Read(number=number, title=title))
    intro: list[str] = []  # a list's instructions ("Represent the following documents as values:")
    for line in lines:
        reader.feed(line)
        if listed and not reader.items:
            intro.append(line)
    found = [r for r in reader.items if r.text or r.choices]
    said = _joined(intro)
    for item in found:  # an item that is only code is asked by the instructions before the list
        if said and _FENCE.match(item.lines[0] if item.lines else "") and len(said) < 400:
            item.lines[:0] = [said, ""]
    if listed and not found:  # no numbered list: its bulleted prompts
        found = [Read(lines=[m["text"]]) for line in lines if (m := _BULLET.match(line)) and is_prompt(plain(m["text"]))]
    return found


def _block_questions(lines: list[str], title: str) -> list[Read]:
    """A question block's questions: a list of them, or the block is one."""
    listed = read_questions(lines, listed=True)
    if len([r for r in listed if r.number]) >= 2:
        return listed
    return read_questions(lines, listed=False, title=title)


def inline_questions(lines: list[str]) -> list[Read]:
    """Questions a lesson asks on its way (an admonition "Question", an <Exercise>, a line
    "Question: …?"), each with the collapsed answer that follows it, outside any practice section."""
    found: list[Read] = []
    block: list[str] = []  # the open question block's lines
    title, state, depth, in_code = "", "out", 0, False  # state: out | block | line | after | answer | skip
    for line in lines:
        fence = bool(_FENCE.match(line))
        marked = mark_of(line) if not in_code else None
        if fence:
            in_code = not in_code
        if depth:
            if marked is not None:
                depth += -1 if marked[0] == "end" else 1
                if depth == 0:
                    if state == "block":
                        found += _block_questions(block, title)
                    state = "after" if state in ("block", "answer") and found else "out"
                elif state == "block":  # its own answer (a <Solution> inside the <Exercise>)
                    block.append(line)
                continue
            if state == "block":
                block.append(line)
            elif state == "answer":
                found[-1].answer.append(line)
            continue
        if marked is not None:
            kind, named = marked
            if kind == "end":
                continue
            depth = 1
            if kind == QUESTION:
                block, title, state = [], _title(named), "block"
            elif kind == ANSWER and state in ("after", "line") and found and not found[-1].answer:
                state = "answer"
            else:
                state = "skip"
            continue
        asked = _QUESTION_LINE.match(line) if not (in_code or fence) else None
        if asked:
            found.append(Read(lines=[asked["text"]]))
            state = "line"
        elif state == "line":
            if line.strip():
                found[-1].lines.append(line)
            else:
                state = "after"
        elif state == "after" and line.strip():
            state = "out"
    return [r for r in found if r.text or r.choices]


def _title(named: str) -> str:
    generic = re.fullmatch(r"(?i)\W*(questions?|quiz|challenges?|exercises?|ejercicios?|preguntas?|problems?|"
                           r"tasks?|self[- ]?checks?)\W*\d*\W*", named or "")
    return "" if generic or not named else named


def entry_letter(text: str) -> tuple[int | None, str]:
    """A key's entry "B) GPU acceleration – …" as the choice's index and the rest."""
    found = LETTER.match(text.strip())
    if not found:
        return None, text.strip()
    return _letter_index(found["letter"]), found["rest"].strip()
