"""MDX/mdBook cleaning keeps prose and code, drops syntax readers never see."""
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from places import CORPORA
from server.ingest.clean import clean_markdown, split_fences

MDX = """import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
export const meta = {
  level: 'intro',
};

# Title

Some prose before.

<Tabs>
  <TabItem value="py" label="Python">
    Python prose inside a tab.
  </TabItem>
</Tabs>

<PersonalizeButton
  chapterPath="/a/b"
  onPersonalize={(content) => {
    console.log("x > y", content);
  }}
/>

Prose after the component with `<Inline>` code and <https://example.org>.

:::tip Remember this
Admonition body.
:::

```jsx
<Tabs>kept in code</Tabs>
import x from 'y';
```
"""


def test_mdx_syntax_removed_prose_kept():
    out = clean_markdown(MDX)
    assert "import" not in out.split("```")[0]
    assert "export const" not in out
    assert "<Tabs>" not in out.split("```")[0]
    assert "PersonalizeButton" not in out and "console.log" not in out
    for prose in ("Some prose before.", "Python prose inside a tab.", "Prose after the component"):
        assert prose in out
    assert "`<Inline>`" in out
    assert "<https://example.org>" in out
    assert "**Tip: Remember this**" in out and "Admonition body." in out
    assert ":::" not in out
    assert "<Tabs>kept in code</Tabs>\nimport x from 'y';" in out


def test_a_github_alert_is_labelled_as_an_admonition_is():
    # "> [!TIP]" was quoted as "[!TIP] If you are struggling …" on a Python book
    out = clean_markdown("Text.\n\n> [!TIP]\n> Write it with print() first.\n\n> [!important] Prime it first.\n")
    assert "[!" not in out
    assert "> **Tip:**\n> Write it with print() first." in out
    assert "> **Important:** Prime it first." in out
    assert "> [!TIP]" in clean_markdown("```md\n> [!TIP]\n```\n")  # code stays as written


def test_a_table_written_in_html_is_a_markdown_table():
    """lhbg's table of `let` and `<-`, its cells one-line <pre> blocks: with its tags stripped, the
    cell "=" under the cell `let greeting = "hello"` made that a heading the answers quoted under."""
    page = (CORPORA / "lhbg" / "src" / "05-glue" / "02-io.md").read_text(encoding="utf-8")
    cleaned = clean_markdown(page)
    assert '| `let mygetline = getLine` | `=` | `IO String` | `IO String` | We just create a new name for `getLine` |' \
        in cleaned
    assert "| code | operator | type of the left side |" in cleaned and "<td>" not in cleaned
    assert not any(line.strip() in ("=", "# let mygetline = getLine") for line in cleaned.splitlines())


def test_mdbook_includes_dropped_cleanly():
    text = "Intro\n\n```rust\n{{#rustdoc_include ../listings/a/src/main.rs}}\n```\n\nMore {{#include x.txt}} text\n\n```rust\nfn main() {}\n```\n"
    out = clean_markdown(text)
    assert "{{#" not in out
    assert "```rust\nfn main() {}\n```" in out
    assert out.count("```") == 2  # the include-only listing is gone, not left empty


def test_split_fences_handles_longer_and_tilde_fences():
    runs = split_fences("a\n````md\n```\ninner\n```\n````\nb\n~~~\nc\n~~~")
    assert [is_code for is_code, _ in runs] == [False, True, False, True]


def test_an_mdbooks_hidden_code_lines_are_left_out_as_its_readers_never_see_them():
    page = ("Text.\n\n```rust\n# fn main() {\n#[derive(Debug)]\nstruct Point;\n## a macro's hash\n#\nlet x = 1;\n"
            "# }\n```\n\n```lean\n# namespace Hidden\naxiom choice : Nonempty α → α\n# end Hidden\n```\n\n"
            "```python\n# a comment, shown\nx = 1\n```\n")
    cleaned = clean_markdown(page, {"rust": "#", "lean": "# "})
    assert "fn main" not in cleaned and "namespace Hidden" not in cleaned and "# }" not in cleaned
    assert "#[derive(Debug)]" in cleaned and "\n# a macro's hash\n" in cleaned and "axiom choice" in cleaned
    assert "# a comment, shown" in cleaned  # no prefix is set for Python
    assert "fn main" in clean_markdown(page)  # a Docusaurus page's code is kept verbatim


