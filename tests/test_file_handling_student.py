"""A student on the Python book's file-handling page (python-codex-i18n), in Chinese ("文件读写") and
in English. What they met in Chinese: "with 语句有什么好处" (what is good about `with`) added a
for-else section's "它还是有一些好处的" (it has some benefits too); "怎么一行一行地读文件？" (how do I read a file line by line?) was
answered without the code, as "how do I …" is answered with it; "StringIO 和 BytesIO 有什么区别？"
read the question's frame as words ("有什", "么区"); and a highlighted "\"x\": 排他模式" asked "举个例子"
(give me an example), with the book beside it, was refused: the page's passage holding it was not
among what the question's words found, and "举个例子" was searched for as the topic."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from book_pages import passage, section
from places import CORPORA
from server.question.compose.extractive.answers import block_answer, quoted_answer
from server.question.compose.extractive.asks_for import asks_how_to
from server.question.compose.extractive.continuation import read_passages
from server.question.compose.extractive.piece_scores import score_pieces
from server.question.compose.extractive.question_words import asked
from server.question.context import Source
from server.text.asked import COMPARING, asked_words, weighing_words

PAGE = (CORPORA / "python-codex-i18n" / "docs" / "file_io.md").read_text(encoding="utf-8")


def _section(title: str, page: str = PAGE) -> str:
    return section(page, title, ("\n## ", "\n### "))


def _source(text: str, heading: str, score: float, file: str = "file_io.md") -> Source:
    return passage(text, heading, score, file=file, url=f"https://x/{file}", locale="zh-cn")


FRAMES = ["有什么", "是什么", "什么是", "为什么", "怎么", "如何", "有哪些", "有没有"]


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="模式语句文件列表元组装饰器", min_size=2, max_size=6), st.sampled_from(FRAMES),
       st.text(alphabet="区别好处关闭读取写入", min_size=0, max_size=4), st.sampled_from(["？", "吗？", "呢", ""]))
def test_no_asked_pair_runs_across_a_chinese_questions_frame(before, frame, after, end):
    question = f"{before}{frame}{after}{end}"
    found = asked_words(question)
    assert all(w in before or w in after for w in found), (question, found)


def test_a_chinese_comparison_asks_about_the_two_names():
    assert asked_words("StringIO 和 BytesIO 有什么区别？") - COMPARING == {"stringio", "bytesio"}
    assert asked_words('"w" 和 "a" 模式有什么区别？') - COMPARING == {"模式"}


def test_how_to_in_the_books_languages_asks_for_the_way_it_is_done():
    assert all(map(asks_how_to, ["怎么一行一行地读文件？", "文件很大的话如何读取", "どうやって入れるの？",
                                 "¿cómo puedo leer un archivo?", "how do i read a file?"]))
    assert not any(map(asks_how_to, ["怎么回事？", "为什么要关闭文件", "what is a file?", "这样写怎么样"]))


def test_a_request_for_an_example_is_no_asked_word_in_any_language():
    assert asked('举个例子 "x": 排他模式', None) == asked('"x": 排他模式', None)
    assert asked("give me an example of pattern matching", None) == asked("pattern matching", None)
    assert "ejemp" not in asked("dame un ejemplo de recursión", None)


def test_another_section_is_not_quoted_for_a_word_that_only_weighs_the_topic():
    """"好处" (benefit) is asked, but what is good about `with` is in its own section; a for-else
    section saying "有一些好处" says nothing about `with`. A section whose heading names something
    asked still comes (tests/test_answers.py: "There could be various reasons" under "My program is
    slow")."""
    loops = (CORPORA / "python-codex-i18n" / "docs" / "loop.md").read_text(encoding="utf-8")
    for_else = _section("### 带有 else 子句的 for 循环", loops)
    for_else = for_else[for_else.index("不过，在熟悉了它的用法之后"):]  # its chunk, as the index cut it
    with_ = _source(_section("### with 语句"), "with 语句", 0.89)
    for_else = _source(for_else, "带有 else 子句的 for 循环", 0.87, "loop.md")
    assert weighing_words("with 语句有什么好处") == {"好处"}
    answer = block_answer("with 语句有什么好处", [with_, for_else])
    assert "with 语句最常见的用途是打开文件" in answer, answer
    assert "好处" not in answer and "for 循环" not in answer, answer
    assert weighing_words("what are the benefits of a pointer?") == {"benefits"}


def test_how_to_handle_a_missing_file_quotes_the_code_that_handles_it():
    """"怎么处理" asks how, as "how do I handle …" does: the code that names what is asked answers."""
    errors = _source(_section("## 处理文件异常"), "处理文件异常", 0.9)
    answer = quoted_answer("打开一个不存在的文件程序会崩溃吗，应该怎么处理？", [errors]).text
    assert "except FileNotFoundError:" in answer, answer


def test_a_highlighted_term_is_answered_from_its_passage_not_from_pages_that_share_a_word():
    """The highlighted "\"x\": 排他模式", asked about with the book: its item in the list of modes, not
    the pattern-matching section's "模式匹配" (pattern matching) for the word "模式" it already said."""
    conditions = (CORPORA / "python-codex-i18n" / "docs" / "condition.md").read_text(encoding="utf-8")
    item = next(line for line in _section("### 打开文件").splitlines() if line.startswith('* "x"'))
    modes = _source(item, "打开文件", 0.88)  # its chunk, as the index cut the list
    matching = _source(_section("### 匹配变量值", conditions), "匹配变量值", 0.87, "condition.md")
    question = '举个例子 "x": 排他模式'
    answer = quoted_answer(question, [modes, matching], term='"x": 排他模式').text
    assert '"x": 排他模式，表示文件不能预先存在' in answer and "match" not in answer, answer
    assert "match" in quoted_answer(question, [modes, matching]).text  # asked as a question of its own words


def test_a_short_literal_in_quotes_is_a_name_the_question_asks_about():
    """"what's the difference between \"w\" and \"a\" mode?" opened on a text-mode sentence about
    seeking ("mode" its only word): the two letters are what it asks about, written in the list of modes as
    `"w"` and `"a"`."""
    from server.question.compose.extractive.question_words import says_term
    from server.text.definition import code_names

    assert code_names('what\'s the difference between "w" and "a" mode?') == ["w", "a"]
    assert code_names('"w" 和 "a" 模式有什么区别？') == ["w", "a"] and code_names('he said "hello there"') == []
    assert says_term('* `"w"`: Write-only mode.', 'Write-only mode.', "w") and not says_term("a wall", "a wall", "w")
    english = (CORPORA / "python-codex-i18n" / "i18n" / "en" / "docusaurus-plugin-content-docs" / "current"
               / "file_io.md").read_text(encoding="utf-8")
    modes = _source(_section("### Opening a File", english), "Opening a File", 0.86)
    seeking = _source("> The `seek()` method is designed for binary files. In text mode (`'r'`), due to "
                      "variable-width multi-byte character encodings, seeking to arbitrary byte offsets can corrupt "
                      "characters or raise errors.", "Moving the File Pointer", 0.87)
    sources = [seeking, modes]
    scored = score_pieces('what\'s the difference between "w" and "a" mode?', sources, None, everything=False,
                          read=read_passages(sources, None))
    best = max(scored, key=lambda s: s.score)
    assert best.unit.text.startswith("The most common file modes are:") and {"`w`", "`a`"} <= set(best.covers)


def test_a_name_written_as_code_is_said_whole():
    """"StringIO vs BytesIO?" added "Converting Between Strings and Bytes" and "Path Handling": "StringIO"
    and "strings" share their first five letters. A name written with a capital inside it is said
    where a text says it whole."""
    from server.question.compose.extractive.question_words import said_alone

    alone = said_alone("StringIO vs BytesIO?", {"strin": 1.0, "bytes": 1.0})
    assert alone["strin"].search("provides stringio and `bytesio`") and not alone["strin"].search("strings and bytes")
    english = (CORPORA / "python-codex-i18n" / "i18n" / "en" / "docusaurus-plugin-content-docs" / "current"
               / "file_io.md").read_text(encoding="utf-8")
    memory = _source(_section("## In-Memory Files", english), "In-Memory Files", 0.88)
    strings = _source("In most cases, converting between strings and bytes using the default encoding is sufficient.",
                      "Converting Between Strings and Bytes", 0.86, "string.md")
    answer = quoted_answer("StringIO vs BytesIO?", [memory, strings]).text
    assert "`StringIO`: For storing text in memory." in answer and "converting between strings" not in answer, answer


def test_a_name_stands_whole_against_japanese_or_chinese_too():
    """"tscのバージョン確認するコマンドなんだっけ？": "tsc" stands whole against the "の" after it, and
    a book sentence "tscコマンドで…" says it; Japanese and Chinese letters are letters to `\\w`, so
    neither counted as a word's edge. "strictNullChecksって…" names a name written as code."""
    from server.question.compose.extractive.question_words import said_alone

    short = said_alone("tscのバージョン確認するコマンドなんだっけ？", {"tsc": 1.0})["tsc"]
    assert short.search("tscコマンドでバージョンを確認します") and not short.search("tscs") and not short.search("_tsc")
    name = said_alone("strictNullChecksって何バージョンで入ったの？", {"stric": 1.0})["stric"]
    assert name.search("strictNullChecksは既定でオン") and not name.search("strict モード")
