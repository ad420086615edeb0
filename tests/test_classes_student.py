"""A student on the Python book's "Classes" page (English). What they met: "what is a factory method
for" was answered with "A common use case for class methods is defining **factory methods**." alone:
the next sentence, saying what one does, leads in to a 25-line listing nobody asked for, and the
listing took the sentence with it. "can i have two __init__ methods with different parameters?"
opened on "In this code, the `__init__` method accepts …", of a listing the answer did not show."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from book_pages import passage, section
from places import CORPORA
from server.book.chunk import Chunk
from server.question.compose.extractive.answer_units import units_of
from server.question.compose.extractive.pointing import points_above
from server.question.compose.extractive.answers import quoted_answer
from server.question.compose.extractive.opening import closed
from server.question.compose.extractive.rendering import rendered
from server.question.context import Source

CLASSES_DIR = CORPORA / "python-codex-i18n" / "i18n" / "en" / "docusaurus-plugin-content-docs" / "current"
CLASSES = (CLASSES_DIR / "class.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return section(CLASSES, title, ("\n## ", "\n### ", "\n#### "))


def _source(title: str, score: float) -> Source:
    heading = title.lstrip("# ")
    return passage(_section(title), heading, score, file="class.md", key="en/class", hierarchy=["Classes", heading],
                   url="https://x/en/class", book=("py", "Python"))


def test_a_lead_in_saying_what_is_asked_is_quoted_without_the_code_nobody_asked_for():
    sources = [_source("#### Factory Methods", 0.90), _source("### Static Methods", 0.87)]
    answer = quoted_answer("what is a factory method for", sources).text
    assert "A factory method handles complex initialization logic" in answer, answer
    # shown as a sentence: its colon led in to the code, which is not shown
    assert "returning a configured object [1]." in answer or "returning a configured object." in answer, answer
    assert "```" not in answer and "create_complex_animal" not in answer, answer
    # asked for the code, the lead-in brings it
    shown = quoted_answer("show me the code of a factory method", sources).text
    assert "create_complex_animal" in shown, shown


def test_a_sentence_about_the_code_before_it_goes_only_with_that_code():
    sources = [_source("### Initialization Method", 0.92), _source("### Static Methods", 0.87)]
    answer = quoted_answer("can i have two __init__ methods with different parameters?", sources).text
    assert "you cannot define multiple `__init__` methods" in answer, answer
    assert "In this code" not in answer, answer
    said = next(u for u in units_of(_section("### Initialization Method"), 1)
                if u.text.startswith("In this code"))
    assert points_above(said)
    # a lead-in to its own list says what the list says: "In this code:" and the property's four lines
    lead_in = next(u for u in units_of(_section("### Property Decorators"), 1)
                   if u.text.startswith("In this code:"))
    assert lead_in.introduces == "list" and not points_above(lead_in)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters=":："), max_size=60))
def test_a_lead_in_shown_alone_ends_as_a_sentence(words):
    assert closed(words + ":") == words + "."
    assert closed(words + "：") == words + "。"
    assert closed(words) == words


def test_a_quoted_list_is_cited_on_its_last_item_not_on_a_line_of_its_own():
    """"why did my list get shared …?" quoted "Let's unpack what happened …:" and its items, then "1" on
    a line of its own: in the widget, a stray number under the list."""
    lead_in = next(u for u in units_of(_section("### Same-name Variables (Attributes)"), 1)
                   if u.text.startswith("Let's unpack"))
    assert lead_in.introduces == "list"
    shown = rendered([lead_in])
    assert shown.endswith("modifies the shared class list in place, affecting all instances [1]."), shown
    assert "\n\n[1]" not in shown, shown
    # code keeps its citation on a line of its own, after the block
    code = next(u for u in units_of(_section("### Instance Methods"), 1) if u.introduces == "code")
    assert rendered([code]).endswith("```\n\n[1]"), rendered([code])


def test_a_sentence_opening_on_this_code_points_at_it_in_each_language_of_the_pool():
    from server.question.compose.extractive.answer_units import Unit

    def sentence(text: str, introduces: str = "") -> Unit:
        return Unit(source=1, block=2, index=0, kind="sentence", text=text, heading="", material="prose",
                    introduces=introduces)

    for text in ["In this code, the `__init__` method accepts the custom arguments.",
                 "In this example `blocking_task` runs `time.sleep()`.",
                 "En este ejemplo, la función devuelve un `Result`.",
                 "在这段代码中，`yield` 返回一个值。", "このコードでは`T`が型変数です。"]:
        assert points_above(sentence(text)), text
    for text in ["This code is shorter than the loop.", "In this chapter, we write a parser.",
                 "Code in the `else` block executes only if the `try` block raises nothing."]:
        assert not points_above(sentence(text)), text


def test_a_japanese_sentence_giving_the_reason_for_the_one_before_it_goes_with_it():
    """"…渡す型によっては`style`プロパティが存在しない場合があるからです。" (it is because, depending on the
    type passed, …) was quoted without "このコードはコンパイルに失敗します。" (this code fails to compile), the
    sentence it gives the reason for (survival-ts, "型引数の制約")."""
    page = (CORPORA / "survival-ts" / "docs" / "reference" / "generics" / "type-parameter-constraint.md").read_text(
        encoding="utf-8")
    reason = next(u for u in units_of(page, 1) if u.text.endswith("存在しない場合があるからです。"))
    assert reason.refers_back
    told = next(u for u in units_of(page, 1) if u.text.startswith("TypeScriptでは`extends`キーワード"))
    assert not told.refers_back


def test_what_a_comment_says_a_line_prints_or_raises_is_not_what_the_code_names():
    """"how do i make an attribute read-only?" opened on the magic-methods page's history-keeping class: its
    comment "# Raises AttributeError: 'forbidden' is a read-only attribute." said "read-only", and the 25
    lines came with it, while this page's `@property` list ("making it a read-only computed attribute") waited."""
    from server.question.compose.extractive.code_lines import program_words

    code = ("```python\nc.radius = 3     # Set the radius via the setter method\n"
            "print(c.area)    # Output: 28.26\n"
            "# obj.forbidden = 99        # Raises AttributeError: 'forbidden' is a read-only attribute.\n"
            "print(x)  # 输出：只读属性\n#print Eq.symm\n```")
    kept = program_words(code)
    assert "Set the radius via the setter method" in kept and "c.radius" in kept and "#print Eq.symm" in kept
    assert "read-only" not in kept and "28.26" not in kept and "只读" not in kept
    magic = (CLASSES_DIR / "magic_methods.md").read_text(encoding="utf-8")
    access = magic[magic.index("## Attribute Access"):magic.index("## Context Management")]
    other = Chunk(chunk_id="c-access", book_id="py", book_title="Python", content=access, content_hash="",
                  source_file="magic_methods.md", url="https://x/en/magic_methods", module="", chapter="", section="",
                  heading="Attribute Access", section_hierarchy=["Magic Methods", "Attribute Access"], page=0,
                  source_location="", citation="", file_hash="", embed_text=access, page_key="en/magic_methods",
                  position=0, locale="en", score=0.865)
    sources = [Source(other, "database"), _source("### Property Decorators", 0.859)]
    answer = quoted_answer("how do i make an attribute read-only?", sources).text
    assert answer.startswith("**Property Decorators"), answer
    assert "making it a read-only computed attribute" in answer and "HistoricalAttributes" not in answer, answer
