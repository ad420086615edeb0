"""Highlighted code (a real code block of the sample book): its language is the one its block is
marked with, and "what does this line do?" is answered from the block's own text, in both modes.
A question the code does not answer is still declined."""
from __future__ import annotations

import pytest

from apps import make_settings
from places import SAMPLE_BOOK
from server.question.compose.extractive import ExtractiveGenerator
from server.question.compose.fallback import WithFallback
from server.question.compose.gemini import GeminiClient, GeminiGenerator
from server.question.compose.extractive.code_passage import comments, language_name
from server.question.understand.intent import Intent, detect

PAGE = SAMPLE_BOOK / "docs" / "02-practice" / "02-digital-filters.mdx"
LINE = 'sos = signal.butter(4, cutoff, btype="lowpass", fs=fs, output="sos")'
MODES = ("exclusive", "combined")


def _block() -> str:
    """The page's Python block, as a reader highlights it (without its fence)."""
    text = PAGE.read_text(encoding="utf-8")
    start = text.index("```python\n") + len("```python\n")
    return text[start:text.index("```", start)].strip()


def _ask(client, question: str, selected: str, mode: str, **extra) -> dict:
    response = client.post("/chat", json={"question": question, "selected_text": selected, "selection_mode": mode,
                                          **extra})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_requests_about_code_are_told_apart():
    assert detect("What programming language is used in this code?", LINE, code=True) is Intent.LANGUAGE
    assert detect("which language is this written in?", LINE, code=True) is Intent.LANGUAGE
    assert detect("what does this line do?", LINE, code=True) is Intent.CODE
    # asked of prose, "which language" is a question the passage may or may not answer
    assert detect("so which language should i write the first version in?", "Start with Python.") is Intent.QUESTION
    assert detect("What programming language is used in this code?", "Start with Python.") is Intent.QUESTION


def test_the_code_is_read_by_its_language():
    assert language_name("py") == "Python" and language_name("cpp") == "C++"
    assert comments(_block(), "python")[:2] == ["sampling rate, Hz", "cutoff frequency, Hz"]
    assert comments("soxi interview.wav  # a summary of the file", "bash") == ["a summary of the file"]


@pytest.mark.parametrize("mode", MODES)
def test_the_language_of_highlighted_code_is_the_one_its_block_is_marked_with(chat_app, mode):
    client = chat_app().test_client()
    data = _ask(client, "What programming language is used in this code?", _block(), mode,
                selected_code_language="python")
    assert data["status"] == "completed" and data["intent"] == "language", data["answer"]
    assert "Python" in data["answer"] and "`python`" in data["answer"] and "[1]" in data["answer"]
    # an API client pasting the block with its markdown fence is read the same way
    fenced = _ask(client, "what language is this?", f"```bash\nsoxi interview.wav\n```", mode)
    assert fenced["status"] == "completed" and "Bash" in fenced["answer"], fenced["answer"]


@pytest.mark.parametrize("mode", MODES)
def test_what_a_highlighted_line_does_is_answered_from_the_blocks_text(chat_app, mode):
    client = chat_app().test_client()
    data = _ask(client, "what does this line do?", LINE, mode, selected_code_language="python")
    assert data["status"] == "completed" and data["intent"] == "code", data["answer"]
    assert f"```python\n{LINE}\n```" in data["answer"]  # the line itself, as code
    if mode == "combined":
        # the book's block says what it is just above it, and the page's prose names `butter`
        assert "4th-order Butterworth" in data["answer"] and "`butter`" in data["answer"], data["answer"]
        assert any(s["source_type"] == "database" and s["source_file"].endswith("02-digital-filters.mdx")
                   for s in data["sources"])
    else:
        assert all(s["source_type"] == "selected_text" for s in data["sources"])
    # a question the code does not answer is declined, never the code repeated
    off = _ask(client, "what is the capital of France?", LINE, mode, selected_code_language="python")
    assert off["status"] == "refused" and LINE not in off["answer"], off["answer"]


def test_a_code_language_that_is_not_a_name_is_a_clear_error(chat_app):
    response = chat_app().test_client().post("/chat", json={
        "question": "which language?", "selected_text": LINE, "selected_code_language": "<script>"})
    assert response.status_code == 400
    assert "selected_code_language" in str(response.get_json()["details"])


def test_with_gemini_the_code_goes_with_its_language(sample_book, tmp_path, fake, chat_app):
    settings = make_settings(tmp_path / "data", gemini_api_key="test-key", gemini_timeout_s=5.0)
    generator = WithFallback(GeminiGenerator(settings, GeminiClient(settings, backoff_s=0.05)),
                             ExtractiveGenerator(sample_book.embedder), label="Gemini")
    client = chat_app(generator=generator, gemini_api_key="test-key", gemini_timeout_s=5.0).test_client()
    fake.script({"text": "It designs a 4th-order Butterworth low-pass filter [1]."})
    data = _ask(client, "what does this line do?", LINE, "exclusive", selected_code_language="python")
    assert data["status"] == "completed" and data["intent"] == "code", data["answer"]
    sent = fake.requests[-1]
    assert '<highlighted_text code_language="python">' in sent.user_text and LINE in sent.user_text
    assert "what the highlighted code" in sent.system_text and "not reply NOT_IN_BOOK" in sent.system_text
