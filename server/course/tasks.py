"""What a reader can ask of the book as a course, each task described by a few requests of
its kind. A question is compared with these by meaning (the embedding model), so wording the
descriptions never saw still lands on its task; they describe the tasks, they are not a list
of the questions a set asks."""
from __future__ import annotations

PROTOTYPES: dict[str, list[str]] = {
    "overview": [
        "what is this book about",
        "what is this module about in general",
        "what is this chapter about",
        "give me an overview of this part",
        "what is the main idea of this course",
        "what is the point of this chapter and who is it for",
        "introduce this section to me",
    ],
    "summarize": [
        "summarize this page",
        "give me a summary of this chapter",
        "sum up this module",
        "the gist of this page",
        "tl;dr",
        "the short version of this section",
        "a recap of the main takeaways of this lesson",
        "explain this whole page to me simply",
        "help me understand this chapter",
        "walk me through this section",
    ],
    "contents": [
        "what chapters are in this book",
        "list the modules of the course",
        "what sections does this page have",
        "what lessons are in this chapter",
        "table of contents",
        "what topics does this module cover",
        "how is the book organized",
        "what does this page go through, part by part",
    ],
    "locate": [
        "which chapter covers this topic",
        "where in the book is this explained",
        "which page explains it",
        "in which module do they teach that",
        "where can I find the part about it",
        "which lesson talks about this subject",
        "which page in this module describes that thing",
        "where does the book cover this topic",
        "where does the course talk about it",
    ],
    "order": [
        "what should I read next",
        "what's next",
        "what comes after this page",
        "which module comes before this one",
        "which chapter should I read first",
        "what do I need to know before starting this module",
        "what are the prerequisites for this chapter",
    ],
    "objectives": [
        "what will I learn in this chapter",
        "what are the learning objectives of this module",
        "what will I be able to do after finishing this course",
        "what skills does this page teach me",
        "what will I be able to build by the end of this part",
        "what am I supposed to get out of this lesson",
    ],
    "quiz": [
        "quiz me on this page",
        "test my knowledge of this section",
        "ask me some questions to check my understanding",
        "give me practice questions",
        "make a short self-check quiz",
        "show me the exercises for this chapter",
        "are there any exercises on this page",
    ],
}

TASKS = tuple(PROTOTYPES)

# a fact the book states that merely names the course ("how long does the course take?"): no
# task of the course's structure, but a question for the passages; read like a task, so that
# it wins only where it is nearer than every task
FACT = "fact"
FACTS = [
    "how long does the course take",
    "how many hours a week does this course need",
    "when is the deadline of this module's assignment",
    "what grade do I need to pass the course",
    "what hardware do I need for this chapter",
    "which software version does the book use",
    "what programming language does this course use",
    "how much does the equipment for this course cost",
    "who wrote this book",
]
