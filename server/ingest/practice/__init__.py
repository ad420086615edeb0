"""A page's practice material, read at ingest into the outline: its quiz and exercise blocks with
their questions, choices and the answers the book gives (beside a question, in a collapsed
solution, or in an answer key), and the questions a lesson asks on its way.

A section is practice when its heading says so ("Quiz", "Exercises", "Question 3"), or when the
whole page is ("Quiz: Sampling"); a key when it gives answers ("Answer Key", "Solutions",
"Sample Answers"). Objectives, prerequisites, a summary and instructions are never questions.
Which section each question tests is found afterwards, over the whole book (tested.py); pages
that ask nothing get questions made from their statements (statements.py)."""
from __future__ import annotations

import re
from dataclasses import replace

from server.book.outline import Block, Item
from server.ingest.blocks import block_kind, plain
from server.ingest.clean import clean_markdown
from server.ingest.page import Page
from server.ingest.practice.items import Read, inline_questions, read_questions
from server.ingest.practice.keys import give_answers, key_of, read_key
from server.ingest.practice.marks import ANSWER_WORDS, QUESTION_WORDS, mark
from server.ingest.sections import reading_sections

_SKIP = re.compile(r"(?i)(^|\W)(instructions?|directions|how to use|scoring|grading|rubric|further reading|"
                   r"references|resources|overview|introduction|before you (begin|start)|instrucciones)(\W|$)")
_QUESTION_HEADED = re.compile(r"(?i)^\W*(?:(?:question|q|exercise|problem|challenge|task|ejercicio|pregunta|"
                              r"desaf[ií]o|练习|问题|習題|問題)\s*#?\s*(?P<n>\d{1,3})\b|(?P<m>\d{1,3})[.)]\s+\S)")
_GENERIC_TITLE = re.compile(r"(?i)^\W*(?:question|q|exercise|problem|challenge|task|ejercicio|pregunta)?\s*#?\s*\d*\W*$")


def _is_key(heading: str) -> bool:
    return bool(ANSWER_WORDS.search(heading)) and not QUESTION_WORDS.search(heading) \
        and not re.search(r"(?i)short[- ]answer|respuesta corta", heading)


def _role(titles: list[str], page_practice: bool) -> str:
    """key | skip | practice | lesson, from the section's own heading and those around it."""
    own = titles[-1]
    if any(_is_key(t) for t in titles):
        return "key"
    kind = block_kind(own)
    if kind in ("objectives", "prerequisites", "summary", "key_terms") or _SKIP.search(own):
        return "skip"
    if kind in ("quiz", "exercises") or any(block_kind(t) in ("quiz", "exercises") for t in titles[:-1]):
        return "practice"
    return "practice" if page_practice else "lesson"


_LABEL = re.compile(r"(?i)^\s*(?:\*\*|__)?(?P<label>exercises?|questions?|quiz|self[- ]?check|try it yourself|"
                    r"ejercicios?|preguntas?|练习|习题|練習問題|練習|solutions?|answers?|answer key|respuestas?|"
                    r"soluci[oó]n(?:es)?|答案|解答)(?:\*\*|__)?\s*[:：.]?(?:\*\*|__)?\s*$")
_FAQ = re.compile(r"(?i)\b(faq|frequently asked|preguntas frecuentes)\b|常见问题|よくある質問")


def _pieces(lines: list[str], first: str = "lesson") -> list[tuple[str, list[str]]]:
    """A section cut where a line alone names what follows ("Exercises:", "Solutions:")."""
    pieces: list[tuple[str, list[str]]] = [(first, [])]
    in_code = False
    for line in lines:
        if re.match(r"^\s*(```|~~~)", line):
            in_code = not in_code
        label = _LABEL.match(line) if not in_code else None
        if label:
            pieces.append(("key" if _is_key(label["label"]) else "practice", []))
            continue
        pieces[-1][1].append(line)
    return [(role, part) for role, part in pieces if any(x.strip() for x in part)]


def _lines(section) -> list[str]:
    return "\n\n".join(b.text for b in section.blocks).split("\n")


def _marked_sections(page: Page, sections: list) -> list:
    """The page's sections with its practice components marked (marks.py); as read when it has
    none (or was read from a build)."""
    marked = mark(page.raw) if page.raw else ""
    if not marked or marked == page.raw:
        return sections
    return reading_sections(replace(page, body=clean_markdown(marked), sections=None))


