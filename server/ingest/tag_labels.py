"""Words a page's tags say, kept where clean.py drops the tags: a collapsible part's `<summary>`, a
practice component (`<Exercise title="…">`, `<Solution>`, `<Hint>`) and the title of a definition
(`<Definition title="Función Pura">`, a theorem's, a lemma's) become a bold label on a line of
its own, as the site sets them apart. An answer never quotes a label as a sentence of the book
(answer_units.py): "Recursión profunda con `DeepRecursiveFunction` [2]." had stood alone.

A practice component's closing tag becomes a thematic break: what an exercise holds, its solution
included, is exercise material (text/blocks.py PRACTICE_LEAD), quoted only when a student asks
for exercises.
"""
from __future__ import annotations

import re

from server.text.blocks import SOLUTION_WORDS

_TITLE = re.compile(r"""\btitle\s*=\s*(?:\{\s*)?(["'`])(.*?)\1""", re.DOTALL)
# a summary that names a solution or a hint ("Solution for exercise #1", "Solución"), in the pool's languages
_PRACTICE_WORDS = re.compile(rf"^\W*(?:{SOLUTION_WORDS})\b", re.IGNORECASE)


def _label(text: str, practice: bool) -> str:
    text = " ".join(text.split())
    if not text:
        return ""
    if practice and ":" not in text:
        text += ":"
    return f"\n\n**{text}**\n\n"


_ATTRIBUTES = r"(?:[^>{/]|/(?!>)|\{[^}]*\})*"  # up to its ">", not a self-closing "/>"
_TAG = re.compile(r"<summary\b[^>]*>(?P<summary>.*?)</summary\s*>|"
                  rf"<(?P<close>/?)(?P<practice>Exercise|Solution|Hint)\b(?P<attributes>{_ATTRIBUTES})>|"
                  rf"<(?P<named>Definition|Theorem|Lemma|Proposition)\b(?P<titled>{_ATTRIBUTES})>", re.DOTALL)
END = "\n\n---\n\n"  # where a practice component ends, a thematic break, as the site's box ends there


def mark_labels(text: str) -> str:
    """Each summary, definition and practice component's opening tag replaced by its label, and a
    practice component's closing tag by END."""
    def tag(match: re.Match) -> str:
        if match["summary"] is not None:
            inner = re.sub(r"<[^>]*>", "", match["summary"])
            return _label(inner, bool(_PRACTICE_WORDS.match(" ".join(inner.split()))))
        title = _TITLE.search(match["attributes"] or match["titled"] or "")
        if match["named"]:  # "<Definition title="Función Pura">": the term it defines, before it
            return _label(title[2], False) if title else match[0]
        if match["close"]:
            return END
        return _label(f"{match['practice']}: {title[2]}" if title else match["practice"], True)

    return re.sub(r"(?:\n\n---\n\n\s*){2,}", END, _TAG.sub(tag, text))  # a solution ends where its exercise does
