"""Docusaurus sources read without a build, checked against what a real build served.

`expected-routes.json` beside each corpus site lists every doc page a real Docusaurus build
produced (URL, locale, title, breadcrumbs, heading ids). Reading only the sources, every page
URL and every section anchor in the index must exist there, and labels must equal the
breadcrumbs. What the sources cannot know is stated where it is checked: physical-ai-i18n's
chapters are JSX, whose headings get no id in the build, so their chunks link to the page
(never to a guessed fragment); docs outside every sidebar have no breadcrumbs, so their label
is their title.
"""
from __future__ import annotations

from urllib.parse import unquote, urlsplit

import pytest

from built_sites import SITES, expected_routes, path_of
from places import CORPORA
from server.ingest.chunker import chunk_page
from server.ingest.pages import discover_pages
from server.ingest.site import detect_site

@pytest.fixture(scope="module", params=SITES)
def source_site(request):
    site = detect_site(CORPORA / request.param)
    assert site.build_dir is None, "the corpora folders hold sources only"
    return request.param, site, discover_pages(site)


def test_every_built_page_and_no_other_is_found_in_the_sources(source_site):
    name, _, found = source_site
    assert {path_of(p.url) for p in found.pages} == set(expected_routes(name))
    assert not found.skipped


def test_titles_locales_source_files_and_labels_match_the_build(source_site):
    name, site, found = source_site
    routes = expected_routes(name)
    for page in found.pages:
        route = routes[path_of(page.url)]
        assert (page.title, page.locale) == (route["title"], route["locale"]), page.url
        assert page.labels == (route["breadcrumbs"] or [route["title"]]), page.url  # no breadcrumbs: its title
        if route["locale"] == site.default_locale:
            assert page.source_file == route["source_file"]
        else:  # a translation is named from the site folder, an untranslated page by its default-locale file
            assert page.source_file in (route["source_path"], route["source_file"])


def test_every_chunk_links_to_a_page_and_anchor_of_the_build(source_site, embedder):
    name, site, found = source_site
    routes = expected_routes(name)
    anchors_linked = 0
    for page in found.pages:
        route = routes[path_of(page.url)]
        ids = {a["id"] for a in route["anchors"]}
        for chunk in chunk_page(page, book_id=name, book_title=site.title, count_tokens=embedder.count_tokens):
            parts = urlsplit(chunk.url)
            assert unquote(parts.path) == route["url"]
            if parts.fragment:
                anchors_linked += 1
                assert unquote(parts.fragment) in ids, chunk.url
            assert chunk.labels == page.labels and chunk.locale == route["locale"]
    if name == "aibook":
        assert anchors_linked > 100  # sections too small for a chunk of their own share their neighbour's
    else:  # JSX headings have no id: only the 8 Markdown template pages per locale can be linked into
        assert anchors_linked > 0


def test_the_sources_of_an_unseen_site_keep_version_like_prefixes_and_trailing_slash_rules(tmp_path):
    site_dir = tmp_path / "site"
    (site_dir / "docs" / "module-1" / "1.2-ros2-intro").mkdir(parents=True)
    (site_dir / "docusaurus.config.js").write_text(
        "export default { title: 'Robots', url: 'https://x.org', baseUrl: '/robots-textbook/', "
        "projectName: 'robots-textbook', trailingSlash: false };\n")
    (site_dir / "sidebars.js").write_text(
        "module.exports = { s: [{type: 'category', label: 'Module 1 — Foundations', "
        "items: [{type: 'doc', id: 'module-1/1.2-ros2-intro/overview', label: '1.2 ROS 2 Architecture'}]}] };\n")
    (site_dir / "docs" / "module-1" / "1.2-ros2-intro" / "overview.md").write_text("# Overview\n\n## Nodes\n\nText.\n")
    (site_dir / "docs" / "module-1" / "index.md").write_text("# Module 1\n\nAbout.\n")
    site = detect_site(site_dir)
    pages = {p.doc_id: p for p in discover_pages(site).pages}
    assert site.project_name == "robots-textbook"
    assert pages["module-1/1.2-ros2-intro/overview"].url == "https://x.org/robots-textbook/docs/module-1/1.2-ros2-intro/overview"
    assert pages["module-1/1.2-ros2-intro/overview"].labels == ["Module 1 — Foundations", "1.2 ROS 2 Architecture"]
    assert pages["module-1/index"].url == "https://x.org/robots-textbook/docs/module-1"  # trailingSlash: false


