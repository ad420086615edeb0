"""Telling a question about the book as a course (the book, a part, the page the reader is on)
from a question about a passage, and reading which task it asks for.

Two signals must agree. Structure: the question points at the course itself, by a word for
one of its parts ("book", "chapter", the nouns the book's own part labels use), by deixis to
the reader's place ("this", "next") or by naming a part ("module 2"). Meaning: the question is
close, in the embedding model's space, to the descriptions of one of the tasks (tasks.py). A
question with neither stays on the passage path; so does anything asked of a highlighted passage.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from server.book.outline import Outline, OutlinePage, Part
from server.embedding.choice import MULTILINGUAL, on_gate_scale
from server.question.practice import Quiz
from server.course.resolve import (NOUNS_OF_PARTS, named_heading, numbered_part, part_by_title, resolve_page,
                                   titled_page, titled_part)
from server.course.other_languages import described, language_of_question, read_as_english
from server.course.tasks import FACT, FACTS, PROTOTYPES, TASKS

# calibrated on the four development books' course sets against every passage question of
# their sets (BENCHMARKS.md: course questions score 0.39–1.0 with a cue; passage questions
# with a cue stay under 0.30, off-topic ones under 0.27)
WITH_CUE = 0.30  # pointed at the reader's place or a named part
BARE_NOUN = 0.36  # only a word for a part of the course ("the book", "chapters")
CLEAR_TASK = 0.5  # under it, a bare word for a part goes to the passages when a section heading is nearer
BOOK_NOUNS = frozenset({"book", "textbook", "course", "curriculum", "syllabus"})
PAGE_NOUNS = frozenset({"page", "section", "lesson", "article", "tutorial", "project"})
ALL_NOUNS = BOOK_NOUNS | PAGE_NOUNS | NOUNS_OF_PARTS
_DEIXIS = re.compile(r"\b(this|these|here|current|next|previous)\b")
_CODE = re.compile(r"`[^`\n]*`|[\w.]+\(\s*\)")  # `code`, a call: "next()"
_ORDER = re.compile(r"\b(?:next|previous)\b")  # deixis that is the reading order's, whatever else is named
# a question for a fact, not for the course's structure: a quantity of something other than its
# parts ("how many weeks", "how long"), or a yes/no question ("is the course free?")
_QUANTITY = re.compile(r"^\W*(?:so\s+)?how\s+(?:many|much|long|often|old)\b\s*([a-z]*)")
# "where does the book cover X?", "where in the course is X explained?": where a topic is, not
# where to start reading
_WHERE = re.compile(r"^\W*where\b(?!.*\b(?:start|begin|go|next|first|after|before)\b)"
                    # "which page in this chapter explains the zero moment point?": a place asked for a topic
                    r"|^\W*(?:in\s+)?which\s+(?:\w+\s+){0,4}?(?:explains?|covers?|talks?|describes?|discuss(?:es)?|"
                    r"mentions?|teach(?:es)?|introduces?)\b")
# "quiz me on generators", "test me about lifetimes": a quiz asked for by its topic alone
_QUIZ_ON = re.compile(r"^\W*(?:please\s+|can you\s+|could you\s+)?(?:quiz|test)\s+me\s+(?:on|about|over)\s+(.+)")
_ABOUT_THE_PAGE = ("summarize", "overview")  # tasks whose answer is the page's content, not its place
_YES_NO = re.compile(r"^\W*(?:is|are|does|do|did|can|could|will|would|should|was|were|has|have)\b")
# "the wrong part of my goal", "a section of the list": a word for a part said of something else
_PART_OF = re.compile(r"\b([a-z]+?)s?\s+of\s+(?:(?:the|a|an|my|your|our|this|that|its|their|each|every)\s+)?([a-z]+)")
# "the next value of a generator", "the previous element": the reading order's word said of something else
_ORDER_OF = re.compile(r"\b(?:next|previous)\s+([a-z]+)")
_MINE = re.compile(r"\b(?:my|our)\s+(?:own\s+|new\s+)?([a-z]+)")  # "my module", "our own project": the reader's
# what follows "next" when it is the reader's next step: a word for a part, or a few of its own
_NEXT_IN_ORDER = frozenset({"one", "ones", "step", "steps", "thing", "things", "topic", "topics", "lab", "labs",
                            "in", "on", "after", "then", "and", "or", "i", "we", "to", "up", "for", "time"})


@dataclass(frozen=True)
class CourseRequest:
    task: str  # one of tasks.TASKS
    scope: str  # "book" | "part" | "page"
    outline: Outline
    page: OutlinePage | None  # the page the reader is on, when the index holds it
    part: Part | None  # the part asked about (named, or the reader's page's)
    page_url: str = ""  # as sent
    score: float = 0.0
    text: str = ""  # the question
    quiz: Quiz | None = None  # "answers": the quiz the conversation posed
    quiz_id: str = ""
    asked_in: str | None = None  # the reader's page's locale, as sent

    def describe(self) -> dict:
        return {"task": self.task, "scope": self.scope, "page": self.page.url if self.page else None,
                "part": self.part.name if self.part else None}

    @property
    def locale(self) -> str:
        """The reader's page's locale as sent, else as indexed, else the book's: what answers speak."""
        return self.asked_in or (self.page.locale if self.page is not None else self.outline.default_locale)

    @property
    def page_unknown(self) -> bool:
        """A page was sent that the index does not hold."""
        return bool(self.page_url) and self.page is None


