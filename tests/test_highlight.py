"""Highlight-to-ask: requests about the passage itself are answered from it, never refused; a
question it does not cover is declined with the offer to search the book, never answered with
the passage repeated. With Gemini, such requests and misspelt questions reach the model."""
from __future__ import annotations

import pytest

from apps import make_settings
from server.question.compose.extractive import ExtractiveGenerator
from server.question.compose.fallback import WithFallback
from server.question.compose.gemini import GeminiClient, GeminiGenerator
from server.question.understand.intent import Intent, asks_what_it_says, detect
from server.checkbook.probes import REQUESTS_IN

PASSAGE = ("Two related names are easy to mix up. The Nyquist rate is 2 · B, a property of the signal: the minimum "
           "rate needed to sample it. The Nyquist frequency is fs / 2, a property of the sampler: the highest "
           "frequency it can represent. For CD audio the Nyquist frequency is 22,050 Hz, comfortably above the "
           "upper limit of human hearing, which is about 20,000 Hz for young listeners.")
REQUESTS = {"explain this": "explain", "summarize this in one line": "summarize",
            "can you put this in simpler words?": "simplify", "give me an example of this": "example"}


@pytest.mark.parametrize("question, intent", [
    *REQUESTS.items(), ("explain this like i'm new to it", "explain"), ("tl;dr", "summarize"),
    ("what does all this jargon mean?", "jargon"), ("define the nyquist rate", "define"),
    ("what's the capital of France?", "question"), ("explain how nav2 plans a path", "question"),
    ("why does this happen?", "explain"), ("why is this important?", "explain"), ("who invented this?", "question"),
    ("which sample rate do cds use?", "question")])
def test_requests_about_the_passage_are_told_from_questions(question, intent):
    assert detect(question, PASSAGE) is Intent(intent)


@pytest.mark.parametrize("question, intent", [
    # Japanese, Chinese, Spanish and Urdu: the same requests, and questions that are not requests
    ("これってどういう意味？", "explain"), ("この段落を要約して", "summarize"), ("もっと簡単に言うと？", "simplify"),
    ("これの例を教えて", "example"), ("この用語の意味は？", "define"), ("TypeScriptとは何ですか", "question"),
    ("这段是什么意思？", "define"), ("这段我看不懂", "explain"), ("总结一下这段", "summarize"), ("能说得通俗一点吗", "simplify"),
    ("举个例子吧", "example"), ("生成器里 return 会发生什么？", "question"),
    ("¿puedes explicar esto?", "explain"), ("resume este párrafo", "summarize"), ("¿me lo dices más sencillo?", "simplify"),
    ("¿me das un ejemplo de esto?", "example"), ("¿qué es lo que hace un mock?", "question"),
    ("¿me recomiendas una serie para ver este finde?", "question"),
    # with or without its accents, and asked politely (dibs-es: "explícame esto" of a highlight was declined)
    ("explícame esto", "explain"), ("explicame esto", "explain"), ("más sencillo por favor", "simplify"),
    ("¿por qué importa?", "explain"), ("¿por qué es importante esto?", "explain"),
    ("اس کا مطلب کیا ہے؟", "explain"), ("اس کا خلاصہ بتائیں", "summarize"), ("اس کی کوئی مثال دیں", "example")])
def test_requests_in_other_languages_are_told_from_questions(question, intent):
    assert detect(question, PASSAGE) is Intent(intent)


@pytest.mark.parametrize("request_", [r for requests in REQUESTS_IN.values() for r in requests])
def test_the_requests_check_book_asks_in_a_books_language_are_requests(request_):
    """check-book asks a Spanish, Japanese, Chinese or Urdu book's highlights as its readers would:
    each is a request about the passage, never a question it may decline."""
    assert detect(request_, PASSAGE).about_the_passage


def test_questions_about_what_the_passage_says():
    assert asks_what_it_says("what's the difference between the two ways of talking mentioned here?")
    assert asks_what_it_says("which sensors does it say we can test this way?")
    assert not asks_what_it_says("which ros 2 package do i launch to run this on my gpu?")


def _ask(client, question: str, mode: str = "exclusive") -> dict:
    response = client.post("/chat", json={"question": question, "selected_text": PASSAGE, "selection_mode": mode})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_requests_about_the_passage_are_answered_from_it_without_a_model(chat_app):
    client = chat_app().test_client()
    for question, intent in REQUESTS.items():
        data = _ask(client, question)
        assert data["status"] == "completed", (question, data["answer"])
        assert data["intent"] == intent and not data["offer_book_search"]
        assert all(s["source_type"] == "selected_text" for s in data["sources"])
        assert "Nyquist" in data["answer"] and "[1]" in data["answer"]
        assert "language model" in data["answer"]  # it says plainly what it cannot do


