"""A Docusaurus book read from its build: the pages exactly as readers get them.

Every HTML file under the build folder whose `<html>` carries `docs-doc-page` is a doc page (of
any docs plugin instance, version and locale); tags, generated category indexes, search, 404,
blog and custom pages are not. For each page:

- URL: its `<link rel="canonical">` path (baseUrl, locale prefix and `trailingSlash` applied by
  Docusaurus itself), else the file's route under baseUrl; on the site URL given or configured.
- locale and version: the `docusaurus_locale` / `docusaurus_version` meta tags (`<html lang>`
  when missing); labels: the breadcrumbs (`nav.theme-doc-breadcrumbs`), or the title for a doc
  in no sidebar; title: the article's first `<h1>`; the doc id: the `docs-doc-id-…` class.
- source file: the doc's Markdown/MDX file, found by doc id and locale among the site's sources
  (the build's own file when the sources are not there).
- reading order: the chains of "next" pagination links, which follow the sidebar.
- listed / reachable: whether a sidebar lists it, and whether a reader can click their way to
  it from the site's root or a sidebar (reach.py).
- text: headings with their real ids, lists, tables, code, admonitions and tabs as rendered
  (html_text.py).
"""
from __future__ import annotations

from dataclasses import replace
from urllib.parse import quote, unquote, urlsplit

from lxml import etree

from server.ingest.html_text import heading_text, markdown_root, page_sections, parse_html
from server.ingest.javascript.language_branch import in_the_locales_language
from server.ingest.page import Discovery, Page, SkippedFile, file_hash
from server.ingest.reach import in_a_sidebar, links_of, reachable_files
from server.ingest.site import Site
from server.ingest.sources import docusaurus_source_pages
from server.ingest.urls import route_of_file
from server.text.scripts import scripts_of


def _meta(document, name: str) -> str:
    found = document.xpath(f'//meta[@name="{name}"]/@content')
    return found[0].strip() if found else ""


def _sources_by_doc(site: Site) -> dict[tuple[str, str], str]:
    """(locale, doc id) → source file, from the site's sources (read the no-build way)."""
    if site.site_dir is None or not site.content_root.is_dir() or site.content_root == site.site_dir:
        return {}
    try:
        pages = docusaurus_source_pages(replace(site, build_dir=None)).pages
    except (OSError, ValueError):
        return {}
    return {(p.locale, p.doc_id): p.source_file for p in pages}


def _versioned_source(site: Site, version: str, current_source: str) -> str:
    """A versioned doc's file: versioned_docs/version-X/<same path> when it is there."""
    if site.site_dir is None:
        return ""
    candidate = site.site_dir / "versioned_docs" / f"version-{version}" / current_source
    return candidate.relative_to(site.site_dir).as_posix() if candidate.is_file() else ""


def _source_text(site: Site, source: str) -> str:
    """A source file's text: the default locale's are under the docs folder, translations under the site."""
    for folder in (site.content_root, site.site_dir):
        if folder is not None and source and (folder / source).is_file():
            try:
                return (folder / source).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                return ""
    return ""


def _reading_order(pages: list[Page], next_of: dict[str, str]) -> list[Page]:
    by_path = {unquote(urlsplit(p.url).path): p for p in pages}
    targets = set(next_of.values())
    ordered: list[Page] = []
    seen: set[str] = set()
    # chains start at a page no other page points to, in file order, a sidebar's pages first (a
    # page in no sidebar has no pagination: it must not move the book's pages down the order)
    for page in sorted(pages, key=lambda p: not p.listed):
        path = unquote(urlsplit(page.url).path)
        if path in targets or path in seen:
            continue
        while path in by_path and path not in seen:
            seen.add(path)
            ordered.append(by_path[path])
            path = next_of.get(path, "")
    ordered.extend(p for p in pages if unquote(urlsplit(p.url).path) not in seen)  # loops
    return ordered


