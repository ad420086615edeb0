"""A long code block shown by the lines that name what was asked: a student reads thirty lines
at most, and the lines that matter are the ones naming the question's words."""
from __future__ import annotations

import re

# text a program holds rather than what it does: a multi-line string (Python's triple quotes, a
# Haskell quasi-quote, a template literal) or a quoted string of three words or more
_HELD_TEXT = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|\[\w*\|[\s\S]*?\|\]|`[^`\n]*\n[^`]*`|"(?:[^"\\\n]|\\.)*"')
# what a line prints, written beside it as a comment: "# Output: 78.5", "# Raises AttributeError: 'forbidden' is
# a read-only attribute." (the program's message, not what it does); "# 输出：…", "// 出力: …", "# Salida: …"
# (a comment's mark and a space: Lean's `#print` is a command)
_SHOWN_OUTPUT = re.compile(r"(?:#|//|--)[ \t]+(?:outputs?|prints?|raises|error|输出|出力|salida)[ \t:：].*$",
                           re.IGNORECASE | re.MULTILINE)
_FENCED = re.compile(r"^([ \t]*(?:```|~~~)[^\n]*\n)([\s\S]*?)(^[ \t]*(?:```|~~~)[ \t]*$)", re.MULTILINE)
_OPENER = re.compile(r"^([ \t]*(?:```|~~~))[^\n]*", re.MULTILINE)  # a fence's opening line, its language after it
MAX_CODE_LINES = 30  # a longer code block is shown by the lines that name what was asked
CODE_CONTEXT = 2  # lines kept either side of one that names an asked word


def trimmed_code(block: str, asked: set[str]) -> str:
    """A fenced block over MAX_CODE_LINES cut to the lines naming an asked word and those around
    them (the first lines when none does), a "…" line where lines are left out."""
    lines = block.split("\n")
    if len(lines) < 3 or not lines[0].lstrip().startswith(("```", "~~~")) or len(lines) - 2 <= MAX_CODE_LINES:
        return block
    body = lines[1:-1]
    named = [{word for word in asked if word in line.lower()} for line in body]
    lines_naming = {word: sum(word in found for found in named) for word in asked}
    # the lines naming the rarest asked words first ("spawn" on two lines before "robot" on forty)
    weight = [sum(1 / lines_naming[word] for word in found) for found in named]
    chosen: set[int] = set()
    for i in sorted((i for i in range(len(body)) if named[i]), key=lambda i: -weight[i]):
        around = chosen | {j for j in range(i - CODE_CONTEXT, i + CODE_CONTEXT + 1) if 0 <= j < len(body)}
        if len(around) + _elisions(sorted(around), len(body)) > MAX_CODE_LINES:
            break
        chosen = around
    keep = sorted(chosen) or list(range(MAX_CODE_LINES - 1))
    shown, last = [lines[0]], -1
    for i in keep:
        if i != last + 1:
            shown.append("…")
        shown.append(body[i])
        last = i
    if last < len(body) - 1:
        shown.append("…")
    return "\n".join([*shown, lines[-1]])


def _elisions(kept: list[int], length: int) -> int:
    """The "…" lines a block of `length` lines shown by the lines `kept` needs."""
    gaps = sum(1 for a, b in zip(kept, kept[1:]) if b != a + 1)
    return gaps + (kept[0] > 0) + (kept[-1] < length - 1) if kept else 0


def program_words(text: str) -> str:
    """`text` with the text its code blocks hold as data left out: a test's sample document or a
    message to print names what the program handles, not what it does ("how do I read a file?" is
    not answered by a test whose sample says "Create a new Haskell source file"), nor what a comment says
    a line prints or raises ("# Output: …"). Nor is a fence's
    language a word it says ("```lean" says no "lean" asked)."""
    def without_held(code: str) -> str:
        code = _SHOWN_OUTPUT.sub(" ", code)
        return _HELD_TEXT.sub(lambda held: held[0] if len(held[0].split()) < 3 else " ", code)
    if not _FENCED.search(text):
        return without_held(_OPENER.sub(r"\1", text, count=1)) if text.lstrip().startswith(("```", "~~~")) else text
    return _FENCED.sub(lambda block: _OPENER.sub(r"\1", block[1]) + without_held(block[2]) + block[3], text)
