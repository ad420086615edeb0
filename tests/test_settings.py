"""Settings: each declared once with its environment names, read from those names only."""
from __future__ import annotations

import re
from dataclasses import fields

import pytest

from places import REPO
from server.settings import Settings, SettingsError, environment_names, load_settings


def test_every_environment_name_is_read_and_documented(monkeypatch):
    names = environment_names()
    documented = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", (REPO / "README.md").read_text()))
    assert set(names) <= documented, set(names) - documented
    for name in names:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MAX_CHUNKS", "7")
    monkeypatch.setenv("ALLOWED_ORIGINS", "https://book.example, https://other.example")
    monkeypatch.setenv("GOOGLE_API_KEY", "second-name")
    monkeypatch.setenv("AGENT_MODE", "on")
    settings = load_settings(env_file=None)
    assert settings.max_chunks == 7 and settings.agent_mode is True and settings.gemini_api_key == "second-name"
    assert settings.allowed_origins == ("https://book.example", "https://other.example")
    assert settings.with_overrides(max_chunks=5) == load_settings(env_file=None).with_overrides(max_chunks=5)
    monkeypatch.setenv("GEMINI_API_KEY", "first-name")
    assert load_settings(env_file=None).gemini_api_key == "first-name"


def test_settings_are_grouped_by_concern():
    concerns = {f.metadata["concern"] for f in fields(Settings)}
    assert {"store", "generation", "retrieval", "web", "embedding", "sessions", "files"} == concerns
    assert Settings().concern("store") == {"qdrant_url": None, "qdrant_api_key": None, "collection": "textbook_chunks"}


@pytest.mark.parametrize("name, raw, message", [
    ("SIMILARITY_THRESHOLD", "1.5", "in \\[0, 1\\]"),
    ("MAX_CHUNKS", "many", "integer"),
    ("GEMINI_TIMEOUT_S", "soon", "number"),
    ("MAX_CHUNKS", "50", "between 1 and 10"),
    ("MAX_CHUNKS", "0", "between 1 and 10"),
    ("RATE_LIMIT", "garbage", "limits like '30 per minute;500 per day'"),
    ("RATE_LIMIT_STORAGE", "foo://", "memory:// or a shared store's URL"),
    ("RATE_LIMIT_STORAGE", "localhost:6379", "memory:// or a shared store's URL"),
    ("EMBEDDING_BATCH_SIZE", "0", "more than 0"),
    ("MAX_REQUEST_BYTES", "-5", "more than 0"),
    ("GEMINI_TIMEOUT_S", "0", "more than 0"),
    ("GEMINI_MAX_OUTPUT_TOKENS", "0", "more than 0"),
    ("GEMINI_TEMPERATURE", "5", "in \\[0, 2\\]"),
    ("AGENT_MODE", "maybe", "true or false"),
    ("ALLOWED_ORIGINS", "https://book.example/", "origins like https://book.example.org"),
    ("ALLOWED_ORIGINS", "book.example", "origins like https://book.example.org"),
    ("QDRANT_URL", "localhost:6333", "an http\\(s\\) URL"),
    ("QDRANT_COLLECTION", "../elsewhere", "a name of letters, digits"),
])
def test_bad_values_name_the_variable(monkeypatch, name, raw, message):
    monkeypatch.setenv(name, raw)
    with pytest.raises(SettingsError, match=f"{name} must .*{message}"):
        load_settings(env_file=None)


def test_a_data_folder_that_is_a_file_is_refused(monkeypatch, tmp_path):
    (tmp_path / "data").write_text("not a folder")
    monkeypatch.setenv("TEXTBOOK_CHAT_DATA_DIR", str(tmp_path / "data"))
    with pytest.raises(SettingsError, match="TEXTBOOK_CHAT_DATA_DIR must name a folder"):
        load_settings(env_file=None)


def test_help_names_the_data_folder_and_the_settings_that_apply():
    from click.testing import CliRunner

    from server.cli import main

    for command, names, absent in (("serve", ["RATE_LIMIT_STORAGE", "MAX_REQUEST_BYTES", "DATABASE_URL"], None),
                                   ("ingest", ["EMBEDDING_BATCH_SIZE", "QDRANT_URL"], "RATE_LIMIT_STORAGE")):
        shown = CliRunner().invoke(main, [command, "--help"]).output
        assert "TEXTBOOK_CHAT_DATA_DIR (default: ./data)" in shown
        assert all(name in shown for name in names), shown
        assert absent is None or absent not in shown  # only what the command reads
