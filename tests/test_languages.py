"""Word-level mechanisms on books in other languages: Chinese and Japanese (no spaces between
words) read as pairs of characters; the English word checks (unknown terms, everyday words,
spelling) switched off for a question not in English; sentences end at "。" and "۔"."""
from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from server.book.chunk import Chunk
from server.question.compose.extractive.answer_units import sentences_of
from server.question.compose.extractive.answers import block_answer
from server.question.context import Source
from server.question.gather.lexical import bm25_scores
from server.evaluation.measures import answer_words
from server.text.lengths import reading_length, spaced_length
from server.text.asked import asked_words
from server.text.vocabulary import BookVocabulary, in_english, unspaced, words


def _source(text: str, score: float = 0.6) -> Source:
    chunk = Chunk(chunk_id="c", book_id="b", book_title="B", content=text, content_hash="", source_file="f.md",
                  url="", module="", chapter="", section="", heading="", section_hierarchy=[], page=0,
                  source_location="", citation="", file_hash="", score=score)
    return Source(chunk, "database")


def test_chinese_and_japanese_are_read_as_pairs_of_characters():
    assert words("递归函数") == ["递归", "归函", "函数"]
    assert words("Python 的 list") == ["python", "的", "list"]
    assert all(unspaced(w) for w in words("ロボットの関節"))
    # the asked words leave out kana-only pairs (Japanese grammar) and a question's frame
    assert "関節" in asked_words("関節とは何ですか") and "です" not in asked_words("関節とは何ですか")
    assert "什么" not in asked_words("什么是递归？") and "递归" in asked_words("什么是递归？")


def test_words_in_any_script_are_words():
    assert words("La recursión en Python") == ["la", "recursion", "en", "python"]
    assert words("روبوٹ کا جوڑ") == ["روبوٹ", "کا", "جوڑ"]
    assert words("naïve café") == ["naive", "cafe"]


def test_a_word_typed_without_its_accents_is_the_word():
    """dibs-es: a student writes "que es una funcion pura", "explicame una monada", "trampolin":
    the book's "función", "Mónada", "Trampolín" are the same words to every word-level mechanism
    (BM25, the asked words, a definition, a heading naming the term). Only Latin letters lose
    their accents: Japanese "が" keeps its dakuten, a Hindi word its vowel signs."""
    assert words("¿Qué es una Mónada? Función, año, Trampolín, Việt") == words("que es una monada? funcion, ano, trampolin, viet")
    assert words("がぎぐ") == ["がぎ", "ぎぐ"] and words("हिंदी") == words("हिंदी".lower())
    monad = _source("**Mónada** Una **Mónada** es una abstracción que encadena operaciones dependientes de forma "
                    "secuencial, con pure y flatMap.", 0.6)
    scala = _source("## Implementación de una Mónada en Scala\n\nScala soporta directamente los HKT, lo que facilita la "
                    "definición de tipos genéricos que operan sobre estructuras monádicas sin envolturas.", 0.62)
    answer = block_answer("explicame una monada facil", [scala, monad], "short")
    assert answer.lstrip().startswith("Una **Mónada** es una abstracción") or \
        answer.index("Una **Mónada** es") < answer.index("Scala soporta"), answer


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_words_are_the_same_with_or_without_accents(text):
    from server.text.scripts import unaccented
    assert words(unaccented(text)) == words(text)



@settings(deadline=None)  # the first call loads the word lists of five languages
@given(st.text(max_size=200))
def test_any_text_reads_as_words_without_spaces_or_empty_ones(text):
    found = words(text)
    assert all(w and not any(c.isspace() for c in w) and w == w.lower() for w in found)
    assert isinstance(in_english(text), bool)


def test_the_english_word_checks_read_english_questions_only():
    assert in_english("how does recursion work in python")
    assert in_english("waht is kinematiks")  # misspelt words are no other language
    assert in_english("what is Schrödinger's equation")
    assert not in_english("¿Cómo funciona la recursión en Python?")
    assert not in_english("como instalar python")
    assert not in_english("什么是递归函数？")
    assert not in_english("ROS 2 میں نوڈ کیا ہے؟")


