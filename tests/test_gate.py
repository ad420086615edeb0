"""The gate refuses before generation only when the book clearly lacks the topic."""
from __future__ import annotations

from dataclasses import replace

from server.book.chunk import Chunk
from server.question.judge.gate import CLEAR_EVIDENCE, MODEL_FLOOR, UNKNOWN_TERM_CEILING, admitted
from server.text.asked import short_terms


def _chunk(text: str, score: float) -> Chunk:
    return Chunk(chunk_id=text[:8], book_id="b", book_title="B", content=text, content_hash="", source_file="f.md",
                 url="", module="", chapter="", section="", heading="", section_hierarchy=[], page=0,
                 source_location="", citation="", file_hash="", embed_text=text, score=score)


EMBODIMENT = _chunk("The Embodiment Hypothesis: intelligence needs a body.", 0.24)
NEAR = _chunk("Robots sense the world.", 0.26)


def test_passages_over_the_threshold_pass():
    passing = _chunk("Batteries store energy.", 0.45)
    assert admitted("which battery?", [passing, NEAR], 0.3, unknown_terms=[], model_judges=False) == [passing]


def test_an_unknown_term_refuses_unless_retrieval_is_very_sure():
    strong = _chunk("Webots-like simulators.", UNKNOWN_TERM_CEILING - 0.01)
    assert admitted("webots?", [strong], 0.3, unknown_terms=["webots"], model_judges=True) == []
    sure = _chunk("Exactly this.", UNKNOWN_TERM_CEILING + 0.01)
    assert admitted("webots?", [sure], 0.3, unknown_terms=["webots"], model_judges=False) == [sure]


def test_below_the_threshold_a_passage_with_every_asked_word_answers():
    question = "what is the embodiment hypothesis?"
    assert admitted(question, [NEAR, EMBODIMENT], 0.3, unknown_terms=[], model_judges=False) == [EMBODIMENT]
    assert admitted("what is the capital of australia?", [NEAR, EMBODIMENT], 0.3, unknown_terms=[],
                    model_judges=False) == []


def test_with_a_model_borderline_passages_go_to_it():
    far = _chunk("Unrelated.", MODEL_FLOOR - 0.05)
    assert admitted("how fast is it?", [NEAR, far], 0.3, unknown_terms=[], model_judges=True) == [NEAR]
    assert admitted("how fast is it?", [NEAR, far], 0.3, unknown_terms=[], model_judges=False) == []


def test_a_passage_exactly_at_the_threshold_passes():
    """The threshold is the lowest score that answers: equal is enough, with no model to judge it."""
    at = _chunk("Robots sense the world.", 0.3)
    assert admitted("how does a robot see things?", [at], 0.3, unknown_terms=[], model_judges=False) == [at]
    below = _chunk("Robots sense the world.", 0.3 - 1e-9)
    assert admitted("how does a robot see things?", [below], 0.3, unknown_terms=[], model_judges=False) == []


def test_passages_that_name_nothing_the_question_asks_about_do_not_answer_it():
    """Close in meaning is not enough when the passages name none of what is asked ("robots"
    names "robot" by its first five letters), unless one is very close; a model judges itself."""
    intro = _chunk("Physical AI is artificial intelligence that acts in the world through a body.", 0.32)
    assert admitted("what is quantum computing?", [intro], 0.3, unknown_terms=[], model_judges=False) == []
    assert admitted("what is quantum computing?", [intro], 0.3, unknown_terms=[], model_judges=True) == [intro]
    assert admitted("why is my robots' intelligence so laggy?", [intro], 0.3, unknown_terms=[],
                    model_judges=False) == [intro]
    close = _chunk(intro.content, 0.75)
    assert admitted("what is quantum computing?", [close], 0.3, unknown_terms=[], model_judges=False) == [close]
    assert admitted("how does it work?", [intro], 0.3, unknown_terms=[], model_judges=False) == [intro]


