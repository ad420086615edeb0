"""A question in another language than English, asked of a book written in it: the everyday words
of that language the question uses and the book never does.

An English question is held to English's word frequencies (vocabulary.py, `Reading.unused`): a
book of 12,000 words would use "phone" about twice. The same holds in any language with a word
list: a Chinese book on Python as long as python-codex-i18n would write 天气 (weather) about 13
times and 巴黎 (Paris) 15 times if it wrote them as often as Chinese does, and it writes neither;
"明天巴黎天气怎么样？" leans on both (focus.py weighs that).

- The book is measured in the question's language: its uses of that language's common words
  (`MARKERS` of them, those English does not share) against how often the language uses them
  say how many of its words are in it. An English book that quotes "de" twice is no Spanish
  book, and never writing "qué" says nothing of what it covers.
- Chinese and Japanese are written without spaces: a question's runs are cut into the
  language's words by the longest match in its word list (wordfreq's own list, read without a
  tokenizer), and a word the book never writes is one whose pairs of characters it lacks.
"""
from __future__ import annotations

import functools
import math
import re
from typing import Mapping

from wordfreq import available_languages, get_frequency_dict, top_n_list, zipf_frequency

from server.text.lengths import CJK, CJK_RUNS
from server.text.scripts import languages_writing, script_of, unaccented

MARKERS = 100  # a language's commonest words, whose uses in a book measure how much of it is in that language
UNLISTED = 1e-9  # the frequency of a character on its own that the list lacks
LONGEST_WORD = 4  # characters of a Chinese or Japanese word looked up in its list
LATIN_LANGUAGES = ("es", "fr", "de", "pt")  # written in English's letters, told apart by their common words
EVERYDAY = 1e-4  # a word used once in 10,000 frames a question rather than saying its topic (zipf 5)
# a Chinese word of one character used once in 1,000 (zipf 6) is grammar: 的 7.8, 被 6.4, 对 6.6, 我 7.0;
# 写 5.6, 器 4.7, 型 5.2 are not
PARTICLE = 1e-3
_ASPECT = frozenset("了着过")  # a verb's aspect, said with it as the book says it ("变了" of "改变了")
OWN_ZIPF = 3.0  # a word this common in the language, and ten times more than in English, is that language's
_KANA = re.compile(r"[\u3040-\u30ff]")
_KATAKANA = re.compile(r"([\u30a0-\u30ff]+)")
HIRAGANA_ONLY = re.compile(r"^[\u3040-\u309f]+$")  # particles and endings, not a topic
_SPACED = re.compile(rf"[^\W\d_{CJK}]+")
_LISTED = frozenset(available_languages())


def question_language(question: str) -> tuple[str, ...] | None:
    """The word lists a question not in English is written in: Japanese when it writes kana,
    Chinese for ideographs alone, every listed language of another script (Urdu's letters are
    Arabic's and Persian's too), or the Latin-script language most of its words belong to."""
    if CJK_RUNS.search(question):
        return ("ja",) if _KANA.search(question) else ("zh",)
    for letter in question:
        if letter.isalpha() and not letter.isascii() and script_of(letter) not in ("LATIN", "CJK"):
            return tuple(language for language in languages_writing(script_of(letter)) if language in _LISTED) or None
    own = {language: sum(_distinctive(word, language) for word in _SPACED.findall(question.lower()))
           for language in LATIN_LANGUAGES}
    best = max(own, key=own.get)
    return (best,) if own[best] else None


def question_words(question: str, languages: tuple[str, ...]) -> list[str]:
    """The question's words in its language, as typed (lower-cased): of Chinese and Japanese,
    the words of two characters or more that are not only kana grammar."""
    if languages[0] in ("ja", "zh"):
        return [w for run in CJK_RUNS.findall(question) for w in segmented(run, languages[0])
                if len(w) >= 2 and not HIRAGANA_ONLY.match(w)]
    return [w for w in _SPACED.findall(question.lower()) if len(w) >= 3 and not w.isascii() or len(w) >= 4]


