"""Answers from the book's structure, without a model: what the book, a part or the page says it
is about, its outline as nested links, where something is covered, what comes before and after,
its stated objectives. Every page or section named is cited. (Quizzes: quiz.py.)"""
from __future__ import annotations

from dataclasses import dataclass

from server.book.chunk import Chunk
from server.book.outline import Outline, OutlinePage, Part
from server.question.practice import Practice
from server.text.sentences import split_sentences
from server.course.citing import CitablePages, Cites
from server.course.resolve import named_sections, numbered_part, words
from server.course.understand import CourseRequest
from server.course.wording import Wording, wording

MAX_SECTIONS = 14
MAX_LISTED = 24  # a part's pages listed one by one, with their sections; a larger one lists its groups


@dataclass(frozen=True)
class CourseAnswer:
    text: str
    sources: tuple[Chunk, ...]  # cited [1]..[n]; none: refused
    practice: Practice | None = None  # a quiz posed (kept with the conversation), its answers shown


def link(name: str, url: str) -> str:
    return f"[{name.replace('[', '(').replace(']', ')')}]({url})"


def intro(outline: Outline) -> OutlinePage | None:
    """The page that introduces the book: of the pages before its first part, the one with most to say."""
    own = outline.book_pages()
    first_part = min((outline.page(p.pages[0]).order for p in outline.parts_in() if p.pages), default=10**9)
    leading = [p for p in own if p.order < first_part] or own
    return max(leading, key=lambda p: len(p.sections), default=None) if leading else outline.intro()


def part_pages(outline: Outline, part: Part) -> list[OutlinePage]:
    """The part's own pages (not those of groups nested inside it, such as its quizzes)."""
    pages = outline.pages_of(part)
    depth = min((len(p.labels) for p in pages), default=0)
    return [p for p in pages if len(p.labels) <= max(depth, 2)]


def part_head(outline: Outline, part: Part) -> OutlinePage | None:
    return outline.page(part.index_page) or next(iter(outline.pages_of(part)), None)


def page_name(outline: Outline, page: OutlinePage) -> str:
    """A page as the reader sees it; a part's own page by the part's name."""
    part = outline.part_of(page)
    if part is not None and part.index_page == page.key and part.name != page.name:
        return part.name
    return page.name


def _key_points(page: OutlinePage, cite: Cites, limit: int = MAX_SECTIONS) -> list[str]:
    """Each top section with its key point; the sections inside it with theirs when the page has
    few top sections, else by name."""
    levels = sorted({s.level for s in page.sections})
    # the level with several sections (an mdBook page's title is its one h2)
    top = next((lv for lv in levels if sum(s.level == lv for s in page.sections) > 1), levels[0] if levels else 2)
    shown = [s for s in page.sections if s.level >= top]
    detailed = sum(s.level == top for s in shown) <= 4
    lines: list[str] = []
    inner: list[str] = []

    def close() -> None:
        if inner and lines:
            lines[-1] += f" (also: {', '.join(inner)})"
        inner.clear()

    for section in shown:
        point = f": {section.key_point}" if section.key_point else ""
        if section.level > top and not detailed:
            inner.append(section.heading)
            continue
        close()
        if len(lines) == limit:
            break
        indent = "  " * (section.level - top)
        lines.append(f"{indent}- **{section.heading}**{point}{cite(page, section.url)}")
    close()
    return lines


def _about(page: OutlinePage, cite: Cites, w: Wording) -> str:
    return f"{page.description}{cite(page)}" if page.description else w.see.format(link(page.name, page.url) + cite(page))


def _pages_list(outline: Outline, part: Part, cite: Cites, described: bool = True) -> list[str]:
    lines = []
    for page in part_pages(outline, part):
        about = f": {page.description}" if described and page.description else ""
        lines.append(f"- {link(page_name(outline, page), page.url)}{about}{cite(page)}")
    return lines


def overview(req: CourseRequest, cite: Cites, pages: CitablePages, search) -> str:
    outline, w = req.outline, wording(req.locale)
    if req.scope == "page" and req.page is not None:
        page = req.page
        return "\n".join([f"**{page.name}** — {_about(page, cite, w)}", "", w.its_sections, *_key_points(page, cite)])
    if req.scope == "part" and req.part is not None:
        part, head = req.part, part_head(outline, req.part)
        lines = [f"**{part.name}** — {_about(head, cite, w)}" if head else f"**{part.name}**", "",
                 w.its_pages, *_pages_list(outline, part, cite)]
        return "\n".join(lines)
    page = intro(outline)
    lines = [f"**{outline.title}** — {_about(page, cite, w)}", "", *_key_points(page, cite)] if page else []
    parts = outline.parts_in()
    if parts:
        lines += ["", w.has_parts.format(len(parts), "; ".join(p.name for p in parts))]
    return "\n".join(lines)