def test_a_request_of_a_spanish_page_is_answered_with_its_note_in_spanish(chat_app):
    """dibs-es, its page in Spanish: "explícame esto" was declined, then answered with the note in
    English. The note is in the page's language, and "Por ejemplo, …" is the passage's example."""
    client = chat_app().test_client()
    passage = ("Una función es pura si su único efecto es producir un resultado. Por ejemplo, sumar dos números no "
               "cambia nada más del programa. Imprimir en la consola sí lo cambia.")
    for question, said in (("explícame esto", "no puedo decirlo con otras palabras"), ("dame un ejemplo", "Por ejemplo")):
        response = client.post("/chat", json={"question": question, "selected_text": passage, "metadata": {"locale": "es"}})
        data = response.get_json()
        assert data["status"] == "completed" and said in data["answer"], data["answer"]
        assert "language model" not in data["answer"] and "ningún ejemplo" not in data["answer"], data["answer"]


def test_without_a_page_locale_the_note_is_in_the_language_the_question_is_written_in(chat_app):
    """"能举个例子吗？" of a highlighted term, from a client that sends no locale: the note came in English.
    Its script tells the language; Latin letters do not ("fine-tune llama with lora" is no Spanish)."""
    client = chat_app().test_client()
    for question, passage, said in (("能举个例子吗？", "any() 函数", "所选的是一个术语"),
                                    ("この用語の意味は？", "型注釈", "選択したのは用語で"),
                                    ("what does this mean?", "pure function", "The selection is a term")):
        data = client.post("/chat", json={"question": question, "selected_text": passage}).get_json()
        assert data["status"] == "completed" and said in data["answer"], data["answer"]


def test_combined_mode_explains_with_the_passage_first(chat_app):
    data = _ask(chat_app().test_client(), "explain this", mode="combined")
    assert data["status"] == "completed" and data["sources"][0]["source_type"] == "selected_text"


def test_a_question_the_passage_does_not_cover_is_declined_with_the_offer_to_search(chat_app):
    client = chat_app().test_client()
    for question, elsewhere in (("what's the capital of France?", False),
                                ("how does dither turn quantization error into hiss?", True)):
        data = _ask(client, question)
        # the whole book is offered only where its own path may answer (dither is in the book)
        assert data["status"] == "refused" and data["offer_book_search"] is elsewhere, (question, data["answer"])
        assert "doesn't cover" in data["answer"] and "Nyquist" not in data["answer"]
    covered = _ask(client, "what is the nyquist frequency of cd audio?")
    assert covered["status"] == "completed" and "22,050" in covered["answer"] and not covered["offer_book_search"]


def test_with_gemini_requests_and_misspelt_questions_reach_the_model(sample_book, tmp_path, fake, chat_app):
    settings = make_settings(tmp_path / "data", gemini_api_key="test-key", gemini_timeout_s=5.0)
    generator = WithFallback(GeminiGenerator(settings, GeminiClient(settings, backoff_s=0.05)),
                             ExtractiveGenerator(sample_book.embedder), label="Gemini")
    client = chat_app(generator=generator, gemini_api_key="test-key", gemini_timeout_s=5.0).test_client()
    for question, intent in REQUESTS.items():
        fake.script({"text": "In other words, the sampler must run fast enough [1]."})
        data = _ask(client, question)
        assert data["status"] == "completed", data["answer"]
        sent = fake.requests[-1]
        assert f"Question: {question}" in sent.user_text and "not reply NOT_IN_BOOK" in sent.system_text
    asked = len(fake.requests)
    for question in ("what is the nyqist frequency?", "why does alising happen?", "how does dithr work?"):
        fake.script({"text": "The book says so [1]."})
        data = client.post("/chat", json={"question": question}).get_json()
        assert data["status"] == "completed", data["answer"]
        assert data["corrections"], question
        assert f"Question: {question}" in fake.requests[-1].user_text
    assert len(fake.requests) == asked + 3


