"""Highlight-to-ask without a language model: what the passage itself can honestly give for a
request about it, and whether it covers a question at all.

- explain, summarize, simplify: the passage's key sentences (those sharing most words with the
  rest of it), in reading order, and a plain note that a model would say it in other words;
- example: the passage's own examples ("for example", "such as", "e.g."), or, in combined mode,
  the book's; else its key sentences and a note that it gives none;
- define, translate jargon: the passage's sentences that say what its terms are, and in combined
  mode the book's definitions of them;
- in combined mode, a passage of a sentence or two is followed by the book's next sentences
  (goes_on.py): quoted back alone, it would explain nothing.

A question the passage does not cover is declined: it is "covered" when the passage is about as
close to the question as the best passage anywhere else in the book (a selection about ROS 2 in
general does not answer "which ROS 2 version should I install?" when the book's installation
page is closer). "About as close" is measured against how far apart the two passages are: two
passages on the same topic (the highlighted introduction to ROS 2 and the paragraph naming its
versions, cosine 0.8) differ in a question's score by a little when it asks what only one of
them says, two passages on different topics differ by a lot for no reason of the question's.
The figures are calibrated on the selection sets of three development books, read from their
sources and their builds (BENCHMARKS.md, "Highlight questions").
"""
from __future__ import annotations

import re
from typing import Callable

from server.book.chunk import Chunk
from server.question.context import Source
from server.question.part_numbers import PartNumbers
from server.question.judge.goes_on import goes_on, its_list
from server.question.understand.intent import Intent
from server.question.understand.term import highlighted_term
from server.question.markers import cite_end
from server.text.sentences import joined, split_sentences
from server.text.lengths import spaced_length
from server.text.scripts import language_of, unaccented

# a question the passage is less similar to than this is not about it at all
PASSAGE_FLOOR = 0.15
# the passage covers a question unless a passage elsewhere in the book is closer by more than
# this share of the distance (1 - cosine) between the two passages
ELSEWHERE_MARGIN = 0.05

# what a note says without a model, in the reader's language (the pool's; English for any other)
MODEL_NOTE = {
    "en": "*These are the passage's own key sentences: no language model is configured here, so I can't put it in "
          "other words.*",
    "es": "*Estas son las frases clave del propio pasaje: aquí no hay un modelo de lenguaje configurado, así que no "
          "puedo decirlo con otras palabras.*",
    "ja": "*選択した箇所の要となる文です。ここでは言語モデルが設定されていないため、別の言葉で言い換えることはできません。*",
    "zh": "*以下是所选段落本身的关键句：此处未配置语言模型，因此无法换一种说法。*",
    "ur": "*یہ منتخب حصے کے اپنے اہم جملے ہیں: یہاں کوئی لینگویج ماڈل ترتیب نہیں دیا گیا، اس لیے میں اسے دوسرے الفاظ میں نہیں "
          "کہہ سکتا۔*"}
NO_EXAMPLE_NOTE = {
    "en": "*The passage gives no example of its own, and no language model is configured here to make one up from "
          "it; these are its key sentences.*",
    "es": "*El pasaje no da ningún ejemplo propio, y aquí no hay un modelo de lenguaje configurado para inventar uno "
          "a partir de él; estas son sus frases clave.*",
    "ja": "*選択した箇所には例がなく、ここでは言語モデルが設定されていないため例を作ることもできません。要となる文を示します。*",
    "zh": "*所选段落本身没有例子，此处也未配置语言模型来据此编一个；以下是它的关键句。*",
    "ur": "*منتخب حصے میں اپنی کوئی مثال نہیں، اور یہاں کوئی لینگویج ماڈل ترتیب نہیں دیا گیا جو اس سے مثال بنا سکے؛ یہ اس کے اہم "
          "جملے ہیں۔*"}
GOES_ON_NOTE = {
    "en": "*The passage, then what the book says right after it: no language model is configured here, so I can't "
          "put it in other words.*",
    "es": "*El pasaje y lo que el libro dice justo después: aquí no hay un modelo de lenguaje configurado, así que no "
          "puedo decirlo con otras palabras.*",
    "ja": "*選択した箇所と、本書でその直後に続く文です。ここでは言語モデルが設定されていないため、別の言葉で言い換えることはできません。*",
    "zh": "*所选段落及书中紧随其后的句子：此处未配置语言模型，因此无法换一种说法。*",
    "ur": "*منتخب حصہ، اور اس کے فوراً بعد کتاب جو کہتی ہے: یہاں کوئی لینگویج ماڈل ترتیب نہیں دیا گیا، اس لیے میں اسے دوسرے "
          "الفاظ میں نہیں کہہ سکتا۔*"}