def test_leaning_on_a_word_the_book_never_uses_refuses_unless_a_passage_is_clearly_close():
    """The power chapter names "battery" and "long life"; the question is about a phone, which the
    book never mentions. A passage clearly close still answers ("board" for a microcontroller)."""
    table = _chunk("Battery Technologies: LiFePO4 is very safe, long life, heavy.", CLEAR_EVIDENCE - 0.06)
    question = "can you recommend a phone with really long battery life?"
    assert admitted(question, [table], 0.3, unknown_terms=[], model_judges=False) == [table]
    for model_judges in (False, True):
        assert admitted(question, [table], 0.3, unknown_terms=[], model_judges=model_judges,
                        unused_focus=lambda: ("phone",)) == []
    clear = _chunk("Microcontrollers drive motors and read sensors.", CLEAR_EVIDENCE + 0.06)
    assert admitted("what cheap little board should i use to spin motors?", [clear], 0.3, unknown_terms=[],
                    model_judges=False, unused_focus=lambda: ("board",)) == [clear]
    # asked of a highlighted passage with the book beside it, the passage is what it names
    assert admitted(question, [table], 0.3, unknown_terms=[], model_judges=False, unused_focus=lambda: ("phone",),
                    about_a_passage=True) == [table]
    # a question that does not lean on the word it lacks ("something") is judged as before
    assert admitted(question, [table], 0.3, unknown_terms=[], model_judges=False, unused_focus=lambda: ()) == [table]


def test_leaning_on_two_words_the_book_never_uses_refuses_unless_a_passage_is_very_close():
    """"what time does the sun set in winter?" of a Python book: its `time` passages are close
    enough, but two of the words that say what is asked are not the book's."""
    timing = _chunk("The time module measures how long a function takes.", CLEAR_EVIDENCE + 0.1)
    question = "what time does the sun set in winter?"
    assert admitted(question, [timing], 0.3, unknown_terms=[], model_judges=False,
                    unused_focus=lambda: ("sun", "winter")) == []
    assert admitted(question, [timing], 0.3, unknown_terms=[], model_judges=False,
                    unused_focus=lambda: ("winter",)) == [timing]
    sure = _chunk("At winter solstice the sun sets early.", UNKNOWN_TERM_CEILING + 0.01)
    assert admitted(question, [sure], 0.3, unknown_terms=[], model_judges=False,
                    unused_focus=lambda: ("sun", "winter")) == [sure]


def test_another_models_cosines_are_read_on_the_gates_scale():
    from server.embedding.choice import MULTILINGUAL, THRESHOLDS, on_gate_scale

    e5, threshold = on_gate_scale(MULTILINGUAL), THRESHOLDS[MULTILINGUAL]
    # every e5 passage scores about 0.8: over e5's threshold, under the "very sure" of its scale
    close = _chunk("Sourdough-like recipes.", threshold + 0.03)
    assert admitted("sourdough?", [close], threshold, unknown_terms=["sourdough"], model_judges=False) == [close]
    assert admitted("sourdough?", [close], threshold, unknown_terms=["sourdough"], model_judges=False,
                    scale=e5) == []
    sure = _chunk("Exactly this.", 0.95)
    assert admitted("sourdough?", [sure], threshold, unknown_terms=["sourdough"], model_judges=False,
                    scale=e5) == [sure]
    # with a model, passages near e5's threshold go to it, far ones do not
    near, far = _chunk("Near.", threshold - 0.01), _chunk("Far.", threshold - 0.1)
    assert admitted("how fast is it?", [near, far], threshold, unknown_terms=[], model_judges=True,
                    scale=e5) == [near]


def test_a_question_in_another_language_than_its_passage_is_not_held_to_its_words():
    # a multilingual model finds an Urdu question's passage in English: no word of one is in the other
    english = _chunk("A revolute joint rotates around one axis, like a wheel or an elbow.", 0.45)
    assert admitted("پہیے کے لیے کون سا جوائنٹ ٹائپ لگاتے ہیں؟", [english], 0.3, unknown_terms=[],
                    model_judges=False) == [english]
    # in one language, a passage naming nothing asked is still refused
    assert admitted("what is quantum computing?", [english], 0.3, unknown_terms=[], model_judges=False) == []


def test_in_a_language_of_another_script_its_commonest_words_name_nothing_asked():
    """"بریانی بنانے کا آسان طریقہ کیا ہے؟" (an easy way to make biryani) near the Urdu book's
    "best practices": its "بنانے" (make), "آسان" (easy) and "طریقہ" (way) are on any Urdu page; it
    asks about biryani, which no passage names. The book's own questions still pass."""
    practices = _chunk("تصادم آسان: تصادم کے لیے سادہ شکلیں استعمال کریں۔ ماڈل بنانے کا بہترین طریقہ یہ ہے", 0.37)
    assert admitted("بریانی بنانے کا آسان طریقہ کیا ہے؟", [practices], 0.3, unknown_terms=[], model_judges=False) == []
    assert admitted("تصادم کے لیے کون سی شکلیں آسان ہیں؟", [practices], 0.3, unknown_terms=[],
                    model_judges=False) == [practices]
    # a name in Latin letters in an Urdu question is asked about, however short: "ROS"
    ros = _chunk("ROS 2 روبوٹکس کی ترقی کے لیے صنعت کا معیاری مڈل ویئر ہے۔", 0.55)
    assert admitted("ROS 2 کیا ہے؟ آسان الفاظ میں بتائیں", [ros], 0.3, unknown_terms=[], model_judges=False) == [ros]


