"""Reference links shown inline: `[text][label]`, `[text][]` and `[label]` become `[text](url)`
by the page's own definitions (`[label]: url`, CommonMark's link reference definitions). A reader
quoted a passage sees a link, not "[“Shared Access to Mutex<T>”][shared-access]": the definitions
sit at the foot of the page, far from any chunk that uses them (chunker.py)."""
from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.common.utils import normalizeReference

_md = MarkdownIt("commonmark")
# `[text][label]`, `[text][]`, or a bare `[label]` (not a link already, nor an image's alt text)
_REFERENCE = re.compile(r"(?<![!\]\\])\[((?:[^\[\]\\]|\\.|\[[^\[\]]*\])+)\](?:\[([^\[\]]*)\])?(?![(:\[])")
_CODE_SPAN = re.compile(r"(`+)[^`].*?\1|`+", re.S)
_KEPT = re.compile(r"\x00(\d+)\x00")


def definitions(text: str) -> dict[str, str]:
    """The page's link reference definitions: a label as CommonMark matches it → its URL."""
    env: dict = {}
    _md.parse(text, env)
    return {label: ref["href"] for label, ref in env.get("references", {}).items()}


def inlined(text: str, refs: dict[str, str]) -> str:
    """The text with its reference links as inline links (a link's text may run over a line
    break); code spans are left as written."""
    if not refs or "[" not in text:
        return text
    code: list[str] = []

    def keep(match: re.Match) -> str:
        code.append(match.group(0))
        return f"\x00{len(code) - 1}\x00"

    def link(match: re.Match) -> str:
        text, label = match.group(1), match.group(2)
        href = refs.get(normalizeReference(_KEPT.sub(lambda m: code[int(m.group(1))], label or text)))
        if href is None or label is None and text.startswith("^"):
            return match.group(0)  # no definition (or a footnote): as written
        return f"[{text}]({href})"

    linked = _REFERENCE.sub(link, _CODE_SPAN.sub(keep, text))
    return _KEPT.sub(lambda m: code[int(m.group(1))], linked)