def test_an_mdbooks_language_and_hidden_lines_come_from_its_book_toml(tmp_path):
    from server.ingest.pages import discover_pages
    from server.ingest.site import detect_site

    tpil4 = detect_site(CORPORA / "tpil4")
    assert dict(tpil4.hidden_code_lines) == {"lean": "# ", "rust": "#"}  # its playground's boring prefix
    pages = discover_pages(tpil4).pages
    axioms = next(p for p in pages if p.source_file == "axioms_and_computation.md")
    assert "axiom choice" in axioms.body and "# namespace Hidden" not in axioms.body
    (tmp_path / "src").mkdir()
    (tmp_path / "book.toml").write_text('[book]\ntitle = "入門"\nlanguage = "ja"\n\n[output.html.code.hidelines]\n'
                                        'python = "~"\n', encoding="utf-8")
    (tmp_path / "src" / "SUMMARY.md").write_text("- [はじめに](intro.md)\n", encoding="utf-8")
    (tmp_path / "src" / "intro.md").write_text("# はじめに\n\n```python\n~import os\nprint(1)\n```\n", encoding="utf-8")
    site = detect_site(tmp_path)
    assert (site.default_locale, site.locales, site.title) == ("ja", ("ja",), "入門")
    page = discover_pages(site).pages[0]
    assert page.locale == "ja" and "import os" not in page.body and "print(1)" in page.body


def test_a_twoslash_blocks_hidden_lines_and_compiler_notes_are_left_out_as_the_page_shows_it():
    """Twoslash hides what comes before "// ---cut---" and sets the compiler with "// @errors: …";
    the page shows the code after the cut, and a book's "// @log: …" output (survival-ts)."""
    page = (CORPORA / "survival-ts" / "docs" / "reference" / "generics" / "README.md").read_text(encoding="utf-8")
    assert "// ---cut---" in page and "declare function chooseRandomlyString" in page
    cleaned = clean_markdown(page)
    assert "---cut---" not in cleaned and "declare function chooseRandomlyString" not in cleaned
    assert 'const winOrLose = chooseRandomlyString("勝ち", "負け");' in cleaned
    block = "```ts twoslash\n// @errors: 2322\nlet x: number = 1;\n//  ^?\nconsole.log(x);\n// @log: 1\n```\n"
    assert clean_markdown(block) == "```ts twoslash\nlet x: number = 1;\nconsole.log(x);\n// @log: 1\n```\n"
    plain = "```ts\n// @errors: 2322\nlet x: number = 1;\n```\n"
    assert clean_markdown(plain) == plain  # not twoslash: every line is the book's


def test_a_summary_and_a_definitions_title_are_labels_and_a_practice_part_is_labelled_and_ended():
    """A `<summary>` alone on a line was quoted as if it were a sentence of the book ("Recursión
    profunda con `DeepRecursiveFunction` [2]."). It is now a bold label, which an answer never
    quotes (test_answers.py), as is a `<Definition title>`. An `<Exercise title>` and a `<Solution>`
    are named by their labels, and a thematic break stands where the practice ends, so that an
    answer can leave it out."""
    page = ("<details>\n    <summary>\n        Recursión profunda con `DeepRecursiveFunction`\n    </summary>\n\n"
            "    En Kotlin, incluso con `tailrec`, una llamada que no está en cola puede desbordar la pila.\n"
            "</details>\n\n"
            "<Exercise title={\"Identificar Funciones Puras e Impuras\"}>\n"
            "    Identifica si las siguientes funciones son puras o impuras:\n\n"
            "    <Solution>\n        1. **Pura**: No tiene efectos secundarios.\n"
            "        2. **Impura**: Imprime en la consola.\n    </Solution>\n</Exercise>\n\n"
            "<Corollary>\n    Si una función retorna `Unit`, podría tener efectos secundarios.\n</Corollary>\n\n"
            "<details><summary>Solution for (1)</summary>\n\n```hs\nisBright = True\n```\n\n</details>\n\n"
            "<Definition title={\"Función Pura\"}>\n    Una función es pura si no cambia el estado.\n</Definition>\n\n"
            "<Definition title=\"Closed\" />\n\nLa prosa sigue.\n")
    cleaned = clean_markdown(page)
    assert "**Recursión profunda con `DeepRecursiveFunction`**\n\nEn Kotlin, incluso con `tailrec`" in cleaned
    assert "**Exercise: Identificar Funciones Puras e Impuras**\n\nIdentifica si" in cleaned
    assert "**Solution:**\n\n" in cleaned
    # the exercise ends once, where its solution and the exercise close, before the corollary
    assert re.search(r"Imprime en la consola\.\n\n---\n\nSi una función retorna", cleaned), cleaned
    assert "**Solution for (1):**\n\n```hs" in cleaned  # a solution's summary before code: its own line
    assert cleaned.count("---") == 1
    assert "**Función Pura**\n\nUna función es pura" in cleaned  # a definition's term, before it
    assert "Closed" not in cleaned and "\nLa prosa sigue." in cleaned  # a self-closing one says nothing


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=60),
       st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=80))
@settings(max_examples=80, deadline=None)
def test_no_word_of_a_summary_or_of_what_it_opens_is_lost(summary, text):
    """Whatever a summary and its paragraph say, every word of them is still in the page."""
    page = f"<details>\n<summary>{summary}</summary>\n\n{text}\n</details>\n"
    cleaned = clean_markdown(page)
    from server.text.vocabulary import words
    expected = words(clean_markdown(f"{summary}\n\n{text}\n"))
    assert set(expected) <= set(words(cleaned)), (cleaned, expected)