def test_a_question_in_another_language_is_not_refused_for_words_the_book_lacks():
    book = BookVocabulary.from_texts(["La recursión es una función que se llama a sí misma."])
    reading = book.read("¿Cómo funciona la iteración de una función?")  # "iteración": not in this book
    assert reading.unknown_terms == [] and reading.unused == [] and reading.corrections == {}
    english = BookVocabulary.from_texts(["Recursion is a function calling itself."])
    assert english.read("how does serde deserialize json?").unknown_terms  # English: still checked


def test_in_another_script_a_name_in_latin_letters_the_book_never_uses_is_an_unknown_term():
    book = BookVocabulary.from_texts(["TypeScriptのinterfaceとtype aliasは型に名前をつけます。Promise.allは並行に待ちます。",
                                      "Python 的 lambda 函数只能写一个表达式。"])
    assert book.read("PrismaでDBの型を自動生成するには？").unknown_terms == ["prisma"]
    assert book.read("用 Celery 做分布式任务队列要怎么配置？").unknown_terms == ["celery"]
    # the book's own names, and one edit from them (a student's typo), are not
    for asked in ("interfaseとtype aliasってどっちを使う？", "Promis.allって何するやつ？", "lamda 函数里面能写几个表达式？",
                  "TypeScriptの型って何？"):
        assert book.read(asked).unknown_terms == [], asked
    # Spanish is written in Latin letters: its words are not names
    assert book.read("¿me recomiendas una serie para ver este finde?").unknown_terms == []


@settings(deadline=None)
@given(st.text(max_size=200))
def test_any_question_reads_with_known_or_unknown_latin_names(text):
    book = BookVocabulary.from_texts(["TypeScriptのinterfaceは型です。"])
    terms = book.read(text).unknown_terms
    if not in_english(text):  # another script's question: only its Latin-letter names can be unknown
        assert all(term.isascii() and term == term.lower() and len(term) >= 3 for term in terms)
    assert all(term.lower() in text.lower() for term in terms)


def test_chinese_sentences_are_pieces_and_the_answer_quotes_the_one_asked():
    assert sentences_of("ロボットは関節を持つ。関節は回転する！本当ですか？はい。") == [
        "ロボットは関節を持つ。", "関節は回転する！", "本当ですか？", "はい。"]
    assert sentences_of("یہ ایک جملہ ہے۔ یہ دوسرا جملہ ہے۔") == ["یہ ایک جملہ ہے۔", "یہ دوسرا جملہ ہے۔"]
    assert sentences_of("La función es recursiva. ¿Por qué? Él dijo que sí.") == [
        "La función es recursiva.", "¿Por qué?", "Él dijo que sí."]
    page = ("## 函数\n\n" + "函数可以有默认参数。" * 3 + "递归函数是在函数内部调用自身的函数。递归需要一个结束条件，否则会无限调用。"
            + "列表是一种有序的容器。" * 8 + "\n")
    answer = block_answer("什么是递归函数？", [_source(page)])
    assert "递归函数是在函数内部调用自身的函数" in answer and "[1]" in answer
    assert answer_words(answer) <= 90


def test_bm25_ranks_chinese_passages_by_their_pairs_of_characters():
    texts = ["列表是一种有序的容器。", "递归函数调用自身。", "字典保存键和值。"]
    chunks = [_source(text).chunk for text in texts]
    scores = bm25_scores("递归是什么", chunks, BookVocabulary.from_texts(texts))
    assert scores[1] > 0 and scores[0] == scores[2] == 0


def test_a_citation_stands_before_the_full_stop_of_each_script():
    from server.question.markers import cite_end

    assert cite_end("できます。", 1) == "できます[1]。"
    assert cite_end("یہ جملہ ہے۔", 2) == "یہ جملہ ہے [2]۔"
    assert cite_end("It folds.", 3) == "It folds [3]."