def test_a_sidebars_file_that_is_code_falls_back_to_folder_labels_and_says_so(tmp_path):
    site_dir = tmp_path / "site"
    (site_dir / "docs" / "01-basics").mkdir(parents=True)
    (site_dir / "docusaurus.config.js").write_text("module.exports = { title: 'B', baseUrl: '/' };\n")
    (site_dir / "sidebars.js").write_text("const items = require('./items');\nmodule.exports = { s: items() };\n")
    (site_dir / "docs" / "01-basics" / "_category_.json").write_text('{"label": "The Basics"}')
    (site_dir / "docs" / "01-basics" / "02-first.md").write_text("---\nsidebar_label: First steps\n---\n# First\n\nText.\n")
    found = discover_pages(detect_site(site_dir))
    assert [(p.url, p.labels) for p in found.pages] == [("/docs/basics/first", ["The Basics", "First steps"])]
    assert found.notes and "sidebars.js is code" in found.notes[0]


def test_a_folder_without_a_category_file_is_labelled_by_its_own_page_as_docusaurus_labels_it(tmp_path):
    """Docusaurus's autogenerated sidebar names a folder by its `_category_` label, else by its own
    page's sidebar_label or title (index.md, README.md, a file named like the folder), else by the
    folder's name: a source label reads "Recursión por la Cola", not "tail"."""
    docs = tmp_path / "site" / "docs"
    for folder in ("fp/tail", "fp/trampoline", "testing/pbt", "basics"):
        (docs / folder).mkdir(parents=True)
    (tmp_path / "site" / "docusaurus.config.js").write_text("module.exports = { title: 'B', baseUrl: '/' };\n")
    (docs / "fp" / "index.md").write_text("---\ntitle: Programación funcional\nsidebar_label: FP\n---\nText.\n")
    (docs / "fp" / "tail" / "tail.mdx").write_text("---\ntitle: Recursión por la Cola\n---\nText.\n")
    (docs / "fp" / "tail" / "examples.md").write_text("# Ejemplos\n\nText.\n")
    (docs / "fp" / "trampoline" / "one.md").write_text("# Un trampolín\n\nText.\n")
    (docs / "testing" / "pbt" / "README.md").write_text("import X from '@site/x'\n\n# Property-Based Testing\n\nText.\n")
    (docs / "basics" / "_category_.json").write_text('{"label": "The Basics"}')
    (docs / "basics" / "index.md").write_text("# Basics page\n\nText.\n")
    pages = {p.doc_id: p.labels for p in discover_pages(detect_site(tmp_path / "site")).pages}
    assert pages["fp/tail/tail"] == ["FP", "Recursión por la Cola"]  # the folder's own page ends with the folder's label
    assert pages["fp/tail/examples"] == ["FP", "Recursión por la Cola", "Ejemplos"]
    assert pages["fp/trampoline/one"] == ["FP", "trampoline", "Un trampolín"]  # no page of its own: its name
    assert pages["testing/pbt/README"] == ["testing", "Property-Based Testing"]  # the title an h1 gives
    assert pages["basics/index"] == ["The Basics"]


def test_the_sidebars_file_the_config_names_is_read_wherever_it_lies(tmp_path):
    """dibs-es's config imports "./config/presets", which imports "./docs", which names
    `path.resolve(__dirname, "../sidebars.ts")`: its breadcrumbs ("Unidad 6: Programación Funcional")
    were taken from its folders instead, since no sidebars file lies beside the config."""
    site_dir = tmp_path / "site"
    (site_dir / "docs" / "fp").mkdir(parents=True)
    (site_dir / "config" / "presets").mkdir(parents=True)
    (site_dir / "docusaurus.config.ts").write_text(
        'import presets from "./config/presets";\nexport default { title: "B", baseUrl: "/", presets };\n')
    (site_dir / "config" / "presets" / "index.ts").write_text('import docs from "./docs";\nexport default [docs];\n')
    (site_dir / "config" / "presets" / "docs.ts").write_text(
        'import path from "path";\nconst sidebarPath = path.resolve(__dirname, "../sidebars.ts");\n'
        'export default { sidebarPath };\n')
    (site_dir / "config" / "sidebars.ts").write_text(
        'const sidebars = { s: [{type: "category", label: "Unidad 6: Programación Funcional", '
        'items: ["fp/pure"]}] };\nexport default sidebars;\n')
    (site_dir / "docs" / "fp" / "pure.md").write_text("---\ntitle: Funciones puras\n---\nText.\n")
    (site_dir / "docs" / "fp" / "other.md").write_text("# Otra\n\nText.\n")
    site = detect_site(site_dir)
    assert site.sidebars_file == (site_dir / "config" / "sidebars.ts").resolve()
    pages = {p.doc_id: (p.labels, p.listed) for p in discover_pages(site).pages}
    assert pages["fp/pure"] == (["Unidad 6: Programación Funcional", "Funciones puras"], True)
    assert pages["fp/other"] == (["Otra"], False)  # in no sidebar: no breadcrumbs, as the build shows it
