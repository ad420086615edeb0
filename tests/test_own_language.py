"""Off-topic questions in the book's own language when that is not English: "明天巴黎天气怎么样？"
of a Chinese Python book, "美味しいカレーの作り方教えて" of a Japanese TypeScript book. Their
everyday words the book never writes are read as such (the book measured in the question's
language, Chinese and Japanese cut into their words by the language's word list), a question is
held to its words whole, and a passage in the question's script is in its language though its
code is not."""
from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import given, strategies as st

from places import CORPORA
from server.book.chunk import Chunk
from server.checkbook import checks, probes
from server.embedding.e5 import E5Embedder
from server.question.judge.gate import names_any_asked, same_language
from server.question.understand.focus import leaned_on
from server.text import own_language
from server.text.vocabulary import BookVocabulary, words

BOOKS = {"zh": CORPORA / "python-codex-i18n" / "docs", "ja": CORPORA / "survival-ts" / "docs",
         "en": CORPORA / "physical-ai-book" / "docs"}


@lru_cache(maxsize=None)
def _book(language: str) -> BookVocabulary:
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(BOOKS[language].rglob("*.md*"))]
    return BookVocabulary.from_texts(paragraph for text in texts for paragraph in text.split("\n\n"))


@pytest.fixture(scope="module")
def e5():
    return E5Embedder(threads=1)


def _chunk(text: str) -> Chunk:
    return Chunk(chunk_id=text[:8], book_id="b", book_title="B", content=text, content_hash="", source_file="f.md",
                 url="", module="", chapter="", section="", heading="", section_hierarchy=[], page=0,
                 source_location="", citation="", file_hash="", embed_text=text)


def test_a_chinese_or_japanese_run_is_cut_into_the_languages_words():
    assert own_language.segmented("生成器函数里", "zh") == ["生成器", "函数", "里"]  # not 数里, "several miles"
    assert own_language.segmented("会发生", "zh") == ["会", "发生"]
    assert own_language.segmented("型アサーションと型注釈", "ja") == ["型", "アサーション", "と", "型", "注釈"]
    assert own_language.question_words("美味しいカレーの作り方教えて", ("ja",))[:3] == ["美味しい", "カレー", "作り方"]
    # what a question asks about, less the words that frame it
    assert own_language.topic_words("明天巴黎天气怎么样？") == {"巴黎", "天气"}
    assert own_language.topic_words("what is a closure?") is None


@given(st.text(alphabet=st.characters(min_codepoint=0x3040, max_codepoint=0x30ff) | st.characters(
    min_codepoint=0x4e00, max_codepoint=0x4fff), max_size=30), st.sampled_from(["ja", "zh"]))
def test_any_run_is_cut_into_words_that_join_back_into_it(run, language):
    cut = own_language.segmented(run, language)
    assert "".join(cut) == run and all(cut)


def test_pairs_of_characters_across_a_word_of_grammar_are_not_asked():
    """"为什么被装饰的函数的 __name__ 变成了 wrapper？" asked 被装, 饰的, 的函, 成了 too, which every
    sentence about decorated functions says: the answer opened on another section's."""
    from server.text.asked import asked_words
    asked = asked_words("为什么被装饰的函数的 __name__ 变成了 wrapper？怎么解决？")
    assert {"装饰", "函数", "变成", "解决", "name", "wrapper"} <= asked
    assert not asked & {"被装", "饰的", "的函", "数的"}, asked
    assert {"对象", "面向"} <= asked_words("面向对象编程是什么")  # 对 inside a word is no grammar
    assert "参数" in asked_words("缓存装饰器对参数有什么要求吗") and "对参" not in asked_words("缓存装饰器对参数有什么要求吗")
    assert "変了" not in asked_words("b 也跟着变了") and "变了" in asked_words("b 也跟着变了")  # 了 is the verb's


@given(st.text(alphabet=st.characters(min_codepoint=0x3040, max_codepoint=0x30ff) | st.characters(
    min_codepoint=0x4e00, max_codepoint=0x4fff), max_size=30))
def test_the_pairs_across_grammar_are_pairs_of_the_text(run):
    assert all(len(pair) == 2 and pair in run for pair in own_language.across_particles(run))


def test_a_book_is_measured_in_the_questions_language():
    chinese, japanese, english = _book("zh"), _book("ja"), _book("en")
    assert own_language.length_in(("zh",), chinese.counts) > 50_000
    assert own_language.length_in(("ja",), japanese.counts) > 100_000
    # an English book quotes a "de" or a "の" now and then: it is no Spanish or Japanese book
    assert own_language.length_in(("es",), english.counts) < 2_000
    assert own_language.length_in(("ja",), english.counts) < 100
    assert english.read("¿a qué hora se pone el sol en invierno?").unused == []


