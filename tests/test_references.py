"""Reference links shown inline: a quoted passage shows a link, never "[text][label]"."""
from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from places import RUST_BOOK
from server.ingest.chunker import chunk_page
from server.ingest.mdbook import summary_items
from server.ingest.pages import discover_pages
from server.ingest.site import detect_site
from server.text.references import definitions, inlined


def test_the_rust_books_reference_links_read_as_links_to_their_definitions(embedder):
    site = detect_site(RUST_BOOK)
    page = next(p for p in discover_pages(site).pages if p.source_file == "ch16-04-extensible-concurrency-sync-and-send.md")
    chunks = chunk_page(page, book_id="rust", book_title=site.title, count_tokens=embedder.count_tokens)
    shown = "\n".join(c.content for c in chunks)
    # the link's text runs over a line break and holds a code span
    assert "[“Shared Access to\n`Mutex<T>`”](ch16-03-shared-state.html#shared-access-to-mutext)" in shown
    assert not re.search(r"\]\[[\w-]+\]", shown)
    # the model reads the page as the book wrote it
    assert any("`Mutex<T>`”][shared-access]" in c.embed_text for c in chunks)


def test_code_images_footnotes_and_undefined_labels_are_left_as_written():
    text = "Use `a[i][j]` and [x][y], [Foo], [bar][], ![img][foo], [^1] and [none][nowhere].\n\n" \
           "[y]: http://y.example\n[foo]: f.html\n[bar]: b.html\n"
    refs = definitions(text)
    assert inlined(text.split("\n")[0], refs) == \
        "Use `a[i][j]` and [x](http://y.example), [Foo](f.html), [bar](b.html), ![img][foo], [^1] and [none][nowhere]."


PROSE = st.text(alphabet=st.sampled_from(list("ab []`!^\n:()")), max_size=60)


@given(PROSE, st.sampled_from(["a", "b", "A b"]))
def test_any_text_keeps_its_code_and_links_each_reference_once(text, label):
    """Whatever the text: its code spans come back as written, a defined label is no longer
    written as a reference outside code, and inlining again changes nothing."""
    refs = {label.upper(): "u.html"}
    out = inlined(text, refs)
    spans = re.compile(r"(`+)[^`].*?\1", re.S)
    assert [m.group(0) for m in spans.finditer(out)] == [m.group(0) for m in spans.finditer(text)]
    assert not re.search(rf"\]\[{re.escape(label)}\](?![(:\[])", spans.sub("", out), re.I)
    assert inlined(out, refs) == out
    assert inlined(text, {}) == text


def test_a_summary_title_reads_as_the_sidebar_shows_it():
    titles = {file: title for title, file, _ in summary_items(RUST_BOOK / "src")}
    assert titles["ch06-02-match.md"] == "The match Control Flow Construct"
    assert titles["ch15-05-interior-mutability.md"] == "RefCell<T> and the Interior Mutability Pattern"
