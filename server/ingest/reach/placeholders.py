"""Pages that are an unfilled template: their text names the slots it was meant to fill.

A template is written in the conventions every template uses, whatever the book: a number slot
written as a variable ("Lab X", "Chapter N", "Week #"), a slot named by its kind ("Lesson
Title", "Your Name", "Section Heading": two or three capitalised words ending in Title, Name or
Heading, nothing else), a numbered stand-in ("Objective 1", "Step 2" as the whole line), an
instruction in brackets or braces ("[Describe the objective]", "{{title}}"), or filler ("Lorem
ipsum", "TODO", "TBD", "…"). These are forms, not a book's words.

A page is a template when at least half of its lines (title, headings, list items, paragraph
lines; code aside) are placeholders, or, when no sidebar lists it, its title alone is one. A
page a sidebar lists needs both its title and half of its lines (an author who put it before
readers meant it). A real page rarely has a title of that form, and never mostly such lines.
"""
from __future__ import annotations

import re

from server.ingest.page import Page
from server.ingest.sections import reading_sections

_VARIABLE = re.compile(r"\b[A-Z][a-z]+\s+(?:[XYN]|XX|#)(?=$|[\s:.,;)\-–—])")
_SLOT_NAME = re.compile(r"^(?:Your|[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+(?:Title|Name|Heading)$")
_STAND_IN = re.compile(r"^[A-Z][a-z]+\s+\d+$")
_BRACKETED = re.compile(r"^(?:\[[^\]]+\]|\{\{?[^}]*\}?\}|<[^>]+>)$")
_FILLER = re.compile(r"\blorem ipsum\b|\bTODO\b|\bTBD\b|\{\{[^}]*\}\}|^(?:\.\.\.|…)$", re.IGNORECASE)
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
PLACEHOLDER_SHARE = 0.5


def is_placeholder(line: str) -> bool:
    """A title, heading or line of text that is a slot, not content. A numbered stand-in
    counts only as a whole line ("Chapter 1: Kinematics" is a real title)."""
    line = _LIST_MARK.sub("", line).strip().strip("*_`").strip()
    if not line:
        return False
    if _FILLER.search(line) or _VARIABLE.search(line) or _BRACKETED.match(line) or _STAND_IN.match(line):
        return True
    parts = [p.strip().rstrip(".") for p in re.split(r"[:–—]| - ", line) if p.strip()]
    return any(_SLOT_NAME.match(p) for p in parts)


def _lines(page: Page) -> list[str]:
    lines = [page.title]
    for section in reading_sections(page):
        if section.headings:
            lines.append(section.headings[-1][1])
        for block in section.blocks:
            if not block.is_code:
                lines.extend(line for line in block.text.split("\n") if line.strip())
    return lines


def is_template(page: Page, *, listed: bool) -> bool:
    title = is_placeholder(page.title)
    if title and not listed:
        return True
    if listed and not title:
        return False
    lines = _lines(page)
    return sum(map(is_placeholder, lines)) >= PLACEHOLDER_SHARE * len(lines)
