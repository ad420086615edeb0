"""lhbg's testing page, "why is the multi-core runtime slower?": the answer quoted the book's list of GHC
options with its lines as the book wrapped them ("- [`-threaded`] -" on one line, "Use the multi-core
runtime …" on the next), and the widget showed the item's name as a bullet and its words as paragraphs
after it. An item is shown on one line, its nested items on theirs."""
from __future__ import annotations

import re

from hypothesis import given, strategies as st

from places import CORPORA
from server.question.compose.extractive.answers import quoted_answer
from server.question.compose.extractive.lists import unwrapped
from server.question.context import Source
from server.book.chunk import Chunk

TESTING = (CORPORA / "lhbg" / "src" / "08-testing.md").read_text(encoding="utf-8")


def _cabal_additions() -> Source:
    start = TESTING.index("### Cabal file additions")
    text = TESTING[start:TESTING.index("### Hspec discovery")]
    chunk = Chunk(chunk_id="c", book_id="lhbg", book_title="LHBG", content=text, content_hash="", source_file="08-testing.md",
                  url="https://x/08-testing.html", module="", chapter="", section="", heading="Cabal file additions",
                  section_hierarchy=["Testing", "Initial setup", "Cabal file additions"], page=0, source_location="",
                  citation="", file_hash="", embed_text=text, page_key="08-testing.md", position=0, locale="en", score=0.6)
    return Source(chunk, "database")


def test_a_quoted_item_is_one_line_with_its_nested_items_on_theirs():
    answer = quoted_answer("why is the multi-core runtime slower?", [_cabal_additions()]).text
    threaded = next(line for line in answer.splitlines() if "-threaded" in line)
    assert threaded.lstrip().startswith("- ") and "Use the multi-core runtime" in threaded, answer
    assert "runtime is generally a bit slower in my experience, but when writing code" in threaded, answer
    assert not any(line.startswith(("Use the", "Compile with")) for line in answer.splitlines()), answer


def test_code_tables_and_chinese_lines_in_items_are_kept_as_written():
    assert unwrapped("- run:\n  ```sh\n  stack test\n  ```\n  then read") == "- run:\n  ```sh\n  stack test\n  ```\n  then read"
    assert unwrapped("- 打开文件时\n  使用 with 语句") == "- 打开文件时使用 with 语句"
    assert unwrapped("1. one\n   more\n2. two") == "1. one more\n2. two"


LINE = st.text(alphabet="ab -*1.`|\u6587", min_size=0, max_size=12)


@given(st.lists(LINE, min_size=1, max_size=8))
def test_unwrapping_keeps_every_word_and_every_item(lines):
    text = "\n".join(lines)
    shown = unwrapped(text)
    assert "".join(shown.split()) == "".join(text.split())
    marker = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\S")  # an item's first line
    assert sum(map(bool, map(marker.match, shown.split("\n")))) == sum(map(bool, map(marker.match, text.split("\n"))))
