"""Highlight questions judged the same way on every development book with a selection set, in
both modes: every request about the passage and every question it answers is answered, every
off-topic question is declined (nothing from elsewhere in the book shown or cited), and the
whole book is offered exactly when the book's own path answers the question ("Search the whole
book" asks it there, so after an off-topic refusal it is refused too unless the book has it).
The books are the session's indexes (physical-ai-book from its sources, the other two from
their real builds, as the other tests read them)."""
from __future__ import annotations

import json

import pytest

from apps import make_settings, open_copy
from built_sites import built_site
from places import EVAL

pytestmark = pytest.mark.needs_build  # a Docusaurus build, made ahead (tests/builds_ahead.py)

SETS = ("physical-ai-book", "rust-book", "aibook", "physical-ai-i18n")
from server.question import Page, Question, Selection, SelectionMode
from server.question.compose.refusal import selection_refusal

MODES = (SelectionMode.EXCLUSIVE, SelectionMode.COMBINED)
# the held-out author's test and the issue's: a highlighted sentence and a question about something else
GENERAL = ("What is quantum computing?", "what is the capital of France?")


@pytest.fixture(scope="module", params=["physical-ai-book", "aibook", "physical-ai-i18n"])
def book(request, tmp_path_factory, embedder, indexed_folder):
    name = request.param
    if name == "physical-ai-book":
        indexed = request.getfixturevalue("physical_ai")
    else:
        indexed = open_copy(indexed_folder(built_site(name)), tmp_path_factory.mktemp(name) / "data", embedder)
    chat = indexed.components(make_settings(tmp_path_factory.mktemp(f"{name}-chat")))
    items = [json.loads(line) for line in (EVAL / f"{name}.jsonl").read_text(encoding="utf-8").splitlines() if line]
    yield name, chat, indexed.site.default_locale, [i for i in items if i["kind"] == "selection"]
    chat.close()
    if name != "physical-ai-book":
        indexed.index.close()


def _ask(chat, locale, question: str, selected: str | None = None, mode: SelectionMode = SelectionMode.EXCLUSIVE):
    return chat.pipeline.answer(Question(
        question, max_chunks=5, similarity_threshold=0.3, page=Page(locale=locale),
        selection=Selection(selected, mode) if selected else None))


def _answerable(item: dict) -> bool:
    return item.get("answerable", not item.get("leak_probe", False))


def test_every_selection_item_is_answered_or_declined_in_both_modes(book):
    name, chat, locale, items = book
    assert items
    for item in items:
        for mode in MODES:
            answer = _ask(chat, locale, item["question"], item["selected_text"], mode)
            where = (name, item["id"], mode.value, answer.text[:160])
            if _answerable(item):
                assert not answer.refused, where
                if mode is SelectionMode.EXCLUSIVE:
                    assert all(s.source_type == "selected_text" for s in answer.sources), where
                continue
            assert answer.refused and not answer.sources, where
            assert not any(k.lower() in answer.text.lower() for k in item.get("forbidden_keywords", [])), where
            # the refusal of a passage, in the page's language, quoting what was asked
            passage_refusal = selection_refusal(item["question"], language=locale).split("“")[0]
            assert answer.text.startswith(passage_refusal) and f"“{' '.join(item['question'].split())[:40]}" in answer.text, where
            # the offer is the book's own path: shown only when that path answers
            alone = _ask(chat, locale, item["question"])
            assert answer.offer_book_search is not alone.refused, (where, alone.text[:160])
            if "elsewhere_in_book" in item.get("tags", []):
                assert answer.offer_book_search, where
            if "not_in_book" in item.get("tags", []):  # "Search the whole book" is refused too
                assert alone.refused and not answer.offer_book_search, (where, alone.text[:160])


def test_a_question_about_something_else_is_declined_on_a_highlighted_sentence(book):
    name, chat, locale, items = book
    sentence = next(i["selected_text"] for i in items if _answerable(i))
    for question in GENERAL:
        for mode in MODES:
            answer = _ask(chat, locale, question, sentence, mode)
            assert answer.refused and not answer.sources, (name, question, mode.value, answer.text[:160])
            assert sentence[:40] not in answer.text  # the passage is never repeated as an answer
            assert not answer.offer_book_search, (name, question, mode.value)
        # and "Search the whole book" would refuse it too: the book's own path
        alone = _ask(chat, locale, question)
        assert alone.refused, (name, question, alone.text[:160])


def _set(name: str) -> list[dict]:
    return [json.loads(line) for line in (EVAL / f"{name}.jsonl").read_text(encoding="utf-8").splitlines() if line]


def test_a_question_no_book_covers_is_refused_by_every_book_and_its_own_questions_answered(book):
    """The off-topic highlight questions that no book covers ("can you recommend a phone with
    really long battery life?"), asked of the book alone as "Search the whole book" asks them, are
    refused by every book, whatever their other words match (a power chapter's "battery" and "long
    life"); the book's own questions, typos and everyday words included, are still answered."""
    name, chat, locale, _ = book
    foreign = [i["question"] for s in SETS for i in _set(s) if "not_in_book" in i.get("tags", [])]
    assert len(foreign) >= 2
    for question in foreign:
        answer = _ask(chat, locale, question)
        assert answer.refused and not answer.sources, (name, question, answer.text[:160])
    own = [i for i in _set(name) if i["kind"] == "in_book"]
    assert own
    for item in own:
        answer = _ask(chat, locale, item["question"])
        assert not answer.refused, (name, item["id"], item.get("tags"), answer.text[:160])
