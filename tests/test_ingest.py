"""Ingesting real books into a real local Qdrant with the real model."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from places import RUST_BOOK
from server.cli import main
from server.ingest.indexer import ingest
from server.ingest.site import detect_site
from server.store import EmbeddingMismatchError, open_store

SITE = "https://AreebaZafarChohan.github.io"

# Checked by hand against the Docusaurus docs-plugin rules (prefixes stripped, routeBasePath "docs").
EXPECTED_URLS = {
    "intro.md": f"{SITE}/docs/intro",
    "component-usage.md": f"{SITE}/docs/component-usage",
    "01-module-ros/01-intro-to-ros2.md": f"{SITE}/docs/module-ros/intro-to-ros2",
    "01-module-ros/02-nodes-topics-services.md": f"{SITE}/docs/module-ros/nodes-topics-services",
    "01-module-ros/intro-to-ros2-personalized.mdx": f"{SITE}/docs/module-ros/intro-to-ros2-personalized",
    "01-module-ros/quizzes/02-quiz-nodes-topics-services.md": f"{SITE}/docs/module-ros/quizzes/quiz-nodes-topics-services",
    "03-module-nvidia-isaac/02-isaac-ros-vslam.md": f"{SITE}/docs/module-nvidia-isaac/isaac-ros-vslam",
    "05-capstone-project/try-with-ai/01-ai-autonomous-humanoid.md": f"{SITE}/docs/capstone-project/try-with-ai/ai-autonomous-humanoid",
}


def _page_urls(chunks):
    return {c.source_file: c.url.split("#")[0] for c in chunks}


def test_page_urls_match_docusaurus(physical_ai):
    urls = _page_urls(physical_ai.store.all_chunks())
    for source_file, expected in EXPECTED_URLS.items():
        assert urls[source_file] == expected


def test_heading_anchor_in_chunk_url(physical_ai):
    chunks = [c for c in physical_ai.store.all_chunks() if c.source_file == "01-module-ros/02-nodes-topics-services.md"]
    anchors = {c.url.split("#", 1)[1] for c in chunks if "#" in c.url}
    assert "topics-the-asynchronous-data-streams-publishsubscribe" in anchors


def test_sample_book_routes_use_config_base_url_slug_and_id(sample_book):
    urls = _page_urls(sample_book.store.all_chunks())
    base = "http://127.0.0.1:8000/book/docs"
    assert urls["intro.md"] == f"{base}/intro"
    assert urls["01-foundations/index.md"] == f"{base}/foundations/"
    assert urls["01-foundations/02-quantization.md"] == f"{base}/foundations/quantization-and-bit-depth"
    assert urls["02-practice/03-working-with-audio.md"] == f"{base}/practice/audio-toolkit"
    assert urls["02-practice/02-digital-filters.mdx"] == f"{base}/practice/digital-filters"
    assert any(c.url.endswith("#nyquist-shannon") for c in sample_book.store.all_chunks())


@pytest.mark.parametrize("book_fixture, mdx", [
    ("physical_ai", "01-module-ros/intro-to-ros2-personalized.mdx"),
    ("sample_book", "02-practice/02-digital-filters.mdx"),
])
def test_mdx_page_has_no_jsx_noise(request, book_fixture, mdx):
    book = request.getfixturevalue(book_fixture)
    chunks = [c for c in book.store.all_chunks() if c.source_file == mdx]
    assert chunks
    text = "\n".join(c.content for c in chunks)
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    assert not re.search(r"</?[A-Z][A-Za-z]*", prose), prose
    assert not re.search(r"^(import|export) ", prose, re.M)
    assert "console.log" not in prose and "=>" not in prose


def test_mdx_prose_inside_components_is_kept(sample_book):
    raw = (sample_book.site.content_root / "02-practice/02-digital-filters.mdx").read_text()
    inside = re.search(r"<TabItem[^>]*>\s*(.+?)\s*</TabItem>", raw, re.S).group(1)
    first_words = " ".join(inside.split()[:6])
    text = " ".join(" ".join(c.content for c in sample_book.store.all_chunks()).split())
    assert first_words in text


@pytest.mark.parametrize("book_fixture", ["physical_ai", "sample_book"])
def test_no_chunk_splits_a_code_fence(request, book_fixture):
    book = request.getfixturevalue(book_fixture)
    fenced = 0
    for chunk in book.store.all_chunks():
        fences = re.findall(r"^ {0,3}(```|~~~)", chunk.content, re.M)
        assert len(fences) % 2 == 0, (chunk.source_file, chunk.heading)
        fenced += bool(fences)
    assert fenced >= 3  # the books' code is in the index, fenced: there was something to split


def test_long_code_block_stays_whole(sample_book):
    raw = (sample_book.site.content_root / "02-practice/01-frequency-analysis.md").read_text()
    longest = max(re.findall(r"```python\n(.*?)```", raw, re.S), key=len)
    assert longest.count("\n") >= 30
    assert any(longest.strip() in c.content for c in sample_book.store.all_chunks())


@pytest.mark.parametrize("book_fixture", ["physical_ai", "sample_book"])
def test_every_chunk_has_full_metadata(request, book_fixture):
    book = request.getfixturevalue(book_fixture)
    chunks = book.store.all_chunks()
    assert len(chunks) == book.report.chunks_total > 0
    pages = set()
    for c in chunks:
        assert c.chunk_id and c.content.strip() and c.content_hash and c.book_id and c.book_title
        assert (book.site.content_root / c.source_file).is_file()
        assert c.url.startswith("http") and c.chapter and c.section and c.heading
        assert c.section_hierarchy[0] == c.chapter and c.page >= 1
        assert c.labels[-1] in c.source_location and (c.heading in c.source_location or c.heading == c.chapter)
        assert c.source_location.startswith(c.labels[0]) and c.locale == "en" and c.version == "current"
        if len(c.labels) > 1:  # in a sidebar category (a doc outside every sidebar has only its own label)
            assert c.module == c.labels[0]
        assert c.citation.startswith(f'"{c.heading},"') and c.book_title in c.citation and c.url in c.citation
        assert c.created_at and c.updated_at
        assert c.token_count <= 256 or "```" in c.content  # only an unsplittable fence may overflow
        pages.add((c.page, c.source_file))
    assert len({p for p, _ in pages}) == len({f for _, f in pages})  # one reading-order number per page


def test_reading_order_follows_sidebar_positions(sample_book):
    order = {c.source_file: c.page for c in sample_book.store.all_chunks()}
    assert order["intro.md"] == 1
    assert order["01-foundations/index.md"] < order["01-foundations/01-sampling-and-aliasing.md"] \
        < order["01-foundations/02-quantization.md"] < order["02-practice/01-frequency-analysis.md"]


def test_second_ingest_embeds_nothing(physical_ai, embedder):
    report = ingest(physical_ai.site, physical_ai.store, embedder, progress=False)
    assert report.chunks_embedded == 0
    assert report.unchanged == len({c.source_file for c in physical_ai.store.all_chunks()})
    assert (report.added, report.updated, report.removed) == (0, 0, 0)


def test_edit_delete_and_broken_front_matter(sample_copy, store, embedder):
    site = detect_site(sample_copy)
    first = ingest(site, store, embedder, progress=False)
    before = {c.chunk_id: c for c in store.all_chunks()}

    edited = sample_copy / "docs/01-foundations/02-quantization.md"
    edited.write_text(edited.read_text() + "\n\n## A new closing section\n\nQuantization noise can be shaped with feedback.\n")
    report = ingest(site, store, embedder, progress=False)
    assert (report.added, report.updated, report.removed) == (0, 1, 0)
    assert report.unchanged == first.added - 1
    after = store.all_chunks()
    changed = [c for c in after if c.chunk_id not in before or before[c.chunk_id].content_hash != c.content_hash]
    assert changed and {c.source_file for c in changed} == {"01-foundations/02-quantization.md"}
    assert report.chunks_embedded == len(changed)

    (sample_copy / "docs/02-practice/03-working-with-audio.md").unlink()
    report = ingest(site, store, embedder, progress=False)
    assert report.removed == 1 and report.chunks_embedded == 0
    assert not [c for c in store.all_chunks() if c.source_file == "02-practice/03-working-with-audio.md"]

    broken = sample_copy / "docs/02-practice/04-broken.md"
    broken.write_text("---\ntitle: [unclosed\nsidebar_position: 9\n---\n\n# Broken\n\nText.\n")
    report = ingest(site, store, embedder, progress=False)
    assert [s.source_file for s in report.skipped] == ["02-practice/04-broken.md"]
    assert "front matter" in report.skipped[0].reason
    assert report.unchanged == first.added - 1 and report.chunks_embedded == 0


def test_search_sees_each_write_of_the_same_store(sample_copy, store, embedder):
    """Local-mode search reads chunks once and keeps them: an edit or a deletion must still show."""
    site = detect_site(sample_copy)
    ingest(site, store, embedder, progress=False)
    question = embedder.embed_query("How can quantization noise be shaped?")

    def found():
        return {c.source_file: c for c in store.search(question, limit=10)}

    assert "01-foundations/02-quantization.md" in found()
    edited = sample_copy / "docs/01-foundations/02-quantization.md"
    edited.write_text(edited.read_text() + "\n\n## Shaping\n\nQuantization noise can be shaped with error feedback.\n")
    ingest(site, store, embedder, progress=False)
    assert any("shaped with error feedback" in c.content for c in store.search(question, limit=10))

    edited.unlink()
    ingest(site, store, embedder, progress=False)
    assert "01-foundations/02-quantization.md" not in found()
    scores = [c.score for c in store.search(question, limit=10)]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) > 1


def test_books_live_side_by_side(tiny_copy, store, embedder):
    site = detect_site(tiny_copy)
    ingest(site, store, embedder, book_id="one", progress=False)
    ingest(site, store, embedder, book_id="two", progress=False)
    assert store.count("one") == store.count("two") > 0
    assert store.books() == ["one", "two"]


def test_full_rebuild_reembeds_everything(tiny_copy, store, embedder):
    site = detect_site(tiny_copy)
    first = ingest(site, store, embedder, progress=False)
    again = ingest(site, store, embedder, full=True, progress=False)
    assert again.chunks_embedded == first.chunks_total == again.chunks_total


def test_model_mismatch_is_a_clear_error(tiny_copy, store, embedder, settings):
    ingest(detect_site(tiny_copy), store, embedder, progress=False)
    store.close()
    other = open_store(settings, "some/other-model", 768)
    try:
        with pytest.raises(EmbeddingMismatchError, match="Re-index"):
            other.check_compatible()
    finally:
        other.close()


@pytest.mark.parametrize("args, message", [
    (["ingest", "/nonexistent/book"], "no such folder"),
    (["ingest", "EMPTY"], "no .md or .mdx pages"),
    (["ingest", "FILE"], "not a folder"),
])
def test_cli_bad_paths_are_one_line_errors(tmp_path, args, message):
    (tmp_path / "empty").mkdir()
    (tmp_path / "file.md").write_text("# x")
    args = [a.replace("EMPTY", str(tmp_path / "empty")).replace("FILE", str(tmp_path / "file.md")) for a in args]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]


def test_mdbook_discovery_of_the_rust_book():
    from server.ingest.pages import discover_pages

    site = detect_site(RUST_BOOK)
    assert site.kind == "mdbook" and site.title == "The Rust Programming Language"
    pages = discover_pages(site).pages
    by_file = {p.source_file: p for p in pages}
    assert by_file["ch04-01-what-is-ownership.md"].title == "What is Ownership?"
    assert by_file["ch04-01-what-is-ownership.md"].module == "Understanding Ownership"
    assert by_file["ch04-00-understanding-ownership.md"].order < by_file["ch04-01-what-is-ownership.md"].order
    assert all("{{#" not in p.body for p in pages)


@pytest.mark.parametrize("book_fixture", ["physical_ai", "sample_book"])
def test_a_chunk_that_runs_under_another_heading_is_cited_there(request, book_fixture):
    """Small sections are merged into a neighbour's chunk; what is quoted from the merged-in part is
    labelled and linked with that part's own heading, and no words are lost in the cut."""
    merged = [c for c in request.getfixturevalue(book_fixture).store.all_chunks() if c.parts]
    assert merged  # the books have small sections
    for chunk in merged:
        pieces = chunk.sections()
        assert len(pieces) == len(chunk.parts) + (1 if chunk.content[:chunk.parts[0]["at"]].strip() else 0)
        assert re.sub(r"\s+", "", "".join(p.content for p in pieces)) == re.sub(r"\s+", "", chunk.content)
        for piece, part in zip(pieces[-len(chunk.parts):], chunk.parts):
            first_line = piece.content.splitlines()[0]
            assert first_line.lstrip("#").strip() == piece.heading == part["titles"][-1]
            assert piece.url == chunk.url.split("#")[0] + (f"#{part['anchor']}" if part["anchor"] else "")
            assert piece.source_location.endswith(piece.heading) and piece.url in piece.citation


