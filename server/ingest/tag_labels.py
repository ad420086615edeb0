"""Words a page's tags say, kept where clean.py drops the tags: a collapsible part's `<summary>`, a
practice component (`<Exercise title="…">`, `<Solution>`, `<Hint>`) and the title of a definition
(`<Definition title="Función Pura">`, a theorem's, a lemma's) become a bold label.

A summary's or a definition's label runs into the paragraph it opens ("**Recursión profunda** En
Kotlin, …"): a title on a line of its own would be quoted as if it were a sentence of the book.
A practice label stands alone ("**Exercise: Identificar funciones puras**", "**Solution:**"), and a
thematic break stands where the component closes: what an exercise holds, its solution included,
is exercise material (text/blocks.py PRACTICE_LEAD), quoted only when a student asks for exercises.
"""
from __future__ import annotations

import re

_TITLE = re.compile(r"""\btitle\s*=\s*(?:\{\s*)?(["'`])(.*?)\1""", re.DOTALL)
# a summary that names a solution or a hint ("Solution for exercise #1", "Solución"), in the pool's languages
_PRACTICE_WORDS = re.compile(r"^\W*(?:solutions?|hints?|soluci[oó]n(?:es)?|pistas?|解答|答案|ヒント|提示)\b",
                             re.IGNORECASE)
# bracket a label until clean.py has dropped the tags and can join it to what follows: a label
# that runs in, and a practice label (which stands alone)
_RUNS_IN, _ALONE = "\x00", "\x01"
_LABEL_LINE = re.compile(r"^\s*([\x00\x01])(.*?)\1\s*$")
_OPENS_BLOCK = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#|\||```|~~~|>|\$\$)")


def _label(text: str, practice: bool) -> str:
    text = " ".join(text.split())
    if not text:
        return ""
    if practice and ":" not in text:
        text += ":"
    mark = _ALONE if practice else _RUNS_IN
    return f"\n\n{mark}{text}{mark}\n\n"


_ATTRIBUTES = r"(?:[^>{/]|/(?!>)|\{[^}]*\})*"  # up to its ">", not a self-closing "/>"
_TAG = re.compile(r"<summary\b[^>]*>(?P<summary>.*?)</summary\s*>|"
                  rf"<(?P<close>/?)(?P<practice>Exercise|Solution|Hint)\b(?P<attributes>{_ATTRIBUTES})>|"
                  rf"<(?P<named>Definition|Theorem|Lemma|Proposition)\b(?P<titled>{_ATTRIBUTES})>", re.DOTALL)
END = "\n\n---\n\n"  # where a practice component ends, a thematic break, as the site's box ends there


def mark_labels(text: str) -> str:
    """Each summary and practice component's opening tag replaced by its marked label, and a practice
    component's closing tag by END."""
    def tag(match: re.Match) -> str:
        if match["summary"] is not None:
            inner = re.sub(r"<[^>]*>", "", match["summary"])
            return _label(inner, bool(_PRACTICE_WORDS.match(" ".join(inner.split()))))
        title = _TITLE.search(match["attributes"] or match["titled"] or "")
        if match["named"]:  # "<Definition title="Función Pura">": the term it defines opens it
            return _label(title[2], False) if title else match[0]
        if match["close"]:
            return END
        return _label(f"{match['practice']}: {title[2]}" if title else match["practice"], True)

    return re.sub(r"(?:\n\n---\n\n\s*){2,}", END, _TAG.sub(tag, text))  # a solution ends where its exercise does


def join_labels(lines: list[str]) -> list[str]:
    """Each marked label made bold: a summary's run into the paragraph after it (on its own line
    before a list, a table, code or a heading), a practice label on its own line."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        match = _LABEL_LINE.match(lines[i])
        if not match:
            out.append(lines[i])
            i += 1
            continue
        label = f"**{match[2]}**"
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        if match[1] == _RUNS_IN and j < len(lines) and not _LABEL_LINE.match(lines[j]) \
                and not _OPENS_BLOCK.match(lines[j]):
            out.append(f"{label} {lines[j].lstrip()}")
            i = j + 1
        else:
            out.extend([label, ""])
            i = j
    return out
