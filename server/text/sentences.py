"""Sentence splitting shared by selection chunking and the extractive generator."""
from __future__ import annotations

import re

from server.text.lengths import spaced_length

# a full stop of Chinese or Japanese (no space need follow it; not inside a quotation's close) or
# of Urdu: sentences end there in every splitter of the project
OTHER_SCRIPTS = r"(?<=[。！？])(?![」』）)”])\s*(?=\S)|(?<=[。！？][」』）)”])\s*(?=[^\s\u3040-\u309f、。])|(?<=۔)\s+"
# after a full stop and the quotes or brackets that close on it ("… cluster.) This"), kept with their sentence
_BOUNDARY = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"')\]])|(?<=[.!?][\"')\]]{2}))\s+(?=[A-Z0-9\"'(`*\[])|"
                       + OTHER_SCRIPTS)
LEAD_IN_ENDS = (":", "：")  # a lead-in's colon, Chinese and Japanese writing theirs full width
_FENCE = re.compile(r"```.*?```|~~~.*?~~~", re.DOTALL)
# markdown's line endings, and no others: str.splitlines also breaks at a form feed, a record
# separator or U+2028, which split_sentences reads as spaces inside a sentence
LINE_END = re.compile(r"\r\n?|\n")


def strip_markdown(text: str) -> str:
    """Prose only: code fences, list bullets, heading hashes and emphasis removed."""
    text = _FENCE.sub(" ", text)
    text = re.sub(r"^\s{0,3}#{1,6}\s*", "", text, flags=re.MULTILINE)
    text = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text, flags=re.MULTILINE)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text)
    return text


def split_sentences(text: str) -> list[str]:
    """Sentences of prose; each list item or line break ends a sentence too."""
    sentences: list[str] = []
    for paragraph in re.split(r"\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)])\s)", LINE_END.sub("\n", text)):
        paragraph = " ".join(paragraph.split())
        if paragraph:
            sentences.extend(s.strip() for s in _BOUNDARY.split(paragraph) if s.strip())
    return sentences


CJK_STOPS = ("。", "！", "？")


def joined(sentences: list[str]) -> str:
    """Sentences run together as in a paragraph: a space between them, none after a Chinese or
    Japanese full stop ("…迭代器。生成器是…")."""
    return "".join(s if not k or sentences[k - 1].endswith(CJK_STOPS) else f" {s}" for k, s in enumerate(sentences))


def split_passage(text: str, max_words: int = 120) -> list[str]:
    """Group sentences of a highlighted passage into pieces of at most `max_words` words."""
    pieces: list[str] = []
    current: list[str] = []
    words = 0
    for sentence in split_sentences(text):
        n = spaced_length(sentence)
        if current and words + n > max_words:
            pieces.append(joined(current))
            current, words = [], 0
        current.append(sentence)
        words += n
    if current:
        pieces.append(joined(current))
    return pieces


def normalised(text: str) -> str:
    """Lower-case words and digits only, single-spaced, in any script: for finding a passage inside
    a chunk. (Latin letters alone made every Chinese or Urdu passage "" and so found in any chunk.)"""
    return " ".join(re.sub(r"[\W_]+", " ", strip_markdown(text).lower()).split())
