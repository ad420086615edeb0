"""The book's outline, built at ingest from its pages in reading order: parts from the sidebar
categories (a build's breadcrumbs, `sidebars`, `_category_`) or SUMMARY.md's numbered chapters,
each page's description, sections with their opening sentence, and its blocks (blocks.py)."""
from __future__ import annotations

import re

from server.book.outline import OUTLINE_VERSION, Block, Outline, OutlinePage, Part, Section
from server.text.sentences import LEAD_IN_ENDS, joined, split_sentences
from server.ingest.blocks import block_kind, is_prompt, list_items, plain
from server.ingest.sections import reading_sections
from server.ingest.mdbook import summary_items, summary_path
from server.ingest.practice import practice_blocks
from server.ingest.practice.statements import built_questions
from server.ingest.practice.tested import with_tested_sections
from server.ingest.page import Page
from server.ingest.site import Site
from server.ingest.urls import is_category_index
from server.text.lengths import spaced_length

_NUMBERED = re.compile(r"^\s*(?P<noun>[A-Za-z]+)\s+(?P<number>\d+)\b")
KEY_POINT_CHARS = 360
ENOUGH_CHARS = 200  # a key point is the section's opening sentences up to about this long


def _first_sentence(texts: list[str]) -> str:
    taken: list[str] = []
    for text in texts:
        if text.lstrip().startswith(("```", "~~~", "|", "<", "import ", "export ", ">")):
            continue
        for sentence in split_sentences(plain(text)):
            if spaced_length(sentence) >= 4 and not sentence.endswith(LEAD_IN_ENDS):
                taken.append(sentence)
            if taken and (sum(map(len, taken)) >= ENOUGH_CHARS or len(taken) == 3):
                return joined(taken)[:KEY_POINT_CHARS]
        if taken:
            break  # the opening paragraph only
    return joined(taken)[:KEY_POINT_CHARS]


def _opening(texts: list[str]) -> str:
    """The page's first sentence, when its front matter gives no description."""
    found = _first_sentence(texts)
    return split_sentences(found)[0] if found else ""


def _prose(text: str) -> str:
    """A description that is prose, not code that leaked into it (JSX pages)."""
    text = plain(text)
    return text if spaced_length(text) >= 4 and not re.search(r"[{}=;<>]", text) else ""


def _mdbook_numbers(site: Site) -> dict[str, tuple[str, str]]:
    """source file → (its number "10" / "10.3", its chapter's number) for SUMMARY.md's numbered list."""
    numbers: dict[str, tuple[str, str]] = {}
    counters: list[int] = []
    lines = (site.content_root / "SUMMARY.md").read_text(encoding="utf-8").splitlines()
    listed = {f for _t, f, _d in summary_items(site.content_root)}
    for line in lines:
        match = re.match(r"^(\s*)[-*]\s+\[[^\]]+\]\(([^)]*)\)", line)
        if not match:
            continue
        depth = len(match.group(1).expandtabs(4)) // 2
        counters = counters[:depth + 1] + [0] * max(0, depth + 1 - len(counters))
        counters[depth] += 1
        rel = summary_path(match.group(2))
        if rel in listed:
            numbers[rel] = (".".join(str(n) for n in counters[:depth + 1]), str(counters[0]))
    return numbers


def _blocks(page: Page, sections: list) -> list[Block]:
    """The page's objectives, prerequisites, key terms and summary, then its practice (practice/)."""
    blocks: list[Block] = []
    taken: set[int] = set()
    for n, section in enumerate(sections):
        if not section.headings or n in taken:
            continue
        kind = block_kind(section.titles[-1])
        if kind is None or kind in ("quiz", "exercises"):
            continue
        depth = len(section.headings)
        inner = [m for m in range(n + 1, len(sections))
                 if sections[m].headings[:depth] == section.headings and len(sections[m].headings) > depth]
        inner = inner[: next((i for i, m in enumerate(inner) if m != n + 1 + i), len(inner))]
        taken.update(inner)
        texts = [b.text for b in section.blocks if not b.is_code] + \
            [b.text for m in inner for b in sections[m].blocks if not b.is_code]
        listed = list_items(texts)
        items = tuple(i for i in listed if is_prompt(i)) if listed else tuple(
            s for t in texts for s in split_sentences(plain(t)) if is_prompt(s))[:8]
        if not items and inner:
            items = tuple(sections[m].titles[-1] for m in inner)
        anchor = section.anchor
        if items:
            blocks.append(Block(kind, section.titles[-1], f"{page.url}#{anchor}" if anchor else page.url, items))
    return blocks + practice_blocks(page, sections)


def _with_practice(pages: list[Page], blocks_of: dict[str, list[Block]], sections_of: dict[str, list],
                   part_of: dict[str, str]) -> dict[str, list[Block]]:
    """Each question with the section it tests; a page that asks nothing, questions from its statements."""
    done = {}
    for page in pages:
        blocks = blocks_of[page.key]
        if any(b.questions for b in blocks):
            done[page.key] = with_tested_sections(page, blocks, pages, sections_of, part_of)
        else:
            built = built_questions(page, sections_of[page.key])
            done[page.key] = blocks + ([built] if built else [])
    return done


