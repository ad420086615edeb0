"""Markers read 1, 2, 3 … in the order first cited (IEEE), however the text streams in, and the
sources are listed to match."""
from __future__ import annotations

from hypothesis import given, strategies as st

from server.question import markers
from server.question.markers import CitationOrder, in_citation_order, renumber

# text made of the pieces markers are about: prose, markers, links, inline code and fences
PIECES = st.sampled_from(["a ", "word. ", "[1]", "[2]", "[3]", "[4]", "[12]", "(x)", "`x[2]`", "`", "[",
                          "]", "\n", "```\ncode[3]\n", "```\n", "[see](u)", " [2].", "y[0] "])
TEXT = st.lists(PIECES, max_size=40).map("".join)


def _cuts(text: str, points: list[int]) -> list[str]:
    points = sorted({p % (len(text) + 1) for p in points})
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)])]


@given(TEXT, st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
def test_streamed_text_is_the_renumbered_whole_in_any_pieces(text, points):
    order, streamed = CitationOrder(), ""
    for piece in _cuts(text, points):
        shown = order.feed(piece)
        streamed += shown
        assert renumber(text, {}).startswith(streamed)  # never a marker that will later change
    streamed += order.finish(text)
    assert streamed == order.text == renumber(text, {})


@given(TEXT)
def test_markers_read_in_order_of_first_citation(text):
    numbered = renumber(text, {})
    first = markers.cited_in_order(numbered)
    assert first == list(range(1, len(first) + 1))
    # the same passages are cited at the same places: only the numbers changed
    old = markers.cited_in_order(text)
    assert [old.index(n) for n in old] == [first.index(n) for n in first]
    assert markers.strip(numbered) == markers.strip(text)


def test_sources_follow_the_markers():
    text = "Leakage [3]. Windows [1] taper [3]; see `x[2]`."
    numbers: dict[int, int] = {}
    assert renumber(text, numbers) == "Leakage [1]. Windows [2] taper [1]; see `x[2]`."
    sources = ("s1", "s2", "s3", "s4")
    assert in_citation_order(sources, list(numbers)) == ("s3", "s1", "s2", "s4")
    # a marker to no source is not placed
    assert in_citation_order(sources, [9, 2]) == ("s2", "s1", "s3", "s4")


def test_a_marker_that_becomes_a_link_is_not_renumbered_while_streaming():
    order = CitationOrder()
    assert order.feed("See [2]") == "See "
    assert order.feed("(https://x) and [2].") == "[2](https://x) and [1]."
    assert order.finish("See [2](https://x) and [2].") == ""


@given(TEXT, st.lists(st.integers(min_value=0, max_value=10_000), max_size=12), st.integers(min_value=0, max_value=4))
def test_a_marker_to_a_source_found_while_answering_waits_for_the_end(text, points, known):
    """Sources beyond the `known` ones are listed only when the answer is done: nothing from the
    first marker citing one is streamed before, and the whole still comes out the same."""
    order, streamed = CitationOrder(known=known), ""
    for piece in _cuts(text, points):
        streamed += order.feed(piece)
        old_of = {new: old for old, new in order.numbers.items()}
        assert all(old_of[n] <= known for n in markers.cited(streamed))
    streamed += order.finish(text)
    assert streamed == renumber(text, {})


def test_the_stream_stops_at_a_marker_to_a_source_not_yet_listed():
    order = CitationOrder(known=2)
    assert order.feed("Windows taper [2]. Padding interpolates ") == "Windows taper [1]. Padding interpolates "
    assert order.feed("[5]. Leakage [1].") == ""
    assert order.finish("Windows taper [2]. Padding interpolates [5]. Leakage [1].") == "[2]. Leakage [3]."
