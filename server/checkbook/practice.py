"""The book's own practice through /chat: on every page with a quiz or exercises, "quiz me on this
page" poses the book's own questions with their choices; on pages whose questions have answers
(a key, a sample answer, a solution), the right answer to each of three items is not marked
incorrect (a choice: correct) and a wrong choice is marked incorrect, with the key's answer."""
from __future__ import annotations

from server.book.outline import Outline
from server.checkbook.checks import Result
from server.course.quiz import questions_for

CHECKED_ITEMS = 3


def _ask(client, book_id: str, question: str, secret: str | None = None, **body) -> dict:
    headers = {"Authorization": f"Bearer {secret}"} if secret else {}
    response = client.post("/chat", headers=headers, json={"question": question, "filters": {"book_id": book_id}, **body})
    return response.get_json(silent=True) or {} if response.status_code == 200 else {"error": response.status_code}


def own_quizzes(client, book_id: str, outline: Outline | None) -> Result:
    failures: list[str] = []
    pages = [p for p in (outline.pages if outline else []) if p.blocks_of("quiz") or p.blocks_of("exercises")]
    checked = answered = 0
    for page in pages:
        own, is_own = questions_for(outline, [page])
        if not is_own:
            continue
        name = page.url.rsplit("/", 1)[-1] or page.url
        quiz_body = _ask(client, book_id, "quiz me on this page", metadata={"page_url": page.url})
        quiz = quiz_body.get("quiz") or {}
        posed = [(i["question"], tuple(i["choices"])) for i in quiz.get("items", [])]
        expected = [(item.question, item.choices) for item, _, _ in own]
        checked += 1
        if posed != expected:
            failures.append(f"{name}: the quiz is not the page's own {len(expected)} questions")
            continue
        secret, session = quiz_body.get("session_secret"), quiz_body.get("session_id")
        keyed = [(n, item) for n, (item, _, _) in enumerate(own, 1) if item.key is not None or item.answer][:CHECKED_ITEMS]
        for n, item in keyed:
            def said(answer: str) -> dict:
                return _ask(client, book_id, answer, secret, session_id=session,
                            quiz_answer={"quiz_id": quiz["id"], "item": n}).get("feedback") or {}
            answered += 1
            if item.kind == "choice" and item.key is not None:
                right, wrong = said(chr(65 + item.key)), said(chr(65 + (item.key + 1) % len(item.choices)))
                if right.get("verdict") != "correct" or wrong.get("verdict") != "incorrect":
                    failures.append(f"{name} #{n}: key {chr(65 + item.key)} read as {right.get('verdict')}, "
                                    f"a wrong choice as {wrong.get('verdict')}")
            elif said(item.answer[:900]).get("verdict") in (None, "incorrect"):
                failures.append(f"{name} #{n}: the book's own answer was not taken")
    return Result("own quizzes", not failures,
                  f"{checked - len({f.split(':')[0] for f in failures})}/{checked} pages pose their own questions, "
                  f"{answered} answers checked", failures)
