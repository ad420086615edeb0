"""Hints first (tutor mode): `"tutor": true` gives `status: "hint"`, citing where to read and asking
one guiding question, without the sentences the answer quotes; "another hint" narrows it;
"show me the answer" gives the answer the question would have had. Over the sample book's
question set the hints hold at most a third of the answer keywords, the follow-ups as much as the
plain answers. A student asking to solve one of the book's own exercises gets a hint first."""
from __future__ import annotations

import json
import re

import pytest

from apps import make_app, open_copy
from places import REPO, SAMPLE_BOOK
from server.evaluation.measures import keyword_coverage
from server.text.sentences import split_sentences

PRACTICE_BOOK = REPO / "tests" / "data" / "practice-book"
SAMPLING = "http://127.0.0.1:8000/book/docs/foundations/sampling-and-aliasing"


@pytest.fixture(scope="module")
def client(sample_book, tmp_path_factory):
    return make_app(sample_book, tmp_path_factory.mktemp("tutor")).test_client()


def ask(client, question: str, **body) -> dict:
    response = client.post("/chat", json={"question": question, **body})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def quoted(answer: str) -> list[str]:
    """The sentences of an answer, without their markers: what a hint must not say."""
    plain = re.sub(r"\s*\[\d+\]", "", answer)
    return [s for s in split_sentences(plain) if len(s.split()) >= 6]


def test_a_hint_says_where_to_read_and_asks_without_answering(client):
    plain = ask(client, "What is aliasing?")
    hint = ask(client, "What is aliasing?", tutor=True)
    assert hint["status"] == "hint" and hint["sources"] and "[1]" in hint["answer"]
    assert hint["sources"][0]["url"].startswith(SAMPLING) and hint["answer"].rstrip().endswith("ready.")
    assert "?" in hint["answer"].split("\n\n")[0]  # a guiding question
    for sentence in quoted(plain["answer"]):
        assert sentence not in hint["answer"], sentence
    narrower = ask(client, "another hint", session_id=hint["session_id"], tutor=True)
    assert narrower["status"] == "hint" and "____" in narrower["answer"] and narrower["sources"]
    revealed = ask(client, "show me the answer", session_id=hint["session_id"], tutor=True)
    assert revealed["status"] == "completed" and revealed["answer"] == plain["answer"]


def test_without_tutor_mode_the_answer_comes_at_once(client):
    data = ask(client, "What is aliasing?")
    assert data["status"] == "completed" and "Hint" not in data["answer"]


def test_over_the_question_set_hints_give_little_away_and_the_follow_up_all(client):
    items = [json.loads(line) for line in (SAMPLE_BOOK / "questions.jsonl").read_text().splitlines() if line.strip()]
    hints, follow_ups, plain = [], [], []
    for item in (i for i in items if i["kind"] == "in_book"):
        keywords = item["answer_keywords"]
        hint = ask(client, item["question"], tutor=True)
        assert hint["status"] == "hint" and hint["sources"], item["question"]
        follow = ask(client, "show me the answer", session_id=hint["session_id"], tutor=True)
        hints.append(keyword_coverage(hint["answer"], keywords))
        follow_ups.append(keyword_coverage(follow["answer"], keywords))
        plain.append(keyword_coverage(ask(client, item["question"])["answer"], keywords))
    assert len(hints) >= 5
    assert sum(hints) / len(hints) <= 0.34, hints
    assert sum(follow_ups) / len(follow_ups) >= sum(plain) / len(plain) - 0.05, (follow_ups, plain)


@pytest.fixture(scope="module")
def practice_client(tmp_path_factory, embedder, indexed_folder):
    book = open_copy(indexed_folder(PRACTICE_BOOK), tmp_path_factory.mktemp("tutor-practice") / "data", embedder)
    yield make_app(book, tmp_path_factory.mktemp("tutor-practice-app")).test_client()
    book.index.close()


def test_asked_to_solve_a_book_exercise_the_student_gets_a_hint_first(practice_client):
    page = {"page_url": "https://practice.example/docs/dynamics/module-quiz"}
    hint = ask(practice_client, "how do I solve question 7?", metadata=page)  # no tutor mode asked for
    assert hint["status"] == "hint" and "one of the book's own exercises" in hint["answer"]
    assert hint["sources"][0]["url"] == "https://practice.example/docs/dynamics/arm-dynamics#inertia"
    assert "more inertia" not in hint["answer"] and "torque to accelerate" not in hint["answer"]
    revealed = ask(practice_client, "show me the answer", session_id=hint["session_id"], metadata=page)
    assert revealed["status"] == "completed"
    assert "A longer link has more inertia, so its motor must apply more torque to accelerate it." in revealed["answer"]
    # the exercise's words pasted as the question are recognised too
    pasted = ask(practice_client, "Explain why a longer link needs a stronger motor.", metadata=page)
    assert pasted["status"] == "hint"
