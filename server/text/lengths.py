"""How long a text is, in words a reader reads, in any language. Chinese and Japanese write words
without spaces: a run of their characters counts its characters in twos (a word of these
languages is about two characters), so a length threshold means the same in every language."""
from __future__ import annotations

import re

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # kana and CJK ideographs
WORD = re.compile(rf"[{CJK}]+|[^\W_{CJK}]+")
CJK_RUN = re.compile(rf"[{CJK}]")
CJK_RUNS = re.compile(rf"[{CJK}]+")
_CJK_PUNCTUATION = re.compile(r"[\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]")  # "。", "、", "？": not words
_LINK_TARGET = re.compile(r"\]\([^)\s]*\)")  # "[text](https://…)": the part a reader does not read


def reading_length(text: str) -> int:
    """How many words a reader reads in `text`: word characters' runs, a run of Chinese or
    Japanese characters by its characters in twos. A link's target is not read, only its text."""
    return sum((len(run) + 1) // 2 if CJK_RUN.match(run) else 1 for run in WORD.findall(link_texts(text)))


def spaced_length(text: str) -> int:
    """`len(text.split())` in any language: the words spaces part, and each run of Chinese or
    Japanese characters by its characters in twos ("constとletの違い": 5, not 1)."""
    spaced = CJK_RUNS.sub(" ", _CJK_PUNCTUATION.sub(" ", text))
    return len(spaced.split()) + sum((len(run) + 1) // 2 for run in CJK_RUNS.findall(text))


def link_texts(text: str) -> str:
    """The text with each link's target left out ("[the docs](https://…)" reads "[the docs]")."""
    return _LINK_TARGET.sub("]", text)
