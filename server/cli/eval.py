"""`textbook-chat eval`: measure retrieval and answers on a question set, and hold lines."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from server.cli.shared import fail as _fail, settings as _settings
from server.course.evaluation import course_lines, course_options, evaluate_course, format_course_report
from server.evaluation.asked_on import ASKED_ON, page_of_item
from server.evaluation.tutor import evaluate_tutor, format_tutor


@click.command("eval")
@click.argument("questions", type=click.Path(exists=True, dir_okay=False))
@click.option("--book", "book_path", required=True, type=click.Path(), help="The book the questions are about.")
@click.option("--threshold", type=click.FloatRange(0, 1), help="Similarity threshold (default: configured).")
@click.option("--json", "as_json", is_flag=True, help="Print one summary object.")
@click.option("--locale", "page_locale", help="The reader's page locale (default: the book's default locale): "
              "its pages are preferred, and the share of answers citing only them is reported.")
@click.option("--asked-on", type=click.Choice(ASKED_ON), help="Ask each in-book question on a page: the one that "
              "answers it (gold) or the one after it in reading order (next); by default on none.")
@click.option("--rows", "rows_path", type=click.Path(dir_okay=False), help="Write the per-question table as JSON here.")
@click.option("--min-hit-at-5", type=float, help="Exit 1 if hit@5 is lower.")
@click.option("--min-mrr", type=float, help="Exit 1 if MRR is lower.")
@click.option("--min-oos-refusal", type=float, help="Exit 1 if the out-of-scope refusal rate is lower.")
@click.option("--max-in-book-refusal", type=float, help="Exit 1 if the in-book refusal rate is higher.")
@click.option("--max-leak-rate", type=float, help="Exit 1 if the selection leak rate is higher.")
@click.option("--min-selection-answered", type=float,
              help="Exit 1 if fewer answerable selection items are answered (not refused).")
@click.option("--min-off-topic-declined", type=float,
              help="Exit 1 if fewer off-topic selection items are declined without leaking.")
@click.option("--min-book-search-right", type=float,
              help="Exit 1 if \"Search the whole book\" after a highlight's decline is right less often "
                   "(offered exactly when the book answers).")
@click.option("--min-keyword-coverage", type=float,
              help="Exit 1 if the in-book answers hold a smaller share of their answer keywords.")
@click.option("--max-answer-words-p50", type=float,
              help="Exit 1 if the in-book answers' median length in words is higher (code and tables not counted).")
@click.option("--tutor", is_flag=True, help="Also ask each in-book question in tutor mode (hints first), then "
              "\"show me the answer\": the hints' and the answers' keyword coverage.")
@click.option("--max-hint-coverage", type=float,
              help="Exit 1 if the tutor-mode hints hold a larger share of the answer keywords (implies --tutor).")
@course_options
@click.option("--max-tag-refusal", "tag_refusals", multiple=True, metavar="TAG=RATE",
              help="Exit 1 if the in-book items with TAG are refused more often (repeatable), e.g. typo=0.")
def eval_command(questions, book_path, threshold, as_json, page_locale, asked_on, rows_path, min_hit_at_5, min_mrr, min_oos_refusal,
                 max_in_book_refusal, max_leak_rate, min_selection_answered, min_off_topic_declined,
                 min_book_search_right, min_keyword_coverage, max_answer_words_p50, tutor, max_hint_coverage,
                 tag_refusals, **course_limits) -> None:
    """Measure retrieval and answers on a question set (JSONL) over BOOK; course questions per task."""
    from server.composition import BookToIndex, components
    from server.evaluation import calibration, evaluate, format_report, load_questions
    from server.ingest.indexer import default_book_id, ingest as run_ingest
    from server.ingest.site import BookError, detect_site

    settings = _settings()
    tag_limits = {}
    for limit in tag_refusals:
        tag, _, rate = limit.partition("=")
        try:
            tag_limits[tag] = float(rate)
        except ValueError:
            _fail(f"--max-tag-refusal takes TAG=RATE, not {limit!r}")
    try:
        site = detect_site(book_path)
    except BookError as exc:
        _fail(str(exc))
    book_id = default_book_id(site)
    # a private index per book, so an eval never fights a running server for the store
    eval_settings = settings.with_overrides(data_dir=settings.data_dir / "eval" / book_id,
                                            models_dir=settings.model_dir_root)
    if threshold is not None:
        eval_settings = eval_settings.with_overrides(similarity_threshold=threshold)
    # the extractive generator, whatever GEMINI_API_KEY says: the figures must not depend on a network
    with components(eval_settings.with_overrides(gemini_api_key=None), store_check=False,
                    book=BookToIndex.of(site, book_id, full=True)) as chat:
        run_ingest(site, chat.store, chat.embedder, book_id=book_id, progress=not as_json,
                   full=chat.index.choice.replaces is not None, locale_embedders=chat.index.locale_embedders)
        gate = chat.threshold
        items, course = evaluate_course(load_questions(questions), chat, book_id, gate)
        outline = chat.index.book(book_id).outline if asked_on else None
        result = evaluate(items, chat.pipeline, chat.store.all_chunks(book_id), threshold=gate,
                          locale=page_locale or site.default_locale, asked_on=page_of_item(outline, asked_on, page_locale))
        tutored = evaluate_tutor(items, chat.pipeline, threshold=gate,
                                 locale=page_locale or site.default_locale) if tutor or max_hint_coverage is not None else None
        model = chat.index.locale_embedders.get(page_locale or "", chat.embedder).model_name  # the readers' model
    result["calibration"] = calibration(result["top_scores"], result["gated"])
    summary = {**result["summary"], "threshold": gate, "embedding_model": model, "book_id": book_id}
    summary["course"] = course and course["summary"]
    summary["tutor"] = tutored and tutored["summary"]
    if rows_path:
        rows = result["rows"] + (course["rows"] if course else []) + (tutored["rows"] if tutored else [])
        Path(rows_path).write_text(json.dumps({"summary": summary, "rows": rows,
                                               "calibration": result["calibration"],
                                               "top_scores": result["top_scores"], "gated": result["gated"]},
                                              indent=2))
    if as_json:
        click.echo(json.dumps(summary))
    else:
        title = f"{site.title} — {Path(questions).name} (threshold {summary['threshold']})"
        click.echo("\n\n".join(([format_report(title, result)] if items else []) + format_course_report(title, course)
                               + ([format_tutor(tutored["summary"], summary["keyword_coverage"])] if tutored else [])))
    lines = [  # (name, the limit, the measure, whether it must be at least the limit)
        ("hit@5", min_hit_at_5, summary["hit_at_5"], True), ("MRR", min_mrr, summary["mrr"], True),
        ("out-of-scope refusal", min_oos_refusal, summary["oos_refusal_rate"], True),
        ("in-book refusal", max_in_book_refusal, summary["in_book_refusal_rate"], False),
        ("leak rate", max_leak_rate, summary["leak_rate"], False),
        ("selection answered", min_selection_answered, summary["selection_answered_rate"], True),
        ("off-topic declined", min_off_topic_declined, summary["off_topic_declined_rate"], True),
        ("whole-book search right", min_book_search_right, summary["book_search_right_rate"], True),
        ("keyword coverage", min_keyword_coverage, summary["keyword_coverage"], True),
        ("answer words p50", max_answer_words_p50, summary["answer_words_p50"], False),
        *((f"{tag} refusal", rate, summary["tags"].get(tag, {}).get("refusal_rate"), False)
          for tag, rate in tag_limits.items()),
        *course_lines(summary["course"], **course_limits),
        ("hint keyword coverage", max_hint_coverage, (summary["tutor"] or {}).get("hint_keyword_coverage"), False)]
    asked = [(name, limit, value, at_least) for name, limit, value, at_least in lines if limit is not None]
    # a line over no items cannot be shown to hold: it fails, saying so
    unmeasured = [name for name, _limit, value, _at_least in asked if value is None]
    failures = [name for name, limit, value, at_least in asked
                if value is not None and (value < limit if at_least else value > limit)]
    if unmeasured:
        click.echo(f"not measured, the question set has no such items: {', '.join(unmeasured)}", err=True)
    if failures:
        click.echo(f"below the required line: {', '.join(failures)}", err=True)
    if unmeasured or failures:
        sys.exit(1)
