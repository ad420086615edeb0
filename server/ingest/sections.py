"""A page as heading sections, each with its blocks (paragraphs, lists, tables, code), from its
rendered HTML when it was read from a build, else from its markdown."""
from __future__ import annotations

from dataclasses import dataclass, field

from markdown_it import MarkdownIt

from server.ingest.anchors import Slugger
from server.ingest.html_text import Heading
from server.ingest.page import Page

_md = MarkdownIt("commonmark").enable("table")


@dataclass
class Block:
    text: str
    is_code: bool = False


@dataclass
class Section:
    headings: list[tuple[int, str, str]]  # (level, display text, anchor), outermost first
    blocks: list[Block] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        """The innermost heading that can be linked to (a heading without an id cannot)."""
        return next((anchor for _, _, anchor in reversed(self.headings) if anchor), "")

    @property
    def titles(self) -> list[str]:
        return [text for _, text, _ in self.headings]


def _rendered_sections(page: Page) -> list[Section]:
    """Sections of a rendered page (html_text.py): its headings carry their real ids."""
    stack: list[tuple[int, str, str]] = []
    sections = [Section(headings=[])]
    for item in page.sections:
        if isinstance(item, Heading):
            if item.level == 1 and not stack and not any(s.blocks for s in sections):
                continue  # the page title; the page itself is the section
            stack = [h for h in stack if h[0] < item.level] + [(item.level, item.text, item.anchor)]
            sections.append(Section(headings=list(stack)))
        elif item.text.strip():
            sections[-1].blocks.append(Block(item.text, is_code=item.is_code))
    return [s for s in sections if s.blocks or s.headings]


def reading_sections(page: Page) -> list[Section]:
    if page.sections is not None:
        return _rendered_sections(page)
    lines = page.body.split("\n")
    tokens = _md.parse(page.body)
    slugger = Slugger(page.anchor_style)
    stack: list[tuple[int, str, str]] = []
    sections = [Section(headings=[])]
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.level != 0 or token.map is None or token.nesting == -1:
            i += 1
            continue
        start, end = token.map
        if token.type == "heading_open":
            level = int(token.tag[1])
            display, anchor = slugger.anchor(tokens[i + 1].content)
            if level == 1 and not stack and not any(s.blocks for s in sections):
                i += 1
                continue  # the page title heading; the page itself is the section
            stack = [h for h in stack if h[0] < level] + [(level, display, anchor)]
            sections.append(Section(headings=list(stack)))
        else:
            text = "\n".join(lines[start:end]).strip("\n")
            if text.strip():
                sections[-1].blocks.append(Block(text, is_code=token.type in ("fence", "code_block")))
        i += 1
    return [s for s in sections if s.blocks or s.headings]
