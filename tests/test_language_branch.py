"""A chapter written as a component that returns one JSX branch per reader's language: its page
in a locale with a script of its own is read in the branch its readers see, not the one the build
happened to render (javascript/language_branch.py)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from server.ingest.html_text import Block, Heading, markdown_root, page_sections, parse_html
from server.ingest.javascript.language_branch import branches, in_the_locales_language

CHAPTER = """---
sidebar_position: 3
---

import {useTranslation} from 'react-i18next';

export default function Nodes() {
  const {i18n} = useTranslation();
  if (i18n.language === 'ru') {
    return (
      <div className="chapter">
        <h2>Что такое топики?</h2>
        <p>
          <strong>Топики</strong> — это именованные шины, по которым
          узлы обмениваются сообщениями.
        </p>
        <pre>{`
ros2 topic pub /robot "{data: 'go'}"
name="leg_\\${side}"
        `}</pre>
      </div>
    );
  }
  return (
    <div className="chapter">
      <h2>What are topics?</h2>
      <p>
        <strong>Topics</strong> are named buses over which
        nodes exchange messages.
      </p>
      <pre>{`
ros2 topic pub /robot "{data: 'go'}"
name="leg_\\${side}"`}</pre>
    </div>
  );
}
"""


def built(markup: str) -> list[Heading | Block]:
    """A page as the build shows it: Docusaurus's title, then what the component rendered."""
    document = parse_html(f'<html><head><meta charset="utf-8"></head><body><div class="theme-doc-markdown">'
                          f'<h1>nodes</h1>{markup}</div></body></html>'.encode())
    return page_sections(markdown_root(document))


ENGLISH = built("<div><h2>What are topics?</h2><p><strong>Topics</strong> are named buses over which nodes exchange "
                "messages.</p><pre>ros2 topic pub /robot \"{data: 'go'}\"\nname=\"leg_${side}\"</pre></div>")


def test_each_branch_reads_as_react_shows_it_text_joined_and_template_code_verbatim():
    russian, english = branches(CHAPTER)
    assert english == ENGLISH[1:]  # JSX text's line breaks and indentation are one space
    assert russian[0] == Heading(2, "Что такое топики?", "")
    assert russian[1].text == "Топики — это именованные шины, по которым узлы обмениваются сообщениями."
    assert russian[2].is_code and "name=\"leg_${side}\"" in russian[2].text and "\"{data: 'go'}\"" in russian[2].text
    assert russian[2].text.splitlines()[-2] == 'name="leg_${side}"'  # not the literal's closing indentation


def test_a_page_in_a_locale_with_its_own_script_is_read_in_the_branch_its_readers_see():
    shown = in_the_locales_language(ENGLISH, CHAPTER, "ru")
    assert shown[0] == Heading(1, "nodes", "")  # the build's own title stays
    assert shown[1] == Heading(2, "Что такое топики?", "")
    assert all("topics" not in item.text.lower() for item in shown)


def test_a_page_left_as_built_when_its_locale_is_latin_its_build_is_in_its_script_or_no_branch_matches():
    assert in_the_locales_language(ENGLISH, CHAPTER, "en") is ENGLISH
    assert in_the_locales_language(ENGLISH, CHAPTER, "es") is ENGLISH  # Latin: branches not told apart
    russian_build = [ENGLISH[0], *branches(CHAPTER)[0]]
    assert in_the_locales_language(russian_build, CHAPTER, "ru") is russian_build
    other = built("<p>A page the build rendered from something else.</p>")
    assert in_the_locales_language(other, CHAPTER, "ru") is other
    assert in_the_locales_language(ENGLISH, CHAPTER.replace("ru'", "de'").replace("Топики", "Topics"), "ja") is ENGLISH


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>{}()/`'\"\\=ab мир\nreturn div p h2 pre")), max_size=200))
def test_any_source_text_reads_without_error_and_never_changes_a_latin_locales_page(source):
    branches(source)
    assert in_the_locales_language(ENGLISH, source, "en") is ENGLISH
    shown = in_the_locales_language(ENGLISH, "return (" + source, "ru")
    assert shown[0] == ENGLISH[0] and all(isinstance(item, (Heading, Block)) for item in shown)
