"""Answer quality on the real question sets, through the same pipeline as the API."""
from __future__ import annotations

import json

from click.testing import CliRunner

from apps import copy_index, make_settings
from fakes import RecordingGenerator
from places import EVAL, SAMPLE_BOOK
from server.cli import main
from server.evaluation import calibration, evaluate, intent_summary, load_questions, tag_summary


def test_physical_ai_refuses_out_of_scope_and_answers_in_book(physical_ai, tmp_path, capsys):
    settings = make_settings(tmp_path)
    chat = physical_ai.components(settings)
    result = evaluate(load_questions(EVAL / "physical-ai-book.jsonl"), chat.pipeline,
                      chat.store.all_chunks(physical_ai.report.book_id), threshold=chat.threshold)
    summary = result["summary"]
    with capsys.disabled():
        print(f"\nphysical-ai-book: out-of-scope refused {summary['oos_refusal_rate']}, in-book answered "
              f"{1 - summary['in_book_refusal_rate']:.3f}, hit@5 {summary['hit_at_5']}, MRR {summary['mrr']}, "
              f"leak rate {summary['leak_rate']}")
    assert summary["oos_refusal_rate"] >= 0.9
    assert 1 - summary["in_book_refusal_rate"] >= 0.9
    assert summary["hit_at_5"] >= 0.9 and summary["mrr"] >= 0.8
    assert summary["leak_rate"] == 0
    refused = [r for r in result["rows"] if r["kind"] == "out_of_scope" and r["status"] == "refused"]
    assert refused and all("book" in r["answer"].lower() for r in refused)
    table = calibration(result["top_scores"])
    assert [row["threshold"] for row in table] == sorted(row["threshold"] for row in table)
    assert table[0]["in_book_answered"] >= table[-1]["in_book_answered"]
    chat.close()


def test_a_question_about_what_the_book_never_names_is_refused_for_that_reason(physical_ai, chat_app):
    """PX4 and offboard mode appear nowhere in the book, though ROS 2 and drones do: the answer
    names the missing topic instead of quoting the nearest passages on ROS 2."""
    client = chat_app(physical_ai).test_client()
    data = client.post("/chat", json={"question": "how do i fly a px4 drone in offboard mode from ros 2?"}).get_json()
    assert data["status"] == "refused" and data["sources"] == [], data["answer"]
    missing = data["answer"].split("never mentions", 1)
    assert len(missing) == 2 and "px4" in missing[1].split(",")[0].lower(), data["answer"]
    # Refused by that gate, not by another one that happens to refuse too: with a model the
    # other gates let passages near the threshold through for the model to read (and decline),
    # so only the gate on terms the book never names keeps this question from the model.
    generator = RecordingGenerator()
    client = chat_app(physical_ai, generator=generator).test_client()
    data = client.post("/chat", json={"question": "how do i fly a px4 drone in offboard mode from ros 2?"}).get_json()
    assert generator.inputs == [], "the question went to the model: the book's unknown terms did not refuse it"
    assert data["status"] == "refused" and data["sources"] == [] and "never mentions “px4”" in data["answer"]
    assert data["context"]["database_chunks"] == [], data["context"]
    # the same question without the unknown term is not refused by the gates: it goes to the model
    ros = client.post("/chat", json={"question": "how do i fly a drone from ros 2?"}).get_json()
    assert len(generator.inputs) == 1 and ros["status"] == "completed", ros["answer"]


def test_eval_command_prints_json_and_holds_the_line(tmp_path, monkeypatch, indexed_folder):
    sample = indexed_folder(SAMPLE_BOOK)  # eval keeps a book's index under eval/<book id>: found up to date
    copy_index(sample, tmp_path / "data" / "eval" / sample.report.book_id)
    monkeypatch.setenv("TEXTBOOK_CHAT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TEXTBOOK_CHAT_MODELS_DIR", str(make_settings(tmp_path).model_dir_root))
    runner = CliRunner()
    questions = str(SAMPLE_BOOK / "questions.jsonl")
    ok = runner.invoke(main, ["eval", questions, "--book", str(SAMPLE_BOOK), "--json", "--min-hit-at-5", "0.5"])
    assert ok.exit_code == 0, ok.output
    summary = json.loads(ok.output.strip().splitlines()[-1])
    assert {"hit_at_5", "mrr", "in_book_refusal_rate", "oos_refusal_rate", "leak_rate", "counts",
            "selection_answered_rate", "off_topic_declined_rate", "tags", "intents"} <= set(summary)
    # each highlight question is asked in both modes, and each mode is reported
    assert summary["intents"]["off_topic"]["n"] == 2 and summary["intents"]["question"]["n"] == 2
    assert set(summary["modes"]) == {"exclusive", "combined"}
    assert all(m["off_topic_declined_rate"] is not None for m in summary["modes"].values())
    assert summary["counts"] == {"in_book": 8, "out_of_scope": 3, "selection": 2}
    strict = runner.invoke(main, ["eval", questions, "--book", str(SAMPLE_BOOK), "--json", "--min-mrr", "1.01"])
    assert strict.exit_code == 1 and "below the required line: MRR" in strict.output
    # a line over items the set does not have cannot hold: it fails, and says why
    absent = runner.invoke(main, ["eval", questions, "--book", str(SAMPLE_BOOK), "--json",
                                  "--max-tag-refusal", "typo=0"])
    assert absent.exit_code == 1 and "no such items: typo refusal" in absent.output
    assert "below the required line" not in absent.output