def summarize(req: CourseRequest, cite: Cites, pages: CitablePages, search) -> str:
    text = overview(req, cite, pages, search)
    page = req.page if req.scope == "page" else part_head(req.outline, req.part) if req.part else None
    if page is not None:
        for block in page.blocks_of("summary")[:1]:
            text += f"\n\n**{block.heading}**{cite(page, block.url)}\n" + "\n".join(f"- {i}" for i in block.items[:6])
    return text


def contents(req: CourseRequest, cite: Cites, pages: CitablePages, search) -> str:
    outline, w = req.outline, wording(req.locale)
    if req.scope == "page" and req.page is not None:
        page = req.page
        lines = [w.covers.format(f"**{page.name}**{cite(page)}")]
        lines += [f"{'  ' * max(0, s.level - 2)}- {link(s.heading, s.url)}" for s in page.sections if s.level <= 4]
        return "\n".join(lines)
    if req.scope == "part" and req.part is not None:
        part = req.part
        head = part_head(outline, part)
        lines = [w.has_pages.format(f"**{part.name}**{cite(head)}")]
        if len(outline.pages_of(part)) > MAX_LISTED:
            return "\n".join(lines + groups_of(outline, part, w))
        for page in outline.pages_of(part):
            indent = "  " * max(0, len(page.labels) - 2)
            lines.append(f"{indent}- {link(page_name(outline, page), page.url)}")
            if page in part_pages(outline, part):
                lines += [f"{indent}  - {link(s.heading, s.url)}" for s in page.sections if s.level == 2][:6]
        return "\n".join(lines)
    start = intro(outline)
    lines = [w.organised.format(f"**{outline.title}**{cite(start)}")]
    lines += [f"- {link(p.name, p.url)}" for p in outline.book_pages() if p.order < 10**9][:3]
    for part in outline.parts_in():
        head = part_head(outline, part)
        lines.append(f"- {link(part.name, head.url) if head else part.name}{cite(head)}")
        lines += [f"  - {link(p.name, p.url)}" for p in part_pages(outline, part) if p.key != part.index_page]
    return "\n".join(lines)


def groups_of(outline: Outline, part: Part, w: Wording) -> list[str]:
    """A large part as its own pages and its groups of pages (a sidebar category each), in order."""
    depth = len(head.labels) if (head := part_head(outline, part)) else 1
    listed: dict[str, list] = {}  # a page (by its URL) or a group (by its label): [name, URL, pages in a group]
    for page in outline.pages_of(part):
        if len(page.labels) <= depth + 1:
            listed[page.url] = [page_name(outline, page), page.url, 0]
        else:
            listed.setdefault(page.labels[depth], [page.labels[depth], page.url, 0])[2] += 1
    return [f"- {link(name, url)}" + (f" ({w.pages.format(count)})" if count else "") for name, url, count in listed.values()]


def locate(req: CourseRequest, cite: Cites, pages: CitablePages, search) -> str:
    outline, w = req.outline, wording(req.locale)
    found = search(req)
    named = named_sections(outline, req.text, req.page.locale if req.page else outline.default_locale)
    if not found and not named:
        return ""
    lines, seen = [], set()
    for page, section in named:  # a heading the reader named is where it is covered
        if page.key in seen:
            continue
        seen.add(page.key)
        part = outline.part_of(page)
        where = " › ".join(x for x in (part.name if part else "", page.name, section.heading) if x)
        lines.append(f"- {link(where, section.url)}{cite(page, section.url)}")
        if len(lines) == 3:
            break
    for chunk in found:
        page = outline.page(chunk.page_id)
        if page is None or page.key in seen:
            continue
        seen.add(page.key)
        part = outline.part_of(page)
        where = " › ".join(x for x in (part.name if part else "", page.name, chunk.heading if chunk.heading != page.title else "") if x)
        url = chunk.url
        lines.append(f"- {link(where, url)}{cite(page, url)}")
        if len(lines) == 3:
            break
    best = next((outline.part_of(page) for page, _ in named), None) or next(
        (outline.part_of(outline.page(c.page_id)) for c in found
                 if outline.page(c.page_id) is not None), None)
    if best is not None and req.scope != "part":
        lines += ["", w.has_pages.format(best.name) + " " + "; ".join(p.name for p in part_pages(outline, best))]
    return "\n".join([w.covered_here, *lines])


