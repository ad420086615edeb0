"""The book's `_emphasis_` is quoted as `*emphasis*`, which the widget renders; code and names
with underscores are quoted as written."""
from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from server.text.emphasis import as_rendered


def test_underscored_emphasis_is_starred_and_names_and_code_are_not():
    assert as_rendered("A _trait_ defines the functionality") == "A *trait* defines the functionality"
    assert as_rendered("an _atomically reference-counted_ type") == "an *atomically reference-counted* type"
    for kept in ("snake_case_name", "__init__", "the `_x_` pattern", "```\nlet _x_ = 1;\n```", "a _ b _ c"):
        assert as_rendered(kept) == kept


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab _`*\n")), max_size=60))
def test_only_underscores_outside_code_change_and_only_into_stars(text):
    out = as_rendered(text)
    assert len(out) == len(text)
    assert all(a == b or (a == "_" and b == "*") for a, b in zip(text, out))
    code = re.findall(r"`[^`\n]*`", text)
    assert re.findall(r"`[^`\n]*`", out) == code


def test_a_link_is_quoted_as_the_widget_shows_it():
    """"I think [`IOException`](…) fits" had shown its backticks: the widget writes a link's label
    as it is; and a reference-style link ("[“Data Types”][data-types]") had shown both brackets."""
    assert as_rendered("I think [`IOException`](https://h.org/io) fits") == "I think [IOException](https://h.org/io) fits"
    assert as_rendered("see [“Data Types”][data-types] and [`Vec<T>`][vec]") == "see “Data Types” and `Vec<T>`"
    for kept in ("index `a[i][j]` and m[0][1]", "[the changes](https://g.com/c)", "```\nx = [`a`][b]\n```"):
        assert as_rendered(kept) == kept
