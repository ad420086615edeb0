"""Turn Docusaurus MDX / mdBook markdown into plain readable markdown.

Removed: MDX `import`/`export` statements, JSX component and HTML tags (their inner prose
stays), MDX and HTML comments, mdBook `{{#include}}`-style directives. Admonitions
(`:::tip Title`, GitHub's `> [!TIP]`) become a readable label line, as do a collapsible part's summary and a practice
component (`<Exercise title="…">`, `<Solution>`: tag_labels.py). Fenced code is kept verbatim, except an mdBook's
hidden lines (the lines a reader never sees: `# ` lines in Rust, or a language's prefix in
book.toml), which are left out.
"""
from __future__ import annotations

import re
from typing import Mapping

from markdown_it import MarkdownIt

from server.ingest.html_text import html_table
from server.ingest.tag_labels import mark_labels

_COMMONMARK = MarkdownIt("commonmark")
_MATH_FENCE = re.compile(r"^\s*\$\$\s*$")
_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_MDBOOK_DIRECTIVE = re.compile(r"\{\{#\w+[^}]*\}\}")
_ADMONITION_OPEN = re.compile(r"^\s*:::+\s*(?P<kind>[A-Za-z]+)(?:\[(?P<bracket>[^\]]*)\])?\s*(?P<title>.*?)\s*$")
_ADMONITION_CLOSE = re.compile(r"^\s*:::+\s*$")
# GitHub's alert in a quote ("> [!TIP]"): its kind is the label an admonition's is
_ALERT = re.compile(r"^(?P<quote>\s*(?:>\s*)+)\[!(?P<kind>note|tip|important|warning|caution)\]\s*(?P<rest>.*)$",
                    re.IGNORECASE)
_ESM = re.compile(r"^(import|export)\s")
_HTML_TABLE = re.compile(r"^[ \t]*<table\b.*?</table>[ \t]*$", re.IGNORECASE | re.DOTALL | re.MULTILINE)
_TAG_START = re.compile(r"</?[A-Za-z][\w.:-]*")
_AUTOLINK = re.compile(r"<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@]+@[^\s<>@]+)>")


def split_fences(text: str) -> list[tuple[bool, list[str]]]:
    """Split into runs of lines: (is_code_fence, lines). An unclosed fence runs to the end."""
    runs: list[tuple[bool, list[str]]] = []
    prose: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            prose.append(lines[i])
            i += 1
            continue
        fence = match["fence"]
        closing = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        j = i + 1
        while j < len(lines) and not closing.match(lines[j]):
            j += 1
        if prose:
            runs.append((False, prose))
            prose = []
        runs.append((True, lines[i : j + 1]))
        i = j + 1
    if prose:
        runs.append((False, prose))
    return runs


def _shown_lines(lines: list[str], hidden_lines: Mapping[str, str]) -> list[str]:
    """A fenced block without the lines mdBook hides for its language. Rust's "#" hides `# …`
    and a bare `#` (`##` shows one `#`: an attribute or a macro's `#` is not hidden); another
    prefix hides every line that opens with it."""
    language = re.split(r"[\s,{]", _FENCE.match(lines[0])["info"].strip(), maxsplit=1)[0].lower()
    prefix = hidden_lines.get(language)
    if not prefix:
        return lines
    shown = [lines[0]]
    for line in lines[1:-1]:
        opening = line.lstrip()
        if prefix == "#":
            if opening.startswith("##"):
                line = line.replace("##", "#", 1)
            elif opening.startswith("# ") or opening == "#":
                continue
        elif opening.startswith(prefix):
            continue
        shown.append(line)
    return [*shown, lines[-1]] if len(lines) > 1 else shown


def _clean_code(lines: list[str], hidden_lines: Mapping[str, str] | None = None) -> list[str]:
    if hidden_lines:
        lines = _shown_lines(lines, hidden_lines)
    if len(lines) >= 2 and "twoslash" in lines[0]:
        lines = _twoslash_shown(lines)
    kept = [line for line in lines if not _MDBOOK_DIRECTIVE.fullmatch(line.strip())]
    kept = [_MDBOOK_DIRECTIVE.sub("", line) for line in kept]
    body = [line for line in kept[1:-1] if line.strip()]
    return kept if body else []  # a listing that was only an include is dropped whole


# Twoslash: "// ---cut---" hides the lines above it ("// ---cut-after---" those below), "// @errors: 2322"
# and "// @noErrors" set the compiler, "//   ^?" asks for a type's popup; none is shown. "// @log: …"
# (a console's output, as some books render it) is.
_TWOSLASH_CUT = re.compile(r"^\s*//\s*-{3}cut(?:-before)?-{3}\s*$")
_TWOSLASH_CUT_AFTER = re.compile(r"^\s*//\s*-{3}cut-after-{3}\s*$")
_TWOSLASH_HIDDEN = re.compile(r"^\s*//\s*(?:@(?!log\b)[A-Za-z]+\b(?::.*)?|\s*\^[?|]\s*)$")


def _twoslash_shown(lines: list[str]) -> list[str]:
    """A twoslash code block's lines as the page shows them (its fence lines kept)."""
    fence, body, close = lines[0], lines[1:-1], lines[-1:]
    cut = max((i for i, line in enumerate(body) if _TWOSLASH_CUT.match(line)), default=-1)
    body = body[cut + 1:]
    after = next((i for i, line in enumerate(body) if _TWOSLASH_CUT_AFTER.match(line)), len(body))
    return [fence, *(line for line in body[:after] if not _TWOSLASH_HIDDEN.match(line)), *close]


