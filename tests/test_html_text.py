"""A built page's rendered Markdown read as headings and blocks (ingest/html_text.py)."""
from __future__ import annotations

from server.ingest.html_text import Block, Heading, markdown_root, page_sections, parse_html


def test_a_summary_is_a_bold_label():
    """As from sources (tag_labels.py): a `<details>` summary read as a plain line was quoted as if
    it were a sentence of the book ("Recursión profunda con DeepRecursiveFunction [2]."); set in
    bold it is a title, which an answer never quotes."""
    page = parse_html(b'<html><body><div class="theme-doc-markdown"><h2 id="a">A</h2><p>Intro.</p>'
                      b'<details><summary>Deep <code>recursion</code></summary><div><p>In Kotlin, deep calls '
                      b'overflow the stack.</p></div></details>'
                      b'<details><summary>Solution</summary><pre><code>x = 1</code></pre></details>'
                      b'<p>After.</p><details><summary>Nothing inside</summary></details></div></body></html>')
    assert page_sections(markdown_root(page)) == [
        Heading(2, "A", "a"), Block("Intro."), Block("**Deep `recursion`**"), Block("In Kotlin, deep calls overflow the stack."),
        Block("**Solution**"), Block("```\nx = 1\n```", True), Block("After."), Block("**Nothing inside**")]
