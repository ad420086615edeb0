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
    assert quiz["id"] == data["assistant_message_id"] and quiz["page"] == MODULE_QUIZ and "feedback" not in data
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


def answer(client, quiz: dict, item: int, said: str) -> dict:
    return ask(client, said, session_id=quiz["session_id"], quiz_answer={"quiz_id": quiz["quiz"]["id"], "item": item})


def test_answers_to_choice_items_are_checked_against_the_key_by_letter_or_words(client):
    quiz = ask(client, "quiz me on this page", MODULE_QUIZ)
    for item, key, right, wrong in ((1, 1, "b", "A"), (3, 1, "B) A longer link", "a shorter link"),
                                    (4, 0, "the weight of the links", "D")):
        good, bad = answer(client, quiz, item, right), answer(client, quiz, item, wrong)
        expected = quiz["quiz"]["items"][item - 1]["choices"][key]
        assert good["feedback"]["verdict"] == "correct" and bad["feedback"]["verdict"] == "incorrect", (good, bad)
        assert good["feedback"]["item"] == item and expected in good["feedback"]["expected"]
        assert bad["feedback"]["expected"] == good["feedback"]["expected"] and expected in bad["answer"]
        assert good["status"] == bad["status"] == "completed"
    # the explanation cites the section the item tests
    assert bad["sources"][0]["url"].endswith("#gravity-compensation") and "[1]" in bad["answer"]


def test_short_answers_are_checked_by_the_sample_answers_key_terms(client):
    quiz = ask(client, "quiz me on this page", MODULE_QUIZ)
    same = answer(client, quiz, 7, "Because a longer link has more inertia, the motor needs more torque to accelerate it.")
    assert same["feedback"]["verdict"] == "correct"
    assert same["feedback"]["expected"].startswith("A longer link has more inertia")
    part = answer(client, quiz, 7, "a longer link has more inertia")
    assert part["feedback"]["verdict"] == "partly" and "torque" in part["answer"]  # what is missing, named
    wrong = answer(client, quiz, 7, "because it is painted red")
    assert wrong["feedback"]["verdict"] == "incorrect"
    assert same["sources"][0]["url"].endswith("#inertia")


def test_a_second_server_continues_the_quiz(practice, tmp_path):
    """The quiz is kept with the conversation: another server over the same database checks it."""
    data_dir = tmp_path / "shared"
    first, second = make_app(practice, data_dir).test_client(), make_app(practice, data_dir).test_client()
    quiz = ask(first, "quiz me on this page", MODULE_QUIZ)
    secret = first.secrets[quiz["session_id"]]
    response = second.post("/chat", headers={"Authorization": f"Bearer {secret}"}, json={
        "question": "C", "session_id": quiz["session_id"], "quiz_answer": {"quiz_id": quiz["quiz"]["id"], "item": 2}})
    assert response.get_json()["feedback"] == {"item": 2, "verdict": "correct",
                                               "expected": "C) Because a heavier load pulls harder on the lever arm of the link"}
    # after several answers, "show the answers" still finds the quiz, on either server
    answers = second.post("/chat", headers={"Authorization": f"Bearer {secret}"},
                          json={"question": "show the answers", "session_id": quiz["session_id"]}).get_json()
    assert answers["course"]["task"] == "answers" and "**C) Because a heavier load" in answers["answer"]


def test_an_answer_needs_its_conversation_and_a_quiz_it_holds(client):
    alone = ask(client, "b", quiz_answer={"quiz_id": "x", "item": 1})  # no conversation: no quiz to check
    assert alone["status"] == "refused" and alone.get("feedback") is None
    quiz = ask(client, "quiz me on this page", MODULE_QUIZ)
    unknown = answer(client, {**quiz, "quiz": {"id": "no-such-quiz"}}, 1, "b")
    assert unknown["status"] == "refused" and "feedback" not in unknown and "not in this conversation" in unknown["answer"]


def test_physical_ai_quiz_page_right_and_wrong_answers(physical_ai, tmp_path):
    client = make_app(physical_ai, tmp_path / "data").test_client()
    quiz = ask(client, "quiz me on this page", ROS_QUIZ.replace("https://physical-ai.example",
                                                                "https://AreebaZafarChohan.github.io"))
    items = quiz["quiz"]["items"]
    assert items[0]["choices"] == ["Services", "Actions", "Topics", "Parameters"] and len(items) == 5
    assert_no_answers_shown(quiz)
    for n, right, wrong in ((1, "C", "a"), (3, "Request/Reply", "Get/Set"), (5, "b) Vision-Language-Action", "d")):
        good, bad = answer(client, quiz, n, right), answer(client, quiz, n, wrong)
        assert (good["feedback"]["verdict"], bad["feedback"]["verdict"]) == ("correct", "incorrect"), (n, good, bad)
        assert good["feedback"]["expected"] == bad["feedback"]["expected"]
    assert "/docs/module-ros/intro-to-ros2#" in bad["sources"][0]["url"]  # the lesson the quiz is about


