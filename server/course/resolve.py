"""Which page and which part a reader means: the page they are on (from the URL the widget sends,
whatever the origin it is served from) and parts named in the question ("module 2",
"chapter 10", "the digital twin module")."""
from __future__ import annotations

import re
from collections import Counter

from server.book.outline import Outline, OutlinePage, Part
from server.book.page_urls import by_path, page_at, page_path
from server.text.lengths import CJK
from server.text.scripts import read_form

_WORD = re.compile(r"[a-z0-9]+(?:[+#][a-z0-9+#]*)?")
# words that name no part by themselves
_STOP = frozenset("""a an and the of in on for to with by from at as or is are be it its this that these those
what which how where when who why do does i me my you your we our about into part parts chapter chapters module
modules section sections page pages lesson lessons unit units book course one""".split())


def resolve_page(outline: Outline, page_url: str, title: str = "") -> OutlinePage | None:
    """The indexed page at this URL (page_urls.py: on any host and base path); failing that (a
    page moved since the book was indexed), the one page whose title or sidebar label the
    reader's tab shows ("Sampling | Book")."""
    if page_path(page_url) == "/":
        return None
    found = page_at(by_path(outline.pages), page_url)
    if found is None and title.strip():
        named = title.split(" | ")[0].strip().lower()
        same = [p for p in outline.pages if p.locale == outline.default_locale
                and named in (p.title.strip().lower(), p.labels[-1].strip().lower() if p.labels else "")]
        found = same[0] if len(same) == 1 else None
    return found


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _stem(word: str) -> str:
    return word[:5] if len(word) >= 5 else word


def numbered_part(outline: Outline, text: str, locale: str | None = None) -> tuple[Part | None, str]:
    """A part named by its noun and number ("module 2", "chapter 10"), and the words naming it."""
    parts = outline.parts_in(locale)
    for match in re.finditer(r"\b([a-z]+)\s*#?\s*(\d+)\b", text.lower()):
        noun, number = match.group(1), int(match.group(2))
        found = [p for p in parts if p.number == number and (p.noun == noun or noun in NOUNS_OF_PARTS)]
        if found:
            return found[0], match.group(0)
    return None, ""


def _spread(titles) -> Counter:
    """How many titles hold each stem (a word in every title names none of them)."""
    return Counter(stem for stems in titles for stem in stems)


def titled_page(outline: Outline, topic: str, locale: str | None = None) -> OutlinePage | None:
    """The page a topic names by its title's words ("generators" names the page "Generators"):
    the one sharing the most distinctive title words with it, when one clearly does."""
    asked = {_stem(w) for w in words(topic) if w not in _STOP}
    pages = [p for p in outline.pages if p.locale == (locale or outline.default_locale) and p.version == "current"]
    titles = {p.key: {_stem(w) for w in words(p.title) if w not in _STOP and not w.isdigit()} for p in pages}
    spread = _spread(titles.values())
    # the most of the topic's rarer words, then the fewest title words it does not say ("arm
    # dynamics" names "Arm Dynamics" before "Module 1 Quiz: Arm Dynamics")
    scored = sorted(((sum(1.0 / spread[s] for s in asked & titles[p.key]), -len(titles[p.key] - asked), p)
                     for p in pages), key=lambda found: found[:2], reverse=True)
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][:2] == scored[0][:2]):
        return None
    return scored[0][2]


def named_sections(outline: Outline, text: str, locale: str | None = None) -> list[tuple[OutlinePage, object]]:
    """The sections whose heading the question names: every word of the heading but the little
    ones is asked, by its first five letters ("where does the book cover by capability?" names
    "By Capability", "… cover dithering?" names "Dither"), longest first."""
    asked = {_stem(w) for w in words(text)}  # "dithering" names "Dither"
    found = []
    for page in outline.pages:
        if locale and page.locale != locale:
            continue
        for section in page.sections:
            named = {_stem(w) for w in words(section.heading) if w not in _STOP}
            if named and named <= asked:
                found.append((len(named), page, section))
    found.sort(key=lambda f: -f[0])
    return [(page, section) for _, page, section in found]


def named_heading(outline: Outline, text: str, locale: str | None = None) -> str:
    """The longest section heading the question says word for word ("what is extending this
    project?" says the heading "Extending this project"): its words name that section, not the
    course or the reader's page."""
    lowered = text.lower()
    for heading in _headings(outline, locale):  # longest first
        if heading in lowered and re.search(rf"(?<!\w){re.escape(heading)}(?!\w)", lowered):
            return heading
    return ""


