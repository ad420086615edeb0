"""`textbook-chat ask` shows the passages /chat would answer from, in the same order: both are
built by the composition root (the book's vocabulary re-ranks, misspelt book words are fixed)."""
from __future__ import annotations

import re

from click.testing import CliRunner

from apps import make_settings
from server.cli import main
from server.question import Question
from server.question.gather.retrieval import Retriever

QUESTIONS = ["what is aliasng", "nyquist frequency"]  # a misspelt book word; a bare term
_LISTED = re.compile(r"^\[(\d+)\] (\d\.\d{3})  (.+)$", re.M)


def test_ask_ranks_the_passages_as_chat_does(sample_book, tmp_path):
    settings = make_settings(tmp_path / "data")
    chat = sample_book.components(settings)
    env = {"TEXTBOOK_CHAT_DATA_DIR": str(sample_book.settings.data_dir),
           "TEXTBOOK_CHAT_MODELS_DIR": str(sample_book.settings.models_dir)}
    dense_only = Retriever(sample_book.store, sample_book.embedder)
    reordered = 0
    try:
        for question in QUESTIONS:
            result = CliRunner().invoke(main, ["ask", question, "--threshold", "0"], env=env)
            assert result.exit_code == 0, result.output
            listed = [(location, float(score)) for _, score, location in _LISTED.findall(result.output)]
            answer = chat.pipeline.answer(Question(question, max_chunks=5, similarity_threshold=0.0))
            assert len(listed) == 5
            assert listed == [(c.source_location, round(c.score, 3)) for c in answer.candidates], question
            dense = [c.source_location for c in dense_only.retrieve(question, max_chunks=5)]
            reordered += dense != [location for location, _ in listed]
    finally:
        chat.close()
    assert reordered >= 1  # the book's words change the order: a bare retriever would not match /chat


def test_ask_mcp_search_book_and_chat_rank_the_same_first_passage(sample_book, tmp_path):
    """Three doors to the book, one ranking: a misspelt word is read as the book spells it whether
    a student asks the widget, the author runs `ask`, or a student's AI tool calls search_book."""
    from server.mcp_server.tools import BookTools

    settings = make_settings(tmp_path / "data")
    chat = sample_book.components(settings)
    env = {"TEXTBOOK_CHAT_DATA_DIR": str(sample_book.settings.data_dir),
           "TEXTBOOK_CHAT_MODELS_DIR": str(sample_book.settings.models_dir)}
    try:
        for question in [*QUESTIONS, "how do i pick a windw for an fft", "wat is dither"]:
            answer = chat.pipeline.answer(Question(question, max_chunks=5, similarity_threshold=chat.threshold))
            first = answer.candidates[0]
            listed = _LISTED.findall(CliRunner().invoke(main, ["ask", question], env=env).output)
            searched = BookTools(chat).search_book(question, limit=5)["passages"]
            assert listed[0][2] == first.source_location, question
            assert searched[0]["url"] == first.url and searched[0]["text"] == first.content, question
    finally:
        chat.close()
