"""What a question asks about: its content words, in any language, and the short terms it names
("Box", "PCA"), as opposed to the words that frame it ("what", "how do i", "とは", "什么")."""
from __future__ import annotations

import functools
import re

from wordfreq import available_languages, zipf_frequency

from server.text.own_language import HIRAGANA_ONLY, across_particles  # Japanese grammar (particles, endings), not a topic
from server.text.scripts import languages_writing, read_form, script_of, unvowelled
from server.text.vocabulary import in_english, unspaced, words

_STOP = frozenset("""about after also and any are because been before being between both but can could did does doing
down each few for from further had has have having here how into its just more most much not now off once only other
our out over own same should some such than that the their them then there these they this those through too under
until very was were what when where which while who whom why will with would you your actually really get make
mean means thing things work works way ways use used using tell know want need instead rather
explain explaining explanation describe elaborate clarify
como cómo para cual cuál cuales cuáles donde dónde cuando cuándo esta este estos estas esto sobre entre tiene
tienen puede pueden hace hacer porque pero también más menos todo todos toda todas otro otra otros otras cada
desde hasta según aunque están
whats thats hows whos wheres dont doesnt didnt isnt arent wasnt cant wont shouldnt couldnt wouldnt youre theyre""".split())
# a request's frame ("give me an example of …", "show us how …"): what it asks about follows it
_REQUEST = re.compile(r"\b(?:give|show|walk|teach|help)\s+(?=(?:me|us)\b)", re.IGNORECASE)
# a comparison's frame ("what's the difference between Rc and Arc?"): what it asks about is the two names
COMPARING = frozenset("""difference differences different differ compare compared comparison versus similar
区别 區別 差别 差別 差异 差異 不同 比较 比較 違い""".split())
# what a question weighs its topic by ("what are the benefits of …", "有什么好处", "メリットは"): asked, but
# no topic of its own; another section that says only this says nothing of what is asked
WEIGHING = frozenset("""benefit benefits advantage advantages disadvantage disadvantages drawback drawbacks downside
downsides upside upsides pros cons purpose point reason reasons important importance useful usefulness
好处 好處 优点 優點 缺点 缺點 优势 優勢 劣势 作用 用途 用处 目的 意义 意義 重要 有用 メリット デメリット 利点 欠点 役割
ventaja ventajas desventaja desventajas beneficio beneficios propósito proposito importante importancia útil""".split())
# "use", "get", "run", "set": a short word this common is an everyday word more often than a term
# (BENCHMARKS.md: the pool's coverage 0.537 at 5.0, 0.535 at 5.7)
COMMON_SHORT_ZIPF = 5.0
EVERYDAY_ZIPF = 5.0  # once in 100,000 words: "بنانے" (make) 5.6, "طریقہ" (way) 5.1, "بریانی" (biryani) 3.7
_WORD_LISTS = frozenset(available_languages())
_LATIN_LANGUAGES = ("en", "es", "fr", "de", "pt", "it")
# a question's words, a run of Latin letters apart from a run of another script ("ROSとは", "tscの")
_RUNS = re.compile(r"[A-Za-z\u00c0-\u024f]+|[^\W\d_A-Za-z\u00c0-\u024f]+")
_CHAT = frozenset("vs etc via ok pls plz btw idk im".split())  # chat's short words, rare in print
# pairs of characters that frame a Chinese or Japanese question rather than say its topic
_CJK_STOP = frozenset("""什么 怎么 如何 为什 么是 哪些 哪个 是什 可以 我们 你们 一个 这个 那个 的是 没有 需要 应该
能够 什麼 怎麼 為什 如何 吗？ 说明 介绍 解释 とは 何で 何か 方法 教え 和 与 或 的 了 在 是 吗 呢 吧""".split())
# the phrases that frame a Chinese question ("有什么区别", "是什么", "为什么"): left out before its
# characters are paired, so that no pair runs across a frame's edge ("模式有什么区别": "式有", "么区")
_CJK_FRAME = re.compile(r"有什么|有什麼|有哪些|是什么|是什麼|什么是|什麼是|为什么|為什麼|怎么样|怎麼樣|怎么办|怎麼辦|"
                        r"怎么|怎麼|如何|哪些|哪个|哪個|什么|什麼|能不能|是不是|有没有|有沒有|一下|"
                        r"(?:吗|嗎|呢|吧)(?=\s*(?:[？?！!。]|$))")