@given(st.text(alphabet=st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), min_size=1, max_size=80),
       st.lists(st.from_regex(r"[a-z]{1,8}", fullmatch=True), max_size=10))
def test_chinese_and_japanese_are_read_two_characters_to_a_word(run, latin):
    assert reading_length(" ".join([*latin, run])) == len(latin) + (len(run) + 1) // 2
    assert answer_words(" ".join([*latin, run])) == len(latin) + (len(run) + 1) // 2
    assert reading_length(f"[{' '.join(latin)}](https://example.org/a/b)") == len(latin)  # a link's target is not read


def test_an_answer_in_japanese_reads_as_long_as_one_in_english():
    sentences = ["関数は値を受け取り、処理した結果を戻り値として呼び出し元へ返します。",
                 "関数の引数には型注釈を書くことができ、型が合わない呼び出しはコンパイル時に検出されます。",
                 "関数の戻り値の型を省略すると、本体のreturn文から型が推論されます。",
                 "関数は変数に代入したり、他の関数に引数として渡したりすることもできます。"]
    answer = block_answer("関数の戻り値の型は？", [_source("## 関数\n\n" + "".join(sentences) + "\n")])
    assert all(sentence[:-1] in answer for sentence in sentences)  # about 85 words of English, in four sentences
    assert answer_words(answer) <= 90


def test_exercises_in_other_languages_are_quoted_only_when_asked_for():
    chinese = ("## 列表\n\n列表是一种有序的容器，可以保存任意类型的元素。列表可以用下标访问元素。\n\n"
               "## 练习\n\n1. 写一个函数，把列表里的元素反转后返回一个新的列表。\n2. 写一个函数，找出列表里最大的元素。\n")
    assert "反转" not in block_answer("列表是什么？可以保存哪些元素？", [_source(chinese)])
    assert "反转" in block_answer("有关于列表的练习吗？", [_source(chinese)])
    spanish = ("## Pilas\n\nUna pila es una colección en la que el último elemento agregado es el primero en salir.\n\n"
               "## Ejercicios\n\n- Implementa una pila que guarde elementos en una lista enlazada.\n")
    assert "Implementa una pila" not in block_answer("¿qué es una pila de elementos?", [_source(spanish)])
    assert "Implementa una pila" in block_answer("¿hay ejercicios sobre la pila?", [_source(spanish)])


def test_a_japanese_sentence_closing_on_ka_asks_and_is_not_an_answer():
    page = ("## falsyな値\n\nfalsyな値は限られており、それ以外の値はすべてtruthyです。"
            "では、どのような値の場合はifブロックを実行しないのでしょうか。falsyな値はfalse、0、空文字列、nullとundefinedです。\n")
    answer = block_answer("falsyな値はどれ？", [_source(page)])
    assert "空文字列" in answer and "のでしょうか" not in answer


def test_a_name_one_edit_from_a_book_word_is_a_typo_only_when_it_keeps_the_first_letter():
    book = BookVocabulary.from_texts(["Python functions use lambda. An interface names methods in Python."])
    assert book.read("怎么用 Cython 给 Python 循环提速？").unknown_terms == ["cython"]
    assert book.read("Pythonのlamdaって何？").unknown_terms == []  # the student's typo of "lambda"
    assert book.read("TypeScriptのinterfaseは？").unknown_terms == ["typescript"]


def test_a_spanish_question_names_what_it_capitalises_inside_a_sentence_or_a_word():
    book = BookVocabulary.from_texts(["Gradle compila proyectos de Kotlin. JUnit ejecuta las pruebas. La programación funcional."])
    assert book.read("¿cómo creo mocks con MockK o Mockito para mis tests?").unknown_terms == ["mockk", "mockito"]
    assert book.read("¿Cómo configuro JUnit en Gradle?").unknown_terms == []  # names the book uses; "Cómo" opens it
    assert book.read("¿Qué es la herencia? Explícala con Kotlin.").unknown_terms == []
    assert book.read("¿Qué es la Programación Funcional?").unknown_terms == []  # Spanish words, not names


