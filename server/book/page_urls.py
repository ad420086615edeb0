"""Which indexed page a URL names, on whatever host and base path the book is read: its own
site, a preview deployment, a mirror, localhost. The course path (the page a reader is on), the
insights (where a question was asked) and the book tools all find pages this way."""
from __future__ import annotations

import re
from typing import Iterable
from urllib.parse import unquote, urlsplit

BASE_SEGMENTS = 2  # a site may sit under a base path of up to this many folders ("/book/", "/org/book/")


def page_path(url: str) -> str:
    """The part of a page URL that names the page: its path without index.html, .html or a final /
    ("/" for what is no URL at all, "http://[::1" say: a reader sends what it likes)."""
    try:
        path = unquote(urlsplit(url or "").path)
    except ValueError:
        return "/"
    path = re.sub(r"/index\.html?$", "/", path)
    path = re.sub(r"\.html?$", "", path)
    return path.rstrip("/") or "/"


def same_page_path(paths: Iterable[str], wanted: str) -> str | None:
    """Of the indexed pages' paths, the one `wanted` names: the same path, else (the site served
    under another base path) the one whose path without its base ends `wanted`'s, the longest
    such, of two segments at least (one segment, "intro", says too little of which page)."""
    paths = list(paths)
    if wanted in paths:
        return wanted
    segments = wanted.strip("/").split("/")
    best, best_len = None, 0
    for path in paths:
        own = path.strip("/").split("/")
        for drop in range(0, min(BASE_SEGMENTS, len(own) - 2) + 1):
            tail = own[drop:]
            if len(tail) > best_len and segments[-len(tail):] == tail:
                best, best_len = path, len(tail)
    return best
