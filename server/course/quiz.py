"""Quizzes: the book's own questions for the page or part when it has them (its quiz and exercise
blocks, or the part's quiz page for this page), with their choices; otherwise the questions ingest
made from the page's statements that define or explain. The quiz is posed without its answers:
the conversation keeps them (question/practice.py), so that a student's answer to one item is
checked (check.py) and "show the answers" gives them all, each cited where the book teaches it."""
from __future__ import annotations

import re

from server.book.outline import Item, Outline, OutlinePage
from server.book.page_urls import by_path, page_at
from server.question.practice import Quiz, QuizItem
from server.text.sentences import normalised
from server.course.answers import link, part_pages
from server.course.citing import Cites
from server.course.understand import CourseRequest
from server.course.wording import wording
from server.text.lengths import spaced_length

MAX_OWN = 20  # the book's own questions, in its order
MAX_BUILT = 5


def _companion_quiz(outline: Outline, page: OutlinePage) -> OutlinePage | None:
    """The part's quiz page for this page: a page of questions whose title carries this page's."""
    part = outline.part_of(page)
    title = normalised(page.title)
    for other in outline.pages_of(part) if part else []:
        if other.key != page.key and other.blocks_of("quiz") and title and title in normalised(other.title):
            return other
    return None


def _questions(block) -> tuple[Item, ...]:
    """A block's questions; an outline recorded before practice (version 1) holds its items only."""
    if block.questions:
        return block.questions
    answers = list(block.answers) + [""] * len(block.items)
    made = []
    for text, answer in zip(block.items, answers):
        first, _, options = text.partition("\n")
        choices = tuple(o.strip()[3:].strip() if o.strip()[1:3] == ") " else o.strip()
                        for o in options.split("\n") if o.strip())
        made.append(Item(question=first, choices=choices, answer=answer))
    return tuple(made)


def questions_for(outline: Outline, pages: list[OutlinePage]) -> tuple[list[tuple[Item, OutlinePage, str]], bool]:
    """(question, the page it is on, its block's URL) of the book's own questions, else the built
    ones; and whether they are the book's own."""
    own: list[tuple[Item, OutlinePage, str]] = []
    for page in pages:
        for source in [page] + [q for q in [_companion_quiz(outline, page)] if q]:
            for block in source.blocks_of("quiz") + source.blocks_of("exercises"):
                own += [(item, source, block.url) for item in _questions(block)]
    if own:
        return own[:MAX_OWN], True
    built = [(item, page, item.tests or block.url) for page in pages for block in page.blocks_of("built")
             for item in block.questions]
    if len(built) < 2:  # too few to be a quiz (or an outline of version 1): what each section says first
        asked = {url for _, _, url in built}
        said = [(Item(question=wording(page.locale).said_about.format(f"**{s.heading}**"), answer=s.key_point,
                      tests=s.url, tests_heading=s.heading), page, s.url)
                for page in pages for s in page.sections if s.key_point and s.level <= 3 and s.url not in asked]
        # two sections headed alike ("Use cases" of topics, and of services) are one question, asked once
        built += [made for n, made in enumerate(said) if all(made[0].question != q.question for q, _, _ in said[:n])]
    return built[:MAX_BUILT], False


def _scope_pages(req: CourseRequest) -> list[OutlinePage]:
    if req.scope == "page" and req.page is not None:
        return [req.page]
    if req.part is not None:
        return part_pages(req.outline, req.part)
    return []


def posed(req: CourseRequest) -> Quiz | None:
    """The quiz for the page or part asked about; None without the book's own questions or two made ones."""
    scope = _scope_pages(req)
    asked, own = questions_for(req.outline, scope)
    if len(asked) < (1 if own else 2) or not scope:  # the book's one question is a quiz; one made up is not
        return None
    title = scope[0].name if req.scope == "page" else req.part.name
    items = tuple(QuizItem(n, item.question, item.choices, item.key, item.answer, item.tests, item.tests_heading,
                           url) for n, (item, page, url) in enumerate(asked, 1))
    return Quiz(scope[0].url, title, items, own)


def _numbered(n: int, text: str) -> list[str]:
    """An item's text as a numbered list item: its later lines indented under the number."""
    first, *rest = text.strip().split("\n")
    return [f"{n}. {first}", *[f"   {line}" if line.strip() else "" for line in rest]]


def quiz_text(quiz: Quiz, outline: Outline, cite: Cites, locale: str | None = None) -> str:
    """The quiz as the answer's text: each question with its choices, never its answer."""
    pages = by_path(outline.pages)
    first = page_at(pages, quiz.page)
    w = wording(locale)
    origin = w.own_questions if quiz.own else w.built_questions
    lines = [f"**{w.quiz.format(quiz.title)}**{cite(first)} ({origin})", ""]
    for item in quiz.items:
        on = page_at(pages, item.source)
        numbered = _numbered(item.n, item.question)
        numbered[-1 if len(numbered) == 1 else 0] += cite(on, item.source) if on is not None and on != first else ""
        lines += numbered
        lines += [f"   - {chr(65 + n)}) {choice}" for n, choice in enumerate(item.choices)]
    lines += ["", w.answers_hint]
    return "\n".join(lines)


def tested_page(outline: Outline, item: QuizItem) -> tuple[OutlinePage | None, str]:
    """The page and section URL where the book teaches what the item asks (else where it asks it)."""
    pages = by_path(outline.pages)
    for url in (item.tests, item.source):
        page = page_at(pages, url) if url else None
        if page is not None:
            return page, url
    return None, ""


def key_explanation(item: QuizItem) -> str:
    """What the key says beyond the choice itself ("C) Path Planning - while related, …" → "while related, …")."""
    said = re.sub(r"^\W{0,2}[A-Ha-h](?:\s*[).:\]]|\s+[-–—]\s|\s*$)\s*", "", item.answer.split("\n")[0]).strip()
    choice = item.choices[item.key]
    if said.lower().startswith(choice.lower()):
        said = said[len(choice):]
    said = said.strip(" -–—:;,.()")
    return said if spaced_length(said) >= 2 else ""


def answers_text(quiz: Quiz, outline: Outline, cite: Cites, locale: str | None = None) -> str:
    """Every item's answer, each cited where the book teaches it."""
    w = wording(locale)
    lines = [f"**{w.answers.format(quiz.title)}**", ""]
    for item in quiz.items:
        page, url = tested_page(outline, item)
        where = link(item.tests_heading or (page.name if page else w.the_page), url) if url else w.the_page
        if item.kind == "choice" and item.key is not None:
            explained = key_explanation(item)
            given = f"**{item.expected}**" + (f" — {explained}" if explained else "")
        elif "```" in item.answer:  # a solution in code: as the book writes it
            lines.append(f"{_numbered(item.n, item.question)[0]}{cite(page, url)}")
            lines += ["", *[f"   {line}" if line.strip() else "" for line in item.answer.split("\n")[:40]], ""]
            continue
        elif item.answer:
            given = "**" + " ".join(item.answer.split("\n\n")[0].split())[:400] + "**"
        else:
            given = w.no_answer.format(where)
        lines.append(f"{_numbered(item.n, item.question)[0]}\n   {given}{cite(page, url)}")
    return "\n".join(lines)