def _said(*questions: str):
    from datetime import datetime, timezone
    from server.sessions import Message

    return [Message(f"m{i}", "user", q, datetime.now(timezone.utc)) for i, q in enumerate(questions)]


def _searched_alone_or_with(before: str, alone: tuple[str, ...], with_it: tuple[str, ...]) -> None:
    from server.question.understand.followup import retrieval_query

    for question in alone:
        assert retrieval_query(question, _said(before)) == question
    for question in with_it:
        assert retrieval_query(question, _said(before)) == f"{before} {question}"


def test_a_question_in_chinese_or_japanese_is_a_follow_up_only_when_short_or_pointing_back():
    # a whole question of its own, unspaced: searched alone, not with the question before it;
    # short, or leaning on the question before ("それ", "这个", "¿y eso?"): searched with it
    _searched_alone_or_with("オプショナルチェーンとは？",
                            ("ジェネリクスの使い方を教えて", "美味しいラーメンの作り方は？", "constとletの違い", "装饰器是怎么工作的？"),
                            ("それは何？", "その例は？", "这个怎么用？", "¿y eso?", "یہ کیا ہے؟", "and services?"))


def test_a_short_question_is_a_follow_up_only_when_it_names_nothing_of_its_own():
    _searched_alone_or_with("how do i fix cannot borrow as mutable?",
                            ("what's a trait", "what is PPO?", "define ownership", "why do robots fall over?"),
                            ("why?", "an example?", "explain more", "why is that?", "and services?", "how?"))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_any_text_is_read_as_a_follow_up_or_not_without_failing(text):
    from server.question.understand.followup import looks_like_follow_up, retrieval_query

    assert isinstance(looks_like_follow_up(text), bool)
    assert retrieval_query(text, _said("what is a node?")).endswith(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60))
