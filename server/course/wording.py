"""What the course path says around the book's own words, in the language of the reader's page
(English, Spanish, Japanese, Chinese or Urdu, the pool's languages, as refusals speak them;
English for any other): a Japanese student's summary is not headed "Its sections:"."""
from __future__ import annotations

from typing import NamedTuple

from server.text.scripts import language_of


class Wording(NamedTuple):
    see: str  # a page without a description: see it
    its_sections: str
    its_pages: str  # a part's pages, in order
    has_parts: str  # the book's parts: how many, their names
    covers: str  # a page's sections follow
    has_pages: str  # a part's pages follow
    organised: str  # the book's outline follows
    covered_here: str  # where the book covers what was asked
    you_are_on: str
    next: str
    before_it: str
    part_of: str  # a part's place among the parts
    after_comes: str
    before_comes: str
    start_with: str
    then_parts: str
    book_says: str
    no_objectives_part: str
    no_objectives: str
    quiz: str  # a quiz's title
    own_questions: str
    built_questions: str
    answers_hint: str
    answers: str  # the answers' title
    no_answer: str
    the_page: str
    said_about: str  # a question on what the page says under a heading
    not_indexed: str  # the reader's page is not in the index
    no_quiz: str  # the quiz an answer is for is gone
    teaches_in: str
    explains_in: str
    correct_choice: str
    not_quite: str
    you_chose: str
    none_of: str
    key_is: str
    no_key: str
    correct: str
    partly: str
    missing: str
    books_answer: str
    pages: str  # how many pages a group holds


