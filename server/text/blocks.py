"""A passage's markdown as the blocks the book wrote: paragraphs, lists, tables, code blocks and
headings, each kept as written, and what kind of material it is (prose, code, a quiz, an
exercise, a reading list, a lab's rubric, starter code, a troubleshooting list, learning
objectives) so that an answer can quote whole blocks and leave the rest out unless asked for.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from server.text.sentences import LINE_END

_FENCE = re.compile(r"^\s*(```|~~~)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_QUOTED = re.compile(r"^\s{0,3}(?:> ?)+")
_TABLE_ROW = re.compile(r"^\s*\|")
# quiz options ("A) …", "b. …", "- [ ] …") and question labels ("Question 3", "Q2:")
_QUIZ = re.compile(r"^\s*(?:[-*]\s*)?(?:\(?[A-Da-d][).:]\s|\[[ xX]\]\s)|\b(?:quiz|question \d+|q\d+[:.])",
                   re.MULTILINE | re.IGNORECASE)
# a subject in use ("in practice", "theory and practice", "best practice", "the practice of …") and a
# programming language's "assignment" ("Scope and Assignment", "Compound Assignment Operators") are
# no exercise: an assignment is one only as what a heading opens on
_EXERCISE = re.compile(r"\b(?:exercises?|(?<!in )(?<!and )(?<!best )(?<!good )(?<!common )practice(?!\s+of\b)|try it|try this|try with|challenge|your turn|hands-on)\b|"
                       r"^\W*(?:\d+[.)]?\s*)?(?:homework\s+|lab\s+)?assignments?\b(?!\s+(?:statement|operator|expression))",
                       re.IGNORECASE)
# a reading list's heading is all reading list ("Further Reading", "Other learning resources"):
# "Validating References with Lifetimes" and "Try-With-Resources" are the book's subject
_REFERENCES = re.compile(r"^\W*(?:\d+(?:\.\d+)*\.?\s*)?(?:(?:other|additional|further|recommended|suggested|"
                         r"external|online|useful|learning|more|selected|key)\s+)*(?:further reading|references|"
                         r"bibliography|resources|reading list|see also|learn more|useful links|links|reading)"
                         r"(?:\s+(?:and|&)\s+(?:further reading|references|resources|links|reading))?\W*$",
                         re.IGNORECASE)
# the same headings in the pool's other languages (Spanish, Japanese, Chinese)
_EXERCISE_ELSEWHERE = re.compile(r"\b(?:ejercicios?|(?<!la )práctica|desafío|reto)\b|練習|演習|課題|练习|习题|作业",
                                 re.IGNORECASE)
_QUIZ_ELSEWHERE = re.compile(r"\b(?:cuestionario|autoevaluación)\b|クイズ|小テスト|测验|自测", re.IGNORECASE)
_REFERENCES_ELSEWHERE = re.compile(r"\b(?:referencias|bibliografía|lecturas recomendadas)\b|参考文献|参考資料|"
                                   r"参考资料|延伸阅读", re.IGNORECASE)
_LINK = re.compile(r"\[[^\]]+\]\([^)]+\)|https?://")
# a heading over questions the book asks the reader ("Lab Questions", "Check Your Understanding"),
# not over answers ("Frequently Asked Questions")
_QUESTIONS = re.compile(r"\b(?:review|lab|discussion|study|practice|comprehension|reflection|chapter|section|"
                        r"end[- ]of[- ]\w+)\s+questions\b|\bcheck your understanding\b|\bknowledge check\b|"
                        r"\bself[- ]?(?:check|assessment|test)\b", re.IGNORECASE)
_RUBRIC = re.compile(r"\b(?:rubric|grading|assessment criteria|evaluation criteria|marking (?:scheme|criteria)|"
                     r"scoring|deliverables?|submission|what to submit)\b", re.IGNORECASE)
_POINTS = re.compile(r"\b\d+\s*(?:points?|pts|marks?)\b|\(\s*\d+\s*%\s*\)", re.IGNORECASE)
_TROUBLESHOOTING = re.compile(r"\btroubleshoot\w*|\bcommon (?:issues|errors|problems|pitfalls|mistakes)\b|"
                              r"\bknown issues\b|\bdebugging tips\b", re.IGNORECASE)
_OBJECTIVES = re.compile(r"\b(?:learning (?:objectives|outcomes|goals)|objectives|what you(?:'|\u2019)ll learn|"
                         r"what you will learn|prerequisites|by the end of this \w+)\b", re.IGNORECASE)
# code left for the reader to write: a template, not the book's answer
_TEMPLATE = re.compile(r"\bTODO\b|\bFIXME\b|\bto be implemented\b|\byour code (?:here|goes here)\b|"
                       r"\bimplement (?:this|me)\b|\bNotImplementedError\b", re.IGNORECASE)


# an exercise set inline, under a heading that is not one: "**Exercise**: …", "1. Exercise: …",
# "Exercises:" before a list of them; or an admonition titled as one, as ingest/clean.py labels it
# ("**Tip: Question** Look at the screen output …", a `:::tip Question` block)
EXERCISE_LEAD = re.compile(r"^[\s*_>]*(?:\d+[.)]\s*)?[*_]*(?:exercises?|ejercicios?|練習問題|练习)[*_]*\s*\d*[*_]*\s*[:：]"
                           r"|^\s*\*\*[A-Za-z]+:\s*(?:questions?|exercises?|quiz(?:zes)?|challenges?|tasks?|"
                           r"ejercicios?|preguntas?|練習問題|问题|問題|练习)\b[^*\n]{0,60}\*\*", re.IGNORECASE)
# an admonition's label alone, naming what it sets the reader ("**Tip: Challenge questions**", "**Tip: Question**"):
# the block after it poses them
PRACTICE_LABEL = re.compile(r"^\s*\*\*[A-Za-z]+:\s*(?:questions?|exercises?|quiz(?:zes)?|challenges?|tasks?|ejercicios?|"
                            r"preguntas?|練習問題|问题|問題|练习)\b[^*\n]{0,60}\*\*\s*$", re.IGNORECASE)
# a line that only names the exercise after it ("**Exercise: Identificar funciones puras**", an
# `<Exercise title="…">`'s label: ingest/tag_labels.py); what follows is practice, its solution
# included, up to a heading or a thematic break. "Solution:" alone starts none: it is also a
# troubleshooting entry's ("Problem: … Solution: …")
PRACTICE_LEAD = re.compile(r"^[\s*_]*(?:exercises?|ejercicios?|練習問題|练习)\b"
                           r"(?:[^\n*]{0,80}(?:[:：][*_]*|\*\*)|[*_]*[:：][*_]*)\s*$", re.IGNORECASE)
# a bare label naming a solution, an answer or hints (a collapsible's summary: ingest/tag_labels.py):
# what it follows is an exercise, and the code it opens is its solution
# the words a collapsible's summary names a solution or a hint with, in the pool's languages
SOLUTION_WORDS = r"solutions?|hints?|soluci[oó]n(?:es)?|pistas?|解答|答案|ヒント|提示"
FOLDED_ANSWER = re.compile(rf"^\s*\*\*(?:answers?|respuestas?|{SOLUTION_WORDS})"
                           r"\b[^*\n]{0,40}\*\*\s*$", re.IGNORECASE)  # "**Solution**: …" is a troubleshooting entry's
THEMATIC_BREAK = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$")
PRACTICE = ("exercise", "quiz")  # material a student is set, quoted only when asked for


@dataclass(frozen=True)
class Block:
    kind: str  # "paragraph" | "list" | "table" | "code" | "heading"
    text: str  # as the book wrote it (markdown)
    heading: str = ""  # the nearest heading above it in the passage

    @property
    def material(self) -> str:
        """prose, code, quiz, exercise, references, rubric (a lab's grading lines), template (code
        left for the reader to write), troubleshooting or objectives."""
        if self.kind == "code":
            if _TEMPLATE.search(self.text):
                return "template"
            under = heading_material(self.heading)
            return under if under in PRACTICE else "code"  # an exercise's code is the exercise
        if _RUBRIC.search(self.heading) or (self.kind in ("list", "table") and len(_POINTS.findall(self.text)) >= 2):
            return "rubric"
        if self.kind == "list" and len(_QUIZ.findall(self.text)) >= 2:
            return "quiz"
        if _QUIZ.search(self.heading) or _QUESTIONS.search(self.heading) or _QUIZ_ELSEWHERE.search(self.heading):
            return "quiz"
        if _TROUBLESHOOTING.search(self.heading):
            return "troubleshooting"
        if _OBJECTIVES.search(self.heading):
            return "objectives"
        links = len(_LINK.findall(self.text)) if self.kind == "list" else 0  # a list of links is a reading list
        if (_REFERENCES.search(self.heading) or _REFERENCES_ELSEWHERE.search(self.heading)
                or (links >= 2 and links >= self.text.count("\n") / 2)):
            return "references"
        if _EXERCISE.search(self.heading) or _EXERCISE_ELSEWHERE.search(self.heading):
            return "exercise"
        return "prose"


def heading_material(heading: str) -> str:
    """What a heading makes the text under it: prose, or what the book sets apart (exercises, a
    quiz, a reading list …)."""
    return Block("paragraph", "", heading).material if heading else "prose"


def split_blocks(markdown: str) -> list[Block]:
    """The passage's blocks in reading order."""
    blocks: list[Block] = []
    current: list[str] = []
    kind = ""
    heading = ""
    fence = ""

    def close() -> None:
        nonlocal current, kind
        text = "\n".join(current).strip("\n")
        if text.strip():
            blocks.append(Block(kind, text, heading))
        current, kind = [], ""

    for line in _unquoted(_lines(markdown)):
        if fence:
            current.append(line)
            if line.strip().startswith(fence):
                fence = ""
                close()
            continue
        opened = _FENCE.match(line)
        if opened:
            close()
            fence, kind, current = opened.group(1), "code", [line]
            continue
        if not line.strip():
            if kind != "list":
                close()
            else:
                current.append(line)
            continue
        if _HEADING.match(line):
            close()
            heading = line.lstrip("# ").strip()
            blocks.append(Block("heading", line.strip(), heading))
            continue
        line_kind = "table" if _TABLE_ROW.match(line) else "list" if _LIST_ITEM.match(line) else ""
        if kind == "list" and not line_kind and (line.startswith((" ", "\t")) or current[-1].strip()):
            current.append(line)  # an item's continuation
            continue
        line_kind = line_kind or "paragraph"
        # a bullet list then a numbered one (or the other way) are two lists, as CommonMark reads them
        if line_kind != kind or kind == "list" and not line[:1].isspace() and _numbered(line) != _numbered(current[0]):
            close()
            kind = line_kind
        current.append(line)
    if fence:  # code the passage leaves open (the book's own slip, or a passage cut inside it) is closed
        current.append(fence)
    close()
    return [part for block in _rejoin(blocks) for part in _formula_apart(block)]


