"""Course questions of a question set (`kind: "course"`): each asked through the pipeline as the
widget asks it (the reader's page sent as its URL from the index), and scored per task:
answered (not refused), a gold page cited, every keyword in the answer, and for a quiz enough
questions; an off-topic question must be refused."""
from __future__ import annotations

import re

import click

from server.book.outline import Outline  # light: the command line imports this module (course_options)

_QUESTION_LINE = re.compile(r"^\s*\d+[.)]\s+\S", re.MULTILINE)


def _page_url(outline: Outline | None, source_file: str | None) -> str:
    if not source_file or outline is None:
        return ""
    found = next((p for p in outline.pages if p.source_file == source_file), None)
    return found.url if found else ""


def evaluate_course(items: list[dict], chat, book_id: str, threshold: float) -> tuple[list[dict], dict | None]:
    """The set's other items, and the course items' result (None when it has none)."""
    asked = [i for i in items if i["kind"] == "course"]
    if not asked:
        return items, None
    stored = chat.store.outline(book_id)
    result = run_course(asked, chat.pipeline, Outline.from_dict(stored) if stored else None, threshold=threshold,
                        book_id=book_id)
    return [i for i in items if i["kind"] != "course"], result


def run_course(items: list[dict], pipeline, outline: Outline | None, *, threshold: float,
               max_chunks: int = 5, book_id: str | None = None) -> dict:
    from server.question import Page, Question

    rows = []
    for item in items:
        url = _page_url(outline, item.get("page"))
        answer = pipeline.answer(Question(item["question"], max_chunks=max_chunks, similarity_threshold=threshold,
                                          page=Page(url=url), filters=_filters(book_id)))
        text = answer.text.lower()
        cited = [s.chunk.source_file for s in answer.sources]
        missing = [k for k in item.get("answer_keywords", []) if k.lower() not in text]
        asked = len(_QUESTION_LINE.findall(answer.text))
        row = {"id": item["id"], "task": item["task"], "scope": item["scope"], "question": item["question"],
               "page": url, "status": answer.status, "read_as": answer.course,
               "gold_cited": any(f in item["gold_docs"] for f in cited), "missing_keywords": missing,
               "questions": asked, "cited": cited[:6], "answer": answer.text[:400]}
        if item["task"] == "off_topic":
            row["ok"] = answer.refused
        else:
            row["ok"] = (not answer.refused and row["gold_cited"] and not missing
                         and asked >= item.get("min_questions", 0))
        rows.append(row)
    return {"summary": course_summary(rows), "rows": rows}


def _filters(book_id: str | None):
    from server.store import Filters

    return Filters(book_id=book_id)


def _rate(hits: list[bool]) -> float | None:
    return round(sum(hits) / len(hits), 4) if hits else None


def course_summary(rows: list[dict]) -> dict:
    asked = [r for r in rows if r["task"] != "off_topic"]
    off = [r for r in rows if r["task"] == "off_topic"]
    tasks = {}
    for task in sorted({r["task"] for r in rows}):
        found = [r for r in rows if r["task"] == task]
        tasks[task] = {"n": len(found), "answered": sum(r["status"] == "completed" for r in found),
                       "gold_cited": sum(r["gold_cited"] for r in found),
                       "keywords": sum(not r["missing_keywords"] for r in found), "right": sum(r["ok"] for r in found)}
    return {"n": len(rows), "answered_rate": _rate([r["status"] == "completed" for r in asked]),
            "right_rate": _rate([r["ok"] for r in asked]), "answered": sum(r["status"] == "completed" for r in asked),
            "right": sum(r["ok"] for r in asked), "asked": len(asked),
            "off_topic_refused_rate": _rate([r["ok"] for r in off]), "tasks": tasks}


def format_course_report(title: str, result: dict | None) -> list[str]:
    """The report's course section ([] without course items)."""
    if result is None:
        return []
    s = result["summary"]
    lines = [f"## {title}: course questions", "",
             f"- answered {s['answered']}/{s['asked']}, right {s['right']}/{s['asked']}, "
             f"off-topic refused {s['off_topic_refused_rate']}", "",
             "| task | items | answered | gold page cited | keywords present | right |", "|---|---|---|---|---|---|"]
    lines += [f"| {task} | {m['n']} | {m['answered']} | {m['gold_cited']} | {m['keywords']} | {m['right']} |"
              for task, m in s["tasks"].items()]
    lines += ["", "| id | task | ok | status | read as | missing keywords | cited |", "|---|---|---|---|---|---|---|"]
    for row in result["rows"]:
        read = row["read_as"] or {}
        lines.append(f"| {row['id']} | {row['task']} | {'✓' if row['ok'] else '✗'} | {row['status']} | "
                     f"{read.get('task', 'passage')} {read.get('scope', '')} | {', '.join(row['missing_keywords']) or '—'} | "
                     f"{', '.join(row['cited'][:2]) or '—'} |")
    return ["\n".join(lines)]


def course_lines(summary: dict | None, min_course_answered=None, min_course_right=None,
                 min_course_refused=None) -> list[tuple]:
    """The eval command's required lines over the course items: (name, limit, measure, at least)."""
    s = summary or {}
    return [("course answered", min_course_answered, s.get("answered_rate"), True),
            ("course right", min_course_right, s.get("right_rate"), True),
            ("course off-topic refused", min_course_refused, s.get("off_topic_refused_rate"), True)]


_OPTIONS = (
    click.option("--min-course-answered", type=float, help="Exit 1 if fewer course questions are answered."),
    click.option("--min-course-right", type=float,
                 help="Exit 1 if fewer course questions are right (gold page cited, every keyword, quiz questions)."),
    click.option("--min-course-refused", type=float, help="Exit 1 if fewer off-topic course questions are refused."),
)


def course_options(command):
    for option in reversed(_OPTIONS):
        command = option(command)
    return command