def test_combined_mode_declines_what_neither_the_passage_nor_the_book_answers(chat_app):
    client = chat_app().test_client()
    for question in ("what's the capital of France?", "who painted the mona lisa?"):
        data = _ask(client, question, mode="combined")
        assert data["status"] == "refused" and not data["sources"], (question, data["answer"])
        assert "22,050" not in data["answer"] and not data["offer_book_search"]  # the passage is not quoted
    for question, intent in REQUESTS.items():  # requests about the passage are still answered
        data = _ask(client, question, mode="combined")
        assert data["status"] == "completed" and data["intent"] == intent, (question, data["answer"])
    covered = _ask(client, "what is the nyquist frequency of cd audio?", mode="combined")
    assert covered["status"] == "completed" and "22,050" in covered["answer"]
    for mode in ("exclusive", "combined"):
        pointing = _ask(client, "why does this happen?", mode=mode)  # about the passage itself
        assert pointing["status"] == "completed" and pointing["intent"] == "explain"
        # pointing at the passage does not make any question about it: it names what it does not say
        elsewhere = _ask(client, "who invented this?", mode=mode)
        assert elsewhere["status"] == "refused" and "Nyquist" not in elsewhere["answer"], elsewhere["answer"]


STEMS = ["explain this", "give me an example", "summarize this", "simplify this", "rephrase this",
         "why does this matter"]
PHRASINGS = [case(f"{before}{stem}{after}") for stem in STEMS for before in ("", "can you ", "please ", "could you please ")
             for after in ("", "?", " please", "!") for case in (str.lower, str.capitalize, str.upper)]


def test_every_phrasing_of_a_request_about_the_passage_is_one():
    assert [q for q in PHRASINGS if detect(q, PASSAGE) is Intent.QUESTION] == []


@pytest.mark.parametrize("mode", ["exclusive", "combined"])
def test_requests_phrased_any_way_are_never_refused(chat_app, mode):
    client = chat_app().test_client()
    for question in PHRASINGS[::17]:  # every stem, with and without "can you", "please", capitals
        data = _ask(client, question, mode)
        assert data["status"] == "completed" and data["intent"] != "question", (question, data["answer"][:200])


def test_a_highlighted_part_of_a_sentence_is_judged_with_the_paragraph_that_holds_it(chat_app):
    """python-codex-i18n: "method is designed for binary files" highlighted, "why can't I seek freely
    in text mode?" was declined: the part says nothing of text mode, the rest of its sentence does.
    A part of a sentence is judged, and answered, as the paragraph that holds it on the reader's page;
    asked with no page, or of a whole sentence, it is judged as highlighted."""
    client = chat_app().test_client()
    page = "http://127.0.0.1:8000/book/docs/foundations/quantization-and-bit-depth"
    body = {"question": "what does it do to the shape of the waveform?", "selection_mode": "combined",
            "selected_text": "is far more audible than quantization noise", "metadata": {"page_url": page}}
    data = client.post("/chat", json=body).get_json()
    assert data["status"] == "completed" and "flattens the tops of waveforms" in data["answer"], data["answer"]
    declined = client.post("/chat", json={**body, "metadata": {}}).get_json()
    assert "flattens the tops of waveforms" not in declined["answer"], declined["answer"]


def test_asked_with_the_book_beside_it_the_highlighted_passage_that_answers_leads():
    """survival-ts: "フロントエンドしかやらないのにNode.js入れる必要あるの？" (do I need Node.js if I only do
    front-end work?) of a highlighted passage saying why front-end work needs it, asked with the book
    beside it, was answered with the install section ("Node.js" heads it) and two more, and never the
    passage: the book's passages were numbered first and filled the answer. The passage leads where it
    says something asked; the book's pieces follow."""
    from server.book.chunk import Chunk
    from server.question.compose.extractive.answers import quoted_answer
    from server.question.context import HighlightedPassage, Source

    passage = ("Node.jsの典型的な用途は、サーバーサイドアプリケーションの開発です。最近のフロントエンド開発でも、Node.jsが必要に"
               "なってきています。なぜかというと、開発で使うツールをNode.jsで動かす必要があるからです。")
    install = Chunk(chunk_id="i", book_id="b", book_title="B", content="Node.jsは公式サイトからダウンロードしてインストール"
                    "することもできますが、もっとも手軽な方法はHomebrewを使ったインストールです。\n\n```shell\nbrew install "
                    "node@24\n```", content_hash="", source_file="setup.md", url="", module="", chapter="", section="",
                    heading="Node.jsのインストール", section_hierarchy=["開発環境の準備", "Node.jsのインストール"], page=0,
                    source_location="", citation="", file_hash="", locale="ja", score=0.94)
    sources = [Source(install, "database"), Source(HighlightedPassage(0, passage, 0.9), "selected_text")]
    answer = quoted_answer("フロントエンドしかやらないのにNode.js入れる必要あるの？", sources).text
    assert answer.startswith("Node.jsの典型的な用途は") and "フロントエンド開発でも、Node.jsが必要" in answer, answer
