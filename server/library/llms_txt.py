"""llms.txt and llms-full.txt of a book (the llmstxt.org format).

llms.txt: an H1 with the book's title, a blockquote summary, a line of details, then one H2
section per part with its pages as `- [title](url): description`, in reading order.
llms-full.txt: the same title and summary, then every page's text in reading order.
"""
from __future__ import annotations

from server.book.outline import Part
from server.library.book_outline import BookOutline
from server.library.page_text import page_markdown

FULL_TEXT_NAME = "llms-full.txt"


def llms_txt(outline: BookOutline) -> str:
    pages = outline.pages
    out = [f"# {_one_line(outline.title)}", ""]
    if outline.summary:
        out += [f"> {_one_line(outline.summary)}", ""]
    out += [f"The book's {len(pages)} pages in reading order, grouped by part. "
            f"{FULL_TEXT_NAME} beside this file holds the text of every page.", ""]
    for part in outline.parts:
        out += [f"## {_part_title(part, outline)}", ""]
        for page in outline.pages_of(part):
            item = f"- [{_link_text(page.title)}]({_destination(page.url)})"
            if page.description:
                item += f": {_one_line(page.description)}"
            out.append(item)
        out.append("")
    return "\n".join(out)


def llms_full_txt(outline: BookOutline) -> str:
    out = [f"# {_one_line(outline.title)}", ""]
    if outline.summary:
        out += [f"> {_one_line(outline.summary)}", ""]
    for page in outline.pages:
        out.append(page_markdown(page, outline.passages_of(page), level=2))
    return "\n".join(out)


def _part_title(part: Part, outline: BookOutline) -> str:
    """The part's label; a translation or an older docs version says which."""
    locale, version = outline.locale_and_version(part)
    extra = [x for x in (locale if locale != outline.default_locale else "", version if version != "current" else "")
             if x]
    return _one_line(part.name) + (f" ({', '.join(extra)})" if extra else "")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _link_text(text: str) -> str:
    return _one_line(text).replace("[", "\\[").replace("]", "\\]")


def _destination(url: str) -> str:
    """A URL as a Markdown link destination (no spaces or parentheses left bare)."""
    return url.replace(" ", "%20").replace("(", "%28").replace(")", "%29")
