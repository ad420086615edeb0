"""Plot in-book answer rate against out-of-scope refusal rate over the similarity threshold,
for both books, from the files `benchmarks/retrieval_quality.py` writes.

    .venv/bin/python benchmarks/calibration.py   # → benchmarks/calibration.png
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.common import OUT, REPO  # noqa: E402
from server.settings import Settings  # noqa: E402

BOOKS = ("physical-ai-book", "rust-book")


def main() -> Path:
    fig, axes = plt.subplots(1, len(BOOKS), figsize=(11, 4.2), sharey=True)
    for ax, book in zip(axes, BOOKS):
        table = json.loads((OUT / f"eval-{book}.json").read_text())["calibration"]
        x = [row["threshold"] for row in table]
        ax.plot(x, [row["in_book_answered"] for row in table], "o-", color="#2e7d32", label="in-book answered (score gate)")
        ax.plot(x, [row["oos_refused"] for row in table], "s-", color="#c62828", label="out-of-scope refused (score gate)")
        ax.plot(x, [row["in_book_answered_gated"] for row in table], "o--", color="#66bb6a", label="in-book answered (+ unknown-term gate)")
        ax.plot(x, [row["oos_refused_gated"] for row in table], "s--", color="#ef5350", label="out-of-scope refused (+ unknown-term gate)")
        ax.axvline(Settings.similarity_threshold, color="#555", linestyle=":", label=f"default {Settings.similarity_threshold}")
        ax.set_title(book)
        ax.set_xlabel("similarity threshold")
        ax.set_ylim(0, 1.05)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("rate")
    axes[-1].legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    target = REPO / "benchmarks" / "calibration.png"
    fig.savefig(target, dpi=110)
    print(f"wrote {target}")
    return target


if __name__ == "__main__":
    main()