def test_a_comparison_is_about_the_two_things_it_names_however_short_their_names():
    """"what's the difference between Rc and Arc?" on the Rust book: the passage comparing them
    says neither "difference" nor any word of four letters; it names both."""
    arc = _chunk("Fortunately, Arc<T> is a type like Rc<T> that is safe to use in concurrent situations.", 0.32)
    other = _chunk("Threads run code at the same time, and sharing data between them is hard.", 0.31)
    assert admitted("what's the difference between Rc and Arc?", [arc], 0.3, unknown_terms=[],
                    model_judges=False) == [arc]
    assert admitted("what's the difference between a pancake and a waffle?", [other], 0.3, unknown_terms=[],
                    model_judges=False) == []
    near = replace(arc, score=0.25)  # under the threshold: it names both, so it is the book's answer
    assert admitted("difference between Rc and Arc", [near], 0.3, unknown_terms=[], model_judges=False) == [near]


def test_a_chinese_comparison_is_not_held_to_its_word_for_difference():
    """'"w" 和 "a" 模式有什么区别？' (the difference between "w" and "a" mode?) was refused: the passages
    over the threshold were held to "区别" (difference), which frames it as "difference" does in English;
    the logging page's "filemode='w' … 应该使用 'a'" answers it."""
    logging = _chunk("filemode='w' 指定了文件的模式。如果希望在已存在的日志文件后追加内容，应该使用 'a' 作为 filemode 的值。", 0.5)
    assert admitted('"w" 和 "a" 模式有什么区别？', [logging], 0.3, unknown_terms=[], model_judges=False) == [logging]
    cooking = _chunk("红烧肉要用五花肉，先焯水再慢炖。", 0.5)
    assert admitted("红烧肉和东坡肉有什么区别？", [cooking], 0.3, unknown_terms=[], model_judges=False) == [cooking]
    assert admitted("红烧肉和东坡肉有什么区别？", [logging], 0.3, unknown_terms=[], model_judges=False) == []


def test_below_the_threshold_a_one_word_question_is_answered_by_the_passage_headed_by_its_word():
    """"whats Either used for" on the Haskell book scored 0.25 with its sections "Handling errors
    with Either › …": one word in a passage's text may be chance, in its heading it is the subject."""
    either = replace(_chunk("We can compose functions that may fail and report why.", 0.25),
                     section_hierarchy=["Handling errors and multiple files", "Handling errors with Either"],
                     heading="Summary")
    mentions = _chunk("You may use either of the two approaches, as you like.", 0.25)
    assert admitted("whats Either used for", [mentions, either], 0.3, unknown_terms=[],
                    model_judges=False) == [either]
    assert admitted("whats Either used for", [mentions], 0.3, unknown_terms=[], model_judges=False) == []
    assert admitted("what is a monad?", [either], 0.3, unknown_terms=[], model_judges=False) == []


def test_a_passage_headed_by_the_plural_of_the_asked_word_answers_though_its_cosine_is_low():
    """"when should i use a where clause" on the Rust book: its section "Clearer Trait Bounds with
    where Clauses" scored 0.11 (a paragraph between two listings) and was refused."""
    where = replace(_chunk("Rust has alternate syntax for specifying trait bounds after the signature.", 0.11),
                    section_hierarchy=["Defining Shared Behavior with Traits"],
                    heading="Clearer Trait Bounds with where Clauses")
    noise = _chunk("A search function that ignores case.", 0.29)
    assert admitted("when should i use a where clause", [noise, where], 0.3, unknown_terms=[],
                    model_judges=False) == [where]
    assert admitted("when should i use a santa clause", [noise, where], 0.3, unknown_terms=[],
                    model_judges=False) == []
    faint = replace(where, score=0.05)  # under HEADED_FLOOR, a heading alone is chance
    assert admitted("when should i use a where clause", [noise, faint], 0.3, unknown_terms=[],
                    model_judges=False) == []


