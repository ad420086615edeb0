"""Which questions are about the book as a course: a fact the book states that merely names the
course ("how long does the course take?") is looked up in the passages, not answered with the
table of contents; "where does the book cover X?" is a locate, never a reading order. Any string
goes through the router without an error."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from apps import make_settings
from server.question import Question

# worded apart from the task descriptions (course/tasks.py), which they must not repeat
FACTS = ["how many hours does this course take?", "how much time per day should i study for the course?",
         "what computer do i need for the course?", "which python version does the book use?",
         "what score counts as a pass in this course?", "is the course free?"]
WHERE = ["where does the book cover aliasing?", "where does the book talk about quantization?",
         "where in the course is dithering explained?", "where does the book cover fir versus iir?",
         "where does the book cover amplitude, power and rms?", "where does the book cover dithering?"]


@pytest.fixture(scope="module")
def chat(sample_book, tmp_path_factory):
    parts = sample_book.components(make_settings(tmp_path_factory.mktemp("routing") / "data"))
    yield parts
    parts.close()


def _route(chat, question: str):
    answer = chat.pipeline.answer(Question(question, max_chunks=5, similarity_threshold=0.3))
    return answer.course["task"] if answer.course else None


@pytest.mark.parametrize("question", FACTS)
def test_a_fact_that_names_the_course_is_no_course_task(chat, question):
    assert _route(chat, question) not in ("contents", "order", "overview")


@pytest.mark.parametrize("question", WHERE)
def test_where_the_book_covers_something_is_a_locate(chat, question):
    assert _route(chat, question) == "locate"


def test_a_heading_that_says_book_or_this_names_its_section_not_the_course(chat):
    # "How to use this book" is a section: asked about, its passages answer, not the course's outline
    assert _route(chat, "what is how to use this book?") is None
    assert _route(chat, "what does how to use this book say?") is None


def test_a_word_for_a_part_that_is_the_topic_keeps_the_passage_path(chat):
    # as "what's the difference between a namespace and a section?" on a Lean book, where a section
    # is a construct of the language: a heading of the book is nearer to it than any course task
    assert _route(chat, "what's the difference between dither and a section?") is None
    assert _route(chat, "why would i build an iir filter out of second-order sections?") is None


def test_this_said_of_no_part_of_the_course_keeps_a_topic_on_the_passage_path(chat):
    # "explain sensor fusion like im new to this" on a robotics book was answered with the book's
    # welcome page and table of contents: its "this" points at no part, and a heading is nearer
    assert _route(chat, "explain quantization like im new to this") is None
    assert _route(chat, "ok i finished aliasing, what should i read next?") == "order"  # "next": the reading order
    # a call named "next()" is code, not the reading order: "send() 之前为什么要先调用 next()" was answered
    # with the page after the generators page
    assert _route(chat, "why do i call next() before send()?") is None
    assert _route(chat, "what is this about?") == "overview"
    assert _route(chat, "summarize this") == "summarize"


def test_next_said_of_something_else_keeps_the_passage_path(chat):
    # "how do i get the next value out of a generator?" on a Python book was answered "You are on
    # Generators. Next: Higher-Order Functions": the next value, not the next page
    assert _route(chat, "how do i get the next value out of the filter?") is None
    assert _route(chat, "how is the next sample computed from the previous samples?") is None
    assert _route(chat, "which chapter should i read next?") == "order"
    assert _route(chat, "what's the next chapter after aliasing?") == "order"


def test_a_word_for_a_part_said_of_something_else_keeps_the_passage_path(chat):
    # tpil4's "the wrong part of my goal" is a part of a proof's goal, not of the course: it was
    # answered with the book's objectives
    assert _route(chat, "rw keeps messing with the wrong part of my goal, how do i point it at the piece i want?") is None
    assert _route(chat, "what will i learn in this part of the book?") == "objectives"



def test_a_part_the_reader_owns_keeps_the_passage_path(chat):
    # lhbg's "what should i name my module file?" (a Haskell module of the student's) was answered with the
    # page's table of contents: "Preventing incorrect use with modules covers: Modules"
    assert _route(chat, "what should i name my module file?") is None
    assert _route(chat, "where should i put the tests in my own project?") is None
    assert _route(chat, "what topics does this module cover?") == "contents"
    from server.course.understand import ALL_NOUNS, _said_of_the_course
    assert "course" in _said_of_the_course("what's left in my course?", ALL_NOUNS)
    assert "module" not in _said_of_the_course("what should i name my new module?", ALL_NOUNS)


def test_a_heading_the_question_names_is_located_there(chat):
    answer = chat.pipeline.answer(Question("where does the book cover key vocabulary?", 5, 0.3))
    assert answer.course["task"] == "locate"
    first = answer.text.splitlines()[1]
    assert "Key vocabulary" in first and "#key-vocabulary" in first


@pytest.mark.parametrize("question, task", [("what chapters are in this book?", "contents"),
                                            ("where should i start in this book?", "order"),
                                            ("what is this book about?", "overview"),
                                            ("which chapter covers quantization?", "locate"),
                                            # a heading named inside a course question stays its topic
                                            ("which page of this chapter explains the zero-padding does not add resolution idea?",
                                             "locate"),
                                            ("what will I learn in this module?", "objectives"),
                                            # by its shape, whatever task "explains" is nearer to:
                                            # aibook's was read as "explain this page"
                                            ("which page in this chapter explains the sampling theorem thing?",
                                             "locate"),
                                            ("which lesson talks about window functions?", "locate"),
                                            ])
def test_the_course_tasks_are_still_read(chat, question, task):
    assert _route(chat, question) == task


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=80).filter(lambda t: t.strip() and "\x00" not in t))
def test_any_question_goes_through_the_router(chat, text):
    from server.question import Page

    question = Question(text, 5, 0.3, page=Page(url="http://127.0.0.1:8000/book/docs/intro", title=text[:20]))
    request = chat.pipeline.understand.course.read(question, chat.embedder.embed_query(text), ())
    assert request is None or request.task in ("overview", "summarize", "contents", "locate", "order", "objectives",
                                               "quiz")


def test_a_heading_is_named_by_its_own_words_not_by_the_course_words_any_book_uses():
    """"In This Chapter" is a heading of many books: saying "in this chapter" names the chapter,
    not that section; "Extending this project" or "Zero Moment Point" are said of their sections."""
    from server.book.outline import Outline, OutlinePage, Section
    from server.course.resolve import named_heading

    url = "https://book.example/docs/walking"
    sections = tuple(Section(h, f"{url}#{i}", 2, "") for i, h in
                     enumerate(["In This Chapter", "Extending this project", "Zero Moment Point", "Summary"]))
    page = OutlinePage("walking.md", "walking.md", url, "Walking", ("Walking",), "Walking", None, 1, 1, None, None,
                       "", sections=sections)
    outline = Outline("b", "B", pages=(page,))
    assert named_heading(outline, "which page in this chapter explains the zero moment point?") == "zero moment point"
    assert named_heading(outline, "what is in this chapter?") == ""
    assert named_heading(outline, "what is extending this project?") == "extending this project"
    assert named_heading(outline, "give me a summary") == ""  # one word says too little


@pytest.mark.parametrize("question", ["can you show me the exercises in this chapter?",
                                      "are there exercises on this page?", "what exercises does this module have?"])
def test_the_exercises_of_a_chapter_or_page_are_its_quiz_not_its_contents(chat, question):
    # tpil4: "can you show me the exercises for this chapter" was answered with the chapter's pages
    from server.question import Page

    page = Page(url="http://127.0.0.1:8000/book/docs/foundations/quantization-and-bit-depth")
    answer = chat.pipeline.answer(Question(question, max_chunks=5, similarity_threshold=0.3, page=page))
    assert answer.course and answer.course["task"] == "quiz", answer.course


@pytest.mark.parametrize("question", ["explain this page simply", "explain this page",
                                      "can you explain this section in simple words?", "i don't understand this page"])
def test_explain_this_page_asks_for_the_page_explained(chat, question):
    # on the Rust book's RefCell page, "explain this page simply" was refused and "explain this page"
    # answered from the crates.io chapter
    assert _route(chat, question) in ("summarize", "overview")


@pytest.mark.parametrize("question", ["explain how anti-aliasing filters work on this page",
                                      "summarize what this chapter says about aliasing filters"])
def test_a_topic_asked_of_this_page_is_answered_by_its_section(chat, question):
    # "explain how borrow_mut works on this page" was answered with a list of pages
    assert _route(chat, question) is None
