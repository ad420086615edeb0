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


@given(TEXT, st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
def test_sources_at_one_place_are_one_source_however_the_text_streams(text, points):
    """The AIbook's "what is a kalman filter" listed "Sensor Fusion › Kalman Filter" twice: the
    lead-in read from the chunk before and the code it introduces are one place to a reader."""
    same = markers.same_places([("u#k", "A › K"), None, ("u#k", "A › K"), ("u", "A"), ("u", "A")])
    assert same == {3: 1, 5: 4}
    order, streamed = CitationOrder(same=same), ""
    for piece in _cuts(text, points):
        streamed += order.feed(piece)
    streamed += order.finish(text)
    assert streamed == order.text == renumber(text, {}, same)
    new = markers.cited_in_order(streamed)
    assert new == list(range(1, len(new) + 1))  # no gap where a source was one with another
    listed = in_citation_order(["s1", "s2", "s3", "s4", "s5"], order.cited, same)
    assert "s3" not in listed and "s5" not in listed and sorted(listed) == ["s1", "s2", "s4"]
    if all(1 <= n <= 5 for n in markers.cited(text)):  # (a marker past the sources is dropped before this)
        for old in markers.cited(text):  # each old marker now cites its place's one source
            assert listed[order.numbers[same.get(old, old)] - 1] == f"s{same.get(old, old)}"


def test_an_answer_citing_one_place_twice_lists_it_once_holding_both_texts():
    from server.book.chunk import Chunk
    from server.question.compose import Composed, in_citation_order as composed_in_order
    from server.question.context import Source

    def chunk(cid: str, text: str, position: int) -> Chunk:
        return Chunk(chunk_id=cid, book_id="b", book_title="B", content=text, content_hash="", source_file="f.md",
                     url="https://x/f#kalman-filter", module="", chapter="", section="", heading="Kalman Filter",
                     section_hierarchy=[], page=0, source_location="Sensor Fusion › Kalman Filter", citation="",
                     file_hash="", position=position)

    code, lead = Source(chunk("c", "```python\nclass KalmanFilter: ...\n```", 2), "database"), \
        Source(chunk("c:begun", "The classic fusion algorithm:", 1), "database")

    def writing():
        yield "The classic fusion algorithm [2]:\n\n"
        yield "```python\nclass KalmanFilter: ...\n```\n\n[1]"
        return Composed("The classic fusion algorithm [2]:\n\n```python\nclass KalmanFilter: ...\n```\n\n[1]",
                        (code, lead), None)

    stream = composed_in_order(writing(), (code, lead))
    try:
        while True:
            next(stream)
    except StopIteration as end:
        done = end.value
    assert done.text.endswith("[1]") and "[2]" not in done.text and len(done.sources) == 1
    assert done.sources[0].chunk.content == "The classic fusion algorithm:\n\n```python\nclass KalmanFilter: ...\n```"