def test_everyday_words_of_the_questions_language_the_book_never_writes_are_unused():
    chinese, japanese = _book("zh"), _book("ja")
    assert {"冬天", "太阳"} <= set(chinese.read("冬天太阳几点落山？").unused)
    assert "世界杯" in chinese.read("1998年世界杯足球赛谁赢了？").unused
    # a word of katakana is looked for whole: the book writes カレント and ストレージ, never カレー
    assert "カレー" in japanese.read("美味しいカレーの作り方教えて").unused
    # the book's own words are not, nor a rare everyday word whose absence says nothing (围巾, scarf)
    assert chinese.read("装饰器怎么给函数计时？").unused == []
    assert japanese.read("型アサーションってなに？").unused == []
    assert "围巾" not in chinese.read("围巾怎么织？").unused


def test_a_question_leans_on_its_everyday_topic_not_on_its_frame(e5):
    chinese = _book("zh")
    asked = "冬天太阳几点落山？"
    assert set(leaned_on(asked, chinese.read(asked).unused, e5)) == {"冬天", "太阳"}
    assert leaned_on("自分のPCだと動くのに友達のPCでnpm installしたら動かない…なんで？", ["友達"], e5) == ("友達",)
    assert leaned_on("装饰器到底是什么？", [], e5) == ()


def test_a_chinese_question_is_held_to_its_words_whole_not_to_pairs_of_characters():
    timedelta = _chunk("想要计算“明天这个时候”或者“三天前”，我们需要用到 datetime 模块中的 timedelta 类。")
    assert not names_any_asked("明天巴黎天气怎么样？", [timedelta])  # 明天 frames it; 巴黎 and 天气 are asked
    assert names_any_asked("明天巴黎天气怎么样？", [_chunk("用 requests 获取巴黎的天气预报。")])
    assert names_any_asked("timedelta 怎么用？", [timedelta])  # a name in Latin letters is asked too
    wraps = _chunk("用 functools.wraps 保持被装饰函数的名字和文档字符串。")
    assert names_any_asked("functools.wraps 是干嘛的", [wraps])  # though the passage never says 干嘛
    assert not names_any_asked("美味しいカレーの作り方教えて", [_chunk("カレントディレクトリを確認します。")])


def test_a_passage_in_the_questions_script_is_in_its_language_though_its_code_is_not():
    urdu = _chunk("rclpy.time.Time ROS 2 میں وقت کی نمائندگی کرتا ہے۔\n```python\nnow = node.get_clock().now()\n"
                  "stamp = now.to_msg()\nprint(stamp.sec, stamp.nanosec)\n```")
    assert same_language("کل پیرس میں موسم کیسا ہوگا؟", urdu)
    assert not same_language("کل پیرس میں موسم کیسا ہوگا؟", _chunk("Time is represented by rclpy.time.Time in ROS 2."))
    chinese = _chunk("抽象类与接口很相似。\n```python\nclass Base(ABC):\n    @abstractmethod\n    def run(self): ...\n```")
    assert same_language("围巾怎么织？", chinese)
    assert same_language("what is a mixin?", chinese)  # an English question is always held to its words


def test_an_urdu_word_with_its_optional_vowel_marks_is_one_word():
    assert words("مفلر کیسے بُنیں؟") == ["مفلر", "کیسے", "بنیں"]


def test_check_book_asks_everyday_questions_in_each_of_the_books_languages():
    assert set(probes.EVERYDAY_IN) == set(probes.REQUESTS_IN)
    assert all(len(asked) == len(probes.EVERYDAY) for asked in probes.EVERYDAY_IN.values())
    asked = []

    def ask(question: str, **body):
        asked.append(question)
        assert body.get("metadata", {}).get("locale") == (None if question in probes.EVERYDAY else "zh-cn")
        return 200, {"status": "refused" if question in probes.EVERYDAY else "completed", "answer": "Quoted."}

    book = checks.Book("b", [], [], [], [], None, languages=("en", "zh"), locales={"en": "en", "zh": "zh-cn"})
    result = checks.off_book(ask, book)
    assert set(asked) == {*probes.EVERYDAY, *probes.EVERYDAY_IN["zh"]}
    assert not result.passed and "zh" in result.measure and "明天巴黎天气怎么样？" in " ".join(result.failures)