def _drop_esm(lines: list[str]) -> list[str]:
    """Remove top-level import/export statements, including multi-line ones."""
    out: list[str] = []
    depth = 0
    in_statement = False
    for line in lines:
        if not in_statement and _ESM.match(line):
            in_statement = True
            depth = 0
        if in_statement:
            depth += line.count("{") + line.count("(") + line.count("[")
            depth -= line.count("}") + line.count(")") + line.count("]")
            stripped = line.rstrip()
            if depth <= 0 and (stripped.endswith(";") or not stripped.endswith((",", "=", "(", "{", "["))):
                in_statement = False
            continue
        out.append(line)
    return out


def skip_braces(text: str, i: int) -> int:
    """Index just past the `{...}` expression starting at text[i] == '{' (quotes respected)."""
    depth = 0
    quote = None
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "\"'`":
            quote = ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def tag_end(text: str, i: int) -> int | None:
    """Index just past the `>` closing a tag that starts at text[i] == '<', or None."""
    j = i + 1
    quote = None
    while j < len(text):
        ch = text[j]
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "{":
            j = skip_braces(text, j)
            continue
        elif ch == ">":
            return j + 1
        elif ch == "<":
            return None
        j += 1
    return None


def _strip_tags_and_comments(text: str) -> str:
    """Drop JSX/HTML tags and comments outside inline code; keep everything between tags."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "`":
            run = re.match(r"`+", text[i:]).group(0)
            end = text.find(run, i + len(run))
            if end != -1:
                out.append(text[i : end + len(run)])
                i = end + len(run)
                continue
        if text.startswith("<!--", i):
            end = text.find("-->", i)
            i = len(text) if end == -1 else end + 3
            continue
        if text.startswith("{/*", i):
            end = text.find("*/}", i)
            i = len(text) if end == -1 else end + 3
            continue
        if ch == "<" and _TAG_START.match(text, i) and not _AUTOLINK.match(text, i):
            end = tag_end(text, i)
            if end is not None:
                i = end
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def _html_tables(text: str) -> str:
    """Each table written in HTML as a Markdown table (html_text.html_table)."""
    return _HTML_TABLE.sub(lambda found: f"\n{html_table(found[0]) or found[0]}\n", text)


def _admonitions(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if _ADMONITION_CLOSE.match(line):
            continue
        match = _ADMONITION_OPEN.match(line)
        if match:
            title = (match["bracket"] or match["title"] or "").strip()
            label = match["kind"].capitalize()
            out.append(f"**{label}: {title}**" if title else f"**{label}:**")
            continue
        alert = _ALERT.match(line)
        if alert:
            line = f"{alert['quote']}**{alert['kind'].capitalize()}:** {alert['rest']}".rstrip()
        out.append(line)
    return out


def _display_math(lines: list[str]) -> list[str]:
    """A displayed formula ("$$" on a line of its own, to the line ending in "$$") kept whole, as
    remark-math reads it: its blank lines are part of it. Set apart from the text before it (a
    blank line above it), it is a block of its own, ended by its closing "$$" even where the next
    sentence follows on the next line; inside a sentence ("… we will have $$ … $$ and …"), it stays
    in the sentence's paragraph."""
    out: list[str] = []
    inside = apart = False
    for line in lines:
        if inside:
            if line.strip():
                out.append(line)
            if line.rstrip().endswith("$$"):
                inside = False
                if apart:
                    out.append("")
        elif _MATH_FENCE.match(line):
            inside, apart = True, not out or not out[-1].strip()
            out.append(line)
        else:
            out.append(line)
    return out


def _clean_prose(lines: list[str]) -> list[str]:
    lines = [_MDBOOK_DIRECTIVE.sub("", line) for line in lines if not _MDBOOK_DIRECTIVE.fullmatch(line.strip())]
    lines = _drop_esm(lines)
    text = _strip_tags_and_comments(_html_tables(mark_labels("\n".join(lines))))
    lines = [line.rstrip() if line.strip() else "" for line in text.split("\n")]
    # JSX children are often indented; markdown would read 4+ spaces as code.
    lines = [line.lstrip() if line.startswith("    ") and not line.lstrip().startswith(("-", "*", "+")) and not re.match(r"\s*\d+\.", line) else line for line in lines]
    return _display_math(_admonitions(lines))


def _indented_code_fenced(text: str) -> str:
    """Each indented code block (four spaces in, after a blank line) written as a fenced one, so
    that it reads as code wherever a block is read: "plink has created three new files:" and the
    files, which a paragraph would have dropped as a sentence cut off."""
    lines = text.split("\n")
    blocks = [t.map for t in _COMMONMARK.parse(text) if t.type == "code_block" and t.level == 0 and t.map]
    for start, end in reversed(blocks):
        code = [re.sub(r"^(?: {4}|\t)", "", line) for line in lines[start:end]]
        while code and not code[-1].strip():
            code.pop()
        lines[start:end] = ["```", *code, "```", ""]
    return "\n".join(lines)


def clean_markdown(text: str, hidden_lines: Mapping[str, str] | None = None, indented_code: bool = False) -> str:
    """The readable markdown of a page body (front matter already removed). `hidden_lines`: an
    mdBook's prefix of hidden code lines by a fence's language; `indented_code`: whether the
    book's markdown reads an indented block as code (site.py), then written fenced."""
    out: list[str] = []
    text = text.replace("\r\n", "\n")
    for is_code, lines in split_fences(_indented_code_fenced(text) if indented_code else text):
        out.extend(_clean_code(lines, hidden_lines) if is_code else _clean_prose(lines))
    cleaned = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", cleaned).strip() + "\n"
