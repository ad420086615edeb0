"""Retrieval hit@k and MRR (and answer checks) on both corpora, via `textbook-chat eval`.

    .venv/bin/python benchmarks/retrieval_quality.py
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import CORPORA, EVAL, OUT, REPO  # noqa: E402

BOOKS = {"physical-ai-book": CORPORA / "physical-ai-book" / "docs", "rust-book": CORPORA / "rust-book"}


def main() -> dict:
    OUT.mkdir(parents=True, exist_ok=True)
    results = {}
    for name, path in BOOKS.items():
        rows = OUT / f"eval-{name}.json"
        done = subprocess.run([str(REPO / ".venv/bin/textbook-chat"), "eval", str(EVAL / f"{name}.jsonl"),
                               "--book", str(path), "--json", "--rows", str(rows)],
                              check=True, capture_output=True, text=True)
        results[name] = json.loads(done.stdout.strip().splitlines()[-1])
        s = results[name]
        print(f"{name}: hit@1 {s['hit_at_1']:.3f}  hit@5 {s['hit_at_5']:.3f}  MRR {s['mrr']:.3f}  "
              f"(BM25 hit@5 {s['bm25']['hit_at_5']:.3f}, MRR {s['bm25']['mrr']:.3f})  "
              f"in-book refused {s['in_book_refusal_rate']}  out-of-scope refused {s['oos_refusal_rate']}  "
              f"leak {s['leak_rate']}")
    (OUT / "retrieval_quality.json").write_text(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