def test_tags_and_intents_are_summarised_per_item():
    rows = [{"kind": "in_book", "tags": ["typo"], "doc_rank": 2, "status": "completed", "ok": True},
            {"kind": "in_book", "tags": ["typo", "everyday"], "doc_rank": None, "status": "refused", "ok": False},
            {"kind": "selection", "intent": "explain", "ok": True},
            {"kind": "selection", "intent": "off_topic", "ok": False}]
    assert tag_summary(rows) == {"everyday": {"n": 1, "hit_at_5": 0.0, "refusal_rate": 1.0},
                                 "typo": {"n": 2, "hit_at_5": 0.5, "refusal_rate": 0.5}}
    assert intent_summary(rows) == {"explain": {"n": 1, "ok_rate": 1.0}, "off_topic": {"n": 1, "ok_rate": 0.0}}


def test_a_declined_highlight_question_echoing_a_forbidden_word_is_not_a_leak(physical_ai, tmp_path):
    chat = physical_ai.components(make_settings(tmp_path))
    passage = next(c.content for c in chat.store.all_chunks(physical_ai.report.book_id) if len(c.content) > 200)
    item = {"id": "p-s99", "kind": "selection", "selected_text": passage[:300], "answerable": False,
            "question": "which pizza topping do people in naples like best?", "forbidden_keywords": ["pizza"],
            "answer_keywords": [], "leak_probe": True}
    try:
        result = evaluate([item], chat.pipeline, [], threshold=chat.threshold)
    finally:
        chat.close()
    rows = [r for r in result["rows"] if r["kind"] == "selection"]
    assert rows and all(r["status"] == "refused" and "pizza" in r["answer"] for r in rows)  # the question, echoed
    assert not any(r["leaked"] for r in rows) and result["summary"]["leak_rate"] == 0


def test_a_translated_page_is_its_gold_doc_under_its_locales_folder():
    from server.book.chunk import Chunk
    from server.evaluation import doc_hit, section_hit

    def chunk(source_file):
        return Chunk(chunk_id="c", book_id="b", book_title="B", content="## URDF\n\ntext", content_hash="",
                     source_file=source_file, url="", module="", chapter="", section="", heading="URDF",
                     section_hierarchy=["URDF"], page=0, source_location="", citation="", file_hash="")

    item = {"gold_docs": ["module1/urdf.mdx"], "gold_heading": "URDF"}
    for source_file in ("module1/urdf.mdx", "i18n/ur/docusaurus-plugin-content-docs/current/module1/urdf.mdx"):
        assert doc_hit(chunk(source_file), item) and section_hit(chunk(source_file), item)
    assert not doc_hit(chunk("i18n/ur/docusaurus-plugin-content-docs/current/module2/urdf.mdx"), item)


def test_a_refusal_is_written_in_the_language_of_the_readers_page(physical_ai, chat_app):
    client = chat_app(physical_ai).test_client()
    question = "how do i fly a px4 drone in offboard mode from ros 2?"
    for locale, said in (("ur", "کا ذکر نہیں"), ("ja", "が出てこない"), ("es", "no menciona “px4”"), (None, "never mentions “px4”")):
        body = {"question": question, **({"metadata": {"locale": locale}} if locale else {})}
        data = client.post("/chat", json=body).get_json()
        assert data["status"] == "refused" and said in data["answer"], (locale, data["answer"])


def test_a_citation_marker_is_no_keyword_the_answer_says():
    """The Rust book's "what optimization level do dev and release builds use by default?" counted
    its keyword "3" (opt-level 3) as said by the marker "[3]" of a third source: when two sources
    became one, the answer's coverage fell though its words were the same."""
    from server.evaluation.measures import keyword_coverage

    answer = "The default `opt-level` for `dev` is therefore `0` [1]. Good defaults for release builds [3]."
    assert keyword_coverage(answer, ["opt-level", "0", "3"]) == 2 / 3
    assert keyword_coverage(answer + " The release profile's opt-level is 3 [2].", ["3"]) == 1.0
    assert keyword_coverage("see [the docs](https://x/3)", ["3"]) == 1.0  # a link's words are the answer's
