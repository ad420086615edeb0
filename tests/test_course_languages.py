"""The course path on a book read with the multilingual model, in the book's own language: a
request for the course ("このページを要約して", "下一步应该读什么", "resúmeme esta página") is
read as its task, a question about a passage is not; after a quiz, only a request for the answers
shows them; a student's answer unlike the book's is not "partly" right for its model's compressed
cosines. And a Japanese page's definitions are made quiz questions, sentence by sentence."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from places import CORPORA
from server.book.outline import Outline
from server.course.other_languages import read_as_english
from server.course.resolve import part_by_title
from server.ingest.blocks import block_kind
from server.course.practice.check import NEAR_MEANING, answering_sentences, cosine
from server.course.practice.hint_wording import HINTS
from server.course.practice.hints import Tutor, cloze, guiding_question
from server.course.service import Course
from server.course.understand import TaskReader
from server.embedding.e5 import E5Embedder
from server.ingest.outline import build_outline
from server.ingest.pages import discover_pages
from server.ingest.site import detect_site
from server.text.sentences import split_sentences

TYPE_ASSERTION = "reference/values-types-variables/type-assertion-as.md"


@pytest.fixture(scope="module")
def e5():
    return E5Embedder(threads=1)


@pytest.fixture(scope="module")
def japanese() -> Outline:
    site = detect_site(CORPORA / "survival-ts" / "docs")
    return build_outline(site, discover_pages(site).pages, "survival-ts")


@pytest.fixture(scope="module")
def chinese() -> Outline:
    site = detect_site(CORPORA / "python-codex-i18n")
    return build_outline(site, discover_pages(site).pages, "python-codex-i18n")


def _read(reader: TaskReader, outline: Outline, question: str, page: str | None):
    url = next(p.url for p in outline.pages if p.source_file == page) if page else ""
    request = reader.read(question, reader.embedder.embed_query(question), outline, url)
    return request.task if request else None


# worded apart from the tasks' descriptions (course/other_languages.py), which they must not repeat
@pytest.mark.parametrize("question, task", [
    ("このページの要点をまとめてください", "summarize"),
    ("このページの内容で問題を出して", "quiz"),
    ("これの次はどのページを読めばいい？", "order"),
    ("このページを読むと何ができるようになる？", "objectives"),
    ("resúmeme esta página por favor", "summarize"),
    ("ponme a prueba con preguntas de esta página", "quiz"),
    ("terminé esta página, ¿qué leo ahora?", "order"),
])
def test_a_course_request_in_japanese_or_spanish_is_read_as_its_task(e5, japanese, question, task):
    assert _read(TaskReader(e5), japanese, question, TYPE_ASSERTION) == task


@pytest.mark.parametrize("question, task", [("帮我概括一下这一页", "summarize"), ("接下来应该看哪一页？", "order")])
def test_a_course_request_in_chinese_is_read_as_its_task(e5, chinese, question, task):
    assert _read(TaskReader(e5), chinese, question, "variable.md") == task


@pytest.mark.parametrize("question", ["型アサーションってなに？", "asとキャストって何が違うの",
                                      "次のコードはなぜエラーになるの？", "¿qué es una función pura?",
                                      "what is a type assertion?"])
def test_a_question_about_a_passage_stays_on_the_passage_path(e5, japanese, question):
    assert _read(TaskReader(e5), japanese, question, TYPE_ASSERTION) is None


def test_a_passage_question_in_chinese_stays_on_the_passage_path(e5, chinese):
    # "每次" (every time) holds the character Japanese says "next" with
    assert _read(TaskReader(e5), chinese, "能不能不改函数本身，就让它每次自动打印跑了多长时间？", "variable.md") is None


def test_the_course_words_of_each_language_read_as_english_and_an_english_question_is_kept():
    assert read_as_english("次は何を読めばいい？").startswith("next")
    # Japanese and Chinese ask "where" last; read as English asks it, first
    assert read_as_english("enumの代わりって、この章のどこに書いてある？").startswith("where ")
    assert read_as_english("装饰器在哪一章讲？").startswith("where ")
    assert "this page" in read_as_english("总结一下这一页") and "chapter 3" in read_as_english("第3章は何について？")
    assert "this chapter" in read_as_english("resume este capitulo")
    for english in ("what is the anterior cingulate?", "which chapter covers lifetimes?"):
        assert read_as_english(english) == english


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=80))
def test_any_text_reads_as_english_course_words_without_failing(text):
    assert isinstance(read_as_english(text), str)


@pytest.fixture(scope="module")
def urdu() -> Outline:
    site = detect_site(CORPORA / "physical-ai-i18n")
    return build_outline(site, discover_pages(site).pages, "physical-ai-i18n")


@pytest.mark.parametrize("question, task", [
    ("اس صفحے کا خلاصہ بتائیں", "summarize"), ("اس صفحے پر مجھ سے کوئز لیں", "quiz"),
    ("اس صفحے کا خلاصہ کریں", "summarize"), ("اس صفحے کی وضاحت کریں", "summarize"),
    ("اب مجھے آگے کیا پڑھنا چاہیے؟", "order"), ("ROS 2 میں نوڈ کیا ہوتا ہے؟", None),
    ("ٹاپک اور سروس میں کیا فرق ہے؟", None)])
def test_a_course_request_in_urdu_is_read_by_an_english_books_model(embedder, urdu, question, task):
    # the Urdu translation of an English book, whose course reader reads with MiniLM: the course's
    # words in English ("this page کا summary بتائیں"), the passage questions left to the passages
    page = next(p for p in urdu.pages if p.locale == "ur" and p.source_file.endswith("nodes-topics-services.mdx"))
    request = TaskReader(embedder).read(question, embedder.embed_query(question), urdu, page.url, "ur")
    assert (request.task if request else None) == task


def test_a_part_is_named_by_its_title_in_its_own_script(japanese, chinese):
    named, _ = part_by_title(japanese, "「作って学ぶtypescript」の章、ざっくりまとめてほしい")
    assert named is not None and named.label == "作って学ぶTypeScript"
    # a Chinese title said in part ("面向对象" of "面向对象编程"), and said whole
    for asked, title in (("面向对象那一块帮我总结一下重点", "面向对象编程"), ("函数式编程这一部分大概讲些什么？", "函数式编程")):
        named, _ = part_by_title(chinese, asked, "zh-cn")
        assert named is not None and named.label == title, asked
    assert part_by_title(chinese, "什么是函数？", "zh-cn")[0] is None


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=60))
def test_any_text_names_a_part_or_none_without_failing(text):
    part_by_title(Outline("b", "B", (), ()), text)


@pytest.mark.parametrize("heading, kind", [("本章で学べること", "objectives"), ("学习目标", "objectives"),
                                           ("このチュートリアルに必要なもの", "prerequisites"), ("まとめ", "summary"),
                                           ("Objetivos de aprendizaje", "objectives"), ("Resumen", "summary"),
                                           ("練習問題", "exercises"), ("クイズアプリを作ろう", None)])
def test_what_a_page_teaches_is_found_by_its_headings_in_the_pools_languages(heading, kind):
    assert block_kind(heading) == kind


def test_after_a_quiz_only_a_request_for_the_answers_shows_them(e5):
    course = Course(None, e5, None)
    for asked in ("show the answers", "答えを見せて", "给我看答案", "muéstrame las respuestas"):
        assert course.is_answers_request(e5.embed_query(asked)), asked
    # every question scored above MiniLM's floor in e5's cosines: each was answered with the quiz's answers
    for asked in ("型アサーションってなに？", "why is it not called a cast?", "what should I read next?", "B"):
        assert not course.is_answers_request(e5.embed_query(asked)), asked


def test_an_answer_unlike_the_books_is_not_near_it_and_a_paraphrase_is(e5):
    similarity = cosine(e5)
    book = "型アサーションは、実行時に影響しません。値の型変換はしないのです。"
    assert similarity("型アサーションは実行時に値を変換しない", book) >= NEAR_MEANING
    assert similarity("わかりません、たぶん配列です", book) < NEAR_MEANING


def test_a_hint_follow_up_is_asked_for_and_a_short_reply_is_none(e5):
    tutor = Tutor(None, e5)
    assert tutor.follow_up("答えを教えて") == "reveal" and tutor.follow_up("もう一つヒント") == "another"
    for reply in ("B", "はい", "型注釈"):
        assert tutor.follow_up(reply) is None, reply


def test_after_a_hint_a_question_in_a_script_an_english_model_cannot_read_is_no_follow_up(embedder):
    # MiniLM reads any two short Urdu (or Chinese) phrases as alike: "why are topics used?" after a
    # hint was read as "show me the answer", and answered the hint's question
    tutor = Tutor(None, embedder)
    for asked in ("ٹاپک کیوں استعمال کرتے ہیں؟", "سروس کیا ہے؟", "为什么用装饰器？", "型注釈って何？"):
        assert tutor.follow_up(asked) is None, asked
    assert tutor.follow_up("ایک اور اشارہ") == "another" and tutor.follow_up("جواب دکھائیں") == "reveal"
    assert tutor.follow_up("再给一个提示") == "another" and tutor.follow_up("答えを見せて") == "reveal"
    assert tutor.follow_up("one more clue please") == "another"  # English: read by the model still


def test_japanese_sentences_end_at_their_full_stops_and_a_definition_is_a_quiz_question(japanese):
    text = "型アサーションは、他の言語のキャストに似ています。キャストとは、実行時にある値の型を別の型に変換することです。"
    assert split_sentences(text) == ["型アサーションは、他の言語のキャストに似ています。",
                                     "キャストとは、実行時にある値の型を別の型に変換することです。"]
    page = next(p for p in japanese.pages if p.source_file == TYPE_ASSERTION)
    asked = [q.question for b in page.blocks if b.kind == "built" for q in b.questions]
    assert "キャストとは何ですか？" in asked


COURSE_BOOK = {  # a small Japanese course: a definition on each page, read in order
    "01-joints.md": "# 関節\n\n関節とは、リンク同士をつなぎ、回転や直進の動きを可能にする部品です。"
                    "回転関節はモーターで角度を変えます。\n\n## 直動関節\n\n直動関節とは、リンクをまっすぐ動かす関節です。\n",
    "02-battery.md": "# バッテリー\n\nバッテリーとは、ロボットに電気を送る部品です。容量が大きいほど長く動けます。\n",
}


def test_a_japanese_reader_is_answered_about_the_course_in_japanese(tmp_path):
    from click.testing import CliRunner

    from places import MODELS_DIR
    from server.cli import main
    from server.composition import Components
    from server.question import Page, Question, QuizAnswer
    from apps import make_settings

    docs = tmp_path / "book" / "docs"
    docs.mkdir(parents=True)
    (docs.parent / "docusaurus.config.js").write_text(
        "module.exports = { title: 'ロボット', url: 'https://robots.example', baseUrl: '/', "
        "i18n: { defaultLocale: 'ja', locales: ['ja'] } };\n", encoding="utf-8")
    for name, text in COURSE_BOOK.items():
        (docs / name).write_text(text, encoding="utf-8")
    env = {"TEXTBOOK_CHAT_DATA_DIR": str(tmp_path / "data"), "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR),
           "DATABASE_URL": "", "QDRANT_URL": "", "EMBEDDING_MODEL": "", "SIMILARITY_THRESHOLD": ""}
    assert CliRunner().invoke(main, ["ingest", str(docs), "--book-id", "ja"], env=env).exit_code == 0
    chat = Components.build(make_settings(tmp_path / "data"))
    try:
        joints = next(p for p in Outline.from_dict(chat.store.outline("ja")).pages if p.source_file == "01-joints.md")

        def ask(text: str, session_id: str | None = None):
            return chat.pipeline.answer(Question(text, max_chunks=5, similarity_threshold=chat.threshold,
                                                 page=Page(url=joints.url, locale="ja"), session_id=session_id))
        summary = ask("このページの要点をまとめてください")
        assert summary.course["task"] == "summarize" and "節:" in summary.text and "Its sections" not in summary.text
        quiz = ask("このページの内容で問題を出して")
        assert quiz.course["task"] == "quiz" and "クイズ: 関節" in quiz.text, quiz.text
        assert "関節とは何ですか？" in quiz.text and "直動関節とは何ですか？" in quiz.text and "What does" not in quiz.text
        following = ask("次は何を読めばいい？")
        assert following.course["task"] == "order" and "次: [バッテリー]" in following.text, following.text
        # in the quiz's conversation: a question is answered from the book, "答えを見せて" (short, so read
        # as a follow-up of the question before it) shows the answers, in Japanese
        quiz = ask("このページの内容で問題を出して")
        topic = ask("回転関節ってなに？", quiz.session_id)
        assert topic.course is None and "モーター" in topic.text, topic.text
        # a quiz card's answer comes without the reader's page: its feedback speaks the tested page's language
        card = chat.pipeline.answer(Question("リンク同士をつなぎ、動きを可能にする部品", max_chunks=5,
                                             similarity_threshold=chat.threshold, session_id=quiz.session_id,
                                             quiz_answer=QuizAnswer(quiz.assistant_message_id, 1)))
        assert "本書" in card.text and "The book" not in card.text, card.text
        shown = ask("答えを見せて", quiz.session_id)
        assert shown.course and shown.course["task"] == "answers" and "解答: 関節" in shown.text, shown.text
        # Hints first: where to read and a guiding question, then the answering sentence with its words left out
        hint = chat.pipeline.answer(Question("バッテリーってなに？", max_chunks=5, similarity_threshold=chat.threshold,
                                             page=Page(url=joints.url, locale="ja"), tutor=True))
        assert hint.text.startswith("**ヒント:**") and "**バッテリー**が何か" in hint.text, hint.text
        assert "Hint" not in hint.text and "電気を送る" not in hint.text, hint.text
        narrower = ask("もう一つヒントをください", hint.session_id)
        assert narrower.text.startswith("**もう一つのヒント:**") and "「バッテリーとは、" in narrower.text, narrower.text
        assert "____" in narrower.text and "電気" not in narrower.text, narrower.text
    finally:
        chat.close()


@pytest.mark.parametrize("question, language, guide", [
    ("装饰器是什么？", "zh", "说明**装饰器**是什么"), ("为什么要用装饰器？", "zh", "给出了一个理由"),
    ("带参数的装饰器怎么写？", "zh", "一步一步"), ("闭包和装饰器有什么关系？", "zh", "讲到了**闭包、装饰器**"),
    ("anyとunknownってどう使い分けるの？", "ja", "順を追って"), ("型アサーションと型注釈の違いは？", "ja", "どこが違う"),
    ("Promise.allって何？", "ja", "**Promise.all**が何か"), ("¿por qué usar un decorador?", "es", "da una razón"),
    ("¿qué es un decorador?", "es", "qué es **decorador**"), ("ROS 2 میں نوڈ کیوں ضروری ہے؟", "ur", "وجہ بتاتا"),
    ("what is aliasing?", "en", "what **aliasing** is")])
def test_a_hints_guiding_question_is_asked_in_the_readers_language(question, language, guide):
    words = HINTS[language]
    asked = guiding_question(question, words)
    assert guide in asked, asked
    assert all(asked != getattr(HINTS["en"], kind) for kind in ("reason", "differ", "steps")) or language == "en"


def test_a_chinese_or_japanese_sentence_is_left_with_blanks_for_the_words_the_question_does_not_say():
    sentence = "装饰器是一个接受函数作为参数的函数，并返回一个新的函数。"
    hidden = cloze(sentence, "装饰器是什么？", 2)
    assert hidden.count("____") >= 2 and "装饰器" in hidden and "参数" not in hidden, hidden
    assert cloze("バッテリーとは、ロボットに電気を送る部品です。", "バッテリーってなに？", 1).startswith("バッテリーとは")
    # Urdu's words are terms too (not its commonest: "ہیں", "کا"): the sentence that answers is found and blanked
    section = "ROS 2 نوڈز کو جوڑتا ہے۔ ٹاپکس نامزد بسیں ہیں جن پر نوڈز پیغامات کا تبادلہ کرتے ہیں۔ یہ تیز ہیں۔"
    sentence = answering_sentences(section, "ٹاپکس کیا ہیں؟", limit=1)
    assert sentence.startswith("ٹاپکس نامزد") and "____" in cloze(sentence, "ٹاپکس کیا ہیں؟", 2)
    assert cloze(sentence, "ٹاپکس کیا ہیں؟", 2).startswith("ٹاپکس ")
    assert cloze("Aliasing folds high frequencies onto low ones.", "what is aliasing?", 1) == \
        "Aliasing ____ high frequencies onto low ones."  # as before: the first of its key terms


def test_an_authors_coverage_gaps_are_told_apart_in_the_multilingual_models_cosines(e5):
    from server.insights.gaps import GapQuestion, group_gaps
    from server.sessions.recording import vector_bytes

    asked = ["台風の日に学校は休みになりますか？", "おすすめのラーメン屋を教えて", "how do I bake sourdough bread?",
             "台風の日は学校が休みになる？"]
    gaps = group_gaps([GapQuestion(q, vector_bytes(e5.embed_query(q)), (), False) for q in asked],
                      model=e5.model_name)
    # every e5 cosine is above MiniLM's 0.5: the four were one "gap"
    assert sorted(g.size for g in gaps) == [1, 1, 2], [(g.examples, g.size) for g in gaps]


def test_a_large_part_is_listed_by_its_groups_of_pages(japanese):
    from server.course.answers import MAX_LISTED, groups_of
    from server.course.wording import wording

    part = next(p for p in japanese.parts if p.label == "読んで学ぶTypeScript")
    assert len(japanese.pages_of(part)) > 100
    listed = groups_of(japanese, part, wording("ja"))
    # 197 pages and their sections were one list; now a line a group, with how many pages it holds
    assert len(listed) <= MAX_LISTED and any(line.endswith("ページ)") for line in listed), listed


def test_a_japanese_page_says_what_it_calls_a_thing_and_a_quiz_asks_it():
    from server.ingest.practice.statements import _question

    assert _question("関数の中で自分自身を呼び出すことを再帰と呼びます。", False) == "関数の中で自分自身を呼び出すことを何と言いますか？"
    assert _question("その機能を型アサーション(type assertion)と言います。", False) is None  # "that feature": which?
    # "…することは" holds no "とは"
    assert _question("型に関することはできるだけ、コンパイラーの型推論に頼ったほうが安全です。", False) is None


def test_a_page_with_one_statement_to_ask_still_gets_a_quiz(japanese):
    from server.course.quiz import questions_for

    page = next(p for p in japanese.pages if p.source_file == TYPE_ASSERTION)
    assert len([q for b in page.blocks if b.kind == "built" for q in b.questions]) == 1
    asked, own = questions_for(japanese, [page])
    # one made question is no quiz: "quiz me" was answered from passages of other pages
    assert not own and len(asked) >= 2 and asked[0][0].question == "キャストとは何ですか？"
    assert all("ページには何と書かれていますか" in item.question for item, _, _ in asked[1:])


def test_two_sections_headed_alike_are_one_quiz_question():
    from server.book.outline import Outline, OutlinePage, Section
    from server.course.quiz import questions_for

    # "استعمال کے کیسز" (use cases) heads a section on topics and one on services
    url = "https://b.example/ur/docs/nodes"
    headings = ["ٹاپکس کیا ہیں؟", "استعمال کے کیسز", "سروسز کیا ہیں؟", "استعمال کے کیسز", "ایکشنز کیا ہیں؟"]
    sections = tuple(Section(h, f"{url}#{i}", 3, f"{h} کا پہلا جملہ۔") for i, h in enumerate(headings))
    page = OutlinePage("nodes.md", "nodes.md", url, "Nodes", ("Nodes",), "Nodes", None, 1, 1, None, None, "",
                       locale="ur", sections=sections)
    asked, own = questions_for(Outline("b", "B", pages=(page,)), [page])
    questions = [item.question for item, _, _ in asked]
    assert not own and len(questions) == 4 and len(set(questions)) == 4, questions
    assert [item.tests for item, _, _ in asked] == [f"{url}#{i}" for i in (0, 1, 2, 4)]  # in the page's order


@pytest.mark.parametrize("sentence, asked", [
    ("装饰器是一种特殊的函数，它可以在不修改原函数代码的情况下增加功能。", "什么是装饰器？"),
    ("闭包是指一个函数记住了它被创建时的环境。", "什么是闭包？"),
    # Chinese says "是" of anything: a description, a pointer, a clause is no term
    ("最简单的办法是给有可能运行慢的函数都添加一个计时。", None),
    ("下面是实现这样一个装饰器的代码，请仔细阅读。", None),
    ("我们看到这些属性其实是属于 wrapper() 函数的。", None),
    ("链表可以认为是一种特殊的数据结构，用于存储。", None),
    ("ここで言及している副作用とは、関数の外の状態を変えることです。", None),
    ("指定は必ずしも必要ないとは限らないので注意してください。", None),
])
def test_a_chinese_or_japanese_quiz_question_asks_for_a_term_the_page_defines(sentence, asked):
    from server.ingest.practice.statements import _question

    assert _question(sentence, False) == asked
