"""One index, two books, two locales: a site's widget gets answers from its own book only, an
unknown book id is an error, and a reader on a translated page is cited translated pages.

Book A is physical-ai-i18n read from its real build (English and Urdu, tests/built_sites.py);
book B is the sample book, whose subject (signals) is nowhere in book A.
"""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from apps import open_copy
from built_sites import built_site
from places import SAMPLE_BOOK
from server.ingest.indexer import ingest
from server.ingest.site import detect_site

pytestmark = pytest.mark.needs_build  # a Docusaurus build, made ahead (tests/builds_ahead.py)

BOOK_A = "physical-ai-textbook-Hackathon-1"  # physical-ai-i18n's projectName
URDU = "/physical-ai-textbook-Hackathon-1/ur/"


@pytest.fixture(scope="module")
def two_books(tmp_path_factory, embedder, indexed_folder):
    """Book A's index (made once per session) with book B ingested beside it."""
    book_a = indexed_folder(built_site("physical-ai-i18n"))
    assert book_a.report.book_id == BOOK_A and book_a.site.build_dir is not None
    book = open_copy(book_a, tmp_path_factory.mktemp("two-books") / "data", embedder)
    book.site = detect_site(SAMPLE_BOOK)
    book.report = ingest(book.site, book.store, embedder, progress=False)
    yield book
    book.index.close()


@pytest.fixture
def client(two_books, chat_app):
    return chat_app(two_books).test_client()


def ask(client, question: str, **body) -> dict:
    response = client.post("/chat", json={"question": question, **body})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_the_index_holds_both_books_under_their_own_ids(two_books):
    assert set(two_books.store.books()) == {BOOK_A, "sample-book"}


@pytest.mark.parametrize("question", ["What is the Nyquist rate?", "How do I describe a robot joint in URDF?",
                                      "What does aliasing look like in a sampled signal?"])
def test_a_widget_of_book_a_never_gets_a_source_from_book_b(client, question):
    answer = ask(client, question, filters={"book_id": BOOK_A})
    assert all(s["book_id"] == BOOK_A for s in answer["sources"]), [s["book_id"] for s in answer["sources"]]
    other = ask(client, question, filters={"book_id": "sample-book"})
    assert all(s["book_id"] == "sample-book" for s in other["sources"])


def test_an_unknown_book_id_is_a_404_not_an_answer_from_elsewhere(client):
    response = client.post("/chat", json={"question": "What is the Nyquist rate?", "filters": {"book_id": "no-such-book"}})
    assert response.status_code == 404
    assert response.get_json()["code"] == "UNKNOWN_BOOK" and "no-such-book" in response.get_json()["error"]


def test_a_reader_on_an_urdu_page_is_cited_urdu_pages(client):
    question = "What joint types can you use in a URDF?"
    urdu = ask(client, question, filters={"book_id": BOOK_A}, metadata={"locale": "ur", "docs_version": "current"})
    assert urdu["sources"] and all(urlsplit(s["url"]).path.startswith(URDU) and s["locale"] == "ur"
                                   for s in urdu["sources"]), [s["url"] for s in urdu["sources"]]
    english = ask(client, question, filters={"book_id": BOOK_A}, metadata={"locale": "en"})
    assert english["sources"] and all(URDU not in s["url"] and s["locale"] == "en" for s in english["sources"])
    assert all(c["url"] in {s["url"] for s in urdu["sources"]} for c in urdu["citations"])


def test_sources_carry_the_breadcrumb_labels(client):
    answer = ask(client, "What joint types can you use in a URDF?", filters={"book_id": BOOK_A},
                 metadata={"locale": "en"})
    top = answer["sources"][0]
    assert top["labels"] == ["Module 1: The Robotic Nervous System (ROS 2)", "URDF for Humanoids"]
    assert top["source_location"].startswith("Module 1: The Robotic Nervous System (ROS 2) › URDF for Humanoids")


def test_llms_txt_with_two_books_names_them_and_each_book_has_its_own(client):
    root = client.get("/llms.txt")
    assert root.status_code == 400 and root.get_json()["code"] == "VALIDATION_ERROR"
    assert root.get_json()["details"]["books"] == sorted([BOOK_A, "sample-book"])
    sample = client.get("/books/sample-book/llms.txt").get_data(as_text=True)
    assert sample.startswith("# Signals and Systems Primer\n") and BOOK_A not in sample
    urdu = client.get(f"/books/{BOOK_A}/llms.txt").get_data(as_text=True)
    assert URDU in urdu
    assert "## " in urdu and "(ur)" in urdu  # translated parts say their locale


