"""Which pages of a built site a reader can reach by clicking, starting where readers start.

A reader arrives at the site's root (the build's `index.html`, whatever it is: a home page, a
docs index, a redirect) or at a page listed in a sidebar (every such page renders the sidebar
beside it, `theme-doc-sidebar-container`, so no collapsed category can hide it). From there they
follow links: any `<a href>` of a page they reached (its text, navbar, footer, pagination, the
locale menu) and a redirect's target. A page no such walk arrives at (a starter template's
tutorial left in `docs/`, a draft copied into the build, an unfilled template) is not part of
the book a reader sees. The walk runs over every HTML file of the build, so a generated
category index, a blog post or a custom page can lead to a doc too.
"""
from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

_LINK = re.compile(rb"""<a\b[^>]*?\bhref\s*=\s*["']([^"']*)["']""", re.IGNORECASE)
_REFRESH = re.compile(rb"""http-equiv=["']refresh["'][^>]*content=["'][^"']*url=([^"']+)["']""", re.IGNORECASE)
_SIDEBAR = b"theme-doc-sidebar-container"


def in_a_sidebar(data: bytes) -> bool:
    """A doc page that a sidebar lists renders that sidebar (and breadcrumbs) beside it."""
    return _SIDEBAR in data


def _route(rel: str, base_url: str) -> str:
    """The URL path a build file is served at: `a/index.html` → `/base/a/`, `a.html` → `/base/a`."""
    path = rel[: -len("index.html")] if rel == "index.html" or rel.endswith("/index.html") else rel[: -len(".html")]
    return "/" + "/".join(p for p in (base_url.strip("/"), path) if p)


class _Build:
    def __init__(self, build_dir: Path, base_url: str, site_url: str):
        self.dir = build_dir
        self.base = "/" + base_url.strip("/")
        self.host = urlsplit(site_url).netloc

    def files_of(self, href: str, from_rel: str) -> list[str]:
        """The build files a link on FROM_REL may open, when it is to a page of this site. A
        relative link is read from the page's route with and without its trailing slash (static
        hosts serve `a/index.html` at either), so no page it may lead to is missed."""
        href = html.unescape(href.strip())
        if not href or href.startswith(("#", "mailto:", "tel:", "javascript:", "data:")):
            return []
        route = _route(from_rel, self.base)
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
        return next((c for c in candidates if (self.dir / c).is_file()), None)


def reachable_files(build_dir: Path, base_url: str, site_url: str) -> set[str]:
    """The build's HTML files (paths relative to BUILD_DIR) a reader can reach."""
    build = _Build(build_dir, base_url, site_url)
    links: dict[str, list[bytes]] = {}
    seeds: list[str] = ["index.html"] if (build_dir / "index.html").is_file() else []
    for path in build_dir.rglob("*.html"):
        rel = path.relative_to(build_dir).as_posix()
        data = path.read_bytes()
        links[rel] = _LINK.findall(data) + _REFRESH.findall(data)
        if in_a_sidebar(data):
            seeds.append(rel)
    reached: set[str] = set()
    todo = list(seeds)
    while todo:
        rel = todo.pop()
        if rel in reached:
            continue
        reached.add(rel)
        for href in links.get(rel, []):
            todo.extend(t for t in build.files_of(href.decode("utf-8", "replace"), rel) if t not in reached)
    return reached
