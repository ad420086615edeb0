"""A student on the Python book's decorator page (python-codex-i18n, "装饰器"), in Chinese. What they
met: "为什么被装饰的函数的 __name__ 变成了 wrapper？怎么解决？" (why does the decorated function's
__name__ become wrapper? how do I fix it?) opened on the next section's `repeat` listing, whose
`greet(name)` said "name" and whose sentences said the pairs 被装, 饰的, 的函 of "被装饰的函数"; and
"怎么写一个带参数的装饰器" (how do I write a decorator that takes arguments?) quoted two more sections'
listings after its own, saying no asked word that it had not."""
from __future__ import annotations

from book_pages import passage, section
from places import CORPORA
from server.question.compose.extractive.answers import quoted_answer
from server.question.context import Source

PAGE = (CORPORA / "python-codex-i18n" / "docs" / "decorator.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return section(PAGE, title, ("\n## ", "\n### "))


def _source(heading: str, score: float, position: int) -> Source:
    title = heading.lstrip("# ")
    return passage(_section(heading), title, score, file="decorator.md", hierarchy=["装饰器", title],
                   url=f"https://x/decorator#{heading}", position=position, locale="zh-cn")


def test_the_section_on_the_renamed_function_answers_not_the_listing_that_names_a_parameter_name():
    sources = [_source("### 保持函数属性", 0.94, 4), _source("## 带参数的装饰器", 0.91, 5)]
    answer = quoted_answer("为什么被装饰的函数的 __name__ 变成了 wrapper？怎么解决？", sources).text
    assert answer.startswith("**保持函数属性**"), answer
    assert "被装饰的函数被 wrapper() 替代了" in answer and "def repeat" not in answer, answer


def test_code_asked_for_is_the_answering_sections_not_other_sections_listings():
    sources = [_source("## 带参数的装饰器", 0.93, 5), _source("### 参数验证", 0.9, 9),
               _source("### 记录函数的调用信息", 0.88, 7)]
    answer = quoted_answer("怎么写一个带参数的装饰器，比如让函数运行好几次？", sources).text
    assert "def repeat(num_times)" in answer, answer
    assert "validate_positive" not in answer and "@log" not in answer, answer


def test_a_name_written_with_underscores_is_said_only_where_it_stands_whole():
    """"__name__" is not the "name" of `def greet(name):`."""
    from server.question.compose.extractive.question_words import said_alone
    alone = said_alone("为什么 __name__ 变成了 wrapper？", {"name": 1.0, "wrapp": 1.0})
    assert alone["name"].search("print(my_slow_function.__name__)")
    assert not alone["name"].search('def greet(name):\n    print(f"Hello {name}")')
    assert "wrapp" not in alone