IN_LIST_NOTE = {
    "en": "*The highlighted line in the list it belongs to, as the book gives it: no language model is configured "
          "here, so I can't put it in other words.*",
    "es": "*La línea resaltada en la lista a la que pertenece, tal como la da el libro: aquí no hay un modelo de "
          "lenguaje configurado, así que no puedo decirlo con otras palabras.*",
    "ja": "*選択した行を、本書にあるとおりのリストの中で示します。ここでは言語モデルが設定されていないため、別の言葉で言い換えることはできません。*",
    "zh": "*所选的这一行及其所在的列表，按书中原样列出：此处未配置语言模型，因此无法换一种说法。*",
    "ur": "*منتخب سطر اس فہرست میں جس کا یہ حصہ ہے، جیسے کتاب میں دی گئی ہے: یہاں کوئی لینگویج ماڈل ترتیب نہیں دیا گیا، "
          "اس لیے میں اسے دوسرے الفاظ میں نہیں کہہ سکتا۔*"}
# a highlighted term asked about from itself alone: it has no sentence to quote; the book has (term.py)
TERM_NOTE = {
    "en": "*The selection is a term, and says nothing of it but its name: ask with “This passage and the book” "
          "for what the book says of it.*",
    "es": "*La selección es un término y no dice de él más que su nombre: pregunta con “Este pasaje y el libro” "
          "para ver lo que el libro dice de él.*",
    "ja": "*選択したのは用語で、その名前しか書かれていません。本書での説明は「この箇所と本書」で質問してください。*",
    "zh": "*所选的是一个术语，除了名称之外没有别的内容：请用“这段内容和全书”提问，看看书中对它的说明。*",
    "ur": "*منتخب حصہ ایک اصطلاح ہے جس میں اس کے نام کے سوا کچھ نہیں: کتاب اس کے بارے میں کیا کہتی ہے، یہ جاننے کے لیے "
          "“یہ اقتباس اور کتاب” کے ساتھ پوچھیں۔*"}
_EXAMPLE = re.compile(r"\b(?:for example|for instance|e\.g\.|such as|imagine|consider|like a|say you|por ejemplo|"
                      r"imagina|supongamos|considera)\b|例えば|たとえば|例如|比如|譬如|مثال کے طور پر", re.I)


def _note(notes: dict[str, str], language: str | None) -> str:
    return notes.get(language_of(language), notes["en"])


_DEFINITION = re.compile(r"\b(?:is|are|means|refers to|stands for|describes|is called|are called)\b", re.I)
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset("""a an the is are was were be been being to of in on for and or but if so do does did it its this
that these those with as by at from into than then there their they them we our you your he she his her not no can
could should would will may might must also such which what who how why when where all any each more most other
some very just only own same too""".split())
SENTENCES_BY_LENGTH = {"short": 1, "normal": 3, "detailed": 5}


def _content(text: str) -> set[str]:
    return {w for w in _WORD.findall(unaccented(text.lower())) if w not in _STOP and len(w) > 2}


def covers(passage_best: float, elsewhere_best: float, kinship: float = 0.0) -> bool:
    """Does the highlighted passage answer the question? Scores are cosine to the question;
    `kinship` is the cosine between the passage and the best passage elsewhere."""
    return passage_best >= PASSAGE_FLOOR and passage_best >= elsewhere_best - ELSEWHERE_MARGIN * (1.0 - kinship)


def key_sentences(sentences: list[str], limit: int) -> list[int]:
    """Indexes, in reading order, of the sentences that share most words with the rest of the
    passage; the first sentence (usually its topic) wins ties."""
    words = [_content(s) for s in sentences]
    scores = []
    for i, own in enumerate(words):
        others = set().union(*(w for j, w in enumerate(words) if j != i)) if len(words) > 1 else set()
        scores.append((len(own & others) / (len(own) ** 0.5 or 1.0), -i))
    ranked = sorted(range(len(sentences)), key=lambda i: scores[i], reverse=True)
    return sorted(ranked[:limit])


def _numbered_sentences(sources: list[Source]) -> list[tuple[int, str]]:
    """(source number, sentence) for every sentence of the highlighted pieces, in reading order."""
    found = []
    for number, source in enumerate(sources, 1):
        if source.source_type == "selected_text":
            found.extend((number, s) for s in split_sentences(source.chunk.content))
    return found