class TaskReader:
    """Task descriptions embedded once; a question compared with them. Both are read with every
    word for a part of the course made the same word, so that the task, not whether the book
    says "module" or "chapter", decides."""

    def __init__(self, embedder):
        self.embedder = embedder
        # the thresholds are MiniLM cosines; another model's are put on that scale, of a question
        # and a passage (a heading) or of two questions (a task's descriptions)
        self.scale = on_gate_scale(getattr(embedder, "model_name", ""))
        self.scale_two = on_gate_scale(getattr(embedder, "model_name", ""), two_questions=True)
        self.multilingual = getattr(embedder, "model_name", "") == MULTILINGUAL  # tasks described in other languages too
        self._prototypes: list[np.ndarray] | None = None
        self._headings: dict[tuple[int, str | None], tuple[Outline, np.ndarray]] = {}

    def scores(self, vector: np.ndarray) -> dict[str, float]:
        """The question's nearness to each task, and to a fact the book states (FACT)."""
        if self._prototypes is None:
            kinds = [PROTOTYPES[task] + (described(task) if self.multilingual else []) for task in TASKS] + [FACTS]
            # a request compared with requests: read alike (a model with a passage prefix reads
            # "passage: このページを要約して" as text, not as a request, and matches on "このページ")
            self._prototypes = [np.array([self.embedder.embed_query(_canonical(p, ALL_NOUNS)) for p in prototypes])
                                for prototypes in kinds]
        return {task: self.scale_two(float(np.max(m @ vector))) for task, m in zip((*TASKS, FACT), self._prototypes)}

    def nearest_heading(self, outline: Outline, vector: np.ndarray, locale: str | None) -> float:
        """The question's nearness to the nearest of the book's section headings (embedded once per
        published outline): a question that only says a word for a part of the course ("a section",
        "the project") is about a topic when a section of the book is nearer to it than any task."""
        key = (id(outline), locale)
        kept = self._headings.get(key)
        if kept is None or kept[0] is not outline:
            headings = sorted({" ".join(s.heading.split()) for p in outline.pages
                               if not locale or p.locale == locale for s in p.sections} - {""})
            matrix = self.embedder.embed_documents(headings) if headings else np.zeros((0, len(vector)))
            if len(self._headings) > 16:
                self._headings.clear()
            kept = self._headings[key] = (outline, matrix)
        return self.scale(float(np.max(kept[1] @ vector))) if len(kept[1]) else 0.0

    def read(self, text: str, vector: np.ndarray, outline: Outline | None, page_url: str = "",
             locale: str | None = None, page_title: str = "") -> CourseRequest | None:
        if outline is None or not outline.pages:
            return None
        lowered = text.lower()
        # what says the course is asked about: not the course's nouns said inside a heading, nor code
        # ("send() 之前为什么要先调用 next()" asks about a function, not for the next page)
        cues = _CODE.sub(" ", lowered)
        if heading := named_heading(outline, lowered, locale):
            cues = " ".join(cues.replace(heading, " ").split())
        cues = read_as_english(cues)  # "このページ", "este capítulo": this page, this chapter
        other = language_of_question(lowered)  # asked in Japanese, Chinese, Spanish or Urdu
        read = lowered
        if other and not self.multilingual:
            # a model that reads English only (an English book's translation asked from its page)
            # reads the question with its course words in English: "this page کا summary بتائیں"
            read = read_as_english(lowered)
            vector = self.embedder.embed_query(_canonical(read, ALL_NOUNS))
        part_nouns = NOUNS_OF_PARTS | {p.noun for p in outline.parts if p.noun}
        cues = _said_of_the_course(cues, ALL_NOUNS | part_nouns)
        asked = {_one(w) for w in re.findall(r"[a-z]+", cues)}
        numbered, said = numbered_part(outline, cues, locale)
        titled, named = titled_part(outline, cues, part_nouns, locale) if numbered is None else (None, "")
        if numbered is None and titled is None and other:
            titled, named = part_by_title(outline, lowered, locale)  # "「作って学ぶTypeScript」の章", "面向对象那一块"
        nouns = asked & (BOOK_NOUNS | PAGE_NOUNS | part_nouns)
        pointed = bool(_DEIXIS.search(cues) or numbered or titled)
        if not (nouns or pointed):
            return self._quiz_on(text, outline, page_url, locale)
        if _asks_a_fact(cues, nouns - BOOK_NOUNS, part_nouns):
            return None
        where = bool(_WHERE.match(cues) and nouns)  # a locate by its shape, whatever the topic's words
        if not where and max(self.scores(vector).values()) < BARE_NOUN - 0.15:
            return None  # nowhere near any task: no need to look closer
        # "module 2" is "this part" to the tasks' descriptions; not in another language, whose own
        # descriptions the model reads it against
        reworded = lowered.replace(said or named or "\0", "this part") if (said or named) and not other else read
        scores = self.scores(self.embedder.embed_query(_canonical(reworded, ALL_NOUNS | part_nouns)))
        task = max(scores, key=scores.get)
        if where:
            task = "locate"
        elif task == FACT or scores[task] < (WITH_CUE if pointed else BARE_NOUN):
            return None  # a fact is looked up in the passages
        elif (not pointed and task != "locate" or _points_at_nothing(cues, nouns, numbered or titled)
              or task in _ABOUT_THE_PAGE and not (numbered or titled or other)) \
                and scores[task] < CLEAR_TASK and self.nearest_heading(outline, vector, locale) >= scores[task]:
            # "the difference between a namespace and a section", "explain sensor fusion like I'm new to
            # this", "explain how borrow_mut works on this page": a topic the book has a section on,
            # a part named by no word for it (or only by "this page", in English: a question in another
            # language read by an English model is near no task, "this page کا summary" included)
            return None
        page = resolve_page(outline, page_url, page_title) if page_url else None
        part = numbered or titled
        scope = _scope(cues, nouns, part, page, outline, part_nouns)
        if scope == "part" and part is None and page is not None:
            part = outline.part_of(page)
            if part is None:
                scope = "page"
        return CourseRequest(task, scope, outline, page, part, page_url, round(scores[task], 4), text,
                             asked_in=locale)

    @staticmethod
    def _quiz_on(text: str, outline: Outline, page_url: str, locale: str | None) -> CourseRequest | None:
        """A quiz on the page whose title the topic names ("quiz me on generators")."""
        asked = _QUIZ_ON.match(text.lower())
        page = titled_page(outline, asked.group(1), locale) if asked else None
        if page is None:
            return None
        return CourseRequest("quiz", "page", outline, page, outline.part_of(page), page_url, 1.0, text, asked_in=locale)


