"""What the answers of an evaluation read like: how many of an item's answer keywords the answer
text holds, and how long the answers are in words a student reads (prose and lists; code blocks
and tables are not counted, nor citation markers), per book and per tag of the in-book items."""
from __future__ import annotations

import re
from statistics import median

from server.text.lengths import CJK_RUNS, link_texts, reading_length

_FENCED = re.compile(r"^\s*(```|~~~).*?^\s*\1[^\n]*$", re.MULTILINE | re.DOTALL)
_TABLE_ROW = re.compile(r"^\s*\|.*$", re.MULTILINE)
_MARKER = re.compile(r"\[\d+(?:\s*[,;–-]\s*\d+)*\](?!\()")


def keyword_coverage(answer: str, keywords: list[str]) -> float:
    """The share of `keywords` present in the answer (case-insensitive substrings), its citation
    markers left out (the "[3]" of a third source is not the book's "3")."""
    if not keywords:
        return 1.0
    lowered = _MARKER.sub(" ", answer).lower()
    return sum(k.lower() in lowered for k in keywords) / len(keywords)


def answer_words(answer: str) -> int:
    """Words a reader reads in the answer, code blocks and tables left out; Chinese and Japanese,
    unspaced, by their characters in twos (as the answer's reading length counts them)."""
    prose = link_texts(_MARKER.sub(" ", _TABLE_ROW.sub(" ", _FENCED.sub(" ", answer))))
    spaced = len(re.findall(r"\w[\w'’-]*", CJK_RUNS.sub(" ", prose)))
    return spaced + sum(map(reading_length, CJK_RUNS.findall(prose)))


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def _median(values: list[int]) -> float | None:
    return float(median(values)) if values else None


def answer_summary(rows: list[dict]) -> dict:
    """Coverage and median length over the in-book rows (each with `keyword_coverage` and
    `answer_words`), for the whole set and for each tag."""
    in_book = [r for r in rows if r["kind"] == "in_book"]
    by_tag: dict[str, list[dict]] = {}
    for row in in_book:
        for tag in row.get("tags", []):
            by_tag.setdefault(tag, []).append(row)

    def measures(found: list[dict]) -> dict:
        return {"keyword_coverage": _mean([r["keyword_coverage"] for r in found]),
                "answer_words_p50": _median([r["answer_words"] for r in found])}

    return {**measures(in_book), "tags": {tag: measures(found) for tag, found in sorted(by_tag.items())}}
