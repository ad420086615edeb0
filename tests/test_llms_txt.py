"""llms.txt and llms-full.txt (llmstxt.org) of every development book.

The format is checked by a strict reading of llmstxt.org: one H1 (the title), a blockquote
summary, details without headings, then H2 sections holding only `- [name](url): description`
lines. For each of the four development books, every page ingest would index is listed with
its URL (for the two Docusaurus builds, the URL a real build served, expected-routes.json) and
llms-full.txt holds every passage of every page, in reading order. Those four outlines are made
from the chunks ingest writes (the chunker, with the model's tokenizer) without embedding them:
embedding the Rust book alone would take minutes, and nothing in llms.txt depends on vectors.
The endpoints and the CLI are then checked over real indexes (the physical-ai and sample-book
session indexes).
"""
from __future__ import annotations

import re
from urllib.parse import unquote

import pytest
from click.testing import CliRunner

from built_sites import built_site, expected_routes, path_of
from places import PHYSICAL_AI, RUST_BOOK
from server.library.llms_txt import llms_full_txt, llms_txt
from server.library.book_outline import outline_of
from server.cli import main
from server.ingest.chunker import chunk_page
from server.ingest.indexer import default_book_id
from server.ingest.outline import build_outline
from server.ingest.pages import discover_pages
from server.ingest.site import detect_site
from server.ingest.report import pages_report

pytestmark = pytest.mark.needs_build  # a Docusaurus build, made ahead (tests/builds_ahead.py)

BOOKS = {"physical-ai-book": lambda: PHYSICAL_AI, "rust-book": lambda: RUST_BOOK,
         "aibook": lambda: built_site("aibook"), "physical-ai-i18n": lambda: built_site("physical-ai-i18n")}
_LINK = re.compile(r"^- \[(?P<name>(?:\\.|[^\]\\])+)\]\((?P<url>[^\s()]+)\)(?:: (?P<description>\S.*))?$")


def parse_llms_txt(text: str) -> dict:
    """llmstxt.org's structure, strictly: fails on anything out of place."""
    lines = text.split("\n")
    assert lines[0].startswith("# ") and lines[0][2:].strip(), "an H1 with the title comes first"
    assert [line for line in lines if line.startswith("# ")] == [lines[0]], "one H1 only"
    at = 1
    while at < len(lines) and not lines[at].strip():
        at += 1
    summary = lines[at][2:] if lines[at].startswith("> ") else None
    at += 1 if summary is not None else 0
    details, sections, current = [], {}, None
    for line in lines[at:]:
        if line.startswith("## "):
            current = line[3:].strip()
            assert current and current not in sections, f"a named, unrepeated section: {line!r}"
            sections[current] = []
        elif current is None:
            assert not line.startswith("#"), f"no other heading before the sections: {line!r}"
            details.append(line)
        elif line.strip():
            link = _LINK.match(line)
            assert link, f"a section holds only '- [name](url): description' lines, not {line!r}"
            sections[current].append(link.groupdict())
    assert sections and all(sections.values()), "sections, each with links"
    return {"title": lines[0][2:], "summary": summary, "details": "\n".join(details).strip(), "sections": sections}


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module", params=list(BOOKS))
def development_book(request, embedder):
    site = detect_site(BOOKS[request.param]())
    book_id = default_book_id(site)
    pages = discover_pages(site).pages
    chunks = [chunk for page in pages
              for chunk in chunk_page(page, book_id=book_id, book_title=site.title, count_tokens=embedder.count_tokens)]
    return request.param, site, chunks, build_outline(site, pages, book_id)


