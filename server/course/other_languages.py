"""A question about the course asked in Japanese, Chinese, Spanish or Urdu: the words that point at the
course ("このページ", "本章", "este capítulo", "siguiente") read as the English ones the course
reader knows ("this page", "this chapter", "next"), and each task described in those languages,
for a model that reads them. A word of the topic is left as it is; only the course's own words
and the reader's place are read."""
from __future__ import annotations

import re

# longest first within a language; each phrase stands alone in the reading (spaces around it)
_CUES: dict[str, list[tuple[str, str]]] = {
    "ja": [
        (r"第\s*(\d+)\s*章", r"chapter \1"), (r"第\s*(\d+)\s*部", r"part \1"),
        (r"(?:この|今の|現在の)(?:ページ|記事)", "this page"), (r"(?:この|本)(?:章|チャプター)", "this chapter"),
        (r"(?:この|本)(?:節|セクション)", "this section"), (r"この(?:モジュール|パート|部)", "this module"),
        (r"(?:この(?:本|教科書|書籍|コース|講座)|本書)", "this book"),
        # "次は", "次に読む", "次のページ": the reading order's next; "次のコード" is the code below
        (r"(?<![\u4e00-\u9fff])次(?=\s*(?:は|に|なに|何|読|って|の(?:ページ|章|節|セクション|モジュール)|$|[?？、。]))", "next "),
        (r"前の(?=ページ|章|節|セクション|モジュール)", "previous "),
        (r"どこから", "where to start"), (r"どこ(?:に|で|を)?", "where"),
        (r"ページ", "page"), (r"章", "chapter"), (r"セクション", "section"), (r"モジュール", "module"),
        (r"教科書|コース|講座", "book"),
    ],
    "zh": [
        (r"第\s*(\d+)\s*章", r"chapter \1"), (r"第\s*(\d+)\s*部分", r"part \1"),
        (r"(?:这一?页|本页|此页|当前页(?:面)?|这个页面)", "this page"), (r"(?:这一?章|本章)", "this chapter"),
        (r"(?:这一?节|本节)", "this section"), (r"(?:这一?篇|本篇)", "this page"),
        (r"(?:这一?部分|这个部分|这一?块|那一?块)", "this part"), (r"(?:这个?模块|本模块)", "this module"),
        (r"(?:这本书|本书|这门课(?:程)?|本课程|这个教程|本教程)", "this book"),
        (r"(?:下一(?:步|个|页|章)?|接下来)", "next "), (r"上一(?:个|页|章)?", "previous "),
        (r"从哪(?:里|儿)?(?:开始)?", "where to start"), (r"在哪(?:里|儿)?|哪里|哪儿", "where"),
        (r"章节|章", "chapter"), (r"小节", "section"), (r"页面|页", "page"), (r"模块", "module"), (r"课程|教程", "book"),
    ],
    "es": [
        (r"\bcap[ií]tulo\s+(\d+)", r"chapter \1"), (r"\bm[oó]dulo\s+(\d+)", r"module \1"),
        (r"\b(?:esta|la presente)\s+p[aá]gina\b", "this page"), (r"\beste\s+cap[ií]tulo\b", "this chapter"),
        (r"\besta\s+(?:secci[oó]n|lecci[oó]n)\b", "this section"), (r"\beste\s+m[oó]dulo\b", "this module"),
        (r"\b(?:este|el)\s+(?:libro|curso|apunte)\b", "this book"), (r"\besta\s+unidad\b", "this unit"),
        (r"\b(?:siguiente|despu[eé]s|pr[oó]xim[oa])\b", "next"), (r"\banterior\b", "previous"),
        (r"\bp[aá]ginas?\b", "page"), (r"\bcap[ií]tulos?\b", "chapter"), (r"\bsecci[oó]n(?:es)?\b", "section"),
        (r"\bm[oó]dulos?\b", "module"), (r"\bunidad(?:es)?\b", "unit"), (r"\blecci[oó]n(?:es)?\b", "lesson"),
        (r"\blibro\b|\bcurso\b|\bapuntes?\b", "book"),
    ],
    # Urdu: "اس صفحے کا خلاصہ" (this page's summary); a book read with an English-only model reads
    # the task's own word in English too (خلاصہ: summary, کوئز: quiz)
    "ur": [
        (r"باب\s*(\d+)", r"chapter \1"), (r"(?:اس|یہ|موجودہ)\s+(?:صفحے|صفحہ|پیج)", "this page"),
        (r"(?:اس|یہ)\s+باب", "this chapter"), (r"(?:اس|یہ)\s+(?:سیکشن|حصے|حصہ)", "this section"),
        (r"(?:اس|یہ)\s+ماڈیول", "this module"), (r"(?:اس|یہ)\s+(?:کتاب|کورس)", "this book"),
        (r"(?<!\w)(?:اگلا|اگلے|اگلی|آگے)(?!\w)", "next"), (r"(?<!\w)(?:پچھلا|پچھلے|پچھلی)(?!\w)", "previous"),
        (r"کہاں\s+سے\s+شروع", "where to start"), (r"(?<!\w)کہاں(?!\w)", "where"),
        (r"(?<!\w)(?:پڑھنا|پڑھوں|پڑھیں)(?!\w)", "read"), (r"(?<!\w)خلاصہ(?!\w)", "summary"), (r"(?<!\w)کوئز(?!\w)", "quiz"), (r"(?<!\w)مقاصد(?!\w)", "objectives"),
        (r"(?<!\w)(?:وضاحت|سمجھائیں|سمجھاؤ|سمجھا دیں)(?!\w)", "explain"),
        (r"(?<!\w)(?:صفحات|صفحے|صفحہ|پیج)(?!\w)", "page"), (r"(?<!\w)(?:ابواب|باب)(?!\w)", "chapter"),
        (r"(?<!\w)سیکشن(?!\w)", "section"), (r"(?<!\w)ماڈیول(?!\w)", "module"), (r"(?<!\w)(?:کتاب|کورس)(?!\w)", "book"),
    ],
}
_COMPILED = {lang: [(re.compile(p, re.IGNORECASE), r) for p, r in cues] for lang, cues in _CUES.items()}

