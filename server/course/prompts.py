"""One prompt per course task for a language model: the task's instruction, the outline of what
is asked about (the answer prepared from the structure, with its links) and the cited pages'
text as numbered passages, so the model's [n] markers cite the same pages."""
from __future__ import annotations

from server.question.compose.generator import GenerationInput
from server.question.understand import Understanding
from server.course.answers import CourseAnswer

TASK_INSTRUCTIONS = {
    "overview": "Say what the book, part or page is about, as it says itself, then the key point of each of "
                "its sections or pages, in order.",
    "summarize": "Summarize the page or part: its main point, then the key point of each section, in order.",
    "contents": "List its contents as a nested Markdown list of links, exactly as the outline gives them; "
                "add nothing the outline does not have.",
    "locate": "Name the pages that cover what the reader asks about, as the outline names them (part › page › "
              "section), best first, each as a link, and say in a sentence what each says about it.",
    "order": "Say what comes before and after, using the outline's order, and the prerequisites the book "
             "itself states; name pages as links.",
    "objectives": "List the objectives the book states for it; if it states none, say so and list what it covers.",
    "quiz": "Pose the outline's quiz questions, numbered, one per line, without their answers; end by inviting "
            "the reader to ask for the answers.",
    "answers": "Give the answer to each quiz question, numbered as the questions were, each cited.",
}


def course_input(understood: Understanding, sources, answer: CourseAnswer) -> GenerationInput:
    question = understood.question
    return GenerationInput(
        question=question.text, sources=list(sources), history=list(understood.history),
        preferences=question.preferences, course_task=TASK_INSTRUCTIONS[understood.course.task],
        outline=answer.text)