def weighing_words(question: str) -> set[str]:
    """The question's words (as `words` reads them: "メリット" in its pairs of characters) that only
    weigh what it asks about (WEIGHING)."""
    said = set(words(question))
    return {w for term in WEIGHING if (term in question if unspaced(term[0]) else term in said)
            for w in words(term)}


def asked_words(question: str) -> set[str]:
    """The words that say what a question is about: longer than three letters, not function words
    (in Urdu letters, which leave short vowels out, three letters but not the language's commonest
    words: "نوڈ" (node), not "کیا" (what)); in Chinese and Japanese, pairs of characters that are
    not only kana or a question's frame."""
    framed = _CJK_FRAME.sub(" ", _REQUEST.sub(" ", question))
    grammar = across_particles(read_form(framed))
    return {w for w in words(framed)
            if (not (HIRAGANA_ONLY.match(w) or w in _CJK_STOP or w in grammar) if unspaced(w) else
                (len(w) > 3 or len(w) == 3 and unvowelled(w) and not everyday_in_its_script(w)) and w not in _STOP)}


def uncommon_asked_words(question: str) -> set[str]:
    """The asked words less the commonest words of a language written in a script other than Latin
    (Urdu, Russian, Hindi), which a book in that language uses on every page: "بریانی بنانے کا آسان
    طریقہ" asks about "بریانی" (biryani); "بنانے" (to make), "آسان" (easy) and "طریقہ" (way) would
    match any Urdu page. (A composer still reads them: "کس چیز کے ذریعے" (through what) asks for the
    sentence that says "… کے ذریعے".)"""
    return {w for w in asked_words(question) if unspaced(w) or not everyday_in_its_script(w)}


@functools.lru_cache(maxsize=4096)
def everyday_in_its_script(word: str) -> bool:
    return any(_zipf(word, language) >= EVERYDAY_ZIPF for language in languages_writing(script_of(word[0]))
               if language in _WORD_LISTS)


@functools.lru_cache(maxsize=4096)
def commonness(word: str) -> float:
    """The word's highest frequency (zipf) in the languages written in its script (Latin letters: the
    pool's and Europe's largest)."""
    script = script_of(word[0]) if word else ""
    languages = _LATIN_LANGUAGES if script == "LATIN" else languages_writing(script)
    return max((_zipf(word, language) for language in languages if language in _WORD_LISTS), default=0.0)


def _zipf(word: str, language: str) -> float:
    """The word's frequency in the language's list; 0 where the list cannot be read without a tokenizer
    this install lacks (Korean wants MeCab: "ᆴwip" failed the answer)."""
    try:
        return zipf_frequency(word, language)
    except (ImportError, KeyError):
        return 0.0


@functools.lru_cache(maxsize=1024)  # the gate, the follow-up check and the composer each ask it of one question
def short_terms(question: str) -> frozenset[str]:
    """The question's words of two or three letters that name something ("Box", "PCA", "str", "ld"):
    in an English question, any but English's commonest words ("use", "how", "the"); in any
    language, one written with a capital past the question's first word; in a question written in
    another script than Latin (Urdu, Japanese), any in Latin letters."""
    english = in_english(question)
    # in a question written in another script, a word in Latin letters is a name ("ROS 2 کیا ہے؟")
    latin_names = any(ch.isalpha() and not ch.isascii() and script_of(ch) != "LATIN" for ch in question)
    found = set()
    for number, match in enumerate(re.finditer(_RUNS, question)):
        word = match[0].lower()
        named = (number > 0 and match[0][0].isupper()) or (latin_names and word.isascii())  # Urdu has no capitals
        # English's function words are none in another language's question: "anyを使えば…" names TypeScript's `any`
        if not 2 <= len(word) <= 3 or word in _STOP and not (latin_names and word.isascii()) or unspaced(word):
            continue
        if named or (english and word.isascii() and zipf_frequency(word, "en") < COMMON_SHORT_ZIPF
                     and word not in _CHAT):
            found.add(word)
    return frozenset(found)
