"""Practice through /chat, as a student meets it: "quiz me" gives the book's own questions as a
`quiz` object and as text (choices listed, answers never shown); an answer to an item is checked
(`feedback`) against the book's key or sample answer and explained, citing the section it tests;
"show the answers" gives them all, cited; the quiz is kept with the conversation, so a second
server continues it. Three books with different quiz formats: a module quiz page with an answer
key and sample answers (tests/data/practice-book), physical-ai-book's quiz pages ("**Answer**: c)"
lines, keys in comments) and dibs-es's <Exercise> with its <Solution> (Spanish)."""
from __future__ import annotations

import re
import shutil

import pytest

from apps import make_app, open_copy
from places import CORPORA, PHYSICAL_AI, REPO

PRACTICE_BOOK = REPO / "tests" / "data" / "practice-book"
MODULE_QUIZ = "https://practice.example/docs/dynamics/module-quiz"
ROS_QUIZ = "https://physical-ai.example/docs/module-ros/quizzes/quiz-intro-to-ros2"


@pytest.fixture(scope="module")
def practice(tmp_path_factory, embedder, indexed_folder):
    book = open_copy(indexed_folder(PRACTICE_BOOK), tmp_path_factory.mktemp("practice") / "data", embedder)
    yield book
    book.index.close()


@pytest.fixture(scope="module")
def client(practice, tmp_path_factory):
    return make_app(practice, tmp_path_factory.mktemp("practice-app")).test_client()


def ask(client, question: str, page: str | None = None, **body) -> dict:
    metadata = {"page_url": page} if page else {}
    response = client.post("/chat", json={"question": question, "metadata": metadata, **body})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def item_blocks(answer: str) -> list[list[str]]:
    """The quiz text's numbered items, each as its lines (question, then what is shown under it)."""
    listed = answer.split("\n\nAsk “show the answers”")[0]
    return [block.rstrip("\n").split("\n") for block in re.split(r"^(?=\d+\. )", listed, flags=re.M)[1:]]


def assert_no_answers_shown(quiz_body: dict) -> None:
    """Under each question only its own choices, in order: no answer, no key, nothing in bold."""
    quiz, text = quiz_body["quiz"], quiz_body["answer"]
    blocks = item_blocks(text)
    assert len(blocks) == len(quiz["items"]), text
    for block, item in zip(blocks, quiz["items"]):
        assert block[0].startswith(f"{item['n']}. {item['question'].splitlines()[0]}"), (block, item)
        shown = [line for line in block[1:] if line.strip()]
        choices = [f"   - {chr(65 + n)}) {c}" for n, c in enumerate(item["choices"])]
        questions_own = [f"   {line}" for line in item["question"].splitlines()[1:] if line.strip()]
        assert shown == questions_own + choices, (block, item)
        assert not any("**" in line or re.search(r"(?i)\banswer\b|\bkey\b", line) for line in shown), block


def test_quiz_me_on_a_module_quiz_page_gives_its_questions_with_choices_and_no_answers(client):
    data = ask(client, "quiz me on this page", MODULE_QUIZ)
    assert data["status"] == "completed" and data["course"]["task"] == "quiz"
    quiz = data["quiz"]
    assert quiz["id"] == data["assistant_message_id"] and quiz["page"] == MODULE_QUIZ
    assert [i["kind"] for i in quiz["items"]] == ["choice"] * 6 + ["short"] * 3
    assert quiz["items"][0] == {"n": 1, "question": "What is torque at a joint?", "kind": "choice", "choices": [
        "The speed of the motor", "The turning force a motor applies at a joint", "The length of a link",
        "The mass of the arm"]}
    assert_no_answers_shown(data)
    for never in ("Answer every question", "Explain how torque relates to load", "A longer link has more inertia"):
        assert never not in data["answer"]  # instructions, objectives, sample answers
    assert "**" not in data["answer"].split("\n", 1)[1]


def test_the_no_answers_check_catches_answers_printed_under_their_questions(client):
    """The mutation the issue names: each answer printed in bold under its question fails the check."""
    data = ask(client, "quiz me on this page", MODULE_QUIZ)
    lines = data["answer"].split("\n")
    mutated = []
    for line in lines:
        mutated.append(line)
        if re.match(r"^\d+\. ", line):
            mutated.append("   **B) The turning force a motor applies at a joint**")
    with pytest.raises(AssertionError):
        assert_no_answers_shown({**data, "answer": "\n".join(mutated)})


def test_a_lesson_page_is_quizzed_with_its_modules_quiz_page(client):
    data = ask(client, "quiz me on this page", "https://practice.example/docs/dynamics/arm-dynamics")
    assert data["quiz"]["items"][0]["question"] == "What is torque at a joint?"  # the book's own, not built
    assert_no_answers_shown(data)


def test_a_page_without_questions_is_quizzed_on_its_definitions_with_answers_kept_for_later(client):
    data = ask(client, "quiz me on this page", "https://practice.example/docs/intro")
    questions = [i["question"] for i in data["quiz"]["items"]]
    assert questions == ["What is a **robot arm**?", "What is a **controller**?",
                         "Explain why controllers run hundreds of times a second."]
    assert_no_answers_shown(data)
    assert "chain of rigid links" not in data["answer"] and "60 kg" not in data["answer"]
    answers = ask(client, "show the answers", session_id=data["session_id"])
    assert answers["course"]["task"] == "answers"
    assert "**A robot arm is a chain of rigid links joined by motorised joints.**" in answers["answer"]
    assert [s["url"].rsplit("#", 1)[-1] for s in answers["sources"]] == ["links-and-joints", "controllers"]


def test_show_the_answers_gives_each_cited_where_the_book_teaches_it(client):
    quiz = ask(client, "quiz me on this page", MODULE_QUIZ)
    answers = ask(client, "show the answers", session_id=quiz["session_id"])
    text = answers["answer"]
    assert "1. What is torque at a joint?\n   **B) The turning force a motor applies at a joint**" in text
    assert "**A longer link has more inertia, so its motor must apply more torque to accelerate it.**" in text
    urls = [s["url"] for s in answers["sources"]]
    assert urls[:3] == [f"https://practice.example/docs/dynamics/arm-dynamics#{a}"
                        for a in ("joint-torque", "inertia", "gravity-compensation")]
    assert re.search(r"3\. Which link has more inertia\?\n   \*\*B\) A longer link\*\* \[2\]", text), text
