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
from server.question import Page, Question, Selection, SelectionMode
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


URDU = {  # the same three pages, translated: what a reader of the Urdu pages asks is on one of them
    "joints.md": "# جوڑ\n\nروبوٹ کا جوڑ دو حصوں کو آپس میں ملاتا ہے اور انہیں گھومنے یا سیدھا چلنے دیتا ہے۔ "
                 "گھومنے والا جوڑ موٹر سے اپنا زاویہ بدلتا ہے۔\n",
    "battery.md": "# بیٹری\n\nبیٹری کی گنجائش جتنی زیادہ ہو، روبوٹ اتنی ہی دیر تک چلتا رہ سکتا ہے۔ "
                  "گنجائش ملی ایمپیئر گھنٹے میں ناپی جاتی ہے۔\n",
    "vision.md": "# تصویر کی پہچان\n\nکیمرے کی تصویر میں چیزیں ڈھونڈنے کے لیے گہری سیکھ کے ماڈل استعمال ہوتے ہیں۔ "
                 "ان کی تربیت کے لیے بہت سی لیبل والی تصویریں چاہییں۔\n",
}
ENGLISH_PAGES = {
    "joints.md": ENGLISH_PAGE,
    "battery.md": "# Battery\n\nThe larger a battery's capacity, the longer a robot keeps moving. Capacity is measured "
                  "in milliampere-hours.\n",
    "vision.md": "# Vision\n\nDeep learning models find objects in a camera's image. Training them takes many "
                 "labelled images.\n",
}


def _bilingual(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    _book(site, ENGLISH_PAGES)
    urdu = site / "i18n" / "ur" / "docusaurus-plugin-content-docs" / "current"
    urdu.mkdir(parents=True)
    for name, text in URDU.items():
        (urdu / name).write_text(text, encoding="utf-8")
    (site / "docusaurus.config.js").write_text(
        "module.exports = {title: 'Robots', url: 'https://robots.example', baseUrl: '/',\n"
        "  i18n: {defaultLocale: 'en', locales: ['en', 'ur']}};\n", encoding="utf-8")
    return site


def _vectors_are_their_locales_models(index) -> None:
    for chunk in index.store.all_chunks("robots"):
        stored = index.store.vectors([chunk.chunk_id])[chunk.chunk_id]
        model = index.locale_embedders["ur"] if chunk.locale == "ur" else index.embedder
        assert float(model.embed_documents([chunk.embed_text])[0] @ stored) > 0.99, chunk.locale


def test_a_translation_in_another_language_is_read_with_the_multilingual_model_and_english_keeps_its_own(tmp_path):
    """An English book with Urdu pages (physical-ai-i18n): its English readers keep MiniLM, its
    ranking and its gate; the Urdu pages are embedded and searched with the multilingual model."""
    site = _bilingual(tmp_path)
    data = tmp_path / "data"
    done = _cli(data, "ingest", str(site), "--book-id", "robots")
    assert done.exit_code == 0, done.output
    assert f"embedding model: {ENGLISH} (the book is in English)" in done.stderr
    assert f"embedding model of the ur pages: {MULTILINGUAL}" in done.stderr and "warning:" not in done.stderr
    settings = make_settings(data)
    chat = Components.build(settings)  # a server started on the index: the record says which locale is whose
    try:
        assert chat.embedder.model_name == ENGLISH and chat.threshold == THRESHOLDS[ENGLISH]
        _vectors_are_their_locales_models(chat.index)

        def ask(question: str, locale: str):
            return chat.pipeline.answer(Question(question, max_chunks=5, similarity_threshold=chat.threshold,
                                                 page=Page(locale=locale)))
        for question, page in (("روبوٹ کا جوڑ کیا کرتا ہے؟", "joints"), ("روبوٹ زیادہ دیر تک کیسے چلتا رہے؟", "battery"),
                               ("تصویر میں چیزیں کیسے ڈھونڈی جاتی ہیں؟", "vision")):
            answered = ask(question, "ur")
            assert not answered.refused and answered.citations[0].url.endswith(f"/ur/docs/{page}"), answered.text
        english = ask("what does a revolute joint do?", "en")
        assert not english.refused and english.citations[0].url.endswith("/docs/joints")
        assert "/ur/" not in english.citations[0].url
        # a search from no page compares the English model's vector with its own chunks only
        found = chat.retriever.retrieve("what does a revolute joint do?", max_chunks=6)
        assert found and {c.locale for c in found} == {"en"}
        assert ask("فرانس کا انقلاب کب شروع ہوا؟", "ur").refused  # the French revolution: e5's gate, on MiniLM's scale
    finally:
        chat.close()


def test_pages_read_by_another_model_than_their_kept_vectors_are_embedded_again(tmp_path):
    """An index made with the English model for every page, read again for its book alone (as
    `eval` and `check-book` do): the Urdu pages' text is unchanged, their vectors are not kept."""
    from server.composition import index_of
    from server.ingest.indexer import ingest as run_ingest
    from server.library.opening import BookToIndex

    site, data = _bilingual(tmp_path), tmp_path / "data"
    fixed = _cli(data, "ingest", str(site), "--book-id", "robots", EMBEDDING_MODEL=ENGLISH)
    assert fixed.exit_code == 0 and "warning: the book's ur pages are read with" in fixed.stderr
    assert "`ingest --full` of this book alone" in fixed.stderr
    settings = make_settings(data)
    with index_of(settings, store_check=False, book=BookToIndex.of(detect_site(site), "robots", full=True)) as index:
        assert set(index.locale_embedders) == {"ur"} and index.choice.replaces is None
        report = run_ingest(detect_site(site), index.store, index.embedder, book_id="robots", progress=False,
                            locale_embedders=index.locale_embedders)
        assert report.chunks_embedded == len(URDU)
        _vectors_are_their_locales_models(index)

    again = _cli(data, "ingest", str(site), "--book-id", "robots", "--full")  # as the warning says
    assert again.exit_code == 0 and f"embedding model of the ur pages: {MULTILINGUAL}" in again.stderr
    assert "warning:" not in again.stderr
