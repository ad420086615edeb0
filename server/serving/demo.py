"""A demo site: the book's pages as plain HTML at the URLs the index records, with the widget.

So a citation link from the widget opens a real page and the text fragment lands on the
passage. Good for trying the product with `make run`; a real site is built by Docusaurus.
"""
from __future__ import annotations

import base64
import hashlib
import html
import re
from urllib.parse import urlparse

from flask import Flask, Response, redirect
from markdown_it import MarkdownIt

from server.ingest.anchors import Slugger
from server.ingest.html_text import Block, Heading
from server.ingest.page import Page
from server.ingest.pages import discover_pages
from server.ingest.site import detect_site

_md = MarkdownIt("commonmark", {"html": False}).enable("table")

_TEMPLATE = """<!doctype html>
<html lang="{lang}" dir="{direction}" data-theme="light"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="docusaurus_locale" content="{lang}">
<meta name="docusaurus_version" content="{version}">
<link rel="icon" href="data:,">
<title>{title} | {book}</title>
<style>
  body {{ font: 17px/1.6 system-ui, sans-serif; margin: 0; display: flex; color: #1c1e21; }}
  nav {{ width: 260px; padding: 1rem; border-right: 1px solid #ddd; font-size: 15px; flex-shrink: 0; }}
  nav a {{ display: block; padding: .2rem 0; color: #2e5aac; text-decoration: none; }}
  nav a.active {{ font-weight: 600; }}
  main {{ max-width: 760px; padding: 1rem 2rem 6rem; }}
  pre {{ background: #f5f6f7; padding: 1rem; overflow-x: auto; }}
  html[data-theme=dark] body {{ background: #1b1b1d; color: #e3e3e3; }}
  html[data-theme=dark] pre {{ background: #242526; }}
  @media (max-width: 700px) {{ nav {{ display: none; }} main {{ padding: 1rem; }} }}
</style></head>
<body><nav aria-label="Book"><strong>{book}</strong>{nav}</nav>
<main><article>{body}</article></main>
<script src="/widget.js" data-api="" data-title="Ask {book_attr}" data-book-id="{book_id}" defer></script>
</body></html>"""


# languages written right to left (a page in one is laid out so, as Docusaurus lays it out)
RIGHT_TO_LEFT = frozenset("ar arc ckb dv fa he ks ps sd ug ur yi".split())


def _style_hash(template: str) -> str:
    css = re.search(r"<style>(.*?)</style>", template, re.DOTALL).group(1).replace("{{", "{").replace("}}", "}")
    return "'sha256-" + base64.b64encode(hashlib.sha256(css.encode()).digest()).decode() + "'"


# the page's own style (by its hash) and scripts from this server only; the widget styles
# itself with constructed stylesheets, which a style-src policy does not block
PAGE_POLICY = (f"default-src 'self'; script-src 'self'; style-src 'self' {_style_hash(_TEMPLATE)}; "
               "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")


def render_page(page: Page) -> str:
    """Markdown to HTML with the same heading ids the index used for its anchors; a page read from a
    site's build (its JSX rendered), its headings and blocks as the index read them."""
    if page.sections is not None and not page.body:
        return "\n".join(_rendered(part) for part in page.sections)
    tokens = _md.parse(page.body)
    slugger = Slugger(page.anchor_style)
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            inline = tokens[i + 1]
            display, anchor = slugger.anchor(inline.content)
            token.attrSet("id", anchor)
            inline.content = display
            inline.children = _md.parseInline(display)[0].children
    return _md.renderer.render(tokens, _md.options, {})


def _rendered(part: Heading | Block) -> str:
    if isinstance(part, Heading):
        anchor = f' id="{html.escape(part.anchor, quote=True)}"' if part.anchor else ""
        return f"<h{part.level}{anchor}>{html.escape(part.text)}</h{part.level}>"
    if part.is_code:  # fenced as the index holds it ("```python …```"), or bare
        code = re.sub(r"^\s*```[^\n]*\n|\n?```\s*$", "", part.text)
        return f"<pre><code>{html.escape(code)}</code></pre>"
    return _md.render(part.text)


def register_demo(app: Flask, book_path: str, *, book_id: str | None = None) -> list[str]:
    from server.ingest.indexer import default_book_id

    site = detect_site(book_path)
    pages = discover_pages(site).pages
    book_id = book_id or default_book_id(site)
    paths = {urlparse(p.url).path.rstrip("/") or "/": p for p in pages}

    def nav(active: Page) -> str:
        """The pages in the active page's language and docs version."""
        return "".join(f'<a href="{html.escape(urlparse(p.url).path)}"{" class=active" if p is active else ""}>'
                       f"{html.escape(p.title)}</a>" for p in pages
                       if (p.locale, p.version) == (active.locale, active.version))

    def view(path: str = ""):
        page = paths.get("/" + path.rstrip("/"))
        if page is None:
            return Response("Not found", status=404, mimetype="text/plain")
        # the page's language and docs version as Docusaurus renders them: the widget sends them, and the
        # answer cites pages in the reader's language
        direction = "rtl" if page.locale.split("-")[0].lower() in RIGHT_TO_LEFT else "ltr"
        return Response(_TEMPLATE.format(lang=html.escape(page.locale, quote=True), direction=direction,
                                         version=html.escape(page.version, quote=True),
                                         title=html.escape(page.title), book=html.escape(site.title),
                                         book_attr=html.escape(site.title, quote=True), book_id=html.escape(book_id),
                                         nav=nav(page), body=render_page(page)), mimetype="text/html",
                        headers={"Content-Security-Policy": PAGE_POLICY})

    prefixes = {p.strip("/").split("/")[0] for p in paths if p != "/"}
    for prefix in prefixes:
        app.add_url_rule(f"/{prefix}/<path:rest>", f"demo_{prefix}", lambda rest, _p=prefix: view(f"{_p}/{rest}"))
        if f"/{prefix}" in paths:  # a page at the top (an mdBook's "/01-about.html")
            app.add_url_rule(f"/{prefix}", f"demo_{prefix}_page", lambda _p=prefix: view(_p))
    if "/" in paths:  # docs served at the site's root (routeBasePath "/"): the home is that page
        app.add_url_rule("/", "demo_home", lambda: view(""))
    else:
        first = urlparse(pages[0].url).path if pages else "/health"
        app.add_url_rule("/", "demo_home", lambda: redirect(first))
    return sorted(paths)