def built_pages(site: Site) -> Discovery:
    build = site.build_dir
    found = Discovery()
    sources = _sources_by_doc(site)
    pages: list[Page] = []
    files_of_pages: list[str] = []
    next_of: dict[str, str] = {}
    links: dict[str, list[str]] = {}  # every HTML file of the build → where it leads (for reach.py)
    in_sidebars: list[str] = []
    for path in sorted(build.rglob("*.html")):
        rel = path.relative_to(build).as_posix()
        data = path.read_bytes()
        links[rel] = []
        try:
            document = parse_html(data)
        except (etree.ParserError, ValueError) as exc:
            if b"docs-doc-page" in data:
                found.skipped.append(SkippedFile(rel, f"not readable HTML: {exc}"))
            continue
        links[rel] = links_of(document)
        listed = in_a_sidebar(document)
        if listed:
            in_sidebars.append(rel)
        classes = (document.get("class") or "").split()
        if "docs-doc-page" not in classes:
            continue
        root = markdown_root(document)
        if root is None:
            continue
        sections = page_sections(root)
        if not sections:
            continue  # nothing to read (a page of links only)
        canonical = document.xpath('//link[@rel="canonical"]/@href')
        route = unquote(urlsplit(canonical[0]).path) if canonical else route_of_file(rel, site.base_url)
        nxt = document.xpath('//a[contains(@class, "pagination-nav__link--next")]/@href')
        if nxt:
            next_of[route] = unquote(urlsplit(nxt[0]).path)
        locale = _meta(document, "docusaurus_locale") or (document.get("lang") or site.default_locale).split("-")[0]
        version = _meta(document, "docusaurus_version") or "current"
        doc = next((c[len("docs-doc-id-"):] for c in classes if c.startswith("docs-doc-id-")), "")
        h1 = document.xpath("//article//h1")
        title = heading_text(h1[0]) if h1 else (document.findtext(".//title") or doc or rel).split(" | ")[0].strip()
        crumbs = [heading_text(li) for li in document.xpath(
            '//nav[contains(@class, "theme-doc-breadcrumbs")]//li[contains(@class, "breadcrumbs__item")]')]
        labels = [c for c in crumbs if c] or [title]
        source = sources.get((locale, doc), "")
        if source and version != "current":
            source = _versioned_source(site, version, source)
        source_file = source or rel
        shown = sections  # a chapter with a branch per reader's language: the one its locale's readers see
        if source and scripts_of(locale):
            shown = in_the_locales_language(sections, _source_text(site, source), locale)
        is_default = locale == site.default_locale and version == "current"
        pages.append(Page(
            source_file=source_file,
            title=title,
            url=site.site_url + quote(route, safe="/-_.~%"),
            categories=labels[:-1],
            labels=labels,
            order=0,
            body="",
            file_hash=file_hash(etree.tostring(root) + "\x1f".join(labels).encode()
                                + (repr(shown).encode() if shown is not sections else b"")),
            anchor_style="docusaurus",
            doc_id=doc,
            locale=locale,
            version=version,
            key=source_file if is_default else f"{locale}@{version}:{source_file}",
            sections=shown,
            description=_meta(document, "description"),
            listed=listed,
        ))
        files_of_pages.append(rel)
    reached = reachable_files(links, in_sidebars, site.base_url, site.site_url)
    for page, rel in zip(pages, files_of_pages):
        page.reachable = rel in reached
    if pages and not any(p.listed for p in pages):  # a theme that marks no sidebar: nothing to go by
        found.notes.append("no page of the build shows a sidebar: every doc page is indexed, reachable or not")
        for page in pages:
            page.listed = page.reachable = True
    pages = _reading_order(pages, next_of)
    locales = {site.default_locale: 0}
    pages.sort(key=lambda p: (p.version != "current", locales.get(p.locale, 1)))  # stable: keeps reading order
    for n, page in enumerate(pages, 1):
        page.order = n
    found.pages = pages
    if not pages:
        found.notes.append(f"{build}: no Docusaurus doc pages found (is it a Docusaurus 3 build?)")
    return found
