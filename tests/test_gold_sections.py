"""The gold-section ceiling (benchmarks/gold_sections.py) reads a section as eval/README.md defines
it: from its heading to the next heading of the same or a higher level."""
from benchmarks.gold_sections import section

PAGE = """# Page

## Moves

A move hands the value over.

```rust
# a comment, not a heading
let s2 = s1;
```

### Moves and functions

Passing a value moves it too.

## Borrowing

A reference borrows it.
"""


def test_a_section_runs_to_the_next_heading_of_its_level_with_its_subsections_and_code():
    moves = section(PAGE, "Moves")
    assert "hands the value over" in moves and "Passing a value moves it" in moves and "let s2 = s1;" in moves
    assert "borrows" not in moves
    assert section(PAGE, "Moves and functions").strip() == "Passing a value moves it too."
    assert section(PAGE, "`Borrowing`").strip() == "A reference borrows it."  # compared as rendered
    assert section(PAGE, "Lifetimes") is None
