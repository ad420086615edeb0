"""A rendered Docusaurus doc page → the reader's text, as headings and blocks in reading order.

Parsed with lxml (libxml2's HTML parser): it is fast (a 300-page build reads in about a second),
tolerant of whatever the site's components render, maintained alongside libxml2, and its
element tree gives the ids and classes the reading needs without a second library.

Only the doc's markdown container (`.theme-doc-markdown`) is read, so the navbar, sidebar,
breadcrumbs, table of contents, pagination and footer never reach the index. Headings keep
their real `id` (none when the page gives none: such a heading cannot be linked to). Lists,
tables and code blocks (with their language) keep a Markdown shape; admonitions keep their
title as a label; tab panels are read in order with their tab's label; buttons, hash links and
images are left out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import html as lxml_html

_SKIP_TAGS = {"script", "style", "button", "svg", "img", "noscript", "template", "iframe", "video", "audio",
              "input", "select", "textarea", "form"}
_BLOCK_TAGS = {"p", "div", "section", "article", "ul", "ol", "table", "pre", "blockquote", "details", "figure",
               "h1", "h2", "h3", "h4", "h5", "h6", "hr", "dl", "header", "main", "aside", "nav", "footer"}
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str  # the heading's id in the page; "" when it has none


@dataclass(frozen=True)
class Block:
    text: str
    is_code: bool = False


def _classes(el) -> set[str]:
    return set((el.get("class") or "").split())


def _skipped(el) -> bool:
    if not isinstance(el.tag, str) or el.tag in _SKIP_TAGS:
        return True
    classes = _classes(el)
    return "hash-link" in classes or el.get("aria-hidden") == "true" or el.get("hidden") is not None and \
        el.get("role") != "tabpanel"


def clean_inline(text: str) -> str:
    return _SPACES.sub(" ", _ZERO_WIDTH.sub("", text)).strip()


def _inline(el) -> str:
    """The text of an inline element, inline code in backticks, line breaks kept."""
    parts: list[str] = [el.text or ""] if isinstance(el.tag, str) else []
    for child in el:
        if not _skipped(child):
            if child.tag == "br":
                parts.append("\n")
            elif child.tag == "code" or child.tag == "pre" and "\n" not in child.text_content().strip():
                parts.append(f"`{child.text_content().strip()}`")  # (a one-line block in a cell: code too)
            else:
                parts.append(_inline(child))
        parts.append(child.tail or "")
    return "".join(parts)


def heading_text(el) -> str:
    return clean_inline(" ".join(_inline(el).split("\n")))


def _code_language(pre) -> str:
    for el in [pre, *pre.iterancestors()][:4]:
        for cls in _classes(el):
            if cls.startswith("language-"):
                return cls[len("language-"):]
    return ""


def _code_text(pre) -> str:
    lines = pre.xpath('.//*[contains(concat(" ", normalize-space(@class), " "), " token-line ")]')
    text = "\n".join(line.text_content().rstrip("\n") for line in lines) if lines else pre.text_content()
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")  # a JSX literal's closing indent


def _table(table) -> str:
    rows = []
    for tr in table.iter("tr"):
        cells = [clean_inline(_inline(c).replace("\n", " ")).replace("|", "\\|") for c in tr if c.tag in ("td", "th")]
        rows.append("| " + " | ".join(cells) + " |")
        if len(rows) == 1:
            rows.append("|" + "---|" * len(cells))
    return "\n".join(rows)


def html_table(markup: str) -> str | None:
    """A table a page's Markdown writes in HTML, as the Markdown table a built page's is read into
    (None for markup that is no table): its tags stripped, each cell would be a line of its own, and
    a cell holding "=" under one holding code a heading."""
    try:
        table = lxml_html.fragment_fromstring(markup.strip())
    except (ValueError, lxml_html.etree.ParserError):
        return None
    return _table(table) if table.tag == "table" else None


def _list(el, depth: int = 0) -> list[str]:
    lines = []
    for n, li in enumerate((c for c in el if c.tag == "li"), 1):
        marker = f"{n}." if el.tag == "ol" else "-"
        text_parts, nested = [], []
        for part in _li_parts(li):
            if isinstance(part, str):
                text_parts.append(part)
            else:
                nested.extend(_list(part, depth + 1))
        text = clean_inline(" ".join("".join(text_parts).split("\n")))
        lines.append(f"{'  ' * depth}{marker} {text}".rstrip())
        lines.extend(nested)
    return lines


def _li_parts(li):
    yield li.text or ""
    for child in li:
        if child.tag in ("ul", "ol"):
            yield child
        elif not _skipped(child):
            yield f" {_block_text(child)} " if child.tag in _BLOCK_TAGS else _inline(child)
        yield child.tail or ""


def _block_text(el) -> str:
    """A block inside a list item or table cell, flattened to one line of text."""
    return " ".join(_inline(el).split())


class _Reader:
    def __init__(self) -> None:
        self.items: list[Heading | Block] = []
        self._inline: list[str] = []

    def flush(self) -> None:
        text = "".join(self._inline)
        self._inline = []
        lines = [clean_inline(line) for line in text.split("\n")]
        text = "\n".join(line for line in lines if line)
        if text:
            self.items.append(Block(text))

    def block(self, text: str, is_code: bool = False) -> None:
        self.flush()
        if text.strip():
            self.items.append(Block(text, is_code))

    def read(self, el) -> None:
        if el.text:
            self._inline.append(el.text)
        for child in el:
            if not _skipped(child):
                self.element(child)
            if child.tail:
                self._inline.append(child.tail)

    def element(self, el) -> None:
        tag, classes = el.tag, _classes(el)
        if tag in _HEADINGS:
            self.flush()
            text = heading_text(el)
            if text:
                self.items.append(Heading(_HEADINGS[tag], text, el.get("id") or ""))
        elif tag == "pre":
            language = _code_language(el)
            self.block(f"```{language}\n{_code_text(el)}\n```", is_code=True)
        elif tag in ("ul", "ol"):
            self.block("\n".join(_list(el)))
        elif tag == "table":
            self.block(_table(el))
        elif "theme-admonition" in classes or "admonition" in classes:
            self.admonition(el)
        elif "tabs-container" in classes or el.get("role") == "tablist":
            self.tabs(el)
        elif tag == "br":
            self._inline.append("\n")
        elif tag == "code":
            self._inline.append(f"`{el.text_content()}`")
        elif tag == "summary":  # a collapsible part's title: a bold label, never quoted as a sentence (tag_labels.py)
            label = " ".join(_inline(el).split())
            self.block(f"**{label}**" if label else "")
        elif tag in _BLOCK_TAGS:
            self.flush()
            self.read(el)
            self.flush()
        else:
            self.read(el)

    def admonition(self, el) -> None:
        self.flush()
        heading = next(iter(el.xpath('./*[contains(@class, "admonitionHeading") or contains(@class, "admonition-heading")]')), None)
        title = heading_text(heading) if heading is not None else ""
        if title:
            self._inline.append(f"{title[:1].upper()}{title[1:]}:\n")
        for child in el:
            if child is not heading and not _skipped(child):
                self.element(child)
                if child.tail:
                    self._inline.append(child.tail)
        self.flush()

    def tabs(self, el) -> None:
        self.flush()
        labels = [heading_text(li) for li in el.xpath('.//*[@role="tab"]')]
        panels = el.xpath('.//*[@role="tabpanel"]')
        for n, panel in enumerate(panels):
            if n < len(labels) and labels[n]:
                self._inline.append(f"{labels[n]}:\n")
            self.read(panel)
            self.flush()


def markdown_root(document):
    """The element holding the doc's rendered Markdown, or None."""
    found = document.xpath('//*[contains(concat(" ", normalize-space(@class), " "), " theme-doc-markdown ")]')
    return found[0] if found else None


def page_sections(root) -> list[Heading | Block]:
    reader = _Reader()
    reader.read(root)
    reader.flush()
    return reader.items


def parse_html(data: bytes):
    return lxml_html.document_fromstring(data)