def test_a_config_split_into_modules_states_its_locales_in_the_one_it_imports(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "intro.md").write_text("# Introducción\n\nLas bibliotecas de software se diseñan.\n")
    (tmp_path / "config" / "i18n.ts").write_text(
        'export interface I18nFlags { defaultLocale: string; locales: string[]; }\n'
        'const DEFAULT_I18N_FLAGS: I18nFlags = {\n  defaultLocale: "es",\n  locales: ["es", "en"],\n};\n')
    (tmp_path / "docusaurus.config.ts").write_text(
        'import createI18nConfig from "./config/i18n";\nimport other from "@docusaurus/types";\n'
        "export default { title: 'T', url: 'https://t.example', baseUrl: '/', ...createI18nConfig() };\n")
    site = detect_site(tmp_path)
    assert (site.default_locale, site.locales) == ("es", ("es", "en"))
    # the config's own literal wins over what a module it imports says
    (tmp_path / "docusaurus.config.ts").write_text(
        'import createI18nConfig from "./config/i18n";\n'
        "export default { title: 'T', i18n: { defaultLocale: 'fr', locales: ['fr'] } };\n")
    assert (detect_site(tmp_path).default_locale, detect_site(tmp_path).locales) == ("fr", ("fr",))


def test_a_config_split_into_modules_names_its_title_in_the_one_it_imports(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "intro.md").write_text("# Introducción\n\nLas bibliotecas de software se diseñan.\n")
    (tmp_path / "config" / "course-meta.ts").write_text(
        'const meta = {\n  shortTitle: "DIBS",\n  title: "Diseño de Bibliotecas",\n};\nexport default meta;\n')
    (tmp_path / "config" / "site.ts").write_text(
        "import meta from './course-meta';\nexport interface SiteConfig { title: string; }\n"
        "export default function createSiteConfig() {\n  return { title: `📚 ${meta.shortTitle}`, tagline: meta.title };\n}\n")
    (tmp_path / "docusaurus.config.ts").write_text(
        'import createSiteConfig from "./config/site";\nexport default { ...createSiteConfig(), baseUrl: "/" };\n')
    assert detect_site(tmp_path).title == "📚 DIBS"  # as the site shows it, not the folder's name
    # a placeholder no literal fills is not a title: the folder names the book
    (tmp_path / "config" / "course-meta.ts").write_text("export default { shortTitle: process.env.TITLE };\n")
    assert detect_site(tmp_path).title == tmp_path.name
    # the config's own literal wins
    (tmp_path / "docusaurus.config.ts").write_text(
        "import createSiteConfig from './config/site';\nexport default { title: 'Own', ...createSiteConfig() };\n")
    assert detect_site(tmp_path).title == "Own"


def test_a_translation_is_labelled_with_the_sidebars_translated_labels(tmp_path):
    """python-codex-i18n's English pages: the page a category links to ("编程基础" → its doc `ide`)
    and a doc labelled in the sidebar ("前言") kept their Chinese labels on the English pages."""
    from server.ingest.pages import discover_pages

    (tmp_path / "docs").mkdir()
    for name, text in (("README.md", "# 关于本书\n\n这是前言。\n"), ("ide.md", "# Python 编程基础\n\n编程从这里开始。\n"),
                       ("hello.md", "# 你好\n\n第一个程序。\n")):
        (tmp_path / "docs" / name).write_text(text, encoding="utf-8")
    english = tmp_path / "i18n" / "en" / "docusaurus-plugin-content-docs"
    (english / "current").mkdir(parents=True)
    for name, text in (("README.md", "# About this book\n\nThis is the prologue.\n"),
                       ("ide.md", "# Python Programming Basics\n\nProgramming starts here.\n"),
                       ("hello.md", "# Hello\n\nThe first program.\n")):
        (english / "current" / name).write_text(text, encoding="utf-8")
    (english / "current.json").write_text(
        '{"sidebar.tutorialSidebar.doc.前言": {"message": "Prologue"},'
        ' "sidebar.tutorialSidebar.category.编程基础": {"message": "Programming Basics"}}', encoding="utf-8")
    (tmp_path / "sidebars.js").write_text(
        "const sidebars = { tutorialSidebar: [ { type: 'doc', label: '前言', id: 'README' },"
        " { type: 'category', label: '编程基础', link: { type: 'doc', id: 'ide' }, items: ['hello'] } ] };\n"
        "module.exports = sidebars;\n", encoding="utf-8")
    (tmp_path / "docusaurus.config.js").write_text(
        "module.exports = { title: 'T', url: 'https://t.example', baseUrl: '/',"
        " i18n: { defaultLocale: 'zh-cn', locales: ['zh-cn', 'en'] } };\n", encoding="utf-8")
    labels = {(p.locale, p.doc_id): p.labels for p in discover_pages(detect_site(tmp_path)).pages}
    assert labels[("en", "README")] == ["Prologue"] and labels[("en", "ide")] == ["Programming Basics"]
    assert labels[("en", "hello")] == ["Programming Basics", "Hello"]
    assert labels[("zh-cn", "ide")] == ["编程基础"] and labels[("zh-cn", "README")] == ["前言"]
