"""Quizzes: the book's own questions for the page or part when it has them (a quiz or exercise
block, or the part's quiz page for this page), otherwise questions built from the page's key
statements. Answers are not shown with the questions; asked for next in the same conversation,
they are given from the same page, cited."""
from __future__ import annotations

from server.book.outline import Outline, OutlinePage
from server.text.sentences import normalised
from server.course.answers import link, part_pages
from server.course.citing import Cites
from server.course.understand import CourseRequest

MAX_QUESTIONS = 5
ANSWERS_HINT = "Ask “show the answers” when you are ready."


def _companion_quiz(outline: Outline, page: OutlinePage) -> OutlinePage | None:
    """The part's quiz page for this page: a page of questions whose title carries this page's."""
    part = outline.part_of(page)
    title = normalised(page.title)
    for other in outline.pages_of(part) if part else []:
        if other.key != page.key and other.blocks_of("quiz") and title and title in normalised(other.title):
            return other
    return None


def questions_for(outline: Outline, pages: list[OutlinePage]) -> tuple[list[tuple[str, str, OutlinePage, str]], bool]:
    """(question, answer, page, url) of the book's own questions, else built ones; and whether own."""
    own: list[tuple[str, str, OutlinePage, str]] = []
    for page in pages:
        sources = [page] + [q for q in [_companion_quiz(outline, page)] if q]
        for source in sources:
            for block in source.blocks_of("quiz") + source.blocks_of("exercises"):
                answers = list(block.answers) + [""] * len(block.items)
                own += [(q, a, source, block.url) for q, a in zip(block.items, answers)]
    if own:
        return own[:MAX_QUESTIONS], True
    built = []
    for page in pages:
        for section in page.sections:
            if section.key_point and section.level <= 3:
                built.append((f"What does the page say about **{section.heading}**?", section.key_point, page, section.url))
    return built[:MAX_QUESTIONS], False


def _scope_pages(req: CourseRequest) -> list[OutlinePage]:
    if req.scope == "page" and req.page is not None:
        return [req.page]
    if req.part is not None:
        return part_pages(req.outline, req.part)
    return []


def quiz(req: CourseRequest, cite: Cites, pages, search) -> str:
    scope = _scope_pages(req)
    asked, own = questions_for(req.outline, scope)
    if len(asked) < 2 or not scope:
        return ""
    title = scope[0].name if req.scope == "page" else req.part.name
    origin = "the book's own questions" if own else "questions built from its key statements"
    lines = [f"**Quiz: {title}**{cite(scope[0])} ({origin})", ""]
    for n, (question, _answer, page, url) in enumerate(asked, 1):
        first, _, options = question.partition("\n")
        lines.append(f"{n}. {first}{cite(page, url) if page.key != scope[0].key else ''}")
        lines += [f"   - {o.strip()}" for o in options.split("\n") if o.strip()]
    lines += ["", ANSWERS_HINT]
    return "\n".join(lines)


def answers(req: CourseRequest, cite: Cites, pages, search) -> str:
    """The answers to the quiz this page (or part) was given, cited."""
    scope = _scope_pages(req)
    asked, own = questions_for(req.outline, scope)
    if not asked:
        return ""
    lines = [f"**Answers: {scope[0].name if req.scope == 'page' else req.part.name}**", ""]
    for n, (question, answer, page, url) in enumerate(asked, 1):
        first = question.partition("\n")[0]
        given = answer or f"the book answers it in {link(page.name, url)}"
        lines.append(f"{n}. {first}\n   **{given}**{cite(page, url)}")
    return "\n".join(lines)