def topic_words(question: str) -> frozenset[str] | None:
    """What a Chinese or Japanese question asks about: its words less the language's commonest,
    which frame it (怎么, 什么, 明天); None for a question in no such language."""
    if not CJK_RUNS.search(question):
        return None
    languages = question_language(question)
    return frozenset(w for w in question_words(question, languages) if not frames(w, languages))


def frames(word: str, languages: tuple[str, ...]) -> bool:
    """A word the language uses so often that it frames a question (怎么, 什么, の) rather than says its topic."""
    return bool(HIRAGANA_ONLY.match(word)) or frequency(word, languages) >= EVERYDAY


def segmented(run: str, language: str) -> list[str]:
    """A run of Chinese or Japanese characters cut into the language's words: a run of katakana is
    one word (a loanword: アサーション); the rest into the listed words that together are likeliest
    (生成器函数里: 生成器 函数 里, not 数里, "several miles")."""
    found = []
    for part in _KATAKANA.split(run):
        if _KATAKANA.fullmatch(part):
            found.append(part)
        elif part:
            found.extend(_likeliest(part, get_frequency_dict(language)))
    return found


def across_particles(text: str) -> set[str]:
    """The pairs of Chinese characters in `text` that hold a word of grammar standing on its own, not a
    word: "被装饰的函数" (the decorated function) cut is 被 装饰 的 函数, and 被装, 饰的, 的函 say nothing
    asked; 对象 (object), one word, holds its 对. (Japanese keeps them: measured on survival-ts, "のバグ"
    found "JavaScriptのバグ" where the question's "バグ" alone found another section's.)"""
    found = set()
    for run in CJK_RUNS.findall(text):
        if _KANA.search(run):
            continue  # Japanese: a particle's pair says the phrase as the book does (のバグ, "JavaScriptのバグ")
        start, grammar = 0, set()
        for word in segmented(run, "zh"):
            if len(word) == 1 and word not in _ASPECT and frequency(word, ("zh",)) >= PARTICLE:
                grammar.add(start)
            start += len(word)
        found.update(run[i:i + 2] for i in range(len(run) - 1) if {i, i + 1} & grammar)
    return found


def _likeliest(text: str, listed: dict) -> list[str]:
    # best[i]: the likeliest cut of text[:i] (the sum of its words' log frequencies) and its last word's start
    best = [(0.0, 0)] + [(-math.inf, 0)] * len(text)
    for end in range(1, len(text) + 1):
        for start in range(max(0, end - LONGEST_WORD), end):
            word = text[start:end]
            if word in listed or end - start == 1:
                score = best[start][0] + math.log(listed.get(word) or UNLISTED)
                if score > best[end][0]:
                    best[end] = (score, start)
    words, end = [], len(text)
    while end:
        start = best[end][1]
        words.append(text[start:end])
        end = start
    return words[::-1]


def frequency(word: str, languages: tuple[str, ...]) -> float:
    """How often the languages use the word (a share of their words), from their lists as stored:
    wordfreq would cut the word first with a tokenizer that Chinese, Japanese and Korean need and
    this install leaves out."""
    return max(get_frequency_dict(language).get(word, 0.0) for language in languages)


def length_in(languages: tuple[str, ...], uses: Mapping[str, int]) -> float:
    """About how many of a book's words are in the languages: its `uses` (word counts) of their common words
    (pairs of characters in Chinese and Japanese, as the book's words count them) over how often
    the languages use those words."""
    found = 0.0
    for language in languages:
        markers = _markers(language)
        share = sum(f for _, f in markers)
        if share:
            found = max(found, sum(uses.get(w, 0) for w, _ in markers) / share)
    return found


@functools.lru_cache(maxsize=16)
def _markers(language: str) -> tuple[tuple[str, float], ...]:
    spaced = language not in ("ja", "zh")
    words = [w for w in top_n_list(language, MARKERS)
             if (len(w) >= 2 if spaced else len(w) == 2) and (not spaced or not w.isascii() or _distinctive(w, language))]
    return tuple((unaccented(w) if spaced else w, frequency(w, (language,))) for w in words)


@functools.lru_cache(maxsize=4096)
def _distinctive(word: str, language: str) -> bool:
    own = zipf_frequency(word, language)
    return own >= OWN_ZIPF and own > zipf_frequency(word, "en") + 1
