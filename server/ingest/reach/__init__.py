"""Which pages of a built site a reader can reach by clicking, starting where readers start.

A reader arrives at the site's root (the build's `index.html`, whatever it is: a home page, a
docs index, a redirect) or at a page listed in a sidebar (every such page renders the sidebar
beside it, `theme-doc-sidebar-container`, so no collapsed category can hide it). From there they
follow links: any `<a href>` of a page they reached (its text, navbar, footer, pagination, the
locale menu) and a redirect's target. A page no such walk arrives at (a starter template's
tutorial left in `docs/`, a draft copied into the build, an unfilled template) is not part of
the book a reader sees. The walk runs over every HTML file of the build, so a generated
category index, a blog post or a custom page can lead to a doc too.

The pages are parsed once, by whoever reads the build (built.py): each page's links are taken
from its parsed document (`links_of`), and the walk runs over those.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import unquote, urljoin, urlsplit

from server.ingest.urls import route_of_file

_REFRESH_URL = re.compile(r"""url\s*=\s*["']?([^"']+)""", re.IGNORECASE)  # `content="0; url=/docs/a"`


def in_a_sidebar(document) -> bool:
    """A doc page that a sidebar lists renders that sidebar (and breadcrumbs) beside it."""
    return bool(document.xpath('//*[contains(@class, "theme-doc-sidebar-container")]'))


def links_of(document) -> list[str]:
    """Where a parsed page leads a reader: its links' hrefs and its redirect's target."""
    refreshes = document.xpath('//meta[translate(@http-equiv, "REFSH", "refsh") = "refresh"]/@content')
    targets = [m.group(1) for m in map(_REFRESH_URL.search, refreshes) if m]
    return [str(href) for href in document.xpath("//a/@href")] + targets


class _Build:
    def __init__(self, files: Iterable[str], base_url: str, site_url: str):
        self.files = set(files)
        self.base = "/" + base_url.strip("/")
        self.host = urlsplit(site_url).netloc

    def files_of(self, href: str, from_rel: str) -> list[str]:
        """The build files a link on FROM_REL may open, when it is to a page of this site. A
        relative link is read from the page's route with and without its trailing slash (static
        hosts serve `a/index.html` at either), so no page it may lead to is missed."""
        href = href.strip()
        if not href or href.startswith(("#", "mailto:", "tel:", "javascript:", "data:")):
            return []
        route = route_of_file(from_rel, self.base)
        bases = {route, route.rstrip("/") or "/"}
        found = {self._file(urljoin("http://site" + base, href)) for base in bases}
        return [f for f in found if f]

    def _file(self, link: str) -> str | None:
        url = urlsplit(link)
        if url.netloc not in ("site", self.host) or url.scheme not in ("http", "https"):
            return None
        path = unquote(url.path)
        if self.base != "/":
            if path.rstrip("/") != self.base and not path.startswith(self.base + "/"):
                return None
            path = path[len(self.base):]
        rest = path.strip("/")
        candidates = [f"{rest}/index.html" if rest else "index.html"]
        if rest and not path.endswith("/"):
            candidates.insert(0, rest if rest.endswith(".html") else f"{rest}.html")
        return next((c for c in candidates if c in self.files), None)


def reachable_files(links: dict[str, list[str]], in_sidebars: Iterable[str], base_url: str, site_url: str) -> set[str]:
    """The build's HTML files a reader can reach, from LINKS (every HTML file of the build, as a
    path relative to the build folder → where it leads, `links_of`) and the files IN_SIDEBARS."""
    build = _Build(links, base_url, site_url)
    reached: set[str] = set()
    todo = (["index.html"] if "index.html" in links else []) + list(in_sidebars)
    while todo:
        rel = todo.pop()
        if rel in reached:
            continue
        reached.add(rel)
        for href in links.get(rel, []):
            todo.extend(t for t in build.files_of(href, rel) if t not in reached)
    return reached