def _lines(markdown: str) -> list[str]:
    """The lines as markdown ends them (as str.splitlines would, less its other breaks)."""
    lines = LINE_END.split(markdown)
    return lines[:-1] if lines[-1] == "" else lines


def _numbered(item: str) -> bool:
    return item.lstrip()[:1].isdigit()


def _formula_apart(block: Block) -> list[Block]:
    """A paragraph that ends in a displayed formula ("… can be defined as:" and the formula on the
    next lines, no blank line between) as its sentences and the formula, two blocks as on the page;
    a formula the sentence goes on after ("we will have $$ … $$ and so on.") stays in it."""
    lines = block.text.split("\n")
    if block.kind != "paragraph" or len(lines) < 3 or lines[-1].strip() != "$$":
        return [block]
    opening = next((j for j in range(len(lines) - 2, 0, -1) if lines[j].strip() == "$$"), 0)
    if not opening or not "".join(lines[:opening]).strip():
        return [block]
    return [replace(block, text="\n".join(lines[:opening])), replace(block, text="\n".join(lines[opening:]))]


def _unquoted(lines: list[str]) -> list[str]:
    """The lines with a quoted note ("> …", "> > …") read as the book's own headings, paragraphs and
    code: quoted, a note's code runs into its sentences, fence's language and all ("So that: hs
    Html.ul_ $ map …"), and its heading into its first sentence. Lines inside code stay as written."""
    found: list[str] = []
    fence, in_quote = "", False  # the code block open, if any, and whether a note holds it
    for line in lines:
        quoted = bool(_QUOTED.match(line)) and (not fence or in_quote)
        if quoted:
            line = _QUOTED.sub("", line)
        found.append(line)
        opened = _FENCE.match(line)
        if fence and line.strip().startswith(fence):
            fence = ""
        elif not fence and opened:
            fence, in_quote = opened.group(1), quoted
    return found


def _rejoin(blocks: list[Block]) -> list[Block]:
    """A paragraph split by a blank line mid-sentence (where a passage's overlap was joined on)
    made whole again: one not ending a sentence, followed by one starting in lower case."""
    joined: list[Block] = []
    for block in blocks:
        previous = joined[-1] if joined else None
        if previous and previous.kind == block.kind == "paragraph" and block.text[:1].islower() \
                and not re.search(r"[.!?:]$|\$\$$", previous.text.rstrip()):  # nor a displayed formula
            joined[-1] = Block("paragraph", f"{previous.text}\n{block.text}", previous.heading)
        else:
            joined.append(block)
    return joined
