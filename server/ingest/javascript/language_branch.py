"""A page written as a component that returns one of its JSX branches by the reader's language
(`if (i18n.language === 'ur') { return (<div>…Urdu…</div>); } return (<div>…English…</div>);`).

Its build holds the branch the server rendered, often the default language's, while the page's
own readers, who chose its locale, see the branch in their language. When the page's locale writes
in a script of its own (Arabic, Cyrillic, Devanagari, CJK…) and the build shows little of it, the
branch of the source written in that script is what is read instead. Latin-script locales are left
as built: their branches cannot be told apart by script alone."""
from __future__ import annotations

import html
import re

from server.ingest.clean import skip_braces, tag_end
from server.ingest.html_text import Block, Heading, markdown_root, page_sections, parse_html
from server.text.scripts import scripts_of, share_in

_RETURN = re.compile(r"\breturn\s*\(\s*(?=<)")
_TAG = re.compile(r"<\s*(/?)\s*([A-Za-z][\w.:-]*)?")
_CLASS = re.compile(r"""\bclass(?:Name)?\s*=\s*(["'])([^"']*)\1""")
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_ESCAPED = {"n": "\n", "t": "\t", "r": "", "\n": ""}  # any other escaped character stands for itself
_VOID = {"br", "hr", "img", "input", "wbr", "col", "source", "meta", "link"}
_WRITTEN_IN = 0.4  # a branch in the locale's script: two letters in five at least (names of code are Latin)
_LITTLE = 0.2  # a build showing another language: under a fifth of its letters in the locale's script


def _literal(expression: str) -> str:
    """What a `{…}` child shows when it is a string or template literal; '' for anything computed."""
    expression = expression.strip()
    if len(expression) >= 2 and expression[0] == expression[-1] and expression[0] in "`'\"":
        return _ESCAPE.sub(lambda m: _ESCAPED.get(m.group(1), m.group(1)), expression[1:-1])
    return ""


def _jsx_text(raw: str) -> str:
    """JSX text as React shows it: a run spanning lines loses each line's indentation and its
    blank lines, and its lines are joined by one space (Babel's rule for JSX children)."""
    lines = raw.replace("\r\n", "\n").split("\n")
    if len(lines) == 1:
        return raw
    kept = []
    for n, line in enumerate(lines):
        line = line.lstrip(" \t") if n else line
        line = line.rstrip(" \t") if n < len(lines) - 1 else line
        if line:
            kept.append(line)
    return " ".join(kept)


def _element(text: str, start: int) -> tuple[str, int]:
    """The HTML of the JSX element starting at text[start] == '<', and the index just past it."""
    out: list[str] = []
    run: list[str] = []  # the text since the last tag or expression

    def flush() -> None:
        out.append(_jsx_text("".join(run)))
        run.clear()

    depth = 0
    i = start
    while i < len(text):
        if text.startswith("<!--", i):
            flush()
            end = text.find("-->", i)
            i = len(text) if end == -1 else end + 3
            continue
        ch = text[i]
        if ch == "{":
            flush()
            end = skip_braces(text, i)
            out.append(html.escape(_literal(text[i + 1:end - 1]), quote=False))
            i = end
            continue
        tag = _TAG.match(text, i) if ch == "<" else None
        end = tag_end(text, i) if tag else None
        if end is None:
            run.append(ch)
            i += 1
            continue
        flush()
        closing, name = tag.group(1), tag.group(2) or ""
        if closing:
            depth -= 1
            out.append(f"</{name}>" if name else "")
        elif text[i:end - 1].rstrip().endswith("/"):
            out.append(f"<{name}>" + ("" if name.lower() in _VOID else f"</{name}>") if name else "")
        else:
            depth += 1
            found = _CLASS.search(text, i, end)
            attribute = f' class="{html.escape(found.group(2))}"' if found else ""
            out.append(f"<{name}{attribute}>" if name else "")
        i = end
        if depth <= 0:
            break
    return "".join(out), i


def branches(source: str) -> list[list[Heading | Block]]:
    """What each `return (<…>)` of the source's components shows, read as a built page is read."""
    found = []
    for match in _RETURN.finditer(source):
        markup, _ = _element(source, match.end())
        document = parse_html(f'<html><head><meta charset="utf-8"></head><body>'
                              f'<div class="theme-doc-markdown">{markup}</div></body></html>'.encode())
        sections = page_sections(markdown_root(document))
        if sections:
            found.append(sections)
    return found


def _text(sections: list[Heading | Block]) -> str:
    """The page's words, without its code (code is written in Latin letters whatever the language)."""
    return "\n".join(item.text for item in sections if not getattr(item, "is_code", False))


def in_the_locales_language(built: list[Heading | Block], source: str, locale: str) -> list[Heading | Block]:
    """The built page's sections with the component's rendered branch swapped for the branch its
    locale's readers see; the sections as built when there is nothing to swap."""
    scripts = scripts_of(locale)
    if not scripts or share_in(_text(built), scripts) >= _LITTLE:
        return built
    options = branches(source)
    shares = [share_in(_text(branch), scripts) for branch in options]
    if not options or max(shares) < _WRITTEN_IN:
        return built
    theirs = options[shares.index(max(shares))]
    for rendered in options:
        if rendered is theirs:
            continue
        for start in range(len(built) - len(rendered) + 1):
            if built[start:start + len(rendered)] == rendered:
                return built[:start] + theirs + built[start + len(rendered):]
    return built
