"""Only what a reader can reach is indexed: on a real build (aibook, built by its own Docusaurus),
pages in no sidebar that no reached page links to, and unfilled template pages, are reported by
`ingest` and left out unless `--include-unlisted`; an unchanged site re-ingested adds nothing.

The extra pages are written into a copy of the cached build the way Docusaurus renders a doc in
no sidebar (no sidebar, no breadcrumbs), from the build's own intro page; the book's index is the
one embedded once per run (conftest `indexed_folder`), so only the new pages are embedded."""
from __future__ import annotations

import json
import shutil

import lxml.html
import pytest
from click.testing import CliRunner

from apps import copy_index
from built_sites import built_site, expected_routes, path_of
from places import MODELS_DIR, REPO
from server.cli import main
from server.ingest.pages import discover_pages
from server.ingest.reach.placeholders import is_placeholder
from server.ingest.site import detect_site
from server.ingest.reach.unlisted import readers_pages

pytestmark = pytest.mark.needs_build  # a Docusaurus build, made ahead (tests/builds_ahead.py)

SMALL_SITE = REPO / "tests" / "docusaurus-site"
REAL_TEXT = ("<p>Servo motors hold a joint at a commanded angle by comparing the shaft position from an encoder "
             "with the target and driving the motor with the difference. Gear reduction trades speed for torque.</p>"
             "<h2 id=\"choosing\">Choosing a servo</h2><p>Pick the stall torque from the load times the lever arm, "
             "then add a margin of about fifty percent for acceleration and friction.</p>")
TEMPLATE = ("<h2 id=\"objective\">Objective</h2><p>[Describe the objective of the lab]</p>"
            "<h2 id=\"materials\">Materials</h2><ul><li>Item 1</li><li>Item 2</li></ul>"
            "<h2 id=\"steps\">Steps</h2><ol><li>Step 1</li><li>Step 2</li></ol><p>TODO: add the results table.</p>")


def _doc_page(intro: bytes, doc_id: str, title: str, body: str) -> bytes:
    """The intro page turned into a doc that no sidebar lists (no sidebar, breadcrumbs or
    pagination), with TITLE and BODY as its text."""
    document = lxml.html.fromstring(intro)
    for el in document.xpath('//aside[contains(@class, "theme-doc-sidebar-container")]'
                             ' | //nav[contains(@class, "theme-doc-breadcrumbs")]'
                             ' | //nav[contains(@class, "pagination-nav")]'):
        el.getparent().remove(el)
    document.set("class", document.get("class").replace("docs-doc-id-intro", f"docs-doc-id-{doc_id}"))
    for link in document.xpath('//link[@rel="canonical"] | //link[@rel="alternate"][@hreflang]'):
        link.set("href", link.get("href").replace("/docs/intro", f"/docs/{doc_id}"))
    markdown = document.xpath('//div[contains(@class, "theme-doc-markdown")]')[0]
    for child in list(markdown):
        markdown.remove(child)
    for el in lxml.html.fragments_fromstring(f"<header><h1>{title}</h1></header>{body}"):
        markdown.append(el)
    return lxml.html.tostring(document, doctype="<!DOCTYPE html>", encoding="utf-8")


@pytest.fixture(scope="module")
def extended(tmp_path_factory):
    """A copy of aibook's build with: further-reading (no sidebar, linked from the home page),
    lab-template (an unfilled template linked from further-reading), orphan-notes (linked from
    nothing), orphan-appendix (linked from orphan-notes only) and blank (linked, no text)."""
    site_dir = built_site("aibook")
    build = tmp_path_factory.mktemp("aibook-extended") / "build"
    shutil.copytree(site_dir / "build", build)
    intro = (build / "docs" / "intro" / "index.html").read_bytes()
    pages = {
        "further-reading": ("Further reading on servos", REAL_TEXT + '<p><a href="/docs/lab-template">Lab</a></p>'),
        "lab-template": ("Lab X: Lab Title", TEMPLATE),
        "orphan-notes": ("Notes on actuators", REAL_TEXT + '<p><a href="./orphan-appendix">Appendix</a></p>'),
        "orphan-appendix": ("Appendix: servo tables", REAL_TEXT),
        "blank": ("Blank", ""),
    }
    for doc_id, (title, body) in pages.items():
        (build / "docs" / doc_id).mkdir()
        (build / "docs" / doc_id / "index.html").write_bytes(_doc_page(intro, doc_id, title, body))
    home = build / "index.html"
    links = '<a href="/docs/further-reading">Further reading</a><a href="/docs/blank">Blank</a></footer>'
    home.write_text(home.read_text(encoding="utf-8").replace("</footer>", links, 1), encoding="utf-8")
    return site_dir, build


