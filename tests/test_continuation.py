"""A passage read on into the chunk after it: the overlap the chunk opens with is read once."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.question.compose.extractive.continuation import joined

WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC`.,;", min_size=1, max_size=9)


@given(st.lists(WORD, min_size=8, max_size=60, unique=True), st.data())
def test_a_paragraph_cut_in_two_reads_back_whole_whatever_the_chunk_repeats(words, data):
    """The chunker cuts a long paragraph at a line and the next chunk opens with the end of the
    one before (whole sentences, so from any word on); read back, the paragraph is itself again
    (words of a paragraph that repeats itself word for word could be taken for the overlap)."""
    cut = data.draw(st.integers(min_value=2, max_value=len(words) - 1))
    start = data.draw(st.integers(min_value=0, max_value=cut - 1))
    overlap = " ".join(words[start:cut])
    first = " ".join(words[:cut])
    second = overlap + "\n" + " ".join(words[cut:])
    read = " ".join(joined(first, second).split())
    if len(overlap) >= 12:
        assert read == " ".join(words)
    else:  # too short to be sure it is a repeat: kept, never lost
        assert read.startswith(first) and read.endswith(" ".join(words[cut:]))
