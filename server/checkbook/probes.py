"""The questions check-book asks, made from the book itself or from fixed lists that hold for
any book: one-edit typos of its words, requests about a highlighted passage however phrased,
everyday questions no textbook answers, facts that merely name the course, "where does the
book cover …?" of its own headings."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

from server.text.lengths import spaced_length

LETTERS = "abcdefghijklmnopqrstuvwxyz"
TEMPLATES = ("what is {0}?", "how does {0} work", "{0}", "Why is {0} important?!", "explain the {0} pls",
             "WHAT DOES {0} MEAN", "difference between {0} and {1}?")
REQUESTS = ("explain this", "give me an example", "summarize this", "simplify this", "rephrase this",
            "why does this matter")
# the same requests as a reader of a book in the pool's other languages asks them, accents left out too
REQUESTS_IN = {"es": ("explícame esto", "dame un ejemplo", "resume esto", "dilo más sencillo", "dilo de otra forma",
                      "¿por qué importa esto?", "explicame esto"),
               "ja": ("これを説明して", "例を挙げて", "要約して", "もっと簡単に言って", "言い換えて", "なぜこれが重要なの？"),
               "zh": ("解释一下这段", "举个例子", "总结一下", "说得简单一点", "换个说法", "这为什么重要？"),
               "ur": ("اس کی وضاحت کریں", "اس کی کوئی مثال دیں", "اس کا خلاصہ بتائیں", "اسے آسان الفاظ میں بتائیں",
                      "اسے دوسرے الفاظ میں کہیں", "یہ کیوں اہم ہے؟")}
EVERYDAY = ("how do I bake sourdough bread?", "who won the football world cup in 1998?",
            "what's the weather like in Paris tomorrow?", "how do I fix a flat bicycle tyre?",
            "what is the capital of Australia?", "can you recommend a good pizza place?",
            "how many calories are in a banana?", "who painted the Mona Lisa?",
            "how do I get rid of hiccups?", "what time does the sun set in winter?",
            "how do I train my puppy to sit?", "what is the best way to learn to swim?",
            "who is the lead singer of the Rolling Stones?", "how do I make a paper airplane?",
            "what are good exercises for back pain?", "how long should I boil an egg?",
            "which planet has the most moons?", "how do I knit a scarf?",
            "what should I wear to a job interview?", "how do you play chess openings?")
# the same everyday questions as a reader of a book in the pool's other languages asks them
EVERYDAY_IN = {
    "es": ("¿cómo hago pan de masa madre?", "¿quién ganó el mundial de fútbol de 1998?", "¿qué tiempo hará mañana en París?",
           "¿cómo arreglo una rueda pinchada de la bici?", "¿cuál es la capital de Australia?",
           "¿me recomiendas una buena pizzería?", "¿cuántas calorías tiene un plátano?", "¿quién pintó la Mona Lisa?",
           "¿cómo se me quita el hipo?", "¿a qué hora se pone el sol en invierno?", "¿cómo enseño a mi perro a sentarse?",
           "¿cuál es la mejor forma de aprender a nadar?", "¿quién es el cantante de los Rolling Stones?",
           "¿cómo hago un avión de papel?", "¿qué ejercicios van bien para el dolor de espalda?",
           "¿cuánto tiempo hay que hervir un huevo?", "¿qué planeta tiene más lunas?", "¿cómo tejo una bufanda?",
           "¿qué me pongo para una entrevista de trabajo?", "¿cómo se juegan las aperturas de ajedrez?"),
    "ja": ("天然酵母のパンってどうやって焼くの？", "1998年のサッカーワールドカップで優勝したのはどこ？", "明日のパリの天気はどう？",
           "自転車のパンクってどうやって直すの？", "オーストラリアの首都はどこ？", "おいしいピザ屋さんを教えて", "バナナ1本って何カロリー？",
           "モナ・リザを描いたのは誰？", "しゃっくりを止める方法は？", "冬って何時ごろ日が沈むの？",
           "子犬にお座りを教えるにはどうすればいい？", "水泳を覚えるいちばんいい方法は？", "ローリング・ストーンズのボーカルって誰？",
           "紙飛行機の折り方を教えて", "腰痛にいい運動ってある？", "ゆで卵は何分ゆでればいい？", "いちばん衛星が多い惑星はどれ？",
           "マフラーの編み方を教えて", "就職の面接には何を着ていけばいい？", "チェスの序盤の定跡ってどう指すの？"),
    "zh": ("酸面包怎么烤？", "1998年世界杯足球赛谁赢了？", "明天巴黎天气怎么样？", "自行车轮胎扎破了怎么补？", "澳大利亚的首都是哪里？",
           "能推荐一家好吃的披萨店吗？", "一根香蕉有多少卡路里？", "蒙娜丽莎是谁画的？", "打嗝怎么才能停下来？", "冬天太阳几点落山？",
           "怎么训练小狗坐下？", "学游泳最好的办法是什么？", "滚石乐队的主唱是谁？", "纸飞机怎么折？", "腰疼做什么运动比较好？",
           "鸡蛋要煮多久？", "哪个行星的卫星最多？", "围巾怎么织？", "去面试应该穿什么？", "国际象棋开局怎么下？"),
    "ur": ("کھٹے آٹے کی روٹی کیسے بنائیں؟", "1998 کا فٹبال ورلڈ کپ کس نے جیتا؟", "کل پیرس میں موسم کیسا ہوگا؟",
           "سائیکل کا پنکچر ٹائر کیسے ٹھیک کریں؟", "آسٹریلیا کا دارالحکومت کیا ہے؟", "کوئی اچھی پیزا کی دکان بتائیں",
           "ایک کیلے میں کتنی کیلوریز ہوتی ہیں؟", "مونا لیزا کس نے بنائی تھی؟", "ہچکی کیسے روکیں؟",
           "سردیوں میں سورج کتنے بجے غروب ہوتا ہے؟", "اپنے پلّے کو بیٹھنا کیسے سکھاؤں؟", "تیرنا سیکھنے کا بہترین طریقہ کیا ہے؟",
           "رولنگ اسٹونز کا مرکزی گلوکار کون ہے؟", "کاغذ کا جہاز کیسے بناتے ہیں؟", "کمر درد کے لیے کون سی ورزشیں اچھی ہیں؟",
           "انڈا کتنی دیر ابالنا چاہیے؟", "کس سیارے کے سب سے زیادہ چاند ہیں؟", "مفلر کیسے بُنیں؟", "نوکری کے انٹرویو میں کیا پہنوں؟",
           "شطرنج کی اوپننگ کیسے کھیلتے ہیں؟"),
}
# facts a reader may ask that merely name the course: never a table of contents or a reading order
COURSE_FACTS = ("how many hours does the course take?", "is this book free to read?",
                "does the course have a final exam?", "what language is the book written in?",
                "how much time should i spend on each chapter?")
WHERE = "where does the book cover {0}?"


@dataclass(frozen=True)
class Passage:
    text: str
    url: str


def typo(word: str, rng: random.Random) -> str:
    """`word` with one edit: a letter dropped, added, changed, or two neighbours swapped."""
    i = rng.randrange(len(word))
    kind = rng.choice(("delete", "insert", "substitute", "transpose"))
    if kind == "delete" and len(word) > 1:
        return word[:i] + word[i + 1:]
    if kind == "insert":
        return word[:i] + rng.choice(LETTERS) + word[i:]
    if kind == "transpose" and i + 1 < len(word):
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return word[:i] + rng.choice(LETTERS) + word[i + 1:]


def typo_questions(words: list[str], count: int, seed: int = 7) -> list[str]:
    """Questions made of the book's own words, one edit each, casing and punctuation varied."""
    rng = random.Random(seed)
    usable = [w for w in words if w.isalpha() and 3 <= len(w) <= 14]
    if not usable:
        return []
    questions = []
    for _ in range(count):
        template = rng.choice(TEMPLATES)
        filled = [typo(rng.choice(usable), rng) for _ in range(2)]
        question = template.format(*filled)
        questions.append(question.upper() if rng.random() < 0.1 else question)
    return questions


