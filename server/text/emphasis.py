"""A book's `_emphasis_` as `*emphasis*`: the widget renders only the starred form, since
underscores in code names (snake_case, __init__) would be mangled; a quoted definition ("A
_trait_ defines …") then reads as the book set it. Code, inline or fenced, is left as written."""
from __future__ import annotations

import re

_CODE = re.compile(r"(```[\s\S]*?```|~~~[\s\S]*?~~~|`[^`\n]*`)")
# flanking as CommonMark has it: not inside a word (my_var_name) nor a run of underscores (__init__)
_UNDERSCORED = re.compile(r"(?<![\w_])_(?=[^\s_])([^\n_]*?[^\s_])_(?![\w_])")


def starred(text: str) -> str:
    parts = _CODE.split(text)
    return "".join(part if i % 2 else _UNDERSCORED.sub(r"*\1*", part) for i, part in enumerate(parts))