def test_a_length_in_words_is_the_spaced_words_and_chinese_or_japanese_characters_in_twos(text):
    unspaced_runs = re.findall(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+", text)
    if not unspaced_runs and not re.search(r"[\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]", text):
        assert spaced_length(text) == len(text.split())  # English, Spanish, Urdu: as spaces part them
    else:
        assert spaced_length(text) >= sum((len(run) + 1) // 2 for run in unspaced_runs)
    assert spaced_length("constとletの違い") == 5 and spaced_length("装饰器是怎么工作的？") == 5


def test_a_refusal_speaks_the_language_of_the_readers_page():
    from server.question.compose.refusal import book_refusal, selection_refusal

    nearest = [Chunk(chunk_id="c", book_id="b", book_title="B", content="x", content_hash="", source_file="a.md",
                     url="https://example.org/a#b", module="", chapter="", section="", heading="",
                     section_hierarchy=[], page=0, source_location="A › B", citation="", file_hash="")]
    english = book_refusal("Survival", nearest, ["prisma"])
    assert english == ("The book *Survival* never mentions “prisma”, so I can't answer this from it. The closest "
                       "sections are: [A › B](https://example.org/a#b). Try rephrasing, or ask about something the "
                       "book covers.")
    assert book_refusal("Survival", nearest, ["prisma"], language="en-US") == english
    assert book_refusal("Survival", nearest, ["prisma"], language="fr") == english  # a language it has no words in
    said = {language: book_refusal("Survival", nearest, ["prisma"], language=language)
            for language in ("es", "ja", "zh-cn", "ur")}
    assert said["es"].startswith("El libro *Survival* no menciona “prisma”")
    assert "には“prisma”が出てこない" in said["ja"] and "没有提到“prisma”" in said["zh-cn"] and "کا ذکر نہیں" in said["ur"]
    for text in said.values():  # the nearest section linked, whatever the language
        assert "[A › B](https://example.org/a#b)" in text and "never mentions" not in text
    assert "この質問" in selection_refusal("", language="ja") and "“¿qué es esto?”" in selection_refusal(
        "¿qué es esto?", language="es")


def test_a_term_the_book_names_but_never_explains_is_refused_with_where_it_comes_up():
    """"whats backdrivability" on the AIbook was refused with "I couldn't find this in the book", though
    its actuator table names it ("Robot arm joints | BLDC + harmonic drive | Precision, backdrivability"):
    the book mentions it, and says so, with the section that does."""
    from server.question.compose.refusal import book_refusal

    content = ("### Servo Motors\n\nMotor + Gearbox + Controller.\n\n## Actuator Selection\n\n"
               "| Application | Best Choice | Why |\n|---|---|---|\n| Robot arm joints | BLDC + harmonic drive | "
               "Precision, backdrivability |")
    servo = Chunk(chunk_id="s", book_id="b", book_title="B", content=content, content_hash="", source_file="a.md",
                  url="https://example.org/a#servo-motors", module="", chapter="Actuators", section="",
                  heading="Servo Motors", section_hierarchy=["Actuators", "Servo Motors"], page=0,
                  source_location="Actuators › Servo Motors", citation="", file_hash="",
                  parts=[{"at": content.index("## Actuator"), "titles": ["Actuator Selection"],
                          "anchor": "actuator-selection"}])
    said = book_refusal("AIbook", [servo], [], term="backdrivability")
    assert said.startswith("The book *AIbook* mentions “backdrivability” but doesn't say what it is"), said
    assert "(https://example.org/a#actuator-selection)" in said and "#servo-motors" not in said
    assert "“backdrivability”" in book_refusal("AIbook", [servo], [], language="ur", term="backdrivability")
    assert book_refusal("AIbook", [servo], [], term="drivability").startswith("I couldn't find this")  # a word whole
    assert book_refusal("AIbook", [servo], [], term=None).startswith("I couldn't find this")


def test_a_japanese_sentence_goes_on_past_a_quote_that_closes_on_a_full_stop():
    said = sentences_of("重複した3つの関数を「どの部分がそれぞれ異なっているのか？」という視点で見てみましょう。"
                        "彼は「行こう。」と言った。「準備はいい？」次の文です。")
    assert said == ["重複した3つの関数を「どの部分がそれぞれ異なっているのか？」という視点で見てみましょう。",
                    "彼は「行こう。」と言った。", "「準備はいい？」", "次の文です。"]


def test_a_japanese_books_pages_and_sections_open_with_their_own_sentences_in_its_outline():
    from places import CORPORA
    from server.ingest.blocks import is_prompt
    from server.ingest.outline import build_outline
    from server.ingest.pages import discover_pages
    from server.ingest.site import detect_site

    site = detect_site(CORPORA / "survival-ts" / "docs")
    pages = build_outline(site, discover_pages(site).pages, "survival-ts").pages
    described = [p for p in pages if p.description]
    opened = [s for p in pages for s in p.sections if s.key_point]
    # what "what is this page about?" and the course's summaries read: one sentence of four
    # "words" was one unspaced run, so only pages with front matter had one (55 of 264)
    assert len(described) >= 0.95 * len(pages) and len(opened) >= 0.85 * sum(len(p.sections) for p in pages)
    assert is_prompt("次の関数を型注釈付きで書き直してください") and not is_prompt("型")


def test_a_passage_in_any_script_is_found_in_its_own_chunk_and_not_in_another():
    """python-codex-i18n: a highlighted Chinese passage read as "" (Latin letters only), which is in
    every chunk, so the book's closest other passage was never found and an off-topic question of
    the highlight ("生成器函数里碰到 return 会发生什么？") was answered from it, not declined."""
    from server.text.sentences import normalised
    own = "还要注意的是：生成器、生成器表达式都是单次使用的，生成器只能迭代一次。"
    other = "需要注意的是，一个函数如果同时包含 yield 和 return，那么 return 的行为和普通函数是不一样的。"
    opening = normalised(own.split("。")[0])
    assert opening and opening in normalised(f"## 生成器\n\n{own}\n\n更多内容。") and opening not in normalised(other)
    assert normalised("El **Trampolín**: una técnica") == "el trampolín una técnica"
    assert normalised("یہ ایک جملہ ہے۔") and normalised("The `Box<T>` type_name!") == "the box t type name"
