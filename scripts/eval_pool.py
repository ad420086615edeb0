"""`make eval`'s table of answer quality over every question set of the pool: one row a set
(retrieval, keyword coverage, length, refusals). Usage: eval_pool.py CORPORA EVAL [SET ...] [--rows DIR]

The four development sets live in EVAL (../shared/eval); the newer books' sets in eval/sets, whose
ROOTS.tsv names each set's book folder. Extractive answers, the configured threshold."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SETS = HERE.parent / "eval" / "sets"
# the development sets' books: a folder of the pool, or None for a built copy (JSX chapters)
DEVELOPMENT = {"physical-ai-book": "physical-ai-book/docs", "rust-book": "rust-book", "aibook": "aibook/docs",
               "physical-ai-i18n": None}
COLUMNS = ("hit@5", "MRR", "keyword coverage", "words p50", "in-book refused", "out-of-scope refused",
           "selection answered", "leak")


def sets(corpora: Path, eval_dir: Path) -> dict[str, tuple[Path, str]]:
    """Every set by name: (its questions, its book's folder)."""
    found = {}
    for name, folder in DEVELOPMENT.items():
        book = folder and str(corpora / folder)
        if book is None:
            book = subprocess.run([sys.executable, str(HERE.parent / "tests" / "built_sites.py"), name],
                                  check=True, capture_output=True, text=True).stdout.strip()
        found[name] = (eval_dir / f"{name}.jsonl", book)
    for line in (SETS / "ROOTS.tsv").read_text(encoding="utf-8").splitlines():
        name, folder, *_ = line.split("\t")
        found[name] = (SETS / f"{name}.jsonl", str(corpora / folder))
    return found


def measures(summary: dict) -> list[str]:
    def number(key, digits=3):
        value = summary.get(key)
        return "—" if value is None else (f"{value:.{digits}f}" if isinstance(value, float) else str(value))
    return [number("hit_at_5"), number("mrr"), number("keyword_coverage", 2), number("answer_words_p50", 0),
            number("in_book_refusal_rate", 2), number("oos_refusal_rate", 2), number("selection_answered_rate", 2),
            number("leak_rate", 2)]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("corpora", type=Path)
    parser.add_argument("eval_dir", type=Path)
    parser.add_argument("names", nargs="*")
    parser.add_argument("--rows", type=Path, help="write each set's per-question rows here")
    args = parser.parse_args()
    everything = sets(args.corpora.resolve(), args.eval_dir.resolve())
    table, failed = [], False
    for name in args.names or list(everything):
        questions, book = everything[name]
        extra = ["--rows", str(args.rows / f"{name}.json")] if args.rows else []
        if args.rows:
            args.rows.mkdir(parents=True, exist_ok=True)
        # this checkout's code, whichever the environment installed (`-m` runs it from its folder)
        done = subprocess.run([sys.executable, "-m", "server", "eval", str(questions), "--book", book, "--json",
                               *extra], capture_output=True, text=True, cwd=HERE.parent)
        try:
            summary = json.loads(done.stdout.strip().splitlines()[-1])
        except (IndexError, json.JSONDecodeError):
            table.append((name, ["error: " + ((done.stderr.strip().splitlines() or ["no report"])[-1])]))
            failed = True
            continue
        table.append((name, measures(summary)))
        print(name, *table[-1][1], file=sys.stderr, flush=True)
    print("| set | " + " | ".join(COLUMNS) + " |")
    print("|---" * (len(COLUMNS) + 1) + "|")
    for name, cells in table:
        print(f"| {name} | " + " | ".join(cells) + " |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