# each task described as a reader of these languages asks for it (tasks.py has the English)
PROTOTYPES: dict[str, dict[str, list[str]]] = {
    "overview": {"ja": ["この本は何について書かれていますか", "この章の概要を教えて", "この章は何の話？",
                        "このページは何について書いてある？", "この本の全体像を紹介して"],
                 "zh": ["这本书讲的是什么", "介绍一下这一章", "这一部分主要讲什么", "这一页是关于什么的"],
                 "es": ["¿de qué trata este libro?", "dame una visión general de este capítulo", "¿de qué va esta sección?"],
                 "ur": ["یہ کتاب کس بارے میں ہے", "اس باب کا جائزہ دیں", "یہ صفحہ کس بارے میں ہے"]},
    "summarize": {"ja": ["このページを要約して", "この章のまとめを教えて", "要点を短く", "ざっくり要約して",
                         "このページの内容を簡単にまとめて",
                         "このページを説明して"],
                  "zh": ["总结一下这一页", "概括这一章的要点", "帮我总结这部分的重点", "简单总结一下", "给我讲讲这一页", "帮我理解这一章"],
                  "es": ["resume esta página", "hazme un resumen de este capítulo", "resumen corto de esta sección",
                         "explícame esta página"],
                  "ur": ["اس صفحے کا خلاصہ کریں", "اس باب کا مختصر خلاصہ دیں", "اہم نکات مختصراً بتائیں",
                         "اس صفحے کی وضاحت کریں"]},
    "contents": {"ja": ["この本にはどんな章がありますか", "このページの目次", "この章にはどんなページがありますか",
                        "このページにはどんな節がある？", "この章の構成を教えて"],
                 "zh": ["这本书有哪些章节", "这一页的目录", "这一页有哪些小节", "这部分包括哪些内容"],
                 "es": ["¿qué capítulos tiene el libro?", "¿qué secciones tiene esta página?",
                        "¿qué temas incluye esta unidad?"],
                 "ur": ["اس کتاب میں کون سے ابواب ہیں", "اس صفحے میں کون سے حصے ہیں", "اس باب کی فہرست دکھائیں"]},
    "locate": {"ja": ["それはどの章で説明されていますか", "どのページに書いてありますか", "その話はどこに載っている？",
                      "本書のどこで扱っていますか"],
               "zh": ["这个在哪一章讲", "哪一页解释了这个", "在书里哪里能找到这个"],
               "es": ["¿en qué capítulo se explica eso?", "¿en qué página se habla de esto?",
                      "¿dónde explica el libro este tema?"],
               "ur": ["یہ کس باب میں بیان کیا گیا ہے", "کتاب میں یہ کہاں ملے گا", "کون سا صفحہ اس کی وضاحت کرتا ہے"]},
    "order": {"ja": ["次に何を読めばいいですか", "このページの後は何を読む？", "この章の前に何を読むべきですか",
                     "前提知識は何ですか", "最初はどのページから読めばいい？"],
              "zh": ["下一步应该读什么", "这一页之后是什么", "读这一章之前需要先学什么", "学完这部分接下来学什么"],
              "es": ["¿qué debería leer después?", "¿qué viene después de esta página?",
                     "¿qué necesito saber antes de este capítulo?", "¿por dónde empiezo?"],
              "ur": ["اب مجھے آگے کیا پڑھنا چاہیے", "اس صفحے کے بعد کیا ہے", "اس باب سے پہلے کیا پڑھنا ضروری ہے",
                     "کہاں سے شروع کروں"]},
    "objectives": {"ja": ["このページで何が学べますか", "この章の学習目標は何ですか", "読み終わったら何ができるようになりますか"],
                   "zh": ["这一章能学到什么", "这一页的学习目标是什么", "学完以后我能做什么"],
                   "es": ["¿qué voy a aprender en este capítulo?", "¿cuáles son los objetivos de esta página?",
                          "¿qué sabré hacer al terminar?"],
                   "ur": ["اس صفحے سے میں کیا سیکھوں گا", "اس باب کے مقاصد کیا ہیں", "پڑھنے کے بعد میں کیا کر سکوں گا"]},
    "quiz": {"ja": ["このページでクイズを出して", "理解度をチェックする問題を出して", "練習問題を出して", "私をテストして"],
             "zh": ["考考我这一页的内容", "给我出几道练习题", "出几道题测试一下我"],
             "es": ["hazme un quiz de esta página", "ponme unas preguntas de práctica", "evalúame sobre esta sección"],
             "ur": ["اس صفحے پر کوئز دیں", "مشق کے کچھ سوالات دیں", "میرا امتحان لیں"]},
}