def test_placeholders_are_forms_of_a_template_not_a_books_words():
    for line in ["Lesson Title", "Lab X: Lab Title", "Week N", "[Describe the objective]", "Objective 1",
                 "TODO: write this", "Lorem ipsum dolor sit amet", "{{ title }}", "Your Name"]:
        assert is_placeholder(line), line
    for line in ["Chapter 1: Introduction to Robotics and AI", "Setting the Window Title", "Mac OS X",
                 "Lab 3: Inverse Kinematics", "Question 4: what does a servo do?", "Step 1: install ROS 2"]:
        assert not is_placeholder(line), line


def test_unreachable_and_template_pages_are_found_in_the_build(extended):
    site_dir, build = extended
    found = discover_pages(detect_site(site_dir, build_dir=build)).pages
    kept, left_out = readers_pages(found)
    assert {(p.source_file, p.reason) for p in left_out} == {
        ("docs/orphan-notes/index.html", "unreachable"), ("docs/orphan-appendix/index.html", "unreachable"),
        ("docs/lab-template/index.html", "template")}
    kept_paths = {path_of(p.url) for p in kept}
    assert {"/docs/further-reading", "/docs/blank"} <= kept_paths
    assert set(expected_routes("aibook")) <= kept_paths  # every page of the real book stays
    assert len(readers_pages(found, include_unlisted=True)[0]) == len(found)


def test_a_build_whose_theme_marks_no_sidebar_keeps_every_page(extended, tmp_path):
    """Nothing tells what a sidebar lists (a theme without Docusaurus's class names): no page
    is taken for unreachable, and ingest says why."""
    site_dir, build = extended
    bare = tmp_path / "build"
    shutil.copytree(build, bare)
    for page in bare.rglob("*.html"):
        page.write_text(page.read_text(encoding="utf-8").replace("theme-doc-sidebar-container", "sidebar"),
                        encoding="utf-8")
    found = discover_pages(detect_site(site_dir, build_dir=bare))
    assert {(p.source_file, p.reason) for p in readers_pages(found.pages)[1]} == {
        ("docs/lab-template/index.html", "template")}
    assert any("no page of the build shows a sidebar" in note for note in found.notes)


def test_a_page_a_redirect_leads_to_is_reached(extended, tmp_path):
    """A page that moved leaves a redirect behind (`<meta http-equiv="refresh">`, as Docusaurus's
    client-redirects plugin writes it): a reader following a link to the old address arrives."""
    site_dir, build = extended
    moved = tmp_path / "build"
    shutil.copytree(build, moved)
    (moved / "docs" / "old-notes").mkdir()
    (moved / "docs" / "old-notes" / "index.html").write_text(
        '<!DOCTYPE html><html><head><meta charset="UTF-8">'
        '<meta http-equiv="refresh" content="0; url=/docs/orphan-notes"></head></html>', encoding="utf-8")
    home = moved / "index.html"
    link = '<a href="/docs/old-notes">Notes</a></footer>'
    home.write_text(home.read_text(encoding="utf-8").replace("</footer>", link, 1), encoding="utf-8")
    found = discover_pages(detect_site(site_dir, build_dir=moved)).pages
    assert {(p.source_file, p.reason) for p in readers_pages(found)[1]} == {
        ("docs/lab-template/index.html", "template")}  # orphan-notes and the appendix it links to are reached


