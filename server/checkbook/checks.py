"""The checks, each asked through the real /chat endpoint of an app over the book's index and
judged without an answer key. A check gives its measure, whether it holds, and failing examples."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from statistics import median, quantiles
from typing import Callable

from server.book.chunk import top_section
from server.evaluation.measures import answer_words
from server.checkbook import probes
from server.checkbook.citations import BookSections, in_citation_order, placements

MAX_EXAMPLES = 5
PROSE_P50, PROSE_P90 = 100, 160  # words a reader reads (code and tables not counted)
MAX_CODE_LINES = 30
MAX_SECTIONS = 3  # sections an answer cites: the one that answers, and two for what it does not say
MIN_OFF_BOOK_REFUSED = 0.95
# asked in the book's other languages: their word lists, and the cut of Chinese and Japanese into
# words, are rougher than English's (BENCHMARKS.md: 0.80 to 1.00 over the pool's four languages)
MIN_OFF_BOOK_REFUSED_IN_OTHER_LANGUAGES = 0.75
_FENCED = re.compile(r"^\s*(```|~~~)[^\n]*\n(.*?)^\s*\1", re.M | re.S)
_ASKS_FOR_CODE = re.compile(r"\b(?:code|example|snippet|implement|program|script|syntax|write)\b", re.I)
_QUIZ_ITEM = re.compile(r"^\s*\d+\.\s+(.+)$", re.M)
_LABEL_VALUE = re.compile(r"^[^:?]{1,40}:\s+\S+(?:\s+\S+){0,4}$")
_TITLE_ONLY = re.compile(r"^(?:\*\*|__)[^*_]+(?:\*\*|__)$")
_BODY = re.compile(r"\n\s*\n?[ \t]{2,}\S")  # lines set under the item: its task


@dataclass
class Result:
    name: str
    passed: bool
    measure: str
    failures: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"check": self.name, "passed": self.passed, "measure": self.measure,
                "failures": self.failures[:MAX_EXAMPLES]}


@dataclass(frozen=True)
class Book:
    """What the checks need of the book: its words, headings, pages and paragraphs."""

    book_id: str
    words: list[str]
    headings: list[str]
    page_urls: list[str]
    paragraphs: list[tuple[str, str]]  # (text, url)
    sections: BookSections
    off_book: list[str] = field(default_factory=list)  # more questions it does not answer (other books' topics)
    languages: tuple[str, ...] = ("en",)  # of its pages ("es"; "zh", "en"): a highlight is asked of in each
    locales: dict[str, str] = field(default_factory=dict)  # a locale of its pages for each language ("zh": "zh-cn")


Ask = Callable[..., tuple[int, dict]]  # ask(question, **body) -> (status, JSON body)


def typo_fuzz(ask: Ask, book: Book, count: int = 60) -> Result:
    failures = []
    for question in probes.typo_questions(book.words, count):
        status, body = ask(question)
        if status != 200:
            failures.append(f"{status} {question!r}: {body.get('error', '')}")
    return Result("typo fuzz", not failures, f"{count - len(failures)}/{count} answered without an error", failures)


def highlight_requests(ask: Ask, book: Book, passages: int = 3) -> Result:
    chosen = probes.highlightable(book.paragraphs, passages)
    if not chosen:
        return Result("highlight requests", True, "no prose paragraph to highlight")
    failures, asked = [], 0
    # a request is never refused; a question on one of the passage's words may be (the passage need
    # not say what "convenient" is), but never fails
    requests = [(phrasing, chosen[n % len(chosen)], False)
                for n, phrasing in enumerate(probes.request_phrasings(book.languages))]
    requests += [(phrasing, passage, True) for passage in chosen for phrasing in probes.term_requests(passage.text)]
    for phrasing, passage, may_decline in requests:
        for mode in ("exclusive", "combined"):
            status, body = ask(phrasing, selected_text=passage.text, selection_mode=mode,
                               metadata={"page_url": passage.url})
            asked += 1
            if status != 200 or (body.get("status") == "refused" and not may_decline):
                failures.append(f"{mode}: {phrasing!r} → {status} {body.get('status', body.get('code'))}")
    return Result("highlight requests", not failures, f"{asked - len(failures)}/{asked} answered", failures)


def answers_to_headings(ask: Ask, book: Book, count: int = 20) -> list[tuple[str, dict]]:
    """What a student would ask of the book's own sections, and the answers."""
    step = max(1, len(book.headings) // count)
    answered = []
    for heading in book.headings[::step][:count]:
        question = f"what is {heading.lower()}?" if len(heading.split()) <= 4 else f"can you explain {heading.lower()}?"
        status, body = ask(question)
        if status == 200 and body.get("status") == "completed":
            answered.append((question, body))
    return answered


def citation_places(answered: list[tuple[str, dict]], book: Book) -> Result:
    checked, failures = 0, []
    for question, body in answered:
        for placement in placements(body["answer"], body.get("sources", []), book.sections):
            checked += 1
            if not placement.placed:
                failures.append(f"{question!r}: “{' '.join(placement.piece.split())[:90]}” cited [{placement.marker}] "
                                f"as {placement.url.rsplit('/', 1)[-1]}")
    return Result("citations under their heading", not failures,
                  f"{checked - len(failures)}/{checked} quoted pieces under the heading cited", failures)


def citation_order(answered: list[tuple[str, dict]]) -> Result:
    failures = [f"{q!r}: markers first used as {_order(b['answer'])}" for q, b in answered
                if not in_citation_order(b["answer"])]
    return Result("citations numbered in order", not failures,
                  f"{len(answered) - len(failures)}/{len(answered)} answers numbered 1, 2, 3 …", failures)


def _order(answer: str) -> str:
    from server.question.markers import cited_in_order

    return ", ".join(f"[{n}]" for n in cited_in_order(answer))


def answer_length(answered: list[tuple[str, dict]]) -> Result:
    lengths = [answer_words(b["answer"]) for _, b in answered]
    failures = []
    for question, body in answered:
        for _, code in _FENCED.findall(body["answer"]):
            lines = code.strip("\n").count("\n") + 1
            if lines > MAX_CODE_LINES and not _ASKS_FOR_CODE.search(question):
                failures.append(f"{question!r}: a {lines}-line code block, unasked")
    if not lengths:
        return Result("answer length", True, "no answer to measure")
    p50 = median(lengths)
    p90 = quantiles(lengths, n=10)[-1] if len(lengths) > 1 else lengths[0]
    if p50 > PROSE_P50 or p90 > PROSE_P90:
        failures.insert(0, f"prose words p50 {p50:.0f} (≤ {PROSE_P50}), p90 {p90:.0f} (≤ {PROSE_P90})")
    return Result("answer length", not failures, f"prose words p50 {p50:.0f}, p90 {p90:.0f}", failures)


def _section(source: dict, n: int) -> tuple[str, str]:
    """A cited source's page and top section (its subsections are its own; the page's opening is one)."""
    return source.get("url", str(n)).split("#")[0], top_section(source.get("section_hierarchy") or [])


def sections_quoted(answered: list[tuple[str, dict]]) -> Result:
    """An answer reads from the section that answers, not a collage: it cites three sections at
    most (a section and its subsections, cited at their own anchors, are one), and at most one
    code block nobody asked for."""
    from server.question.markers import cited_in_order

    failures, most = [], 0
    for question, body in answered:
        sources = body.get("sources", [])
        places = {_section(sources[n - 1], n) for n in cited_in_order(body["answer"]) if 0 < n <= len(sources)}
        most = max(most, len(places))
        if len(places) > MAX_SECTIONS:
            failures.append(f"{question!r}: {len(places)} sections cited")
        blocks = len(_FENCED.findall(body["answer"]))
        if blocks > 1 and not _ASKS_FOR_CODE.search(question):
            failures.append(f"{question!r}: {blocks} code blocks, unasked")
    return Result("sections quoted", not failures, f"at most {most} sections an answer", failures)


def off_book(ask: Ask, book: Book) -> Result:
    """Everyday questions no textbook answers are refused: in English, then in each other
    language of the book's pages, asked from a page in it."""
    asked = {"en": [(question, {}) for question in [*probes.EVERYDAY, *book.off_book]]}
    for language, locale in book.locales.items():
        if language in probes.EVERYDAY_IN:
            asked[language] = [(question, {"metadata": {"locale": locale}}) for question in probes.EVERYDAY_IN[language]]
    failures, shares, passed = [], [], True
    for language, questions in asked.items():
        answered = []
        for question, body in questions:
            status, reply = ask(question, **body)
            if status == 200 and reply.get("status") != "refused":
                answered.append(f"{question!r} answered: {' '.join(reply['answer'].split())[:80]}")
        refused = 1 - len(answered) / len(questions)
        line = MIN_OFF_BOOK_REFUSED if language == "en" else MIN_OFF_BOOK_REFUSED_IN_OTHER_LANGUAGES
        passed = passed and refused >= line
        shares.append(f"{language} {refused:.2f} of {len(questions)} (≥ {line})")
        failures += answered
    return Result("off-book refused", passed, "refused: " + ", ".join(shares), failures)


def course_routing(ask: Ask, book: Book) -> Result:
    failures, asked = [], 0
    for question in probes.COURSE_FACTS:
        status, body = ask(question)
        asked += 1
        task = (body.get("course") or {}).get("task")
        if task in ("contents", "order"):
            failures.append(f"{question!r} read as `{task}`")
    topics = [h for h in book.headings if 1 <= len(h.split()) <= 4][:: max(1, len(book.headings) // 6)][:4]
    for topic in topics:
        question = probes.WHERE.format(topic.lower())
        status, body = ask(question)
        asked += 1
        task = (body.get("course") or {}).get("task")
        if task != "locate":
            failures.append(f"{question!r} read as `{task}`")
    return Result("course routing", not failures, f"{asked - len(failures)}/{asked} routed as asked", failures)


def quiz_items(ask: Ask, book: Book, pages: list[str]) -> Result:
    failures, items = [], 0
    for url in pages:
        status, body = ask("quiz me on this page", metadata={"page_url": url})
        if status != 200 or body.get("status") != "completed":
            continue
        for match in _QUIZ_ITEM.finditer(body["answer"]):
            item = re.sub(r"\s*\[\d+\]", "", match[1]).strip()
            items += 1
            # a titled exercise ("**Ejercicio de cierre: Duplicar niveles de poder**" and its task
            # under it) poses something; a lone "Robot mass: 60 kg" does not
            posed = _TITLE_ONLY.match(item) and _BODY.match(body["answer"], match.end())
            if _LABEL_VALUE.match(item) and not item.endswith("?") and not posed:
                failures.append(f"{url.rsplit('/', 1)[-1]}: “{item}”")
    return Result("quiz items", not failures, f"{items - len(failures)}/{items} items a reader can be asked", failures)
