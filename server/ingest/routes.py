"""Docusaurus routing rules: doc ids, slugs and page URLs, computed the way the docs plugin does.

Reference: @docusaurus/plugin-content-docs (numberPrefix.ts, slug.ts, docs.ts).
"""
from __future__ import annotations

import posixpath
import re
from urllib.parse import quote

# "01-intro", "1_intro", "01 . intro" → "intro"; dates and versions are not prefixes.
_NUMBER_PREFIX = re.compile(r"^(?P<number>\d+)\s*[-_.]+\s*(?P<suffix>[^-_.\s].*)$")
_IGNORED_PREFIX = re.compile(r"^(\d{4}[-_.]\d{2}[-_.]\d{2}|\d+\.\d+\.\d+)")


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
    """index.md, README.md, or a file named like its folder is the folder's own page."""
    stem = parse_number_prefix(file_stem)[1].lower()
    folder = parse_number_prefix(posixpath.basename(dir_name))[1].lower() if dir_name not in ("", ".") else ""
    return stem in ("index", "readme") or (folder != "" and stem == folder)


def doc_id(source_file: str, front_matter_id: str | None) -> str:
    """The doc id Docusaurus gives `dir/02-name.md` (dirs unprefixed; `id:` replaces the base name)."""
    directory, filename = posixpath.split(source_file)
    stem = posixpath.splitext(filename)[0]
    base_id = front_matter_id or parse_number_prefix(stem)[1]
    directory = strip_number_prefixes(directory)
    return f"{directory}/{base_id}" if directory else base_id


def doc_slug(source_file: str, front_matter_id: str | None, front_matter_slug: str | None) -> str:
    """The route of a doc relative to the docs plugin's base path, always starting with '/'."""
    directory, filename = posixpath.split(source_file)
    stem = posixpath.splitext(filename)[0]
    if front_matter_slug and front_matter_slug.startswith("/"):
        return _normalize(front_matter_slug)
    dir_slug = "/" if directory == "" else "/" + strip_number_prefixes(directory) + "/"
    if not front_matter_slug and is_category_index(stem, directory):
        return dir_slug  # a folder's own page keeps the trailing slash, as Docusaurus serves it
    base = front_matter_slug or (front_matter_id or parse_number_prefix(stem)[1])
    return _normalize(posixpath.normpath(posixpath.join(dir_slug, base)))


def _normalize(route: str) -> str:
    route = re.sub(r"/+", "/", "/" + route.strip())
    return route if route == "/" else route.rstrip("/")


def page_url(site_url: str, base_url: str, route_base_path: str, slug: str) -> str:
    """site url + baseUrl + routeBasePath + slug, with single slashes (a slug's trailing slash kept)."""
    parts = [p.strip("/") for p in (base_url, route_base_path, slug) if p and p.strip("/")]
    path = "/" + "/".join(parts)
    if slug.endswith("/") and slug != "/":
        path += "/"
    return site_url.rstrip("/") + quote(path, safe="/-_.~%")
