"""How much of its answer keywords a question's gold section holds in a few reading words: the
ceiling of quoting the right section, with no composer and no retrieval. For each in-book question
of a set whose book is Markdown, the section under `gold_heading` in `gold_docs[0]` (to the next
heading of the same or a higher level, as eval/README.md defines it; read as ingest reads a page's
sections) is read as prose (code blocks left out), and the keywords it says are counted in its first N reading words, and in the
N reading words of its sentences that share the most words with the question.

    python benchmarks/gold_sections.py [SET ...] [--words 90]
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import CORPORA, EVAL, REPO  # noqa: E402
from server.ingest.anchors import rendered_text  # noqa: E402
from server.ingest.clean import clean_markdown  # noqa: E402
from server.ingest.page import Page  # noqa: E402
from server.ingest.sections import reading_sections  # noqa: E402
from server.text.lengths import reading_length  # noqa: E402
from server.text.vocabulary import words  # noqa: E402

# the sets whose book is Markdown, by the folder their gold_docs are relative to
BOOKS = {"physical-ai-book": "physical-ai-book/docs", "rust-book": "rust-book/src", "aibook": "aibook/docs"}
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|\n\s*\n|\n(?=\s*(?:[-*]|\d+\.)\s)")


def _sets() -> dict[str, tuple[Path, Path]]:
    found = {name: (EVAL / f"{name}.jsonl", CORPORA / folder) for name, folder in BOOKS.items()}
    for line in (REPO / "eval" / "sets" / "ROOTS.tsv").read_text(encoding="utf-8").splitlines():
        name, folder, *_ = line.split("\t")
        if not folder.startswith("built:"):
            found[name] = (REPO / "eval" / "sets" / f"{name}.jsonl", CORPORA / folder)
    return found


def section(page: str, heading: str) -> str | None:
    """The text under the heading, its subsections' included, as ingest reads the page's sections;
    None where the page has no such heading."""
    wanted = rendered_text(heading)
    read = reading_sections(Page(source_file="", title="", url="", categories=[], order=1,
                                 body=clean_markdown(page), file_hash=""))
    inside = [s for s in read if any(text == wanted for _, text, _ in s.headings)]
    if not inside:  # the page's title: the page is the section
        title = next((line[2:] for line in page.splitlines() if line.startswith("# ")), None)
        return "\n\n".join(b.text for s in read for b in s.blocks) if title and rendered_text(title) == wanted \
            else None
    first = read.index(inside[0])
    run = [s for s in read[first:first + len(inside)] if s in inside]  # the first section of that name
    return "\n\n".join(b.text for s in run for b in s.blocks)


def _reading(sentences: list[str], budget: int) -> list[str]:
    """The sentences, in the order given, that fit in `budget` reading words (the first always)."""
    taken, length = [], 0
    for sentence in sentences:
        if taken and length + reading_length(sentence) > budget:
            continue
        taken.append(sentence)
        length += reading_length(sentence)
    return taken


def measure(questions: Path, book: Path, budget: int) -> dict:
    first, best, missing = [], [], 0
    for line in questions.read_text(encoding="utf-8").splitlines():
        item = json.loads(line) if line.strip() else {}
        if item.get("kind") != "in_book" or not item.get("gold_heading"):
            continue
        page = book / item["gold_docs"][0]
        text = section(page.read_text(encoding="utf-8"), item["gold_heading"]) if page.exists() else None
        if text is None:
            missing += 1
            continue
        prose = re.sub(r"```.*?```", " ", text, flags=re.DOTALL)
        sentences = [s.strip() for s in _SENTENCE.split(prose) if s.strip()]
        asked = set(words(item["question"]))
        nearest = sorted(sentences, key=lambda s: -len(asked & set(words(s))))
        for out, order in ((first, sentences), (best, nearest)):
            said = " ".join(_reading(order, budget)).lower()
            out.append(sum(k.lower() in said for k in item["answer_keywords"]) / len(item["answer_keywords"]))
    mean = (lambda values: round(sum(values) / len(values), 3) if values else None)
    return {"questions": len(first), "gold section not found": missing, "first words": mean(first),
            "nearest sentences": mean(best)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("names", nargs="*")
    parser.add_argument("--words", type=int, default=90)
    args = parser.parse_args()
    every = _sets()
    for name in args.names or list(every):
        questions, book = every[name]
        print(name, json.dumps(measure(questions, book, args.words), ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