def _quote(chosen: list[tuple[int, str]]) -> str:
    """The sentences, each source cited after its last in a row; a list or table quoted whole (what
    a lead-in introduces) on lines of its own."""
    runs: list[list[str]] = [[]]
    for k, (number, sentence) in enumerate(chosen):
        last_of_run = k + 1 == len(chosen) or chosen[k + 1][0] != number
        block = "\n" in sentence.strip()
        if block and runs[-1]:
            runs.append([])
        runs[-1].append(cite_end(sentence, number) if last_of_run else sentence)
        if block:
            runs.append([])
    return "\n\n".join(joined(run) for run in runs if run)  # no space after a Chinese or Japanese full stop


def _book_sentences(sources: list[Source], pattern: re.Pattern, terms: set[str]) -> list[tuple[int, str]]:
    """Sentences of the book's passages (combined mode) matching `pattern` and naming one of `terms`."""
    found = []
    for number, source in enumerate(sources, 1):
        if source.source_type != "database":
            continue
        for sentence in split_sentences(source.chunk.content):
            if pattern.search(sentence) and _content(sentence) & terms and 5 <= spaced_length(sentence) <= 60:
                found.append((number, sentence))
                break
    return found


def passage_answer(intent: Intent, question: str, sources: list[Source], answer_length: str = "normal",
                   language: str | None = None) -> tuple[str, list[Chunk]]:
    """The extractive answer to a request about the highlighted passage (never empty when the
    passage has a sentence), its note in the reader's `language`; and the parts of the book's
    chunks it cites that are no source of their own (a sentence of a chunk's later section is
    cited under that section's heading, numbered after the sources)."""
    numbers = PartNumbers(sources)

    def quote(chosen: list[tuple[int, str]]) -> str:
        return _quote([(numbers.number(sources[n - 1].chunk, sentence) if sources[n - 1].source_type == "database"
                        else n, sentence) for n, sentence in chosen])

    return _answer(intent, question, sources, answer_length, language, quote), numbers.extra


def _answer(intent: Intent, question: str, sources: list[Source], answer_length: str, language: str | None,
            quote: Callable[[list[tuple[int, str]]], str]) -> str:
    sentences = _numbered_sentences(sources)
    if not sentences:
        return ""
    if len(sentences) == 1 and highlighted_term(sentences[0][1]):
        return f"{quote(sentences)}\n\n{_note(TERM_NOTE, language)}"
    limit = SENTENCES_BY_LENGTH.get(answer_length, 3)
    key = [sentences[i] for i in key_sentences([s for _, s in sentences], limit)]
    passage_terms = set().union(*(_content(s) for _, s in sentences))
    if intent is Intent.EXAMPLE:
        own = [s for s in sentences if _EXAMPLE.search(s[1])]
        book = _book_sentences(sources, _EXAMPLE, passage_terms)
        if own or book:
            return quote((own + book)[: limit + 1])
        return f"{quote(key)}\n\n{_note(NO_EXAMPLE_NOTE, language)}"
    # a sentence or two highlighted: the book's next sentences say what it means
    onward = goes_on(sources, [s for _, s in sentences], limit + 1 - len(sentences)) \
        if intent is not Intent.SUMMARIZE else []
    asked = _content(question) & passage_terms
    listed = its_list(sources, sentences[0][1]) if len(sentences) == 1 and not onward and not asked and intent in (
        Intent.EXPLAIN, Intent.SIMPLIFY, Intent.DEFINE, Intent.JARGON) else None
    if listed is not None:  # a line of a list highlighted: the list it stands in says what it is about
        return f"{quote([listed])}\n\n{_note(IN_LIST_NOTE, language)}"
    if intent in (Intent.DEFINE, Intent.JARGON):
        terms = asked or passage_terms
        own = [s for s in sentences if _DEFINITION.search(s[1]) and _content(s[1]) & terms]
        if onward and not asked:  # "what does this mean?" of a sentence: what the book goes on to say
            return f"{quote(key + onward)}\n\n{_note(GOES_ON_NOTE, language)}"
        book = _book_sentences(sources, _DEFINITION, terms)
        chosen = (own[:limit] + book[:limit]) or key
        return f"{quote(chosen)}\n\n{_note(MODEL_NOTE, language)}"
    if onward:
        return f"{quote(key + onward)}\n\n{_note(GOES_ON_NOTE, language)}"
    # explain, simplify, summarize; in combined mode the book's own definitions of the key terms follow
    key_terms = {w for w in set().union(*(_content(s) for _, s in key))
                 if sum(w in _content(s) for _, s in sentences) > 1} if intent is not Intent.SUMMARIZE else set()
    book = _book_sentences(sources, _DEFINITION, key_terms)[:2] if key_terms else []
    return f"{quote(key + book)}\n\n{_note(MODEL_NOTE, language)}"