def test_a_table_split_across_chunks_keeps_its_header_in_every_part(embedder):
    from server.ingest.chunker import chunk_page
    from server.ingest.page import Page

    rows = [f"| term {i} | what term number {i} means, in a few more words than one |" for i in range(60)]
    body = ("## Glossary\n\nThe table below says what each term of the chapter means, in the words the chapter "
            "uses for it.\n\n| Term | Meaning |\n|:-----|--------:|\n" + "\n".join(rows) + "\n")
    page = Page(source_file="glossary.md", title="Glossary", url="https://example.org/glossary", categories=[],
                order=1, body=body, file_hash="h")
    parts = [c.content for c in chunk_page(page, book_id="b", book_title="B", count_tokens=embedder.count_tokens)
             if "| term" in c.content]
    assert len(parts) >= 3
    seen: list[str] = []
    for content in parts:
        lines = content.split("\n")
        start = next(i for i, line in enumerate(lines) if line.startswith("|"))
        table = lines[start:]
        assert table[:2] == ["| Term | Meaning |", "|:-----|--------:|"], content  # a table, not loose rows
        assert all(line.startswith("|") for line in table if line.strip()) and "" not in table[:-1]
        seen += [line for line in table[2:] if line not in seen]
    assert seen == rows


def test_a_page_read_differently_is_indexed_again_though_its_file_is_unchanged(tmp_path, store, embedder):
    (tmp_path / "src").mkdir()
    (tmp_path / "book.toml").write_text('[book]\ntitle = "Tour"\n', encoding="utf-8")
    (tmp_path / "src" / "SUMMARY.md").write_text("- [Start](start.md)\n- [Loops](loops.md)\n", encoding="utf-8")
    (tmp_path / "src" / "start.md").write_text("# Start\n\nA program starts in main and prints a line.\n\n"
                                               "```python\n~import sys\nprint('hello')\n```\n", encoding="utf-8")
    (tmp_path / "src" / "loops.md").write_text("# Loops\n\nA loop runs its body again while its test holds.\n",
                                               encoding="utf-8")
    first = ingest(detect_site(tmp_path), store, embedder, progress=False)
    assert first.added == 2 and any("~import sys" in c.content for c in store.all_chunks())
    # the author says which lines mdBook hides: start.md reads differently, its file as it was
    (tmp_path / "book.toml").write_text('[book]\ntitle = "Tour"\n\n[output.html.code.hidelines]\npython = "~"\n',
                                        encoding="utf-8")
    again = ingest(detect_site(tmp_path), store, embedder, progress=False)
    assert (again.updated, again.unchanged) == (1, 1)
    assert not any("import sys" in c.content for c in store.all_chunks())




