"""Heading anchors as the site generator makes them.

Docusaurus uses github-slugger on the heading's rendered text (explicit `{#id}` wins);
mdBook lowercases and keeps letters, digits, `_` and `-`. Both de-duplicate with -1, -2, ….
"""
from __future__ import annotations

import re
import unicodedata

_EXPLICIT_ID = re.compile(r"\s*\{#([^}\s]+)\}\s*$")


def split_explicit_id(heading: str) -> tuple[str, str | None]:
    """`Topics {#topics-id}` → ("Topics", "topics-id")."""
    match = _EXPLICIT_ID.search(heading)
    if not match:
        return heading, None
    return heading[: match.start()].rstrip(), match.group(1)


_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_KEPT = re.compile(r"\x00(\d+)\x00")


def rendered_text(heading: str) -> str:
    """What the reader sees: inline code ticks, emphasis, tags and link syntax removed. Inline
    code shows as written: "1. `<link>`" reads "1. <link>" (anchor "1-link"), "`__init__`" keeps
    its underscores."""
    code: list[str] = []

    def kept(match: re.Match) -> str:
        code.append(match.group(2).strip() or match.group(2))
        return f"\x00{len(code) - 1}\x00"
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = _CODE_SPAN.sub(kept, text)
    text = re.sub(r"</?[A-Za-z][^>]*>", "", text)  # tags, not "<$>" (lhbg: "fmap and <$>")
    text = text.replace("`", "")
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text)
    text = re.sub(r"(?<![\w*])([*_])(?!\s)(.+?)(?<!\s)\1(?![\w*])", r"\2", text)
    return _KEPT.sub(lambda match: code[int(match.group(1))], text).strip()


def _keep_github(ch: str) -> bool:
    if ch in (" ", "-", "_"):
        return True
    return unicodedata.category(ch)[0] in ("L", "N", "M")


def github_slug(text: str) -> str:
    return "".join(ch for ch in text.lower() if _keep_github(ch)).replace(" ", "-")


def mdbook_slug(text: str) -> str:
    out = []
    for ch in text.strip():
        if ch.isalnum() or ch in "_-":
            out.append(ch.lower())
        elif ch.isspace():
            out.append("-")
    return "".join(out)


class Slugger:
    """Per-page anchor generator that de-duplicates like github-slugger."""

    def __init__(self, style: str = "docusaurus") -> None:
        self._seen: dict[str, int] = {}
        self._slug = github_slug if style == "docusaurus" else mdbook_slug

    def anchor(self, heading_source: str) -> tuple[str, str]:
        """Return (display text, anchor) for the raw markdown text of a heading."""
        text, explicit = split_explicit_id(heading_source)
        display = rendered_text(text)
        if explicit:
            self._seen.setdefault(explicit, 0)
            return display, explicit
        base = self._slug(display)
        slug = base
        while slug in self._seen:
            self._seen[base] += 1
            slug = f"{base}-{self._seen[base]}"
        self._seen.setdefault(slug, 0)
        return display, slug
