"""How alike (cosine, the embedding model's vectors) two different questions of one book are,
across the four development books' question sets: the line at which coverage gaps group
questions (server/insights/gaps.py, GROUP_SIMILARITY) must lie above nearly all of them.

Each in-book question of a set asks a different thing; every pair of them within a book is a
pair of different questions. Printed per book and for all four: the share of pairs at least as
alike as each candidate line, and the 99th percentile.

    .venv/bin/python benchmarks/gap_grouping.py
"""
from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import EVAL, MODELS_DIR, machine  # noqa: E402
from server.embedding.embedder import load_embedder  # noqa: E402
from server.insights.gaps import GROUP_SIMILARITY  # noqa: E402
from server.settings import Settings  # noqa: E402

BOOKS = ("physical-ai-book", "rust-book", "physical-ai-i18n", "aibook")
LINES = (0.4, 0.45, 0.5, 0.55, 0.6)


def main() -> None:
    embedder = load_embedder(Settings(models_dir=MODELS_DIR))
    everything = []
    print(f"machine: {machine()}; the line in use: {GROUP_SIMILARITY}")
    for book in BOOKS:
        items = [json.loads(line) for line in (EVAL / f"{book}.jsonl").read_text().splitlines() if line.strip()]
        questions = [i["question"] for i in items if i["kind"] == "in_book"]
        vectors = np.stack([embedder.embed_query(q) for q in questions])
        similar = vectors @ vectors.T
        pairs = np.array([similar[a, b] for a, b in itertools.combinations(range(len(questions)), 2)])
        everything.append(pairs)
        shares = ", ".join(f"≥{line}: {np.mean(pairs >= line):.2%}" for line in LINES)
        print(f"{book:18} {len(pairs):5} pairs  p99 {np.percentile(pairs, 99):.3f}  {shares}")
    pairs = np.concatenate(everything)
    shares = ", ".join(f"≥{line}: {np.mean(pairs >= line):.2%}" for line in LINES)
    print(f"{'all four':18} {len(pairs):5} pairs  p99 {np.percentile(pairs, 99):.3f}  {shares}")


if __name__ == "__main__":
    main()