_HEADINGS: dict[tuple[int, str | None], tuple[object, list[str]]] = {}


def _headings(outline: Outline, locale: str | None) -> list[str]:
    """The outline's section headings of two words or more, lowered, longest first (kept while the
    outline is the same object: a published book's outline is replaced, never changed)."""
    key = (id(outline), locale)
    kept = _HEADINGS.get(key)
    if kept is None or kept[0] is not outline:
        found = {" ".join(s.heading.lower().split()) for p in outline.pages if not locale or p.locale == locale
                 for s in p.sections}
        # of two words or more, one of them the heading's own ("In This Chapter" names no section)
        kept = (outline, sorted((h for h in found if len(words(h)) >= 2 and set(words(h)) - _STOP),
                                key=len, reverse=True))
        if len(_HEADINGS) > 64:
            _HEADINGS.clear()
        _HEADINGS[key] = kept
    return kept[1]


NOUNS_OF_PARTS = frozenset({"module", "chapter", "part", "unit", "week", "section"})


def titled_part(outline: Outline, text: str, nouns: set[str], locale: str | None = None) -> tuple[Part | None, str]:
    """A part named by its title's words where a reader names one: "the digital twin module",
    "the smart pointers chapter", "the digital twin one"; the part sharing the most distinctive
    title words with them, when one clearly does."""
    naming = "|".join(sorted(nouns | {"one"}))
    found = re.search(rf"\bthe\s+((?:[a-z0-9]+\s+){{1,4}}?)(?:{naming})s?\b", text)
    if not found or set(words(found.group(1))) & {"this", "that", "these", "of", "in", "on", "for", "to", "about"}:
        return None, ""
    asked = {_stem(w) for w in words(found.group(1)) if w not in _STOP}
    if not asked:
        return None, ""
    parts = outline.parts_in(locale)
    titles = {p.id: {_stem(w) for w in words(p.label) + words(p.name) if w not in _STOP and not w.isdigit()}
              for p in parts}
    spread = _spread(titles.values())
    scored = []
    for part in parts:
        shared = asked & titles[part.id]
        # a word in every part's title ("robotics") names none of them
        weight = sum(1.0 / spread[s] for s in shared if spread[s] < max(2, len(parts)))
        if weight:
            scored.append((weight, part, shared))
    if not scored:
        return None, ""
    scored.sort(key=lambda s: -s[0])
    if len(scored) > 1 and scored[1][0] == scored[0][0]:
        return None, ""
    weight, part, shared = scored[0]
    named = " ".join(w for w in words(text) if _stem(w) in shared)
    return part, named


_UNSPACED = re.compile(rf"[{CJK}]+")
MIN_UNSPACED = 4  # characters of a Chinese or Japanese title said in a question ("面向对象" of "面向对象编程")


def part_by_title(outline: Outline, text: str, locale: str | None = None) -> tuple[Part | None, str]:
    """A part named by its title in any language: the whole title said ("la unidad de colecciones",
    "「作って学ぶTypeScript」の章"), or in Chinese and Japanese, whose titles run unspaced, at least
    MIN_UNSPACED of its characters running on and half of its title ("面向对象那一块"). The longest
    wins; None when two parts say as much."""
    said = read_form(text)
    scored = []
    for part in outline.parts_in(locale):
        title = read_form(part.label or part.name).strip()
        if len(title) >= 4 and re.search(rf"(?<!\w){re.escape(title)}(?!\w)", said):
            scored.append((len(title), part, title))
            continue
        run = _common_run(title, said)
        if len(run) >= MIN_UNSPACED and 2 * len(run) >= len(title):
            scored.append((len(run), part, run))
    scored.sort(key=lambda s: -s[0])
    if not scored or len(scored) > 1 and scored[1][0] == scored[0][0] and scored[1][1] != scored[0][1]:
        return None, ""
    return scored[0][1], scored[0][2]


def _common_run(title: str, text: str) -> str:
    """The longest run of the title's unspaced (Chinese or Japanese) characters that the text says."""
    best = ""
    for run in _UNSPACED.findall(title):
        for start in range(len(run)):
            for end in range(len(run), start + len(best), -1):
                if run[start:end] in text:
                    best = run[start:end]
                    break
    return best
