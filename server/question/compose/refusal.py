"""Polite refusals that point the reader somewhere useful, in the language of the reader's page
(English, Spanish, Japanese, Chinese or Urdu, the pool's languages; English for any other)."""
from __future__ import annotations

import re
from typing import NamedTuple

from server.book.chunk import Chunk
from server.text.scripts import language_of


class Words(NamedTuple):
    """A refusal's sentences in one language."""

    named: str  # the book, by its title
    unnamed: str  # the book, untitled
    never: str  # the book, the terms it never mentions
    missing: str  # nothing in the book answers
    closest: str  # its nearest sections
    rephrase: str  # what to try
    passage: str  # a highlighted passage does not cover the question
    elsewhere: str  # the rest of the book may
    nowhere: str  # nor does the rest of the book
    this_question: str  # the question, unquoted
    unexplained: str  # the book names the term asked about, never saying what it is


WORDS = {
    "en": Words("the book *{0}*", "the book", "{0} never mentions {1}, so I can't answer this from it.",
                "I couldn't find this in {0}, so I won't guess.", " The closest sections are: {0}.",
                " Try rephrasing, or ask about something the book covers.",
                "The highlighted passage doesn't cover {0}.",
                " The rest of the book may: search the whole book instead.",
                " Nothing else in the book seems to either.", "this question",
                "{0} mentions {1} but doesn't say what it is; it comes up in: {2}."),
    "es": Words("el libro *{0}*", "el libro", "{0} no menciona {1}, así que no puedo responder a partir de él.",
                "No encontré esto en {0}, así que no voy a adivinar.", " Las secciones más cercanas son: {0}.",
                " Prueba a reformular la pregunta o pregunta por algo que trate el libro.",
                "El pasaje resaltado no trata {0}.", " Puede que el resto del libro sí: busca en todo el libro.",
                " Nada más en el libro parece tratarlo tampoco.", "esta pregunta",
                "{0} menciona {1}, pero no dice qué es; aparece en: {2}."),
    "ja": Words("本書 *{0}*", "本書", "{0}には{1}が出てこないため、本書からはお答えできません。",
                "{0}にはこの内容が見つからないため、推測ではお答えしません。", " 近い節: {0}。",
                " 言い換えるか、本書が扱う内容について質問してください。",
                "選択した箇所は{0}を扱っていません。", " 本書の他の箇所にあるかもしれません。本書全体から探してください。",
                " 本書の他の箇所にも見当たりません。", "この質問",
                "{0}には{1}が出てきますが、それが何かは説明されていません。出てくる箇所: {2}。"),
    "zh": Words("本书 *{0}*", "本书", "{0}没有提到{1}，所以无法根据本书回答。",
                "我在{0}中没有找到相关内容，所以不作猜测。", " 最接近的章节：{0}。", " 请换个说法，或询问本书涵盖的内容。",
                "所选段落没有涉及{0}。", " 书中其他部分可能涉及：请在全书中搜索。", " 书中其他部分似乎也没有涉及。", "这个问题",
                "{0}提到了{1}，但没有说明它是什么；它出现在：{2}。"),
    "ur": Words("کتاب *{0}*", "کتاب", "{0} میں {1} کا ذکر نہیں، اس لیے میں اس سے جواب نہیں دے سکتا۔",
                "مجھے یہ {0} میں نہیں ملا، اس لیے میں اندازہ نہیں لگاؤں گا۔", " قریب ترین حصے: {0}۔",
                " سوال کو دوسرے الفاظ میں پوچھیں، یا کتاب کے کسی موضوع کے بارے میں پوچھیں۔",
                "منتخب حصہ {0} کا احاطہ نہیں کرتا۔", " کتاب کے باقی حصے شاید کرتے ہوں: پوری کتاب میں تلاش کریں۔",
                " کتاب میں کہیں اور بھی اس کا ذکر نظر نہیں آتا۔", "یہ سوال",
                "{0} میں {1} کا ذکر ہے مگر یہ نہیں بتایا گیا کہ یہ کیا ہے؛ یہ یہاں آتا ہے: {2}۔"),
}


def _words(language: str | None) -> Words:
    return WORDS.get(language_of(language), WORDS["en"])


def book_refusal(book_title: str, nearest: list[Chunk], unknown_terms: list[str] | None = None,
                 language: str | None = None, term: str | None = None) -> str:
    """The book cannot answer: what it never mentions (or that nothing in it answers), its
    nearest sections as links, and what to try; a `term` asked about ("whats backdrivability")
    that the nearest sections name without saying what it is, with where it comes up.
    `language`: the reader's page's (a locale)."""
    words = _words(language)
    where = words.named.format(book_title) if book_title else words.unnamed
    opening = where[:1].upper() + where[1:]  # the book, opening a sentence
    naming = mentions(nearest, term) if term and not unknown_terms else []
    if naming:
        return words.unexplained.format(opening, f"“{term}”", _links(naming))
    if unknown_terms:
        text = words.never.format(opening, ", ".join(f"“{t}”" for t in unknown_terms[:3]))
    else:
        text = words.missing.format(where)
    if nearest:
        text += words.closest.format(_links(nearest))
    return text + words.rephrase


def mentions(chunks: list[Chunk], term: str) -> list[Chunk]:
    """The sections of the chunks (a chunk's merged small sections each) that name the term."""
    said = re.compile(rf"(?<!\w){re.escape(term)}(?!\w)", re.IGNORECASE)
    found = {part.url or part.source_location: part for chunk in chunks for part in chunk.sections()
             if said.search(part.content)}
    return list(found.values())[:3]


def _links(chunks: list[Chunk]) -> str:
    return "; ".join(f"[{c.source_location}]({c.url})" if c.url.startswith("http") else c.source_location
                     for c in chunks)


def selection_refusal(question: str = "", book_may_answer: bool = True, language: str | None = None) -> str:
    words = _words(language)
    asked = " ".join(question.split())
    asked = f"“{asked[:140]}{'…' if len(asked) > 140 else ''}”" if asked else words.this_question
    return words.passage.format(asked) + (words.elsewhere if book_may_answer else words.nowhere)
