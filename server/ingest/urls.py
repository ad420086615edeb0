"""Docusaurus routing rules: doc ids, slugs and page URLs, computed the way the docs plugin does.

Reference: @docusaurus/plugin-content-docs 3.x (`numberPrefix`, `slug`, `docs`: `isCategoryIndex`)
and `applyTrailingSlash` of @docusaurus/utils-common. The rules the corpora exercise are tested
against the URLs a real build produced (tests/test_sources_vs_build.py).
"""
from __future__ import annotations

import posixpath
import re
from urllib.parse import quote

# "01-intro", "1_intro", "01 . intro" → "intro" …
_NUMBER_PREFIX = re.compile(r"^(?P<number>\d+)\s*[-_.]+\s*(?P<suffix>[^-_.\s].*)$")
# … but never a date-like or version-like start: "2021-01-31-post", "1.2-ros2", "1-2-x" keep theirs.
_IGNORED_PREFIX = re.compile(r"^(?:(?:\d{2}|\d{4})[-_.]\d{2}(?:[-_.](?:\d{2}|\d{4}))?.*|\d+[-_.]\d+.*)$")


def parse_number_prefix(name: str) -> tuple[int | None, str]:
    """Split "02-nodes" into (2, "nodes"); names without a prefix come back whole."""
    if _IGNORED_PREFIX.match(name):
        return None, name
    match = _NUMBER_PREFIX.match(name)
    if not match:
        return None, name
    return int(match["number"]), match["suffix"]


def strip_number_prefixes(path: str) -> str:
    if path in ("", "."):
        return path
    return "/".join(parse_number_prefix(part)[1] for part in path.split("/"))


def is_category_index(file_stem: str, dir_name: str) -> bool:
    """index.md, README.md, or a file named exactly like its folder (prefix included) is the
    folder's own page."""
    folder = posixpath.basename(dir_name).lower() if dir_name not in ("", ".") else None
    return file_stem.lower() in ("index", "readme") or (folder is not None and file_stem.lower() == folder)


def doc_id(source_file: str, front_matter_id: str | None) -> str:
    """The doc id Docusaurus gives `dir/02-name.md` (dirs unprefixed; `id:` replaces the base name)."""
    directory, filename = posixpath.split(source_file)
    stem = posixpath.splitext(filename)[0]
    base_id = front_matter_id or parse_number_prefix(stem)[1]
    directory = strip_number_prefixes(directory)
    return f"{directory}/{base_id}" if directory else base_id


def doc_slug(source_file: str, front_matter_id: str | None, front_matter_slug: str | None) -> str:
    """The route of a doc relative to the docs plugin's base path, always starting with '/'.
    A folder's own page keeps its trailing slash, as Docusaurus gives it before `trailingSlash`."""
    directory, filename = posixpath.split(source_file)
    stem = posixpath.splitext(filename)[0]
    if front_matter_slug and front_matter_slug.startswith("/"):
        return _normalize(front_matter_slug)
    dir_slug = "/" if directory == "" else "/" + strip_number_prefixes(directory) + "/"
    if not front_matter_slug and is_category_index(stem, directory):
        return dir_slug
    base = front_matter_slug or (front_matter_id or parse_number_prefix(stem)[1])
    return _normalize(posixpath.normpath(posixpath.join(dir_slug, base)))


def _normalize(route: str) -> str:
    route = re.sub(r"/+", "/", "/" + route.strip())
    return route if route == "/" else route.rstrip("/")


def apply_trailing_slash(path: str, trailing_slash: bool | None, base_url: str = "/") -> str:
    """Docusaurus's `trailingSlash`: None keeps the route as it is, True adds one, False removes
    it (the site's root, baseUrl itself, is left alone)."""
    if trailing_slash is None or path in ("/", base_url) or path.endswith(".html"):
        return path
    return path.rstrip("/") + "/" if trailing_slash else path.rstrip("/")


def doc_route(base_url: str, route_base_path: str, slug: str, *, locale_prefix: str = "",
              version_path: str = "", trailing_slash: bool | None = None) -> str:
    """baseUrl + locale + routeBasePath + version + slug, with single slashes."""
    parts = [p.strip("/") for p in (base_url, locale_prefix, route_base_path, version_path, slug)
             if p and p.strip("/")]
    path = "/" + "/".join(parts)
    if slug.endswith("/") and path != "/":
        path += "/"
    return apply_trailing_slash(path, trailing_slash, base_url)


def page_url(site_url: str, base_url: str, route_base_path: str, slug: str, **options) -> str:
    """The absolute (or, without a site URL, root-relative) URL of a doc."""
    path = doc_route(base_url, route_base_path, slug, **options)
    return site_url.rstrip("/") + quote(path, safe="/-_.~%")


def route_of_file(rel: str, base_url: str) -> str:
    """The URL path a build file is served at: `a/b/index.html` → `/base/a/b/`, `a/b.html` → `/base/a/b`."""
    path = rel[: -len("index.html")] if rel == "index.html" or rel.endswith("/index.html") else rel[: -len(".html")]
    return "/" + "/".join(p for p in (base_url.strip("/"), path) if p)