def test_dibs_exercise_with_its_solution_in_spanish(tmp_path, embedder):
    from apps import index_book

    docs = tmp_path / "book" / "docs"
    (docs / "monads").mkdir(parents=True)
    shutil.copy(CORPORA / "dibs-es" / "docs" / "fp" / "monads" / "examples" / "option" / "kt.mdx", docs / "monads" / "option.mdx")
    book = index_book(tmp_path / "data", embedder, docs)
    try:
        client = make_app(book, tmp_path / "app").test_client()
        page = next(p.url for p in discover(docs))
        quiz = ask(client, "quiz me on this page", page)
        first = quiz["quiz"]["items"][0]
        assert first["question"] == "¿Son los tipos anulables en Kotlin mónadas? ¿Por qué?" and first["kind"] == "short"
        assert_no_answers_shown(quiz)
        said = answer(client, quiz, 1, "No, no son mónadas en sentido estricto: Kotlin no tiene una función pure "
                                       "estándar que envuelva un valor en un tipo anulable.")
        assert said["feedback"]["verdict"] in ("correct", "partly")  # says what the solution says: not incorrect
        assert said["feedback"]["expected"].startswith("No, los **tipos anulables** en Kotlin")
        assert answer(client, quiz, 1, "Sí, siempre")["feedback"]["verdict"] == "incorrect"
    finally:
        book.index.close()


def discover(docs):
    from server.ingest.pages import discover_pages
    from server.ingest.site import detect_site

    return discover_pages(detect_site(docs)).pages


def test_with_gemini_the_grading_prompt_holds_only_the_tested_section_and_the_sample_answer(practice, tmp_path, fake):
    from server.question.compose.extractive import ExtractiveGenerator
    from server.question.compose.fallback import WithFallback
    from server.question.compose.gemini import GeminiClient, GeminiGenerator
    from apps import make_settings

    gemini = {"gemini_api_key": "test-key", "gemini_timeout_s": 2.0, "gemini_model": "gemini-test-model"}
    settings = make_settings(tmp_path / "data", **gemini)
    generator = WithFallback(GeminiGenerator(settings, GeminiClient(settings, backoff_s=0.05)),
                             ExtractiveGenerator(practice.embedder), label="Gemini")
    client = make_app(practice, tmp_path / "data", generator, **gemini).test_client()
    quiz = ask(client, "quiz me on this page", MODULE_QUIZ)
    asked = len(fake.requests)  # the quiz itself asked no model
    choice = answer(client, quiz, 3, "B")  # a choice is checked by the key, no model
    assert choice["feedback"]["verdict"] == "correct" and len(fake.requests) == asked
    fake.script({"text": "VERDICT: partly\nYou say the link has more inertia, but not that its motor needs more torque."})
    graded = answer(client, quiz, 7, "a longer link has more inertia and it is also painted red")
    (sent,) = fake.requests[asked:]
    assert graded["feedback"] == {"item": 7, "verdict": "partly", "expected": (
        "A longer link has more inertia, so its motor must apply more torque to accelerate it.")}
    assert "not that its motor needs more torque" in graded["answer"] and graded["generator"] == "gemini-test-model"
    prompt = sent.user_text
    assert len(sent.contents) == 1 and "You check a student's answer" in sent.system_text
    section = prompt.split("<section>")[1].split("</section>")[0]
    assert "Inertia is the resistance of a link to a change in its motion." in section
    assert prompt.split("<sample_answer>")[1].split("</sample_answer>")[0].strip() == (
        "A longer link has more inertia, so its motor must apply more torque to accelerate it.")
    for elsewhere in ("Torque is the turning force", "Gravity compensation is a control term", "<passage", "60 kg"):
        assert elsewhere not in prompt  # no other section, no passages, nothing else of the book
    assert prompt.rstrip().endswith("Student's answer: a longer link has more inertia and it is also painted red")
    fake.script({"text": "VERDICT: incorrect\nNo."})
    assert answer(client, quiz, 8, "It cancels the weight of the links.")["feedback"]["verdict"] == "incorrect"


def test_check_book_holds_the_books_own_quizzes_and_their_keys(client, practice):
    from server.book.outline import Outline
    from server.checkbook.practice import own_quizzes

    outline = Outline.from_dict(practice.store.outline(practice.report.book_id))
    result = own_quizzes(client, practice.report.book_id, outline)
    assert result.passed, result.failures
    assert result.measure == "1/1 pages pose their own questions, 3 answers checked"


def test_quiz_me_on_a_topic_quizzes_on_the_page_its_title_names(client):
    """"quiz me on arm dynamics", from no page of the book: the quiz of the page titled so."""
    page = "https://practice.example/docs/dynamics/arm-dynamics"
    on_page = ask(client, "quiz me on this page", page)
    data = ask(client, "quiz me on arm dynamics")
    assert data["course"]["task"] == "quiz" and data["quiz"]["page"] == page and len(data["quiz"]["items"]) >= 2
    assert [i["question"] for i in data["quiz"]["items"]] == [i["question"] for i in on_page["quiz"]["items"]]
    assert_no_answers_shown(data)
    # a topic no page is titled by stays a question for the passages
    assert ask(client, "quiz me on quantum chromodynamics").get("course") is None