def request_phrasings(languages: tuple[str, ...] = ("en",)) -> list[str]:
    """Every request about a passage, with and without "can you" and "please", in capitals too;
    then, for a book with pages in other languages, the requests as their readers write them."""
    phrasings = []
    for stem in REQUESTS:
        for before, after in (("", ""), ("can you ", "?"), ("please ", ""), ("", " please"), ("Can you ", "?")):
            phrasings.append(f"{before}{stem}{after}")
        phrasings.append(stem.upper())
        phrasings.append(stem.capitalize() + ".")
    return phrasings + [request for language in languages for request in REQUESTS_IN.get(language, ())]


def term_requests(passage: str) -> list[str]:
    """Questions naming one of the passage's own words, as a reader asks of a highlight: what its
    longest word is, and what it means."""
    named = sorted(set(re.findall(r"[^\W\d_]{4,}", passage)), key=lambda w: (-len(w), w))[:1]
    return [question for word in named for question in (f"what is {word}?", f"what does {word} mean?")]


_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|[。！？۔]")  # Chinese, Japanese and Urdu end theirs without a space


def highlightable(paragraphs: list[tuple[str, str]], count: int) -> list[Passage]:
    """Prose paragraphs a reader might highlight: two to five sentences, no markup, no code."""
    found = []
    for text, url in paragraphs:
        plain = " ".join(text.split())
        if any(mark in plain for mark in ("`", "|", "<", "{", "![", "](", "$$")) or plain.startswith(("#", "-", "*", ">")):
            continue
        sentences = len(_SENTENCE_END.findall(plain))
        if 2 <= sentences <= 5 and 25 <= spaced_length(plain) <= 140:
            found.append(Passage(plain, url))
    step = max(1, len(found) // count) if found else 1
    return found[::step][:count]
