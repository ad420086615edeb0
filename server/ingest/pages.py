"""Discover a book's pages in reading order, each with its title, place in the book and URL.

A Docusaurus site with a build is read from its rendered pages (built.py), one without from its
sources (sources.py); an mdBook from its SUMMARY.md (mdbook.py). What they find: page.py."""
from __future__ import annotations

from server.ingest.built import built_pages
from server.ingest.mdbook import mdbook_pages
from server.ingest.page import Discovery
from server.ingest.site import Site
from server.ingest.sources import docusaurus_source_pages


def discover_pages(site: Site) -> Discovery:
    if site.kind == "mdbook":
        return mdbook_pages(site)
    if site.build_dir is not None:
        return built_pages(site)
    return docusaurus_source_pages(site)
