"""Which embedding model reads a book (server/embedding/choice.py): with EMBEDDING_MODEL unset, a
book in another language gets the multilingual model and its own similarity gate, an English
book the English one; an index keeps the model it was made with."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings as hypothesis_settings, strategies as st

from apps import make_settings
from places import CORPORA, MODELS_DIR
from server.cli import main
from server.composition import Components
from server.embedding.choice import (AUTO, ENGLISH, MULTILINGUAL, OTHER, THRESHOLDS, BookLanguages, book_languages,
                                     choose, model_warnings, on_gate_scale, threshold_for)
from server.ingest.site import detect_site
from server.question import Question, Selection, SelectionMode
from server.store import model_in_use

JAPANESE = {  # a page each: what a student asks is on one of them
    "joints.md": "# 関節\n\nロボットの関節は、リンク同士をつなぎ、回転や直進の動きを可能にする部品です。"
                 "回転関節はモーターで角度を変え、直動関節はリンクをまっすぐ動かします。\n",
    "battery.md": "# バッテリー\n\nバッテリーの容量が大きいほど、ロボットは長い時間動き続けることができます。"
                  "容量はミリアンペア時で表し、重さとのバランスを考えて選びます。\n",
    "vision.md": "# 画像認識\n\nカメラの画像から物体を見つけるには、深層学習のモデルがよく使われます。"
                 "学習には多くのラベル付き画像が必要です。\n",
}
ENGLISH_PAGE = "# Joints\n\nA robot joint connects two links. A revolute joint turns; a prismatic joint slides.\n"


def _book(root: Path, pages: dict[str, str]) -> Path:
    docs = root / "docs"
    docs.mkdir(parents=True)
    for name, text in pages.items():
        (docs / name).write_text(text, encoding="utf-8")
    return docs


def _cli(data_dir: Path, *args: str, **env: str):
    env = {"TEXTBOOK_CHAT_DATA_DIR": str(data_dir), "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR),
           "DATABASE_URL": "", "QDRANT_URL": "", "EMBEDDING_MODEL": "", "SIMILARITY_THRESHOLD": "", **env}
    return CliRunner().invoke(main, list(args), env=env)


@pytest.mark.parametrize("folder, own, translations", [
    ("physical-ai-book/docs", None, ()), ("rust-book", None, ()), ("tpil4", None, ()), ("lhbg/src", None, ()),
    ("whg-genomics/docs", None, ()),
    ("python-codex-i18n/i18n/en/docusaurus-plugin-content-docs/current", None, ()),
    ("survival-ts/docs", "ja", ()),  # its default locale
    ("dibs-es/docs", "es", ()),  # its default locale, set in a module its config imports
    ("python-codex-i18n/docs", "zh-cn", ()),  # Chinese first, English a translation
    ("physical-ai-i18n", None, ("ur",)),  # English first, Urdu a translation: most readers ask in English
])
def test_the_pool_books_languages(folder, own, translations):
    site = detect_site(CORPORA / folder)
    assert book_languages(site.default_locale, site.locales, site.content_root) == BookLanguages(own, translations)


def test_the_choice():
    japanese, english = BookLanguages("ja"), BookLanguages(None, ("ur",))
    # EMBEDDING_MODEL set: always that one
    assert choose(ENGLISH, MULTILINGUAL, japanese).model == ENGLISH
    # auto: a new index takes what its first book calls for; a server with no index the English model
    assert choose(AUTO, None, japanese).model == MULTILINGUAL
    assert choose(AUTO, None, english).model == ENGLISH and choose(AUTO, None).model == ENGLISH
    # an index keeps its model for any book, unless a full ingest of the book it alone holds changes it
    assert choose(AUTO, ENGLISH, japanese).model == ENGLISH
    assert choose(AUTO, MULTILINGUAL, english).model == MULTILINGUAL
    switched = choose(AUTO, ENGLISH, japanese, alone=True)
    assert (switched.model, switched.replaces) == (MULTILINGUAL, ENGLISH)
    assert choose(AUTO, MULTILINGUAL, japanese, alone=True).replaces is None
    # each model its gate; SIMILARITY_THRESHOLD wins over both
    assert threshold_for(ENGLISH) == 0.30 and threshold_for(MULTILINGUAL) == THRESHOLDS[MULTILINGUAL] > 0.5
    assert threshold_for(MULTILINGUAL, 0.2) == 0.2
    # on the gates' scale, e5's threshold is MiniLM's, and MiniLM's cosines are as they are
    assert on_gate_scale(MULTILINGUAL)(THRESHOLDS[MULTILINGUAL]) == pytest.approx(0.30)
    assert on_gate_scale(MULTILINGUAL)(0.95) > 0.7 > on_gate_scale(MULTILINGUAL)(0.85)
    assert on_gate_scale(ENGLISH)(0.42) == 0.42
    # what ingest says: nothing for a book the model reads, the way out for one it does not
    assert model_warnings(japanese, MULTILINGUAL) == [] and model_warnings(BookLanguages(None), ENGLISH) == []
    assert "this book is in ja" in model_warnings(japanese, ENGLISH)[0]
    assert "ur pages are read with" in model_warnings(english, ENGLISH)[0]


@hypothesis_settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(max_size=400), min_size=1, max_size=4))
def test_any_page_text_gives_a_language_answer(tmp_path_factory, texts):
    docs = tmp_path_factory.mktemp("book")
    for n, text in enumerate(texts):
        (docs / f"p{n}.md").write_text(text, encoding="utf-8", errors="surrogatepass")
    found = book_languages("en", ("en",), docs)
    assert found in (BookLanguages(None), BookLanguages(OTHER))


def test_a_japanese_book_is_read_with_the_multilingual_model_and_its_gate(tmp_path):
    docs, data = _book(tmp_path / "ja", JAPANESE), tmp_path / "data"
    done = _cli(data, "ingest", str(docs), "--book-id", "ja")
    assert done.exit_code == 0, done.output
    assert f"embedding model: {MULTILINGUAL} (the book's language: {OTHER})" in done.stderr
    settings = make_settings(data)
    assert model_in_use(settings) == MULTILINGUAL
    assert _cli(data, "model").stdout.startswith(f"{MULTILINGUAL}: ")
    assert json.loads(_cli(data, "status", "--json").stdout)["model"]["name"] == MULTILINGUAL
    chat = Components.build(settings)  # a server: no setting, the index's own model and gate
    try:
        assert chat.embedder.model_name == MULTILINGUAL and chat.threshold == THRESHOLDS[MULTILINGUAL]
        ask = lambda q: chat.pipeline.answer(Question(q, max_chunks=5, similarity_threshold=chat.threshold))  # noqa: E731
        answered = ask("ロボットの関節とは何ですか？")
        assert not answered.refused and answered.citations[0].url.endswith("/joints"), answered.text
        # the English model's gate would let this through (every e5 cosine is above 0.30)
        assert ask("フランス革命はいつ始まりましたか？").refused
        # a request about a highlighted passage, in Japanese, is answered from the passage
        passage = JAPANESE["battery.md"].split("\n\n", 1)[1].strip()
        for request in ("これってどういう意味？", "これ一言でまとめて", "これの具体例ちょうだい"):
            about = chat.pipeline.answer(Question(request, max_chunks=5, similarity_threshold=chat.threshold,
                                                  selection=Selection(passage, SelectionMode.EXCLUSIVE)))
            assert not about.refused and "バッテリーの容量" in about.text, (request, about.text)
    finally:
        chat.close()


def test_an_index_keeps_its_model_and_says_when_a_book_needs_another(tmp_path):
    data = tmp_path / "data"
    english = _book(tmp_path / "en", {"joints.md": ENGLISH_PAGE})
    japanese = _book(tmp_path / "ja", JAPANESE)
    assert _cli(data, "ingest", str(english), "--book-id", "en").exit_code == 0
    kept = _cli(data, "ingest", str(japanese), "--book-id", "ja")
    assert kept.exit_code == 0, kept.output
    assert f"embedding model: {ENGLISH} (the index was made with it)" in kept.stderr
    assert "warning: sentence-transformers/all-MiniLM-L6-v2 reads English only, and this book is in" in kept.stderr and "EMBEDDING_MODEL=intfloat/multilingual-e5-small" in kept.stderr
    # a full ingest of the only book an index holds may change its model
    only = tmp_path / "only"
    assert _cli(only, "ingest", str(english), "--book-id", "ja").exit_code == 0
    assert model_in_use(make_settings(only)) == ENGLISH
    changed = _cli(only, "ingest", str(japanese), "--book-id", "ja", "--full")
    assert changed.exit_code == 0, changed.output
    assert model_in_use(make_settings(only)) == MULTILINGUAL
    # and a set EMBEDDING_MODEL is used as it is
    fixed = _cli(tmp_path / "fixed", "ingest", str(japanese), "--book-id", "ja", EMBEDDING_MODEL=ENGLISH)
    assert f"embedding model: {ENGLISH} (EMBEDDING_MODEL)" in fixed.stderr and "warning:" in fixed.stderr
