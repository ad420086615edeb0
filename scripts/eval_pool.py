"""`make eval`'s table of answer quality over every question set of the pool: one row a set
(retrieval, keyword coverage, length, refusals). Usage: eval_pool.py CORPORA EVAL [SET ...] [--rows DIR]

The four development sets live in EVAL (../shared/eval); the newer books' sets in eval/sets, whose
ROOTS.tsv names each set's book folder (or `built:NAME`, a site built once and cached) and, when
its questions are asked from pages in another locale, that locale. Extractive answers, the
index's own model (chosen for each book as `ingest` chooses it) and its gate."""
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
COLUMNS = ("model", "hit@5", "MRR", "keyword coverage", "words p50", "in-book refused", "out-of-scope refused",
           "cited in the page's locale", "selection answered", "leak")


def built(name: str) -> str:
    return subprocess.run([sys.executable, str(HERE.parent / "tests" / "built_sites.py"), name],
                          check=True, capture_output=True, text=True).stdout.strip()


def sets(corpora: Path, eval_dir: Path) -> dict[str, tuple[Path, str, str | None]]:
    """Every set by name: (its questions, its book's folder, the reader's page locale or None)."""
    found = {}
    for name, folder in DEVELOPMENT.items():
        found[name] = (eval_dir / f"{name}.jsonl", str(corpora / folder) if folder else built(name), None)
    for line in (SETS / "ROOTS.tsv").read_text(encoding="utf-8").splitlines():
        name, folder, _letter, *locale = line.split("\t")
        book = built(folder.removeprefix("built:")) if folder.startswith("built:") else str(corpora / folder)
        found[name] = (SETS / f"{name}.jsonl", book, locale[0] if locale else None)
    return found


def measures(summary: dict) -> list[str]:
    def number(key, digits=3):
        value = summary.get(key)
        return "—" if value is None else (f"{value:.{digits}f}" if isinstance(value, float) else str(value))
    model = {"sentence-transformers/all-MiniLM-L6-v2": "MiniLM", "intfloat/multilingual-e5-small": "e5-small"}
    return [model.get(summary.get("embedding_model"), str(summary.get("embedding_model"))),
            number("hit_at_5"), number("mrr"), number("keyword_coverage", 2), number("answer_words_p50", 0),
            number("in_book_refusal_rate", 2), number("oos_refusal_rate", 2), number("cited_in_locale_rate", 2),
            number("selection_answered_rate", 2),
            number("leak_rate", 2)]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("corpora", type=Path)
    parser.add_argument("eval_dir", type=Path)
    parser.add_argument("names", nargs="*")
    parser.add_argument("--rows", type=Path, help="write each set's per-question rows here")
    parser.add_argument("--asked-on", choices=["gold", "next"], help="ask each question on a page (textbook-chat eval --asked-on)")
    args = parser.parse_args()
    everything = sets(args.corpora.resolve(), args.eval_dir.resolve())
    table, failed = [], False
    for name in args.names or list(everything):
        questions, book, locale = everything[name]
        extra = (["--rows", str(args.rows / f"{name}.json")] if args.rows else []) + (["--locale", locale] if locale else [])
        extra += ["--asked-on", args.asked_on] if args.asked_on else []
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