def test_ingest_reports_them_leaves_them_out_and_adds_nothing_the_second_time(extended, indexed_folder, tmp_path):
    site_dir, build = extended
    folder = indexed_folder(site_dir)
    data = copy_index(folder, tmp_path / "data")
    env = {"TEXTBOOK_CHAT_DATA_DIR": str(data), "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR)}

    def ingest(*extra):
        result = CliRunner().invoke(main, ["ingest", str(site_dir), "--build-dir", str(build), *extra], env=env)
        assert result.exit_code == 0, result.output
        return result

    def report(*extra):  # the JSON report, after what the command says about the model
        out = ingest("--json", *extra).stdout
        return json.loads(out[out.index("{"):])

    first = ingest()
    assert "1 added, 0 updated" in first.stdout and "1 without text" in first.stdout  # further-reading; blank
    assert ("left out 2 pages no reader can reach (in no sidebar, linked from no page): "
            "docs/orphan-appendix/index.html, docs/orphan-notes/index.html; 1 unfilled template page: "
            "docs/lab-template/index.html; "
            "--include-unlisted indexes them") in first.stdout
    again = report()
    assert (again["added"], again["updated"], again["removed"], again["chunks_embedded"]) == (0, 0, 0, 0)
    assert sorted((p["source_file"], p["reason"]) for p in again["left_out"]) == [
        ("docs/lab-template/index.html", "template"), ("docs/orphan-appendix/index.html", "unreachable"),
        ("docs/orphan-notes/index.html", "unreachable")]
    listed = CliRunner().invoke(main, ["pages", "--json"], env=env)
    urls = {path_of(p["url"]) for p in json.loads(listed.stdout)}
    assert "/docs/further-reading" in urls and not urls & {"/docs/orphan-notes", "/docs/lab-template"}

    everything = report("--include-unlisted")
    assert (everything["added"], everything["left_out"]) == (3, [])
    assert report("--include-unlisted")["added"] == 0
    back = report()
    assert (back["added"], back["removed"]) == (0, 3)


@pytest.fixture
def listed_site(tmp_path):
    """The small test site read from its sources, with a sidebars file that lists three docs."""
    site = tmp_path / "site"
    shutil.copytree(SMALL_SITE, site, ignore=shutil.ignore_patterns("node_modules", "build", ".docusaurus"))
    (site / "sidebars.js").write_text("module.exports = { book: ['intro', 'sampling', 'filters'] };\n")
    docs = site / "docs"
    (docs / "intro.md").write_text((docs / "intro.md").read_text() + "\nSee also the [appendix](./appendix.md) "
                                   "and the [recap](./recap.md).\n")
    (docs / "recap.md").write_text("# Week 3 recap\n\n## Section 1\n\n[Summarize the week]\n\n- Item 1\n- Item 2\n\n"
                                   "One real sentence about sampling.\n")  # linked, but mostly slots
    (docs / "appendix.md").write_text("# Appendix\n\nSampling rates for common sensors are listed here.\n")
    (docs / "scratch.md").write_text("# Scratch notes\n\nA draft about filters nobody links to.\n")
    (docs / "lesson-template.md").write_text("---\ntitle: Lesson Title\n---\n\n## Learning Objectives\n\n"
                                             "- Objective 1\n- Objective 2\n\n## Section 1\n\nTODO\n")
    return site


def _left_out(site) -> set[tuple[str, str]]:
    return {(p.source_file, p.reason) for p in readers_pages(discover_pages(detect_site(site)).pages)[1]}


def test_from_sources_only_docs_nothing_names_are_left_out(listed_site):
    assert _left_out(listed_site) == {("scratch.md", "unreachable"), ("lesson-template.md", "template"),
                                      ("recap.md", "template")}
    (listed_site / "src" / "pages").mkdir(parents=True)
    (listed_site / "src" / "pages" / "index.js").write_text(
        "import Link from '@docusaurus/Link';\nexport default () => <Link to=\"/docs/scratch\">Notes</Link>;\n")
    assert _left_out(listed_site) == {("lesson-template.md", "template"), ("recap.md", "template")}  # home links it


def test_from_sources_nothing_is_unreachable_when_the_sites_code_is_not_there(listed_site):
    """A page uses a component the folder does not hold: it could link anywhere."""
    sampling = listed_site / "docs" / "sampling.md"
    sampling.write_text("import Quiz from '@site/src/components/Quiz';\n\n" + sampling.read_text())
    assert _left_out(listed_site) == {("lesson-template.md", "template"), ("recap.md", "template")}
