"""A book's markup as the widget renders it:
- `_emphasis_` as `*emphasis*`: the widget renders only the starred form, since underscores in
  code names (snake_case, __init__) would be mangled; a quoted definition ("A _trait_ defines …")
  then reads as the book set it;
- a link named by code ("[`IOException`](…)") by its name: the widget shows a link's label as
  written, backticks and all;
- a reference-style link ("[“Data Types”][data-types]") by its label: its target is defined
  elsewhere on the page, never in the quoted sentence.
Code, inline or fenced, is left as written."""
from __future__ import annotations

import re

_FENCED = re.compile(r"(```[\s\S]*?```|~~~[\s\S]*?~~~)")
_CODE = re.compile(r"(`[^`\n]*`)")
# flanking as CommonMark has it: not inside a word (my_var_name) nor a run of underscores (__init__)
_UNDERSCORED = re.compile(r"(?<![\w_])_(?=[^\s_])([^\n_]*?[^\s_])_(?![\w_])")
_CODE_LABEL = re.compile(r"\[`([^`\n\]]+)`\](?=\()")
_CODE_REFERENCE = re.compile(r"\[(`[^`\n\]]+`)\]\[[^\[\]\n]*\]")
_REFERENCE = re.compile(r"\[([^\[\]\n]*[^\W\d_]{2}[^\[\]\n]*)\]\[[^\[\]\n]*\]")


def as_rendered(text: str) -> str:
    return "".join(part if i % 2 else _inline(part) for i, part in enumerate(_FENCED.split(text)))


def _inline(text: str) -> str:
    parts = _CODE.split(_CODE_LABEL.sub(r"[\1]", _CODE_REFERENCE.sub(r"\1", text)))
    return "".join(part if i % 2 else _REFERENCE.sub(r"\1", _UNDERSCORED.sub(r"*\1*", part))
                   for i, part in enumerate(parts))
