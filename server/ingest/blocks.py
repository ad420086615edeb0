"""The blocks of a page that say what it teaches and asks: objectives, prerequisites, key terms,
summary, exercises and quiz questions, found by the headings textbooks give them.

These heading words are the genre's own ("Learning Objectives", "Prerequisites", "Key
Takeaways", "Exercises", "Quiz", "Review Questions", and a quiz's or exercises' names in the
pool's other languages: "Ejercicios", "练习", "練習問題"); the book is never consulted for them.
"""
from __future__ import annotations

import re

from server.text.sentences import strip_markdown
from server.text.lengths import spaced_length

# checked in this order: "Practice Questions" is a quiz, not an exercise. Each kind's words as a
# heading's own words; then those found anywhere in a heading, in Chinese and Japanese whose words
# run unspaced ("本章で学べること"; a quiz or exercise word stays a word of its own: "クイズアプリ"
# is an app to build)
_KINDS = (
    ("quiz", r"quiz(zes)?|self[- ]?checks?|check your understanding|test yourself|review questions|"
             r"practice questions|questions|cuestionario|preguntas( de repaso)?|autoevaluaci[oó]n|测验|小测|"
             r"クイズ|確認問題", ""),
    ("objectives", r"(learning )?objectives?|learning goals?|goals|outcomes|what you('|’)?ll (learn|build)|"
                   r"what you will (learn|build)|you will learn|by the end|objetivos?( de aprendizaje)?|"
                   r"(lo )?que (vas a )?aprender[aá]s",
     r"学べること|学ぶこと|学習目標|学习目标|本章目标|你将学到|学到什么"),
    ("prerequisites", r"prerequisites?|requirements|before you (begin|start)|what you need|you should know|"
                      r"requisitos( previos)?|conocimientos previos",
     r"前提知識|前提条件|必要なもの|预备知识|前置知识|先决条件"),
    ("key_terms", r"key terms|glossary|vocabulary|terminology|key concepts|glosario|t[eé]rminos clave",
     r"用語集|术语"),
    ("summary", r"summary|key takeaways?|takeaways|conclusions?|recap|wrap[- ]?up|in short|resumen|conclusi[oó]n",
     r"まとめ|总结|小结"),
    # "… in Practice" is a topic applied, not practice for the reader
    ("exercises", r"exercises?|(?<!in )practice|try it( yourself)?|assignments|hands[- ]on|ejercicios?|"
                  r"练习|习题|練習問題|練習|演習", ""),
)
_PATTERNS = [(kind, re.compile(rf"(^|\W)({words})(\W|$)" + (f"|{unspaced}" if unspaced else ""), re.IGNORECASE))
             for kind, words, unspaced in _KINDS]
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$")


def block_kind(heading: str) -> str | None:
    """The kind of block a heading opens, if any."""
    text = strip_markdown(heading)
    return next((kind for kind, pattern in _PATTERNS if pattern.search(text)), None)


def plain(text: str) -> str:
    text = strip_markdown(re.sub(r"^\s*>\s?", "", text, flags=re.MULTILINE)).replace("`", "")
    text = re.sub(r"(?<!\w)[*_]{1,2}(?=\S)|(?<=\S)[*_]{1,2}(?!\w)", "", text)
    return " ".join(text.split())


def list_items(texts: list[str]) -> list[str]:
    """The top-level list items of some markdown blocks, as plain text."""
    items = []
    for text in texts:
        for line in text.split("\n"):
            match = _ITEM.match(line)
            if match and not line.startswith(("  ", "\t")) and plain(match.group(1)):
                items.append(plain(match.group(1)))
    return items


_LABELLED = re.compile(r"^([^:?]{1,40}):\s+(.+)$")


def is_prompt(item: str) -> bool:
    """Something a reader can be asked: a question, or a task ("Implement forward kinematics for
    a 2-link arm", "Task 1: Add a node that…"); not a label and its value ("Robot mass: 60 kg",
    "services_default_qos: Reliable communication for services"), which a list of facts holds."""
    item = item.strip()
    if item.endswith("?"):
        return True
    labelled = _LABELLED.match(item)
    if labelled and spaced_length(labelled.group(1)) <= 5:
        return spaced_length(labelled.group(2)) >= 6
    return spaced_length(item) >= 3
