"""Answer quality on a question set: retrieval hit@k / MRR (ours and a BM25 baseline),
keyword coverage, refusals, and selection leaks — through the same pipeline as the API."""
from __future__ import annotations

import json
from typing import Callable
from dataclasses import dataclass, field
from pathlib import Path

from server.evaluation.measures import answer_summary, answer_words, keyword_coverage
from server.ingest.anchors import rendered_text
from server.book.chunk import Chunk
from server.evaluation.asked_on import gold_path
from server.question.gather.lexical import bm25_scores
from server.question.pipeline import ChatPipeline
from server.question import Page, Question, Selection, SelectionMode
from server.text.vocabulary import BookVocabulary

KS = (1, 3, 5)


def load_questions(path: str | Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _norm(text: str) -> str:
    return " ".join(rendered_text(text).lower().split())




def _gold_path(chunk: Chunk) -> str:
    return gold_path(chunk.source_file)


def doc_hit(chunk: Chunk, item: dict) -> bool:
    return _gold_path(chunk) in item["gold_docs"]


def section_hit(chunk: Chunk, item: dict) -> bool:
    if _gold_path(chunk) != item["gold_docs"][0]:
        return False
    gold = _norm(item["gold_heading"])
    if any(_norm(h) == gold for h in chunk.section_hierarchy):
        return True
    return any(_norm(line.lstrip("#")) == gold for line in chunk.content.splitlines() if line.startswith("#"))


def rank_of(chunks: list[Chunk], item: dict, hit=doc_hit) -> int | None:
    for rank, chunk in enumerate(chunks, 1):
        if hit(chunk, item):
            return rank
    return None


@dataclass
class Ranking:
    ranks: list[int | None] = field(default_factory=list)

    def hit_at(self, k: int) -> float:
        return sum(r is not None and r <= k for r in self.ranks) / len(self.ranks) if self.ranks else 0.0

    def mrr(self) -> float:
        return sum(1 / r for r in self.ranks if r) / len(self.ranks) if self.ranks else 0.0

    def summary(self) -> dict:
        return {**{f"hit_at_{k}": round(self.hit_at(k), 4) for k in KS}, "mrr": round(self.mrr(), 4)}


class Bm25Baseline:
    """Okapi BM25 alone over the very same chunks (what the embedding model sees): the BM25 that
    re-ranks the product's dense candidates (question/gather/lexical.py), here ranking the whole book."""

    def __init__(self, chunks: list[Chunk]):
        self.chunks = chunks
        self.book = BookVocabulary.from_texts(c.embed_text or c.content for c in chunks)

    def search(self, question: str, k: int = 5) -> list[Chunk]:
        scores = bm25_scores(question, self.chunks, self.book)
        order = sorted(range(len(scores)), key=lambda i: -scores[i])[:k]
        return [self.chunks[i] for i in order]


def _rate(hits: list[bool]) -> float | None:
    return round(sum(hits) / len(hits), 4) if hits else None


# a highlight question is asked in each mode: from the passage alone, and from the passage and the book
SELECTION_MODES = (SelectionMode.EXCLUSIVE, SelectionMode.COMBINED)


def _asks(items: list[dict]):
    """(item, selection mode) for every question to ask: each selection item once per mode."""
    for item in items:
        for mode in (SELECTION_MODES if item["kind"] == "selection" else (None,)):
            yield item, mode


def _worst(rates) -> float | None:
    measured = [r for r in rates if r is not None]
    return min(measured) if measured else None


def answerable(item: dict) -> bool:
    """A selection item the passage answers (the physical-AI set has only `leak_probe`)."""
    return item.get("answerable", not item.get("leak_probe", False))


def tag_summary(rows: list[dict]) -> dict:
    """Per tag of the in-book items: how many, hit@5 and the wrongly refused rate."""
    by_tag: dict[str, list[dict]] = {}
    for row in rows:
        if row["kind"] == "in_book":
            for tag in row.get("tags", []):
                by_tag.setdefault(tag, []).append(row)
    return {tag: {"n": len(found),
                  "hit_at_5": _rate([r["doc_rank"] is not None and r["doc_rank"] <= 5 for r in found]),
                  "refusal_rate": _rate([r["status"] == "refused" for r in found])}
            for tag, found in sorted(by_tag.items())}


def intent_summary(rows: list[dict]) -> dict:
    """Per intent of the selection items: how many, and how many came out right."""
    by_intent: dict[str, list[dict]] = {}
    for row in rows:
        if row["kind"] == "selection":
            by_intent.setdefault(row["intent"], []).append(row)
    return {intent: {"n": len(found), "ok_rate": _rate([r["ok"] for r in found])}
            for intent, found in sorted(by_intent.items())}


def evaluate(items: list[dict], pipeline: ChatPipeline, chunks: list[Chunk], *, threshold: float,
             max_chunks: int = 5, locale: str | None = None, asked_on: Callable[[dict], str] | None = None) -> dict:
    """Run every question; return {summary, rows, calibration} for reporting. `locale`: the
    reader's page locale (a book with translations is asked as from its default-locale pages).
    `asked_on`: the URL of the page an in-book question is asked on (asked_on.py; none by default)."""
    ours_doc, ours_sec, bm25_doc, bm25_sec = Ranking(), Ranking(), Ranking(), Ranking()
    bm25 = Bm25Baseline(chunks)
    rows: list[dict] = []
    top_scores = {"in_book": [], "out_of_scope": []}
    gated = {"in_book": [], "out_of_scope": []}  # refused by the unknown-term gate whatever the threshold
    counts = {"in_book": 0, "out_of_scope": 0, "selection": 0}
    wrong_refusals, oos_refused, sel_cov, in_locale = 0, 0, [], []
    by_mode = {mode: {"answered": [], "declined": [], "leaks": [], "search": []} for mode in SELECTION_MODES}
    for item, mode in _asks(items):
        kind = item["kind"]
        counts[kind] += mode in (None, SelectionMode.EXCLUSIVE)
        selection = Selection(item["selected_text"], mode) if kind == "selection" else None
        answer = pipeline.answer(Question(item["question"], max_chunks=max_chunks, similarity_threshold=threshold,
                                          selection=selection, page=Page(
                                              url=asked_on(item) if asked_on and kind == "in_book" else "",
                                              locale=locale)))
        refused = answer.refused
        row = {"id": item["id"], "kind": kind, "question": item["question"], "status": answer.status,
               "retrieved": [f"{c.source_file} › {c.heading} ({c.score:.2f})" for c in answer.candidates[:max_chunks]],
               "answer": answer.text}
        top = max((c.score for c in answer.candidates), default=0.0)
        if kind in gated:
            gated[kind].append(bool(answer.unknown_terms) and not answer.context.database)
            row["unknown_terms"] = answer.unknown_terms
        if kind == "in_book":
            top_scores["in_book"].append(top)
            candidates = answer.candidates[:max_chunks]
            lexical = bm25.search(item["question"], max_chunks)
            for ranking, hits, hit in ((ours_doc, candidates, doc_hit), (ours_sec, candidates, section_hit),
                                       (bm25_doc, lexical, doc_hit), (bm25_sec, lexical, section_hit)):
                ranking.ranks.append(rank_of(hits, item, hit))
            cov = keyword_coverage(answer.text, item["answer_keywords"])
            wrong_refusals += refused
            if locale and not refused:  # the pages cited are in the reader's language
                cited = [s.chunk.locale for s in answer.sources if s.source_type == "database"]
                in_locale.append(bool(cited) and all(cited_locale == locale for cited_locale in cited))
            row.update(doc_rank=ours_doc.ranks[-1], section_rank=ours_sec.ranks[-1], bm25_rank=bm25_doc.ranks[-1],
                       keyword_coverage=round(cov, 4), answer_words=answer_words(answer.text),
                       tags=item.get("tags", []),
                       ok=ours_doc.ranks[-1] is not None and not refused)
        elif kind == "out_of_scope":
            top_scores["out_of_scope"].append(top)
            oos_refused += refused
            row["ok"] = refused
        else:
            measured = by_mode[mode]
            # a keyword the question itself names is echoed by a refusal ("doesn't cover “…”"), not leaked
            leaked = any(k.lower() in answer.text.lower() and k.lower() not in item["question"].lower()
                         for k in item.get("forbidden_keywords", []))
            # the book's passages may support a combined answer, never an exclusive one or a declined question
            from_book = any(s.source_type == "database" for s in answer.sources)
            leaked = leaked or (from_book and (mode is SelectionMode.EXCLUSIVE or not answerable(item)))
            measured["leaks"].append(leaked)
            if answerable(item):
                sel_cov.append(keyword_coverage(answer.text, item["answer_keywords"]))
                measured["answered"].append(not refused)
            else:
                measured["declined"].append(refused and not leaked)
                # "Search the whole book" asks the book path: offered exactly when it answers, and
                # a question no part of the book covers is refused there too
                alone = pipeline.answer(Question(item["question"], max_chunks=max_chunks,
                                                 similarity_threshold=threshold, page=Page(locale=locale)))
                measured["search"].append(answer.offer_book_search is not alone.refused and (
                    alone.refused or "not_in_book" not in item.get("tags", [])))
                row["book_search"] = alone.status
            row.update(mode=mode.value, leaked=leaked, offer_book_search=answer.offer_book_search,
                       intent=item.get("intent") or ("question" if answerable(item) else "off_topic"),
                       ok=not leaked and (not refused if answerable(item) else refused))
        rows.append(row)
    n_in, n_oos, n_sel = counts["in_book"], counts["out_of_scope"], counts["selection"]
    answers = answer_summary(rows)
    summary = {
        **{k: v for k, v in ours_doc.summary().items()},
        "keyword_coverage": answers["keyword_coverage"],
        "answer_words_p50": answers["answer_words_p50"],
        "section": ours_sec.summary(),
        "bm25": {**bm25_doc.summary(), "section": bm25_sec.summary()},
        "in_book_refusal_rate": round(wrong_refusals / n_in, 4) if n_in else None,
        "oos_refusal_rate": round(oos_refused / n_oos, 4) if n_oos else None,
        "cited_in_locale_rate": _rate(in_locale) if in_locale else None,
        "selection_keyword_coverage": round(sum(sel_cov) / len(sel_cov), 4) if sel_cov else None,
        # over both modes: a line holds only if it holds in each (the per-mode figures are in `modes`)
        "leak_rate": _rate([x for m in by_mode.values() for x in m["leaks"]]),
        "selection_answered_rate": _worst(_rate(m["answered"]) for m in by_mode.values()),
        "off_topic_declined_rate": _worst(_rate(m["declined"]) for m in by_mode.values()),
        "book_search_right_rate": _worst(_rate(m["search"]) for m in by_mode.values()),
        "modes": {mode.value: {"selection_answered_rate": _rate(m["answered"]),
                               "off_topic_declined_rate": _rate(m["declined"]), "leak_rate": _rate(m["leaks"])}
                  for mode, m in by_mode.items()} if n_sel else {},
        "tags": {tag: {**m, **answers["tags"].get(tag, {})} for tag, m in tag_summary(rows).items()},
        "intents": intent_summary(rows),
        "counts": counts,
    }
    return {"summary": summary, "rows": rows, "top_scores": top_scores, "gated": gated}


def calibration(top_scores: dict, gated: dict | None = None, thresholds=None) -> list[dict]:
    """In-book answer rate vs out-of-scope refusal rate for each threshold: by the score gate
    alone, and with the unknown-term gate as the pipeline runs it."""
    thresholds = thresholds or [round(0.2 + 0.025 * i, 3) for i in range(17)]
    gated = gated or {k: [False] * len(v) for k, v in top_scores.items()}
    inb, oos = top_scores["in_book"], top_scores["out_of_scope"]

    def rate(hits) -> float | None:
        hits = list(hits)
        return round(sum(hits) / len(hits), 4) if hits else None

    return [{"threshold": t,
             "in_book_answered": rate(s >= t for s in inb),
             "oos_refused": rate(s < t for s in oos),
             "in_book_answered_gated": rate(s >= t and not g for s, g in zip(inb, gated["in_book"])),
             "oos_refused_gated": rate(s < t or g for s, g in zip(oos, gated["out_of_scope"]))}
            for t in thresholds]


def format_report(title: str, result: dict) -> str:
    s = result["summary"]
    lines = [f"## {title}", "",
             "| retrieval | hit@1 | hit@3 | hit@5 | MRR |", "|---|---|---|---|---|"]
    for name, m in (("ours (doc)", s), ("ours (section)", s["section"]), ("BM25 (doc)", s["bm25"]),
                    ("BM25 (section)", s["bm25"]["section"])):
        lines.append(f"| {name} | {m['hit_at_1']:.3f} | {m['hit_at_3']:.3f} | {m['hit_at_5']:.3f} | {m['mrr']:.3f} |")
    lines += ["", f"- in_book: {s['counts']['in_book']} questions, keyword coverage {s['keyword_coverage']}, "
                  f"answer words p50 {s['answer_words_p50']}, wrongly refused {s['in_book_refusal_rate']}",
              f"- out_of_scope: {s['counts']['out_of_scope']} questions, refused {s['oos_refusal_rate']}",
              f"- selection: {s['counts']['selection']} items, keyword coverage {s['selection_keyword_coverage']}, "
              f"leak rate {s['leak_rate']}, answered (answerable) {s['selection_answered_rate']}, "
              f"off-topic declined {s['off_topic_declined_rate']}, whole-book search after a decline right "
              f"{s['book_search_right_rate']}"]
    lines += [f"  - {mode}: answered (answerable) {m['selection_answered_rate']}, off-topic declined "
              f"{m['off_topic_declined_rate']}, leak rate {m['leak_rate']}" for mode, m in s["modes"].items()]
    if s["tags"]:
        lines += ["", "| tag | in_book items | hit@5 | keyword coverage | answer words p50 | wrongly refused |",
                  "|---|---|---|---|---|---|"]
        lines += [f"| {tag} | {m['n']} | {m['hit_at_5']} | {m['keyword_coverage']} | {m['answer_words_p50']} | "
                  f"{m['refusal_rate']} |" for tag, m in s["tags"].items()]
    if s["intents"]:
        lines += ["", "| selection intent | items | right |", "|---|---|---|"]
        lines += [f"| {intent} | {m['n']} | {m['ok_rate']} |" for intent, m in s["intents"].items()]
    lines += ["", "| id | kind | ok | status | doc rank | top retrieved |", "|---|---|---|---|---|---|"]
    for row in result["rows"]:
        top = row["retrieved"][0] if row["retrieved"] else "—"
        lines.append(f"| {row['id']}{' (' + row['mode'] + ')' if row.get('mode') else ''} | {row['kind']} | "
                     f"{'✓' if row['ok'] else '✗'} | {row['status']} | "
                     f"{row.get('doc_rank') or '—'} | {top} |")
    return "\n".join(lines)
