"""Extractive answers keep the book's structure: whole blocks as written (lists, tables, code),
cited; code when the question asks for it; quizzes and reading lists only when asked."""
from __future__ import annotations

from server.models import Chunk
from server.rag.answers import block_answer
from server.rag.blocks import split_blocks
from server.rag.context import Source

PAGE = """## Installing

To install the toolchain, run the installer script and restart the shell afterwards.

```bash
curl --proto '=https' -sSf https://sh.rustup.rs | sh
```

The installer sets up three tools:

- `rustc`, the compiler
- `cargo`, the build tool and package manager
- `rustup`, which updates both

| tool | role |
|---|---|
| rustc | compiles |
| cargo | builds |

## Quiz

1. Which tool builds a project?
   A) rustc
   B) cargo

## Further reading

- [The Cargo Book](https://doc.rust-lang.org/cargo/)
- [Rustup docs](https://rust-lang.github.io/rustup/)
"""


def _source(text: str, score: float = 0.6) -> Source:
    chunk = Chunk(chunk_id="c", book_id="b", book_title="B", content=text, content_hash="", source_file="f.md",
                  url="", module="", chapter="", section="", heading="", section_hierarchy=[], page=0,
                  source_location="", citation="", file_hash="", score=score)
    return Source(chunk, "database")


def test_a_page_splits_into_the_blocks_it_was_written_in():
    kinds = [(b.kind, b.material) for b in split_blocks(PAGE)]
    assert kinds == [("heading", "prose"), ("paragraph", "prose"), ("code", "code"), ("paragraph", "prose"),
                     ("list", "prose"), ("table", "prose"), ("heading", "quiz"), ("list", "quiz"),
                     ("heading", "references"), ("list", "references")]
    code = split_blocks(PAGE)[2].text
    assert code.startswith("```bash") and code.endswith("```")


def test_code_is_quoted_whole_when_the_question_asks_for_a_command():
    answer = block_answer("what command installs the toolchain?", [_source(PAGE)])
    assert "```bash\ncurl --proto '=https' -sSf https://sh.rustup.rs | sh\n```" in answer
    assert "[1]" in answer


def test_a_list_keeps_its_items_and_quizzes_and_reading_lists_stay_out():
    answer = block_answer("which tools does the installer set up: compiler, build tool, updates?", [_source(PAGE)],
                          "detailed")
    assert "- `cargo`, the build tool and package manager" in answer
    assert "A) rustc" not in answer and "Cargo Book" not in answer and "```" not in answer


def test_a_reading_list_is_quoted_when_asked_for():
    answer = block_answer("any further reading links about cargo and rustup?", [_source(PAGE)])
    assert "[The Cargo Book](https://doc.rust-lang.org/cargo/)" in answer


def test_passages_of_only_exercises_and_code_are_still_quoted():
    page = "## Practice exercises\n\n1. Compute the pose of a two-link arm.\n2. Solve for its joint angles.\n"
    answer = block_answer("how do i find the joint angles for a point?", [_source(page)])
    assert "Solve for its joint angles" in answer and "[1]" in answer
