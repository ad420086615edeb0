"""What a hint says around the book's place and words, in the language of the reader's page
(English, Spanish, Japanese, Chinese or Urdu, as the course path's wording.py), and which kind of
question it answers, read in those languages: a reason, a difference, steps, a choice, what a
thing is. A Chinese student's hint is not "Which sentence of that section speaks to 闭包和装饰器有什么关系?"."""
from __future__ import annotations

import re
from typing import NamedTuple

from server.text import own_language
from server.text.lengths import CJK_RUNS
from server.text.scripts import language_of


class HintWording(NamedTuple):
    first: str  # {lead}{where}{on}{guide}
    exercise: str  # the lead of a hint on one of the book's own exercises
    section_of: str  # the section, named by its page
    on: str  # the page a section heading is on
    another: str  # {look}{next}
    look_for: str  # {where}{sentence}
    read_again: str  # {where}{guide}
    more: str  # what the student may ask next
    last: str
    reason: str
    differ: str
    steps: str
    options: str
    define: str  # {focus}
    which_sentence: str  # {focus}
    joined: str  # between the words of a focus in a language without spaces


HINTS = {
    "en": HintWording(
        "**Hint:** {lead}read {where}{on}. {guide}", "This is one of the book's own exercises, so here is a hint first. ",
        "this section of {0}", " (on {0})", "**Another hint:** {look}\n\n{next}",
        "in {where}, look for the sentence that goes: “{sentence}”", "read {where} again, slowly. {guide}",
        "Ask for “another hint”, or “show me the answer” when you are ready.", "Ask “show me the answer” when you want it.",
        "The section gives a reason. What would go wrong if it were not so?",
        "Note what each one does according to the section: where do they part ways?",
        "The section goes step by step: what comes first, and what does each step lead to?",
        "The section describes a few options: which one fits what you describe, and what makes it fit?",
        "Find where the section says what **{focus}** is: what kind of thing is it, and what is it for?",
        "Which sentence of that section speaks to **{focus}**? Try to say it in your own words first.", " "),
    "es": HintWording(
        "**Pista:** {lead}lee {where}{on}. {guide}", "Es uno de los ejercicios del propio libro, así que primero una pista. ",
        "esta sección de {0}", " (en {0})", "**Otra pista:** {look}\n\n{next}",
        "en {where}, busca la frase que dice: «{sentence}»", "vuelve a leer {where}, despacio. {guide}",
        "Pide «otra pista», o «muéstrame la respuesta» cuando quieras.", "Pide «muéstrame la respuesta» cuando la quieras.",
        "La sección da una razón. ¿Qué fallaría si no fuera así?",
        "Fíjate en qué hace cada uno según la sección: ¿en qué se diferencian?",
        "La sección va paso a paso: ¿qué va primero, y a qué lleva cada paso?",
        "La sección describe varias opciones: ¿cuál encaja con lo que describes, y por qué?",
        "Busca dónde dice la sección qué es **{focus}**: ¿qué tipo de cosa es y para qué sirve?",
        "¿Qué frase de esa sección habla de **{focus}**? Intenta decirlo primero con tus palabras.", " "),
    "ja": HintWording(
        "**ヒント:** {lead}{where}{on}を読んでください。{guide}", "本書の練習問題なので、まずヒントを出します。",
        "{0}のこの節", "({0})", "**もう一つのヒント:** {look}\n\n{next}",
        "{where}で、次の文を探してください: 「{sentence}」", "{where}をもう一度ゆっくり読んでください。{guide}",
        "「もう一つヒントをください」、準備ができたら「答えを教えて」と送ってください。", "答えが知りたいときは「答えを教えて」と送ってください。",
        "この節は理由を挙げています。そうでなかったら何が困るでしょうか？",
        "節によると、それぞれは何をしますか？どこが違うでしょうか？",
        "この節は順を追って説明しています。最初に何をして、それぞれの手順は何につながりますか？",
        "この節はいくつかの選択肢を挙げています。どれがあなたの場合に合い、なぜ合うのでしょうか？",
        "節の中で**{focus}**が何かを述べている所を探してください。どんなもので、何のためにありますか？",
        "節のどの文が**{focus}**について述べていますか？まず自分の言葉で言ってみてください。", "、"),
    "zh": HintWording(
        "**提示：** {lead}请阅读{where}{on}。{guide}", "这是书中自带的练习，所以先给一个提示。",
        "{0}的这一节", "（在{0}）", "**再一个提示：** {look}\n\n{next}",
        "在{where}中，找到这句话：“{sentence}”", "请再慢慢读一遍{where}。{guide}",
        "可以发送“再给一个提示”，准备好后发送“告诉我答案”。", "想看答案时，发送“告诉我答案”。",
        "这一节给出了一个理由。如果不是这样，会出什么问题？",
        "根据这一节，它们各自做什么？区别在哪里？",
        "这一节是一步一步讲的：先做什么，每一步又引出什么？",
        "这一节介绍了几种做法：哪一种适合你说的情况，为什么？",
        "找到这一节说明**{focus}**是什么的地方：它是什么东西，用来做什么？",
        "这一节里哪句话讲到了**{focus}**？先试着用自己的话说一说。", "、"),
    "ur": HintWording(
        "**اشارہ:** {lead}{where}{on} پڑھیں۔ {guide}", "یہ کتاب کی اپنی مشق ہے، اس لیے پہلے ایک اشارہ۔ ",
        "{0} کا یہ حصہ", " ({0} پر)", "**ایک اور اشارہ:** {look}\n\n{next}",
        "{where} میں وہ جملہ تلاش کریں جو یوں ہے: “{sentence}”", "{where} دوبارہ آہستہ سے پڑھیں۔ {guide}",
        "“ایک اور اشارہ” مانگیں، یا تیار ہوں تو “جواب دکھائیں”۔", "جواب چاہیے تو “جواب دکھائیں” لکھیں۔",
        "یہ حصہ ایک وجہ بتاتا ہے۔ اگر ایسا نہ ہو تو کیا خرابی ہوگی؟",
        "حصے کے مطابق ہر ایک کیا کرتا ہے؟ ان میں فرق کہاں ہے؟",
        "یہ حصہ قدم بہ قدم چلتا ہے: پہلے کیا آتا ہے، اور ہر قدم کس طرف لے جاتا ہے؟",
        "یہ حصہ کچھ راستے بتاتا ہے: آپ کی صورت میں کون سا موزوں ہے، اور کیوں؟",
        "حصے میں وہ جگہ تلاش کریں جہاں بتایا گیا ہے کہ **{focus}** کیا ہے: یہ کس قسم کی چیز ہے اور کس کام کی ہے؟",
        "اس حصے کا کون سا جملہ **{focus}** کے بارے میں ہے؟ پہلے اپنے الفاظ میں کہنے کی کوشش کریں۔", " "),
}

