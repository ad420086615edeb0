"""A page's text as Markdown, read back from its passages in order: its title and URL, each
section's heading linked to the section, and the text once (a passage repeats the last
sentences of the one before it in the same section, see ingest/chunker.py)."""
from __future__ import annotations

from server.book.chunk import Chunk
from server.book.outline import OutlinePage


def page_markdown(page: OutlinePage, passages: tuple[Chunk, ...], *, level: int = 1) -> str:
    """PASSAGES: the page's chunks in reading order; `level`: the Markdown heading level of the
    page's title (sections go deeper)."""
    out = [f"{'#' * level} {page.title}", "", f"Source: {page.url}"]
    previous = None
    text = ""
    for passage in passages:
        titles = passage.section_hierarchy[1:]
        same_section = previous is not None and previous.url == passage.url and previous.heading == passage.heading
        if not same_section:
            if text:
                out += ["", text]
            text = passage.content.strip()
            if titles and "#" in passage.url:
                depth = min(6, level + len(titles))
                out += ["", f"{'#' * depth} [{_escape(passage.heading)}]({passage.url})"]
        else:
            text += _without_repeat(text, passage.content.strip())
        previous = passage
    if text:
        out += ["", text]
    return "\n".join(out) + "\n"


def _without_repeat(before: str, passage: str) -> str:
    """What `passage` adds after `before`: its opening paragraph(s) that only repeat the end of
    `before` are left out; the rest keeps its separator, so `passage` stays whole in the text."""
    cut = 0
    start = 0
    while True:
        found = passage.find("\n\n", start)
        if found < 0:
            break
        if before.endswith(passage[:found]):
            cut = found
        start = found + 2
    return passage[cut:] if cut else "\n\n" + passage


def _escape(text: str) -> str:
    return text.replace("[", "\\[").replace("]", "\\]")
