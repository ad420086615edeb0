"""From sources, which docs in no sidebar no reader can reach: only what is provable.

Without a build the links a reader follows are not known exactly (components compute some,
the navbar is code), so a doc counts as reachable whenever anything might lead to it: a link in
a reachable doc (Markdown, reference-style, `href=`/`to=` in JSX) or any string in the site's
own code (`src/`, `docusaurus.config.*`) whose last path segment names it, by its URL's last
segment, its file name (number prefix and extension dropped) or its id. Only a doc that
nothing names is unreachable. Nothing is when the site's code is not all there to read (a
`docs/` folder without its site, or `@site/src/…` / `./src/…` files the pages or the config use
missing: a home page or a component could link anywhere), and a sidebars file that is code
lists every doc (sources.py).
"""
from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote, urlsplit

from server.ingest.page import Page
from server.ingest.site import Site
from server.ingest.urls import parse_number_prefix

_MARKDOWN_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)")
_REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?\s*$", re.MULTILINE)
_ATTRIBUTE = re.compile(r"""\b(?:href|to)\s*=\s*\{?\s*["'`]([^"'`]+)["'`]""")
_STRING = re.compile(r"""["'`]([^"'`\s]{1,300})["'`]""")
_SITE_FILE = re.compile(r"""(?:@site/|\./)(src/[^'"`\s)]+)""")
_CODE = (".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".md", ".mdx", ".json")


def _name(target: str) -> str:
    path = unquote(urlsplit(target).path).rstrip("/")
    last = posixpath.basename(path)
    for ext in (".mdx", ".md", ".html"):
        if last.endswith(ext):
            last = last[: -len(ext)]
    return parse_number_prefix(last)[1].lower()


def _names(page: Page) -> set[str]:
    return {n for n in (_name(page.url), _name(page.source_file), _name(page.doc_id)) if n}


def _targets(text: str, *, code: bool) -> set[str]:
    found = _MARKDOWN_LINK.findall(text) + _REFERENCE.findall(text) + _ATTRIBUTE.findall(text)
    if code:
        found += _STRING.findall(text)
    return {_name(t) for t in found} - {""}


def _text(site: Site, page: Page) -> str:
    for root in (site.content_root, site.site_dir):
        if root is not None and (root / page.source_file).is_file():
            return (root / page.source_file).read_text(encoding="utf-8", errors="replace")
    return page.body


def _site_code(site: Site) -> str:
    if site.site_dir is None:
        return ""
    files = [p for p in (site.site_dir / "src").rglob("*") if p.suffix in _CODE] if (site.site_dir / "src").is_dir() else []
    files += [p for p in site.site_dir.glob("docusaurus.config.*")]
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in files if p.is_file())


def _code_missing(site: Site, texts: list[str]) -> bool:
    """Whether a file of the site's own code that the pages or the config use is not there."""
    if site.site_dir is None:
        return True
    for text in texts:
        for rel in _SITE_FILE.findall(text):
            path = site.site_dir / rel
            if not any(c.exists() for c in (path, *(path.with_name(path.name + ext) for ext in _CODE),
                                            *(path / f"index{ext}" for ext in _CODE))):
                return True
    return False


def _is_root(site: Site, page: Page) -> bool:
    path = unquote(urlsplit(page.url).path).strip("/")
    base = site.base_url.strip("/")
    return path in (base, "/".join(p for p in (base, site.route_base_path.strip("/")) if p))


def mark_unreachable(site: Site, pages: list[Page]) -> None:
    """Set `reachable` False on each page in no sidebar that nothing names."""
    unlisted = [p for p in pages if not p.listed and not _is_root(site, p)]
    if not unlisted:
        return
    code = _site_code(site)
    if _code_missing(site, [code, *(_text(site, p) for p in pages)]):
        return
    named = _targets(code, code=True)
    waiting = {id(p): p for p in unlisted}
    todo = [p for p in pages if id(p) not in waiting]
    while todo:
        for page in todo:
            named |= _targets(_text(site, page), code=False)
        todo = [p for p in waiting.values() if _names(p) & named]
        for page in todo:
            del waiting[id(page)]
    for page in waiting.values():
        page.reachable = False
