"""`make eval`'s table of `textbook-chat check-book` over the pool of books: one row a book, one
column a check (ok, or FAIL with its measure). Usage: check_books.py CORPORA [BOOK ...]; exits 1
when a check fails on a book."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the book's folder in the pool, or a built copy of it (its chapters are JSX only a build renders)
POOL = {"physical-ai-book": "physical-ai-book/docs", "rust-book": "rust-book", "aibook": "aibook/docs",
        "physical-ai-i18n": None, "tpil4": "tpil4", "lhbg": "lhbg", "survival-ts": "survival-ts",
        "whg-genomics": "whg-genomics", "dibs-es": "dibs-es", "python-codex-i18n": "python-codex-i18n"}


def book_path(corpora: Path, name: str) -> str:
    if POOL[name] is None:
        return subprocess.run([sys.executable, str(HERE.parent / "tests" / "built_sites.py"), name],
                              check=True, capture_output=True, text=True).stdout.strip()
    return str(corpora / POOL[name])


def main() -> int:
    corpora = Path(sys.argv[1])
    names = sys.argv[2:] or list(POOL)
    command = Path(sys.executable).with_name("textbook-chat")
    rows, failed = [], False
    for name in names:
        done = subprocess.run([str(command), "check-book", book_path(corpora, name), "--json"],
                              capture_output=True, text=True)
        lines = done.stdout.strip().splitlines()
        try:
            report = json.loads(lines[-1])
        except (IndexError, json.JSONDecodeError):  # the command itself failed: say how
            rows.append((name, [("error", False, (done.stderr.strip().splitlines() or ["no report"])[-1])]))
            failed = True
            continue
        failed |= not report["passed"]
        rows.append((name, [(c["check"], c["passed"], c["measure"]) for c in report["checks"]]))
        for check in report["checks"]:
            for failure in check["failures"][:2]:
                print(f"{name}: {check['check']}: {failure}", file=sys.stderr)
    checks = max(([check for check, _, _ in results] for _, results in rows), key=len, default=[])
    print("| book | " + " | ".join(checks) + " |")
    print("|---" * (len(checks) + 1) + "|")
    for name, results in rows:
        print(f"| {name} | " + " | ".join("ok" if passed else f"FAIL {measure}" for _, passed, measure in results) + " |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