def _item(read: Read, exercise: bool = False) -> Item:
    key, answer = key_of(read)
    question = read.text
    if exercise and key is None and read.choices:  # an exercise's parts (a. …, b. …), not choices to pick
        question += "\n\n" + "\n".join(f"{chr(97 + n)}. {c}" for n, c in enumerate(read.choices))
        read.choices = []
    question = re.sub(r"\\([\"'*_`\[\]])", r"\1", question)
    if read.title and not _GENERIC_TITLE.match(read.title) and read.title.lower() not in question.lower():
        question = f"**{read.title}**\n\n{question}" if question else read.title
    return Item(question=question.strip(), choices=tuple(read.choices), key=key, answer=answer.strip(),
                number=read.number)


def _legacy(item: Item) -> tuple[str, str]:
    """The block's items and answers as outlines of version 1 held them: "question\\na) choice…"."""
    first = plain(item.question.split("\n\n")[0])
    options = "".join(f"\n{chr(97 + n)}) {c}" for n, c in enumerate(item.choices))
    return first + options, item.answer


def practice_blocks(page: Page, sections: list) -> list[Block]:
    """The page's quiz and exercise blocks (`sections`: the page's own, for their anchors)."""
    anchors = {tuple(s.titles): s.anchor for s in sections if s.headings}
    page_kind = block_kind(page.title)
    faq = bool(_FAQ.search(page.title))
    page_practice = page_kind in ("quiz", "exercises") and not faq
    regions: list[tuple[str, str, str, list[Read]]] = []  # (kind, heading, url, questions)
    key_entries, key_group = [], 0
    for section in _marked_sections(page, sections):
        titles = section.titles
        role = _role(titles, page_practice) if titles else ("practice" if page_practice else "lesson")
        role = "lesson" if faq and role == "practice" else role
        lines = _lines(section)
        if role == "key":
            key_group += 1
            key_entries += read_key(lines, key_group)
            continue
        if role == "skip":
            continue
        if role == "lesson":
            anchor = anchors.get(tuple(titles), "") if titles else ""
            heading, url = titles[-1] if titles else page.title, f"{page.url}#{anchor}" if anchor else page.url
            for piece, part in _pieces(lines):
                if piece == "key":
                    key_group += 1
                    key_entries += read_key(part, key_group)
                    continue
                found = inline_questions(part) if piece == "lesson" else read_questions(part, listed=True)
                if found:
                    regions.append(("quiz" if piece == "lesson" else "exercises", heading, url, found))
            continue
        headed = _QUESTION_HEADED.match(titles[-1]) if titles else None
        found = []
        for piece, part in _pieces(lines, "practice"):
            if piece == "key":
                key_group += 1
                key_entries += read_key(part, key_group)
            elif headed:
                number = headed["n"] or headed["m"] or ""
                prefix = r"^\W*\d{1,3}[.)]\s+" if headed["m"] else r"(?i)^\W*\S+\s*#?\s*\d{1,3}\W*"
                found += read_questions(part, listed=False, title=re.sub(prefix, "", titles[-1]), number=number)
            else:
                found += read_questions(part, listed=True)
        if not found:
            continue
        # a practice region is the outermost practice section it is in (or the page)
        top = next((n for n in range(len(titles)) if block_kind(titles[n]) in ("quiz", "exercises")), None)
        if top is None or page_practice:
            kind, heading, url = page_kind or "quiz", page.title, page.url
        else:
            anchor = anchors.get(tuple(titles[:top + 1]), "")
            kind, heading = block_kind(titles[top]), titles[top]
            url = f"{page.url}#{anchor}" if anchor else page.url
        regions.append((kind, heading, url, found))
    give_answers([r[3] for r in regions], key_entries)
    blocks: list[Block] = []
    for kind, heading, url, found in regions:
        items = tuple(_item(r, exercise=kind == "exercises") for r in found)
        if blocks and (blocks[-1].kind, blocks[-1].heading, blocks[-1].url) == (kind, heading, url):
            items = blocks.pop().questions + items
        legacy = [_legacy(i) for i in items]
        blocks.append(Block(kind, heading, url, tuple(q for q, _ in legacy), tuple(a for _, a in legacy), items))
    return blocks
