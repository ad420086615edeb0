"""Answers quoted from a Japanese or Chinese book read as the book does. A student on the TypeScript
book's truthy/falsy page asked "falsyな値ってなに？" and was answered from "というのは…" (so, …):
the section's first sentence, "falsyな値から説明します。", opens on a name in lowercase and was taken
for the tail of a sentence cut at the chunk's edge. Sentences were joined with a space after "。",
a sentence opening on "というのは" or "つまり" was quoted without the one it points back at, and
"…値のことをfalsyと呼びます" (what is called falsy) did not count as saying what falsy is."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from server.book.chunk import Chunk
from server.question.compose.extractive.answer_units import units_of
from server.question.compose.extractive.answers import quoted_answer
from server.question.context import Source
from server.question.judge.highlight import _quote
from server.text.definition import defines

SECTION = ("falsyな値から説明します。というのはfalsyな値というのは限られており、それ以外のすべての値がtruthyとなるので"
           "これだけ覚えてしまえばいいということでもあります。")


def _source(text: str, heading: str = "falsyな値") -> Source:
    chunk = Chunk(chunk_id="c1", book_id="b", book_title="B", content=text, content_hash="", source_file="p.md",
                  url="https://example.org/p/", module="", chapter="", section="", heading=heading,
                  section_hierarchy=[heading], page=0, source_location="", citation="", file_hash="", embed_text=text,
                  page_key="p.md", position=0, path_prefixes=["p.md"], locale="ja", score=0.6)
    return Source(chunk, "database")


def test_a_japanese_sentence_opening_on_a_lowercase_name_is_whole():
    units = units_of(SECTION, 1, "prose")
    assert units[0].text == "falsyな値から説明します。"
    assert units[1].refers_back  # "というのは…" points back at it
    # an English paragraph a passage starts inside still loses its cut-off start
    assert [u.text for u in units_of("because it skips the build. Cargo checks it.", 1, "prose")] == ["Cargo checks it."]


def test_sentences_of_a_japanese_paragraph_are_joined_without_a_space():
    answer = quoted_answer("falsyな値ってなに？", [_source(SECTION)]).text
    assert "falsyな値から説明します。というのは" in answer, answer
    assert "。 " not in answer
    quoted = _quote([(1, "undefinedは変数でありnullはリテラルです"), (2, "nullはリテラルです。"), (2, "一方で変数です。")])
    assert quoted == "undefinedは変数でありnullはリテラルです[1]。nullはリテラルです。一方で変数です[2]。"


def test_what_a_japanese_chinese_or_spanish_text_calls_a_term_defines_it():
    called = "このようなとき、条件を満たすとされる値のことをtruthyと、また満たさないとされる値のことをfalsyと呼びます。"
    assert defines(called, "falsy") and defines(called, "truthy")
    assert defines("これをクロージャといいます。", "クロージャ") and defines("这种写法称为切片。", "切片")
    assert defines("Una función que se llama a sí misma se llama recursión.", "recursión")
    assert not defines("値をundefinedと比較します。", "undefined")
    assert not defines("AやBをundefinedといった値として扱います。", "undefined")


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="abcxyzあいうえお値説明。、は", max_size=60), st.text(alphabet="abc値。", max_size=30))
def test_any_japanese_paragraph_keeps_every_sentence_that_ends(paragraph, more):
    units = units_of(f"{paragraph}{more}", 1, "prose")
    assert all(u.text.strip() for u in units)
    assert "".join(u.text for u in units) in f"{paragraph}{more}".replace("\n", "")



def test_a_chinese_pages_key_points_and_a_highlighted_passage_read_without_spaces():
    """The generators page's summary read "…迭代器。 生成器是…", a space after each full stop."""
    from server.ingest.outline import _first_sentence
    from server.text.sentences import joined, split_passage

    text = "生成器是一种高效的创建迭代器的方式。创建生成器有两种主要的方法。"
    assert _first_sentence([text]) == text
    assert split_passage(text) == [text]
    assert joined(["It folds.", "It is lazy."]) == "It folds. It is lazy."


def test_a_chinese_lead_in_ending_in_a_full_width_colon_introduces_its_code():
    """"我读文件的时候每行后面都多出一个空行" was answered without the sentence that fixes it: "如果不希望输出时
    有额外的空行，可以使用字符串的 strip() 方法移除它：" ends in a full-width colon, was read as cut off and
    dropped, and its code quoted alone. It is the lead-in of its code, one piece, as "…:" is; and the
    page's summary does not open on it."""
    from server.ingest.outline import _first_sentence

    text = ("文本文件的每行的末尾通常都会有一个换行符。如果不希望输出时有额外的空行，可以使用字符串的 strip() 方法移除它："
            "\n\n```python\nprint(line.strip())\n```")
    units = units_of(text, 1, "prose")
    assert [u.introduces for u in units] == ["", "code"]
    assert units[1].text.startswith("如果不希望输出时有额外的空行") and "print(line.strip())" in units[1].text
    answer = quoted_answer("每行后面多出一个空行怎么办", [_source(text, "逐行读取文件")]).text
    assert "strip() 方法移除它：" in answer and "print(line.strip())" in answer, answer
    assert _first_sentence(["这个函数的用法如下：", "它返回一个列表。"]) == "它返回一个列表。"


def test_a_definition_reads_on_in_its_own_section_not_in_one_it_let_in():
    """"生成器是什么？" quoted the page's definition, then a sentence of another section standing under
    the term's name, and then, that section let in, its every sentence naming generators: sending
    data to one, nested ones. Another section gives what it says of the term, once."""
    from dataclasses import replace

    opening = _source("A generator is an efficient way to make an iterator, one value at a time. There are two "
                      "ways to make generators.", "Generators")
    text = ("A generator is lazy, it makes each value only when asked.\n\n### Sending data\n\n"
            "You can send data into a generator with its send method.")
    other = replace(opening.chunk, chunk_id="c2", source_file="more.md", page_key="more.md", content=text,
                    embed_text=text, heading="Generator", chapter="Guide", section_hierarchy=["Guide", "Generator"],
                    parts=[{"titles": ["Generator", "Sending data"], "at": text.index("### Sending"), "anchor": "sending-data"}], score=0.59)
    answer = quoted_answer("what is a generator?", [opening, Source(other, "database")]).text
    assert "efficient way to make an iterator" in answer and "send data into" not in answer, answer
