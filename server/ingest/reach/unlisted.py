"""The pages a reader of the site can get to, and the others, left out of the index and said.

A page is left out when it is an unfilled template (placeholders.py), or when no reader can
reach it: in no sidebar and linked from no page a reader reaches (reach.py for a build; from
sources only what is provably unreachable, source_reach.py). `--include-unlisted` keeps them."""
from __future__ import annotations

from dataclasses import dataclass

from server.ingest.page import Page
from server.ingest.reach.placeholders import is_template

TEMPLATE = "template"
UNREACHABLE = "unreachable"


@dataclass
class LeftOut:
    source_file: str
    url: str
    title: str
    reason: str  # TEMPLATE | UNREACHABLE


def readers_pages(pages: list[Page], *, include_unlisted: bool = False) -> tuple[list[Page], list[LeftOut]]:
    """(the pages to index, the pages left out and why)."""
    if include_unlisted:
        return list(pages), []
    kept: list[Page] = []
    left_out: list[LeftOut] = []
    for page in pages:
        reason = TEMPLATE if is_template(page, listed=page.listed) else None if page.reachable else UNREACHABLE
        if reason:
            left_out.append(LeftOut(page.source_file, page.url, page.title, reason))
        else:
            kept.append(page)
    return kept, left_out


def left_out_summary(left_out: list[LeftOut]) -> str:
    """One line for the ingest report, "" when nothing was left out."""
    if not left_out:
        return ""
    said = []
    for reason, kind, why in ((UNREACHABLE, "", " no reader can reach (in no sidebar, linked from no page)"),
                              (TEMPLATE, "unfilled template ", "")):
        pages = [p for p in left_out if p.reason == reason]
        if pages:
            names = ", ".join(p.source_file for p in pages[:5]) + (f", … ({len(pages) - 5} more)" if len(pages) > 5 else "")
            said.append(f"{len(pages)} {kind}{'page' if len(pages) == 1 else 'pages'}{why}: {names}")
    return "left out " + "; ".join(said) + "; --include-unlisted indexes them"