def test_a_long_paragraph_split_across_chunks_runs_on_from_its_overlap(embedder):
    """A paragraph longer than a chunk is cut at its lines; the next chunk opens on the sentences
    it repeats from the one before and goes on in the same paragraph, not after a blank line (a
    code span or a sentence cut at a line break is read whole)."""
    from server.ingest.chunker import chunk_page
    from server.ingest.page import Page

    lines = [f"Line {i} of the proof says that step {i} follows from step {i - 1} by the same rule. But" if i % 7 == 6
             else f"line {i} of the proof says that step {i} follows from the step before it, as ``by" if i % 7 == 3
             else f"<tactics>`` says for line {i}, and the step {i} holds by the rule of the chapter." if i % 7 == 4
             else f"line {i} of the proof says that step {i} follows from step {i - 1} by the same rule."
             for i in range(80)]
    paragraph = "\n".join(lines)
    page = Page(source_file="proof.md", title="Proof", url="https://example.org/proof", categories=[], order=1,
                body=f"## Steps\n\n{paragraph}\n", file_hash="h")
    chunks = chunk_page(page, book_id="b", book_title="B", count_tokens=embedder.count_tokens)
    assert len(chunks) >= 3
    for chunk in chunks:
        text = chunk.content.removeprefix("## Steps").strip()
        assert "\n\n" not in text and text in paragraph, text[:200]
