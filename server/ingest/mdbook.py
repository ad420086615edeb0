"""An mdBook's pages, in the order of its SUMMARY.md."""
from __future__ import annotations

import posixpath
import re
from pathlib import Path

from server.ingest.anchors import rendered_text
from server.ingest.clean import clean_markdown
from server.ingest.page import Discovery, Page, SkippedFile, file_hash
from server.ingest.site import Site


_SUMMARY_ITEM = re.compile(r"^(?P<indent>\s*)(?:[-*]\s+)?\[(?P<title>[^\]]+)\]\((?P<file>[^)]*)\)")


def summary_path(link: str) -> str:
    """A chapter's file as SUMMARY.md links it, the way a reader names it: "./03-html/a.md" is
    "03-html/a.md"."""
    return posixpath.normpath(link.strip()).removeprefix("./")


def summary_items(root: Path) -> list[tuple[str, str, int]]:
    """(title, file, depth) for each linked chapter of SUMMARY.md, in order."""
    items = []
    for line in (root / "SUMMARY.md").read_text(encoding="utf-8").splitlines():
        match = _SUMMARY_ITEM.match(line)
        if match and match["file"].strip():
            depth = len(match["indent"].expandtabs(4)) // 2 if line.lstrip().startswith(("-", "*")) else 0
            # the title as the sidebar shows it: "The `match` Control Flow Construct" reads "The match …"
            items.append((rendered_text(match["title"].strip()), summary_path(match["file"]), depth))
    return items


def _mdbook_url(site: Site, rel: str) -> str:
    stem = posixpath.splitext(rel)[0]
    if posixpath.basename(stem).lower() == "readme":
        stem = posixpath.join(posixpath.dirname(stem), "index")
    return f"{site.site_url}/{stem}.html"


def mdbook_pages(site: Site) -> Discovery:
    root = site.content_root
    found = Discovery()
    top_title = ""
    for title, rel, depth in summary_items(root):
        path = root / rel
        if depth == 0:
            top_title = title
        if not path.is_file():
            found.skipped.append(SkippedFile(rel, "listed in SUMMARY.md but missing"))
            continue
        raw = path.read_bytes()
        try:
            written = raw.decode("utf-8")
            body = clean_markdown(written, dict(site.hidden_code_lines), indented_code=site.indented_code)
        except UnicodeDecodeError:
            found.skipped.append(SkippedFile(rel, "not UTF-8 text"))
            continue
        found.pages.append(Page(
            source_file=rel,
            title=title,
            url=_mdbook_url(site, rel),
            categories=[top_title],
            order=len(found.pages) + 1,
            body=body,
            raw=written,
            file_hash=file_hash(raw),
            anchor_style="mdbook",
            locale=site.default_locale,
            doc_id=posixpath.splitext(rel)[0],
        ))
    return found