def test_llms_txt_of_each_development_book_lists_every_page_with_its_real_url(development_book):
    name, site, chunks, recorded = development_book
    parsed = parse_llms_txt(llms_txt(outline_of(default_book_id(site), chunks, recorded.to_dict())))
    assert parsed["title"] == site.title and parsed["summary"] and parsed["details"]
    links = [link for links in parsed["sections"].values() for link in links]
    pages = pages_report(chunks)
    assert [unquote(link["url"]) for link in links] == [page["url"] for page in pages]  # each once, reading order
    assert [link["name"].replace("\\", "") for link in links] == [page["title"] for page in pages]
    assert sum(bool(link["description"]) for link in links) >= 0.8 * len(links), "pages say what they hold"
    if name in ("aibook", "physical-ai-i18n"):  # the pages a real Docusaurus build served
        assert {path_of(link["url"]) for link in links} == set(expected_routes(name))
    descriptions = {page.url: page.description for page in recorded.pages}
    assert all(link["description"] == descriptions[unquote(link["url"])] for link in links if link["description"])
    named = {part.name for part in recorded.parts_in()}  # the recorded outline's parts, by name
    assert named <= set(parsed["sections"]), named - set(parsed["sections"])


def test_llms_full_txt_of_each_development_book_holds_every_page_text_in_order(development_book):
    name, site, chunks, recorded = development_book
    full = llms_full_txt(outline_of(default_book_id(site), chunks, recorded.to_dict()))
    flat = _words(full)
    missing = [(c.url, c.content[:80]) for c in chunks if _words(c.content) not in flat]
    assert missing == []
    starts = [full.index(f"\nSource: {page['url']}\n") for page in pages_report(chunks)]
    assert starts == sorted(starts), "pages in reading order"


@pytest.fixture
def physical_ai_client(physical_ai, chat_app):
    return chat_app(physical_ai).test_client()


def test_the_served_llms_txt_lists_every_indexed_page(physical_ai, physical_ai_client):
    response = physical_ai_client.get("/llms.txt")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    parsed = parse_llms_txt(response.get_data(as_text=True))
    indexed = pages_report(physical_ai.store.all_chunks())
    assert [unquote(link["url"]) for links in parsed["sections"].values() for link in links] == \
        [page["url"] for page in indexed]
    book_id = indexed[0]["book_id"]
    assert physical_ai_client.get(f"/books/{book_id}/llms.txt").get_data() == response.get_data()


def test_the_served_llms_full_txt_holds_every_indexed_passage(physical_ai, physical_ai_client):
    chunks = physical_ai.store.all_chunks()
    response = physical_ai_client.get(f"/books/{chunks[0].book_id}/llms-full.txt")
    assert response.status_code == 200
    flat = _words(response.get_data(as_text=True))
    assert [c.url for c in chunks if _words(c.content) not in flat] == []
    assert physical_ai_client.get("/llms-full.txt").get_data() == response.get_data()


def test_an_unknown_book_is_a_404(physical_ai_client):
    response = physical_ai_client.get("/books/no-such-book/llms.txt")
    assert response.status_code == 404 and response.get_json()["code"] == "UNKNOWN_BOOK"


def test_llms_txt_command_writes_both_files_for_a_static_host(sample_book, tmp_path, monkeypatch):
    monkeypatch.setenv("TEXTBOOK_CHAT_DATA_DIR", str(sample_book.settings.data_dir))  # the index ingest published
    build = tmp_path / "site" / "build"
    result = CliRunner().invoke(main, ["llms-txt", "--out", str(build)])
    assert result.exit_code == 0, result.output
    chunks = sample_book.store.all_chunks()
    outline = outline_of(chunks[0].book_id, chunks, sample_book.store.outline(chunks[0].book_id))
    assert (build / "llms.txt").read_text(encoding="utf-8") == llms_txt(outline)
    assert (build / "llms-full.txt").read_text(encoding="utf-8") == llms_full_txt(outline)
    assert list(parse_llms_txt(llms_txt(outline))["sections"]) == [
        "Welcome to the Signals and Systems Primer", "Module 1: Foundations", "Module 2: Practice"]
    # an index written before outlines were recorded: parts from the pages' labels
    assert llms_txt(outline_of(chunks[0].book_id, chunks)) == llms_txt(outline)

    result = CliRunner().invoke(main, ["llms-txt", "--out", str(build), "--book-id", "other"])
    assert result.exit_code == 1 and "No book with id 'other'" in result.output
