"""The Docusaurus plugin as an npm package, and the sample book as a real Docusaurus site built
with it (`make sample-site`).

`npm pack` of widget/docusaurus-plugin makes a package that carries the built widget scripts; the
sample book, built with that tarball installed (tests/sample_site.py, cached by content under
~/.cache/textbook-chat/sites/), has the plugin's script tag on every page, the loader copied into
the build, and its doc pages at the very URLs `textbook-chat ingest sample-book` records.

Cost: a cold cache runs `npm ci` (one to two minutes, about 340 MB) and the build (10 to 30 s); a
warm one, nothing. Without npm the tests fail.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import tarfile
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest

from places import REPO, SAMPLE_BOOK
from sample_site import API, LOADER, PLUGIN, SITE_URL, STATIC, StaticSite, pack_plugin, sample_site
from server.ingest.pages import discover_pages
from server.ingest.site import detect_site

pytestmark = pytest.mark.needs_build  # a Docusaurus build, made ahead (tests/builds_ahead.py)

BOOK_ID = "sample-book"  # docusaurus.config.mjs projectName, the plugin's default bookId
WIDGET_SCRIPTS = {"widget.js", "widget-panel.js", "widget-insights.js"}


class _Page(HTMLParser):
    """The attributes of every <script> and every element id of a page (minified HTML leaves most
    attributes unquoted)."""

    def __init__(self, html: str):
        super().__init__()
        self.scripts: list[dict] = []
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "script":
            self.scripts.append(attributes)
        if tag == "a" and attributes.get("href"):
            self.links.append(attributes["href"])
        if attributes.get("id"):
            self.ids.add(attributes["id"])


def _widget_tags(html: str) -> list[dict]:
    return [s for s in _Page(html).scripts if re.search(r"/widget\.js(\?|$)", s.get("src") or "")]


@pytest.fixture(scope="module")
def built() -> Path:
    return sample_site()


@pytest.fixture(scope="module")
def tarball(tmp_path_factory) -> Path:
    """`npm pack` of the plugin's folder, in a copy laid out as the repository (the checkout is
    left as it is: pack's prepare would write dist/ into it)."""
    root = tmp_path_factory.mktemp("pack")
    shutil.copytree(PLUGIN, root / "widget" / "docusaurus-plugin", ignore=shutil.ignore_patterns("dist", "node_modules"))
    shutil.copytree(STATIC, root / "server" / "static", ignore=shutil.ignore_patterns("insights*"))
    return pack_plugin(root / "out", root / "widget" / "docusaurus-plugin")


def test_npm_pack_makes_a_package_with_the_built_widget_scripts(tarball):
    with tarfile.open(tarball) as tar:
        names = {m.name.removeprefix("package/") for m in tar.getmembers() if m.isfile()}
        manifest = json.load(tar.extractfile("package/package.json"))
        packed_loader = tar.extractfile("package/dist/widget.js").read()
    assert {"package.json", "index.js", "README.md", "LICENSE"} | {f"dist/{n}" for n in WIDGET_SCRIPTS} <= names, names
    assert not {n for n in names if n.startswith(("scripts/", "test", "node_modules/"))}, names
    assert manifest["name"] == "docusaurus-plugin-textbook-chat" and manifest["main"] == "index.js"
    assert re.fullmatch(r"\d+\.\d+\.\d+", manifest["version"]) and tarball.name.endswith(f"-{manifest['version']}.tgz")
    assert packed_loader == (STATIC / "widget.js").read_bytes()  # the loader as built for the server


def test_the_sample_site_installs_the_plugin_from_its_tarball(built):
    site = built.parents[1] / "sample-book"
    hidden_lock = json.loads((site / "node_modules" / ".package-lock.json").read_text())
    entry = hidden_lock["packages"]["node_modules/docusaurus-plugin-textbook-chat"]
    assert entry["resolved"].startswith("file:") and entry["resolved"].endswith(".tgz"), entry
    assert not (site / "node_modules" / "docusaurus-plugin-textbook-chat").is_symlink()
    # the sample book itself declares it as a dependency npm packs, and pins Docusaurus and React
    package = json.loads((SAMPLE_BOOK / "package.json").read_text())
    assert package["dependencies"]["docusaurus-plugin-textbook-chat"] == "file:../widget/docusaurus-plugin"
    assert "install-links=true" in (SAMPLE_BOOK / ".npmrc").read_text()
    for name in ("@docusaurus/core", "@docusaurus/preset-classic", "react", "react-dom"):
        assert re.fullmatch(r"\d+\.\d+\.\d+", package["dependencies"][name]), (name, package["dependencies"][name])
    lock = json.loads((SAMPLE_BOOK / "package-lock.json").read_text())
    assert lock["packages"][""]["dependencies"] == package["dependencies"]
    # an ES module config, and the book's folder holds no install nor build (tests copy it whole)
    assert (SAMPLE_BOOK / "docusaurus.config.mjs").is_file() and not (SAMPLE_BOOK / "docusaurus.config.js").exists()
    assert not {"node_modules", "build", ".docusaurus"} & {p.name for p in SAMPLE_BOOK.iterdir()}