_ASKED_LAST = ("ja", "zh", "ur")  # languages that ask with a word at the end of the question, not its start
_WHERE = re.compile(r"\bwhere(?: to start)?\b")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_ARABIC = re.compile(r"[\u0600-\u06ff]")


_SPANISH = re.compile(r"(?i)[ñáéíóú¿¡]|\b(?:que|de|del|el|la|los|las|esta|este|esto|un|una|por|para|como|es|son|sobre)\b")


def language_of_question(text: str) -> str | None:
    """Japanese writes kana among its characters, Chinese none; Urdu Arabic's letters; Spanish its
    letters or words."""
    return ("ja" if _KANA.search(text) else "zh" if _HAN.search(text) else "ur" if _ARABIC.search(text) else
            "es" if _SPANISH.search(text) else None)


def read_as_english(text: str) -> str:
    """`text` with the course's words and the reader's place in its language read as English."""
    language = language_of_question(text)
    for pattern, english in _COMPILED.get(language, ()):
        text = pattern.sub(lambda m, e=english: f" {m.expand(e).strip()} ", text)
    if language in _ASKED_LAST and (asked := _WHERE.search(text)):
        # "この章のどこに書いてある？": where, as English asks it, first
        text = asked.group(0) + " " + text[:asked.start()] + text[asked.end():]
    return " ".join(text.split())


def described(task: str) -> list[str]:
    """The task described in these languages."""
    return [p for described in PROTOTYPES.get(task, {}).values() for p in described]