def _mentions(outline: Outline, page: OutlinePage, pages: CitablePages, own: Part | None) -> list[str]:
    """Sentences of the page that send the reader to earlier parts ("builds on Chapter 16 …",
    "you've learned ROS 2, Gazebo and Isaac")."""
    earlier = [p for p in outline.parts_in(page.locale) if own is None or p.position < own.position]
    found = []
    for chunk in pages.chunks(page)[:3]:
        for sentence in split_sentences(chunk.content):
            lowered = sentence.lower()
            part, _ = numbered_part(outline, lowered, page.locale)
            said = set(words(lowered))
            titled = sum(1 for p in earlier if any(w in said for w in words(p.label) if len(w) > 3
                                                     and sum(w in words(q.label) for q in outline.parts) == 1))
            if (part is not None and part in earlier) or titled >= 2:
                found.append(sentence.strip())
    return found[:2]


def order(req: CourseRequest, cite: Cites, pages: CitablePages, search) -> str:
    outline, w = req.outline, wording(req.locale)
    lines: list[str] = []
    if req.scope == "page" and req.page is not None:
        page = req.page
        before, after = outline.page(page.prev), outline.page(page.next)
        lines.append(w.you_are_on.format(f"**{page.name}**{cite(page)}"))
        if after:
            lines.append("- " + w.next.format(link(page_name(outline, after), after.url) + cite(after)))
        if before:
            lines.append("- " + w.before_it.format(link(page_name(outline, before), before.url)))
        stated, own = page, outline.part_of(page)
    elif req.scope == "part" and req.part is not None:
        part = req.part
        parts = outline.parts_in()
        at = parts.index(part) if part in parts else -1
        head = part_head(outline, part)
        lines.append(w.part_of.format(f"**{part.name}**{cite(head)}", part.position, len(parts)))
        if at + 1 < len(parts) and at >= 0:
            nxt = parts[at + 1]
            lines.append("- " + w.after_comes.format(link(nxt.name, part_head(outline, nxt).url) + cite(part_head(outline, nxt))))
        if at > 0:
            prv = parts[at - 1]
            lines.append("- " + w.before_comes.format(link(prv.name, part_head(outline, prv).url),
                                                      ", ".join(p.name for p in part_pages(outline, prv))))
        stated, own = head, part
    else:
        start = intro(outline)
        parts = outline.parts_in()
        lines.append(w.start_with.format(link(start.name, start.url) + cite(start)) if start else "")
        if parts:
            lines.append(w.then_parts.format("; ".join(p.name for p in parts)))
        stated, own = start, None
    if stated is not None:
        for block in stated.blocks_of("prerequisites")[:2]:
            lines += ["", f"**{block.heading}**{cite(stated, block.url)}", *(f"- {i}" for i in block.items[:8])]
        said = _mentions(outline, stated, pages, own)
        if said:
            lines += ["", w.book_says.format(cite(stated), " ".join(said))]
    return "\n".join(x for x in lines if x is not None)


def objectives(req: CourseRequest, cite: Cites, pages: CitablePages, search) -> str:
    outline, w = req.outline, wording(req.locale)
    if req.scope == "page" and req.page is not None:
        scope_pages = [req.page]
    elif req.scope == "part" and req.part is not None:
        head = outline.page(req.part.index_page)
        scope_pages = [head] if head and head.blocks_of("objectives") else part_pages(outline, req.part)
    else:
        scope_pages = [p for p in [intro(outline)] if p]
    lines = []
    for page in scope_pages:
        for block in page.blocks_of("objectives")[:2]:
            lines += [f"**{block.heading}** ({page.name}){cite(page, block.url)}", *(f"- {i}" for i in block.items[:10]), ""]
    if lines:
        return "\n".join(lines).strip()
    # no objectives stated: what it covers, as the book words it
    if req.scope == "part" and req.part is not None:
        head = part_head(outline, req.part)
        lines = [w.no_objectives_part.format(f"**{req.part.name}**", cite(head))]
        if head is not None:
            lines += [f"- {head.description}", *_key_points(head, cite, 4)]
        lines += _pages_list(outline, req.part, cite)
        return "\n".join(lines)
    text = overview(req, cite, pages, search)
    return w.no_objectives + "\n\n" + text


ANSWERERS = {"overview": overview, "summarize": summarize, "contents": contents, "locate": locate,
             "order": order, "objectives": objectives}
