"""MDX/mdBook cleaning keeps prose and code, drops syntax readers never see."""
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


def test_mdbook_includes_dropped_cleanly():
    text = "Intro\n\n```rust\n{{#rustdoc_include ../listings/a/src/main.rs}}\n```\n\nMore {{#include x.txt}} text\n\n```rust\nfn main() {}\n```\n"
    out = clean_markdown(text)
    assert "{{#" not in out
    assert "```rust\nfn main() {}\n```" in out
    assert out.count("```") == 2  # the include-only listing is gone, not left empty


def test_split_fences_handles_longer_and_tilde_fences():
    runs = split_fences("a\n````md\n```\ninner\n```\n````\nb\n~~~\nc\n~~~")
    assert [is_code for is_code, _ in runs] == [False, True, False, True]