def _page_parts(pages: list[Page], site: Site) -> dict[str, tuple[str, str | None]]:
    """page key → (part label, None) for pages in a part; the part's own page also gets "own"."""
    found: dict[str, tuple[str, str | None]] = {}
    if site.kind == "mdbook":
        numbers = _mdbook_numbers(site)
        for page in pages:
            if page.source_file in numbers:
                number, chapter = numbers[page.source_file]
                found[page.key] = (page.categories[0] if page.categories else page.title,
                                   "own" if number == chapter else None)
        return found
    heads = {(p.locale, p.version, p.labels[0]) for p in pages if len(p.labels) > 1}
    for page in pages:
        if len(page.labels) > 1:
            found[page.key] = (page.labels[0], None)
        elif (page.locale, page.version, page.labels[0]) in heads:
            found[page.key] = (page.labels[0], "own")
    return found


def _is_index(page: Page) -> bool:
    """A category's own page: index.md, README.md or named like its folder (Docusaurus's rule)."""
    folder, _, file = page.source_file.rpartition("/")
    return bool(folder) and is_category_index(file.rsplit(".", 1)[0], folder)


def build_outline(site: Site, pages: list[Page], book_id: str) -> Outline:
    numbers = _mdbook_numbers(site) if site.kind == "mdbook" else {}
    belongs = _page_parts(pages, site)
    parts: dict[tuple, dict] = {}
    groups: dict[tuple[str, str], list[Page]] = {}
    for page in sorted(pages, key=lambda p: p.order):
        groups.setdefault((page.locale, page.version), []).append(page)
        if page.key in belongs:
            label, own = belongs[page.key]
            part = parts.setdefault((page.locale, page.version, label), {
                "id": f"{len(parts) + 1}", "label": label, "pages": [], "index_page": None})
            part["pages"].append(page.key)
            if own and part["index_page"] is None:
                part["index_page"] = page.key
    part_of = {key: info["id"] for info in parts.values() for key in info["pages"]}
    made_parts: list[Part] = []
    # a label that opens several parts ("Overview") names each part's own page
    opening_labels = [next(p for p in pages if p.key == info["pages"][0]).labels[-1] for info in parts.values()]
    for (locale, version, label), info in parts.items():
        position = sum(1 for (loc, ver, _l) in list(parts)[: len(made_parts)] if (loc, ver) == (locale, version)) + 1
        first = next(p for p in pages if p.key == info["pages"][0])
        if info["index_page"] is None and (_is_index(first) or opening_labels.count(first.labels[-1]) > 1):
            info["index_page"] = first.key
        match = _NUMBERED.match(label)
        titled = _NUMBERED.match(first.title) if info["index_page"] else None
        if match:
            noun, number, name = match["noun"].lower(), int(match["number"]), label
        elif titled:  # "3. Robot Hardware" whose own page is "Chapter 3: Robot Hardware Systems"
            noun, number, name = titled["noun"].lower(), int(titled["number"]), first.title
        else:
            leading = re.match(r"^\s*(\d+)\s*[.:)]", label)
            noun, number, name = "", int(leading.group(1)) if leading else None, label
        if site.kind == "mdbook" and info["pages"]:
            chapter = numbers.get(first.source_file, ("", ""))[1]
            noun, number, name = "chapter", int(chapter) if chapter else None, f"Chapter {chapter}: {label}"
        made_parts.append(Part(id=info["id"], label=label, name=name, noun=noun, number=number, position=position,
                               index_page=info["index_page"], pages=tuple(info["pages"])))
    by_id = {p.id: p for p in made_parts}
    sections_of = {page.key: reading_sections(page) for page in pages}
    blocks_of = _with_practice(pages, {page.key: _blocks(page, sections_of[page.key]) for page in pages},
                               sections_of, part_of)
    outline_pages: list[OutlinePage] = []
    for (_locale, _version), members in groups.items():
        own_labels = [p.labels[-1] for p in members]
        for n, page in enumerate(members):
            sections = sections_of[page.key]
            part = by_id.get(part_of.get(page.key, ""))
            label = page.labels[-1]
            if site.kind == "mdbook" and page.source_file in numbers:
                name = f"{numbers[page.source_file][0]}. {page.title}"
            elif part is not None and own_labels.count(label) > 1 and label != part.label:
                name = f"{part.name} › {label}"  # "Module Overview" says which module
            else:
                name = label
            opening = next((s for s in sections if not s.headings), None)
            description = _prose(page.description) or _opening([b.text for b in opening.blocks] if opening else []) \
                or next((_opening([b.text for b in s.blocks]) for s in sections if s.blocks), "")
            outline_pages.append(OutlinePage(
                key=page.key, source_file=page.source_file, url=page.url, title=page.title, labels=tuple(page.labels),
                name=name, part=part.id if part else None, order=n + 1,
                position=(part.pages.index(page.key) + 1) if part else
                1 + sum(1 for m in members[:n] if m.key not in part_of),
                prev=members[n - 1].key if n else None, next=members[n + 1].key if n + 1 < len(members) else None,
                description=plain(description)[:KEY_POINT_CHARS * 2], locale=page.locale, version=page.version,
                sections=tuple(Section(s.titles[-1], f"{page.url}#{s.anchor}" if s.anchor else page.url,
                                       s.headings[-1][0], _first_sentence([b.text for b in s.blocks]))
                               for s in sections if s.headings),
                blocks=tuple(blocks_of[page.key])))
    return Outline(book_id=book_id, title=site.title, parts=tuple(made_parts), pages=tuple(outline_pages),
                   version=OUTLINE_VERSION)
