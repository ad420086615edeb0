"""Sentences said of a block they do not hold: "The example above also makes it clear …", "In this
code, the `__init__` method accepts …". An answer quotes one only with a block before it in its passage
(answers.py), and never opens on one (opening.py)."""
from __future__ import annotations

import re

from server.question.compose.extractive.answer_units import Unit


# "The example above also makes it clear …", "In the previous example, …": said of a block it does not hold
_POINTS_ABOVE = re.compile(r"\b(?:(?:example|code|program|snippet|listing|output|figure|table|diagram)s?\s+above|"
                           r"(?:above|previous|preceding)\s+(?:\w+\s+)?(?:example|code|program|snippet|listing|output|"
                           r"figure|table|diagram)s?)\b|\b(?:ejemplo|código|programa|tabla|figura)s?\s+anterior(?:es)?\b|"
                           r"(?:上面|上述|前面)的?(?:代码|程序|例子|示例|表格|图)|(?:上記|上)の(?:コード|例|プログラム|表|図)",
                           re.IGNORECASE)
# "In this code, the `__init__` method accepts …" (a lead-in, "In this code:", says what its own list does)
_IN_THIS = re.compile(r"\W*(?:in this (?:code|example|snippet|listing|program)\b|en este (?:ejemplo|código|programa)\b|"
                      r"在?(?:这段代码|这个例子|此示例)中|(?:このコード|この例)では)", re.IGNORECASE)


def points_above(unit: Unit) -> bool:
    """Is the sentence said of an example, code or table shown before it ("The example above …")?"""
    return unit.kind in ("sentence", "item") and bool(
        _POINTS_ABOVE.search(unit.plain) or not unit.introduces and _IN_THIS.match(unit.plain))


def shows_a_block(unit: Unit) -> bool:
    """Code, a table or a formula, or a lead-in carrying one: what "the example above" can be."""
    return unit.kind in ("code", "table", "formula") or bool(unit.introduces)
