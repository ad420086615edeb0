"""Tutor mode on a question set: each in-book question asked with hints first, then "show me the
answer" in the same conversation. A hint should give little of the answer away (its keyword
coverage: the share of the item's answer keywords it holds) and always say where to read (it
cites a passage); the answer that follows should hold as much as the plain answer does."""
from __future__ import annotations

from server.evaluation.measures import keyword_coverage
from server.question import Page, Question
from server.question.pipeline import ChatPipeline

REVEAL = "show me the answer"


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def evaluate_tutor(items: list[dict], pipeline: ChatPipeline, *, threshold: float, max_chunks: int = 5,
                   locale: str | None = None) -> dict:
    """{summary, rows}: per in-book item, the hint's and the follow-up's keyword coverage."""
    rows = []
    for item in items:
        if item.get("kind") != "in_book" or not item.get("answer_keywords"):
            continue
        keywords = item["answer_keywords"]
        asked = Question(item["question"], max_chunks=max_chunks, similarity_threshold=threshold,
                         page=Page(locale=locale), tutor=True)
        hint = pipeline.answer(asked)
        row = {"id": item["id"], "question": item["question"], "status": hint.status, "hint": hint.text}
        if hint.status == "hint":
            follow = pipeline.answer(Question(REVEAL, max_chunks=max_chunks, similarity_threshold=threshold,
                                              page=Page(locale=locale), session_id=hint.session_id, tutor=True))
            row.update(hint_coverage=round(keyword_coverage(hint.text, keywords), 4), cites=bool(hint.sources),
                       followup_status=follow.status,
                       followup_coverage=round(keyword_coverage(follow.text, keywords), 4))
        rows.append(row)
    hinted = [r for r in rows if r["status"] == "hint"]
    summary = {"questions": len(rows), "hinted": len(hinted),
               "hint_keyword_coverage": _mean([r["hint_coverage"] for r in hinted]),
               "followup_keyword_coverage": _mean([r["followup_coverage"] for r in hinted]),
               "hints_citing": _mean([1.0 if r["cites"] else 0.0 for r in hinted])}
    return {"summary": summary, "rows": rows}


def format_tutor(summary: dict, answer_coverage: float | None) -> str:
    return (f"tutor mode: {summary['hinted']} of {summary['questions']} in-book questions hinted; hint keyword "
            f"coverage {summary['hint_keyword_coverage']}, then “{REVEAL}” {summary['followup_keyword_coverage']} "
            f"(plain answers {answer_coverage}); hints citing where to read {summary['hints_citing']}")
