"""A word and its -s form are one asked word. The composer compares words by their first five
letters, so "takes" and "take", "nodes" and "node" were different words: asked on the Rust book's
strings page "why does + take ownership of the first string", a student got "First, `s2` has an
`&` …" and "Take a look at Figure 4-1 …" (they say "first" and "take"), while "Second, we can see in
the signature that `add` takes ownership of `self`" said only "ownership" and "string"."""
from __future__ import annotations

from dataclasses import replace

from hypothesis import given, strategies as st

from places import CORPORA
from server.ingest.chunker import chunk_page
from server.ingest.pages import discover_pages
from server.ingest.site import detect_site
from server.question.compose.extractive.answers import block_answer
from server.question.compose.extractive.question_words import prefix, prefixes
from server.question.context import Source


def test_a_short_words_s_form_is_the_word():
    assert prefixes("it takes nodes, loops and types") == prefixes("it take node, loop and type")
    assert prefix("ownership") == prefix("owner") == "owner"
    # a singular ending in s stays whole
    assert [prefix(w) for w in ("class", "focus", "axis", "bus")] == ["class", "focus", "axis", "bus"]


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=12).filter(lambda w: w[-1] not in "ius"))
def test_any_word_and_its_s_form_share_their_prefix(word):
    assert prefix(word + "s") == prefix(word)


def test_the_sentence_saying_the_asked_verb_in_another_form_answers(embedder):
    site = detect_site(CORPORA / "rust-book")
    page = next(p for p in discover_pages(site).pages if p.source_file.endswith("ch08-02-strings.md"))
    chunks = chunk_page(page, book_id="rust-book", book_title=site.title, count_tokens=embedder.count_tokens)
    concatenating = [c for c in chunks if "format!" in c.heading or "Concatenating" in c.heading]
    assert concatenating
    sources = [Source(replace(c, score=0.55 - 0.01 * i), "database") for i, c in enumerate(concatenating)]
    answer = block_answer("why does + take ownership of the first string", sources,
                          following=lambda chunk: [c for c in chunks if 0 < c.position - chunk.position <= 2])
    assert "`add` takes ownership of `self`" in answer, answer