def test_every_built_page_has_the_plugins_tag_and_the_loader_is_in_the_build(built):
    pages = sorted(built.rglob("*.html"))
    assert len(pages) >= 10  # the home page, 8 doc pages, 404
    for html in pages:
        tags = _widget_tags(html.read_text(encoding="utf-8"))
        assert len(tags) == 1, (html, tags)
        tag = tags[0]
        assert re.fullmatch(r"/textbook-chat/widget\.js\?v=[0-9a-f]{10}", tag["src"]), tag
        assert "defer" in tag and tag["data-api"] == API and tag["data-book-id"] == BOOK_ID, tag
        assert tag["data-site-url"] == SITE_URL, tag  # the config's url + baseUrl
    # the loader and the panel beside it, as built for the server
    for name in WIDGET_SCRIPTS:
        assert (built / "textbook-chat" / name).read_bytes() == (built.parents[1] / "server" / "static" / name).read_bytes()
    assert (built / LOADER).is_file()


def test_the_built_docs_are_the_pages_ingest_records(built):
    """`textbook-chat ingest sample-book` reads the sources: the real build serves each page at
    the path ingest gives it, with the heading anchors its citations link to."""
    site = detect_site(SAMPLE_BOOK)
    assert site.build_dir is None and site.base_url == "/" and site.project_name == BOOK_ID
    pages = discover_pages(site).pages
    assert len(pages) == 8
    built_docs = {"/" + p.parent.relative_to(built).as_posix() for p in (built / "book" / "docs").rglob("index.html")}
    recorded = {re.sub(r"^http://127\.0\.0\.1:8000|/$", "", p.url) for p in pages}
    assert built_docs == recorded
    anchors = {"/book/docs/foundations/sampling-and-aliasing": "nyquist-shannon",
               "/book/docs/practice/frequency-analysis": "leakage",
               "/book/docs/foundations/quantization-and-bit-depth": "the-602n--176-db-rule-where-does-it-come-from"}
    for path, anchor in anchors.items():
        assert anchor in _Page((built / path.lstrip("/") / "index.html").read_text(encoding="utf-8")).ids, (path, anchor)
    # the home page leads into the book
    home = _Page((built / "index.html").read_text(encoding="utf-8"))
    assert "/book/docs/intro" in home.links


def test_the_static_server_serves_routes_as_a_host_does_with_the_pages_pointed_at_another_api(built):
    site = StaticSite(built, "http://127.0.0.1:9")
    try:
        with urllib.request.urlopen(site.url + "/book/docs/intro") as response:  # no trailing slash, no redirect
            assert response.status == 200 and response.url == site.url + "/book/docs/intro"
            tag = _widget_tags(response.read().decode())[0]
        assert tag["data-api"] == "http://127.0.0.1:9" and tag["data-site-url"] == SITE_URL
        with urllib.request.urlopen(site.url + tag["src"]) as response:
            assert response.headers["Content-Type"].startswith(("application/javascript", "text/javascript"))
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(site.url + "/book/docs/nowhere")
        assert missing.value.code == 404
        with pytest.raises(urllib.error.HTTPError) as outside:
            urllib.request.urlopen(site.url + "/../../sample-book/package.json")
        assert outside.value.code == 404
    finally:
        site.close()


def test_make_sample_site_builds_it_with_this_module_into_build_sample_site():
    dry = subprocess.run(["make", "-n", "-o", "widget", "sample-site"], cwd=REPO, capture_output=True, text=True,
                         timeout=60)
    assert dry.returncode == 0, dry.stderr
    assert "tests/sample_site.py --out build/sample-site" in dry.stdout, dry.stdout
    assert re.search(r"^\.PHONY:.*\bsample-site\b", (REPO / "Makefile").read_text(), re.MULTILINE)