def test_a_short_name_written_against_japanese_or_chinese_is_a_term():
    """"varってなんでもう使わない方がいいの？" (why not use var any more?) of the TypeScript book: "var"
    ran on into the Japanese after it as one word, so the question named nothing short."""
    assert short_terms("varってなんでもう使わない方がいいの？") == {"var"}
    assert short_terms("tscのバージョン確認するコマンドなんだっけ？") == {"tsc"} and "ros" in short_terms("ros 2 是什么")
    assert "qu" not in short_terms("¿qué es ROS?")  # an accented Latin word is one word
    # English's function words are names in another language's question: TypeScript's `any`, Python's `for`
    assert short_terms("anyを使えばエラーは消えるけど、それじゃダメなの？") == {"any"}
    assert short_terms("for 循环和 while 有什么区别") == {"for"}
    assert short_terms("can i use any type here?") == set()


def test_a_passage_naming_all_asked_answers_when_those_closer_name_none():
    """"میرا سمولیشن بہت سست چل رہا ہے، کیا کروں؟" (my simulation runs very slow, what do I do?) on
    the Urdu Gazebo page was refused: the passages over the threshold were troubleshooting entries on
    crashing nodes and missing packages, naming neither word, while the page's best practices
    ("complex meshes slow the simulation down", 0.29) name both. Those close in meaning about none
    of it asked do not hide the one saying all of it."""
    question = "میرا سمولیشن بہت سست چل رہا ہے، کیا کروں؟"
    crash = _chunk("❓ نوڈ کریش ہو رہا ہے: اپنے کوڈ میں غلطیاں چیک کریں اور لاگز دیکھیں۔", 0.36)
    package = _chunk("❓ پیکیج نہیں ملا: اپنا ورک اسپیس دوبارہ بنائیں اور سورس کریں۔", 0.31)
    practice = _chunk("ہلکے ماڈلز استعمال کریں: پیچیدہ میشز نقلی رفتار کو سست کر دیتے ہیں۔ اس بات کو یقینی بنائیں "
                      "کہ آپ کا سمولیشن حقیقی وقت میں چل رہا ہے۔", 0.29)
    assert admitted(question, [crash, package, practice], 0.3, unknown_terms=[], model_judges=False) == [practice]
    # naming one of the two is not enough under the threshold; over it, the closer passages still answer
    half = replace(practice, content="پیچیدہ میشز رفتار کو سست کر دیتے ہیں۔", embed_text="پیچیدہ میشز رفتار کو سست کر دیتے ہیں۔")
    assert admitted(question, [crash, package, half], 0.3, unknown_terms=[], model_judges=False) == []
    named = replace(crash, content=crash.content + " سمولیشن", embed_text=crash.embed_text + " سمولیشن")
    assert admitted(question, [named, package, practice], 0.3, unknown_terms=[], model_judges=False) == [named, package]


def test_a_passage_defining_the_term_asked_answers_however_far_its_cosine():
    """"what is restitution" of the robotics book: its definition is one item of a list of twelve
    parameters (0.075), set as the item's subject ("**Restitution**: … Defines how "bouncy" a collision
    is"), and the book was said to mention it without saying what it is."""
    items = _chunk('*   **Friction**: Defined for surfaces to model contact.\n'
                   '*   **Restitution**: (`<surface><bounce>`) Defines how "bouncy" a collision is.', 0.075)
    assert admitted("what is restitution", [items], 0.3, unknown_terms=[], model_judges=False) == [items]
    stressed = _chunk("Use a **restitution** value with care.", 0.075)  # stressed inside a sentence: no definition
    assert admitted("what is restitution", [stressed], 0.3, unknown_terms=[], model_judges=False) == []


def test_an_option_named_in_an_aside_of_its_item_is_defined_there():
    """"what does the --keep-allele-order option do" on the genomics course's page on population
    structure: the page's note lists it, "* The `--keep-allele-order` option, which prevents plink from
    'flipping' the two alleles around." (0.229), and a page on ordering populations (0.358) answered."""
    ordering = _chunk("In R, there is a specific way to do this known as a **factor**: the data is ordered.", 0.358)
    note = _chunk("* the `--ci` option, which makes plink output a standard error and a confidence interval.\n"
                  "* The `--keep-allele-order` option, which prevents plink from 'flipping' the two alleles around.",
                  0.229)
    found = admitted("what does the --keep-allele-order option do", [ordering, note], 0.3, unknown_terms=[],
                     model_judges=False)
    assert note in found, found
    # an option only mentioned in an item is not defined by it
    mentioned = _chunk("* We ran it with the `--keep-allele-order` option, and plink wrote two files.", 0.229)
    assert admitted("what does the --keep-allele-order option do", [ordering, mentioned], 0.3, unknown_terms=[],
                    model_judges=False) == [ordering]