# the kind of question, by the words each language asks it with (English and Spanish at its start)
KINDS = (
    ("reason", re.compile(r"(?i)^\W*(why|how come|por qu[eé])\b|为什么|为啥|なぜ|どうして|なんで|کیوں")),
    ("differ", re.compile(r"(?i)\b(differ|difference|compare|versus|vs\.?|better than|diferencias?)\b|区别|差别|不同|"
                          r"違い|ちがい|فرق")),
    ("steps", re.compile(r"(?i)^\W*(how|c[oó]mo)\b|怎么|如何|怎样|どうやって|どう(書|使|や|す)|方法|کیسے")),
    ("options", re.compile(r"(?i)^\W*(which|what should|when should|cu[aá]l)\b|\bshould i\b|哪个|哪种|哪一|どれ|どっち|"
                           r"کون سا")),
    ("define", re.compile(r"(?i)^\W*(what (is|are|does)|define|qu[eé] (es|son))\b|什么是|是什么|是啥|とは|って何|ってなに|"
                          r"کیا (?:ہوتا |ہوتی |ہوتے )?(?:ہے|ہیں)(?!\w)")),
)


def hint_wording(locale: str | None) -> HintWording:
    return HINTS.get(language_of(locale), HINTS["en"])


def kind_of(question: str) -> str | None:
    """The kind of question: a reason, a difference, steps, a choice or a definition; None for another."""
    return next((kind for kind, pattern in KINDS if pattern.search(question)), None)


def focus_in_words(question: str, words: HintWording) -> str | None:
    """A Chinese or Japanese question's topic: its stretches between the words that frame it, in
    order (闭包、装饰器、关系 of 闭包和装饰器有什么关系？), names in Latin letters first; None for a
    question in a spaced language."""
    languages = own_language.question_language(question)
    if languages is None or languages[0] not in ("ja", "zh"):
        return None
    stretches = re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", question)
    for run in CJK_RUNS.findall(question):
        stretch = ""
        for word in [*own_language.segmented(run, languages[0]), ""]:
            if word and not own_language.frames(word, languages):
                stretch += word
            elif stretch:
                stretches.append(stretch)
                stretch = ""
    return words.joined.join(list(dict.fromkeys(stretches))[:3]) or None