WORDING = {
    "en": Wording(
        "See {0}.", "Its sections:", "Its pages, in order:", "It has {0} parts: {1}.", "{0} covers:",
        "{0} has these pages:", "{0} is organised like this:", "The book covers it here, best match first:",
        "You are on {0}.", "Next: {0}", "Before it: {0}", "{0} is part {1} of {2}.", "After it comes {0}",
        "Before it comes {0}: {1}", "Start with {0}", "then read the parts in order: {0}.", "The book says{0}: {1}",
        "The book lists no objectives for {0}; it covers{1}:", "The book lists no objectives for it; what it covers:",
        "Quiz: {0}", "the book's own questions", "questions made from its definitions and explanations",
        "Ask “show the answers” when you are ready, or answer an item: its letter, or what you would say in "
        "your own words.", "Answers: {0}", "The book gives no answer to this one: read {0}", "the page",
        "What does the page say about {0}?",
        "The page you are on ({0}) is not in this book's index, so I cannot answer about it. Ask about the book "
        "or one of its chapters instead.",
        "That quiz is not in this conversation any more, so I cannot check the answer. Ask “quiz me on this page” "
        "for a new one.", "The book teaches it in {0}.", "The book explains it in {0}.", "Correct: {0}.",
        "Not quite.", "You chose {0}; ", "That is none of the choices; ", "the book's answer is **{0}**.",
        "the book gives no key for this one.", "Correct.", "Partly right.", " What is missing: {0}.",
        "The book's answer: {0}", "{0} pages"),
    "es": Wording(
        "Consulta {0}.", "Sus secciones:", "Sus páginas, en orden:", "Tiene {0} partes: {1}.", "{0} trata:",
        "{0} tiene estas páginas:", "{0} está organizado así:", "El libro lo trata aquí, primero lo más cercano:",
        "Estás en {0}.", "Siguiente: {0}", "Antes: {0}", "{0} es la parte {1} de {2}.", "Después viene {0}",
        "Antes viene {0}: {1}", "Empieza por {0}", "y luego lee las partes en orden: {0}.", "El libro dice{0}: {1}",
        "El libro no enumera objetivos para {0}; trata{1}:", "El libro no enumera objetivos; esto es lo que trata:",
        "Cuestionario: {0}", "las preguntas del propio libro", "preguntas hechas a partir de sus definiciones y explicaciones",
        "Pide «muéstrame las respuestas» cuando quieras, o responde una pregunta: su letra, o con tus propias "
        "palabras.", "Respuestas: {0}", "El libro no da respuesta a esta: lee {0}", "la página",
        "¿Qué dice la página sobre {0}?",
        "La página en la que estás ({0}) no está en el índice de este libro, así que no puedo responder sobre ella. "
        "Pregunta por el libro o por uno de sus capítulos.",
        "Ese cuestionario ya no está en esta conversación, así que no puedo revisar la respuesta. Pide "
        "«hazme un quiz de esta página» para uno nuevo.", "El libro lo enseña en {0}.", "El libro lo explica en {0}.",
        "Correcto: {0}.", "No del todo.", "Elegiste {0}; ", "Esa no es ninguna de las opciones; ",
        "la respuesta del libro es **{0}**.", "el libro no da la clave de esta.", "Correcto.", "Parcialmente correcto.",
        " Falta: {0}.", "La respuesta del libro: {0}", "{0} páginas"),
    "ja": Wording(
        "{0}を参照してください。", "節:", "ページ(順番):", "{0}部構成です: {1}。", "{0}の内容:",
        "{0}のページ:", "{0}の構成:", "本書では次の箇所で扱っています(近い順):",
        "今のページは{0}です。", "次: {0}", "前: {0}", "{0}は全{2}部のうち第{1}部です。", "次の部: {0}",
        "前の部: {0}: {1}", "まず{0}から読んでください", "その後、各部を順に読みます: {0}。", "本書より{0}: {1}",
        "本書は{0}の学習目標を挙げていません。内容{1}:", "本書は学習目標を挙げていません。内容:",
        "クイズ: {0}", "本書の問題", "定義と説明から作った問題",
        "準備ができたら「答えを見せて」と送るか、各問に答えてください(選択肢の記号、または自分の言葉で)。",
        "解答: {0}", "本書にこの問題の答えはありません: {0}を読んでください", "このページ",
        "{0}について、ページには何と書かれていますか？",
        "今のページ({0})は本書の索引にないため、答えられません。本書全体や章について質問してください。",
        "そのクイズはこの会話にもうないため、答えを確認できません。「このページでクイズを出して」と送ってください。",
        "本書では{0}で説明しています。", "本書では{0}で説明しています。", "正解: {0}。", "惜しい。", "選んだのは{0}です。",
        "どの選択肢でもありません。", "本書の答えは**{0}**です。", "本書はこの問題の答えを示していません。", "正解。",
        "一部正解。", " 足りないもの: {0}。", "本書の答え: {0}", "{0}ページ"),
    "zh": Wording(
        "请参阅{0}。", "各节:", "各页(按顺序):", "共{0}个部分: {1}。", "{0}的内容:",
        "{0}包含以下页面:", "{0}的结构:", "书中讲到它的地方(最相关的在前):",
        "你在{0}。", "下一页: {0}", "上一页: {0}", "{0}是{2}个部分中的第{1}部分。", "下一部分: {0}",
        "上一部分: {0}: {1}", "从{0}开始", "然后按顺序阅读各部分: {0}。", "书中写道{0}: {1}",
        "本书没有列出{0}的学习目标；它的内容{1}:", "本书没有列出学习目标；它的内容:",
        "测验: {0}", "书中自带的题目", "根据定义和解释出的题目",
        "准备好后发送“显示答案”，或回答某一题: 写出选项字母，或用自己的话回答。",
        "答案: {0}", "书中没有给出这题的答案: 请阅读{0}", "本页",
        "这一页关于{0}说了什么？",
        "你所在的页面({0})不在本书的索引中，所以无法回答。请询问整本书或其中的某一章。",
        "这个测验已不在本次对话中，无法检查答案。请发送“考考我这一页的内容”获取新的测验。", "书中在{0}讲到它。",
        "书中在{0}解释了它。", "正确: {0}。", "不太对。", "你选了{0}；", "这不是任何一个选项；", "书中的答案是**{0}**。",
        "书中没有给出这题的答案。", "正确。", "部分正确。", " 缺少: {0}。", "书中的答案: {0}", "{0}页"),
    "ur": Wording(
        "{0} دیکھیں۔", "اس کے حصے:", "اس کے صفحات، ترتیب سے:", "اس کے {0} حصے ہیں: {1}۔", "{0} میں:",
        "{0} کے صفحات:", "{0} کی ترتیب:", "کتاب اسے یہاں بیان کرتی ہے، قریب ترین پہلے:",
        "آپ {0} پر ہیں۔", "اگلا: {0}", "پچھلا: {0}", "{0} کل {2} حصوں میں سے حصہ {1} ہے۔", "اس کے بعد {0}",
        "اس سے پہلے {0}: {1}", "{0} سے شروع کریں", "پھر حصے ترتیب سے پڑھیں: {0}۔", "کتاب کہتی ہے{0}: {1}",
        "کتاب {0} کے مقاصد درج نہیں کرتی؛ اس میں{1}:", "کتاب مقاصد درج نہیں کرتی؛ اس میں یہ ہے:",
        "کوئز: {0}", "کتاب کے اپنے سوالات", "اس کی تعریفوں اور وضاحتوں سے بنائے گئے سوالات",
        "تیار ہوں تو “جوابات دکھائیں” لکھیں، یا کسی سوال کا جواب دیں: اس کا حرف، یا اپنے الفاظ میں۔",
        "جوابات: {0}", "کتاب اس سوال کا جواب نہیں دیتی: {0} پڑھیں", "یہ صفحہ",
        "صفحہ {0} کے بارے میں کیا کہتا ہے؟",
        "آپ کا صفحہ ({0}) اس کتاب کے اشاریے میں نہیں، اس لیے میں اس کے بارے میں جواب نہیں دے سکتا۔ "
        "کتاب یا اس کے کسی باب کے بارے میں پوچھیں۔",
        "یہ کوئز اب اس گفتگو میں نہیں، اس لیے میں جواب جانچ نہیں سکتا۔ نیا کوئز مانگیں۔", "کتاب اسے {0} میں سکھاتی ہے۔",
        "کتاب اسے {0} میں سمجھاتی ہے۔", "درست: {0}۔", "پوری طرح نہیں۔", "آپ نے {0} چنا؛ ", "یہ کوئی بھی انتخاب نہیں؛ ",
        "کتاب کا جواب **{0}** ہے۔", "کتاب اس سوال کی کلید نہیں دیتی۔", "درست۔", "جزوی طور پر درست۔", " کیا رہ گیا: {0}۔",
        "کتاب کا جواب: {0}", "{0} صفحات"),
}


def wording(locale: str | None) -> Wording:
    """The course path's words in the language of `locale` (the reader's page's)."""
    return WORDING.get(language_of(locale), WORDING["en"])