def _points_at_nothing(cues: str, nouns: set[str], part: Part | None) -> bool:
    """Deixis that names no part of the course ("explain sensor fusion like I'm new to this"),
    and is not the reading order's ("what's next?")."""
    return bool(_DEIXIS.search(cues)) and not (nouns or part or _ORDER.search(cues))


def _asks_a_fact(text: str, parts_named: set[str], part_nouns: set[str]) -> bool:
    """A quantity of something other than the course's parts ("how many weeks is this course?",
    but not "how many chapters are there?"), or a yes/no question naming no part smaller than
    the book ("is the course free?", but not "is there a chapter on filters?")."""
    quantity = _QUANTITY.match(text)
    if quantity:
        counted = quantity.group(1)
        counted = _one(counted)
        return counted not in PAGE_NOUNS | part_nouns
    return bool(_YES_NO.match(text)) and not parts_named


def _one(word: str) -> str:
    """A word for a part as one of them ("chapters" is "chapter"; "class" stays)."""
    return word[:-1] if word.endswith("s") and len(word) > 4 else word


def _said_of_the_course(text: str, nouns) -> str:
    """The text without a word for a part that is said of something no part of the course ("the
    wrong part of my goal" is a part of a proof goal; "a part of the book" stays), nor a "next"
    said of one ("how do i get the next value out of a generator?"; "the next chapter" stays), nor
    one the reader owns ("what should i name my module file?" asks of a Haskell module of theirs;
    "my course" stays the course)."""
    def drop(match: re.Match) -> str:
        noun, whole = match.group(1), match.group(2)
        whole = _one(whole)
        return match.group(0) if noun not in nouns or whole in nouns or whole.isdigit() else " " + whole
    def other_order(match: re.Match) -> str:
        said = _one(match.group(1))
        return match.group(0) if said in nouns or said in _NEXT_IN_ORDER else " " + match.group(1)
    def not_the_courses(match: re.Match) -> str:
        return " " if _one(match.group(1)) in nouns - BOOK_NOUNS else match.group(0)
    return _MINE.sub(not_the_courses, _ORDER_OF.sub(other_order, _PART_OF.sub(drop, text)))


def _canonical(text: str, nouns) -> str:
    pattern = "|".join(sorted(nouns, key=len, reverse=True))
    return re.sub(rf"\b(?:{pattern})s?\b", "part", text.lower())


def _scope(text: str, nouns: set[str], part: Part | None, page: OutlinePage | None, outline: Outline,
           part_nouns: set[str]) -> str:
    pointed = re.search(r"\b(?:this|current)\s+(?:whole\s+|entire\s+)?([a-z]+)", text)
    noun = pointed.group(1) if pointed else ""
    # what the book calls its pages ("Chapter 1: …" inside modules) is a page here
    page_nouns = PAGE_NOUNS | {t.split()[0].lower() for t in (p.title for p in outline.pages)
                               if re.match(r"^[A-Za-z]+\s+\d+\b", t)} - {p.noun for p in outline.parts}
    if noun in BOOK_NOUNS:
        return "book"
    if part is not None:
        return "part"
    if noun in page_nouns:
        return "page"
    if noun in part_nouns:
        return "part"
    if page is not None and not (nouns & BOOK_NOUNS):
        return "page"
    return "book"
