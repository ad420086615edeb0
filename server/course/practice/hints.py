"""Hints before answers (tutor mode): where to read, cited, and one guiding question, never the
sentences that answer. "another hint" narrows it (the answering sentence with its key words left
out); "show me the answer" gives the answer the question would have had. A student asking to
solve one of the book's own exercises gets hints first even without tutor mode; its answer, when
the student asks for it, is the book's own."""
from __future__ import annotations

import re
from typing import Sequence

import numpy as np

from server.book.outline import OutlinePage
from server.course.practice.check import answering_sentences, key_terms
from server.course.quiz import questions_for, tested_page
from server.embedding.choice import MULTILINGUAL, on_gate_scale
from server.course.practice.hint_wording import HINTS, HintWording, focus_in_words, kind_of
from server.course.resolve import resolve_page
from server.question.practice import Hint, Practice, QuizItem
from server.text import own_language
from server.text.asked import everyday_in_its_script
from server.text.scripts import script_of
from server.text.terms import STOPWORDS, term_set
from server.text.lengths import spaced_length

ANOTHER = ["another hint", "give me another hint", "one more hint please", "a bit more help", "I'm still stuck",
           "more of a hint", "otra pista", "dame otra pista", "もう一つヒントをください", "再给我一个提示"]
REVEAL = ["show me the answer", "just tell me the answer", "what is the answer", "I give up, tell me",
          "reveal the answer", "show the solution", "muéstrame la respuesta", "dime la respuesta", "答えを教えて",
          "告诉我答案"]
FLOOR = 0.62
_ANOTHER = re.compile(r"(?i)^\W*(another|one more|more|a further|next|otra)\s+(hint|clue|pista)s?\b|"
                      r"^\W*(もう一つ|もうひとつ|別の)ヒント|^\W*再给.{0,2}提示|^\W*ایک اور اشارہ")
_REVEAL = re.compile(r"(?i)^\W*(show|tell|give|reveal)\s+(me\s+)?(the\s+)?(answer|solution)\b|^\W*i give up\b|"
                     r"^\W*(mu[eé]strame|dime)\s+la\s+(respuesta|soluci[oó]n)|^\W*答えを(教えて|見せて)|"
                     r"^\W*(告诉我|显示)答案|^\W*جواب\s+(دکھائیں|بتائیں)")
_SOLVE = re.compile(r"(?i)\b(solve|answer|do|help( me)? with|how (do|would|should|can) i (solve|do|answer|approach|start)|"
                    r"solution (to|for)|work out|resuelve|resolver|ayuda con)\b")
_EXERCISE = re.compile(r"(?i)\b(exercise|question|problem|task|challenge|quiz item|ejercicio|pregunta|problema)\s*"
                       r"#?\s*(?P<n>\d{1,3})?\b")
_FILLER = frozenset("""what which why how when where who is are does do can should i me my a an the of to in on for
and or it this that there with use used using about between difference""".split())
BLANK = "____"
_FENCED = re.compile(r"^\s*(```|~~~)[^\n]*\n.*?^\s*\1[^\n]*$", re.M | re.S)


def _focus(question: str) -> str:
    """The question's own words for its topic (what the student already said): not its frame, nor
    in another script the language's commonest words ("سروس کیا ہوتی ہے؟": سروس)."""
    words = [w for w in re.findall(r"[\w'+#.-]+", question) if w.lower() not in _FILLER | STOPWORDS
             and not (script_of(w[0]) != "LATIN" and w[0].isalpha() and everyday_in_its_script(w))]
    return " ".join(words[:4]).strip(" .")


def guiding_question(question: str, words: HintWording = HINTS["en"]) -> str:
    """One question that sends the student towards the answer without giving it."""
    kind = kind_of(question)
    if kind == "define" or kind is None:
        focus = focus_in_words(question, words) or _focus(question)
        return (words.define if kind else words.which_sentence).format(focus=focus)
    return getattr(words, kind)


def cloze(sentence: str, question: str, blanks: int) -> str:
    """The answering sentence with its key words (those the question does not give) left out; in
    Chinese or Japanese, the words of the sentence the question does not say, longest first."""
    topics = own_language.topic_words(sentence)
    if topics is not None:
        said = set(own_language.question_words(question, ("zh",)) + own_language.question_words(question, ("ja",)))
        kept = topics - said
        hidden = sorted(kept, key=lambda w: (-len(w), sentence.index(w)))[:blanks]
        text = sentence
        for word in hidden:
            text = text.replace(word, BLANK)
        return text if BLANK in text else ""
    hidden = key_terms(sentence, question)[:blanks]
    shown = [BLANK if any(re.sub(r"\W", "", w.lower()).startswith(t) for t in hidden) else w for w in sentence.split()]
    text = re.sub(rf"(?:{BLANK}\s+)+{BLANK}", BLANK, " ".join(shown))
    return text if BLANK in text else ""


class Tutor:
    """Hints for the passage route's questions, and for the book's own exercises."""

    def __init__(self, course, embedder):
        self.course = course
        self.embedder = embedder
        self.scale = on_gate_scale(getattr(embedder, "model_name", ""))  # FLOOR is a MiniLM cosine
        self._phrases: tuple[np.ndarray, np.ndarray] | None = None
        self.multilingual = getattr(embedder, "model_name", "") == MULTILINGUAL

    def reads(self, text: str) -> bool:
        """Does the model read the text's language: any, for the multilingual model; else Latin letters."""
        return self.multilingual or not any(ch.isalpha() and script_of(ch) != "LATIN" for ch in text)

    def follow_up(self, text: str) -> str | None:
        """"another" or "reveal" when the student asks for another hint or for the answer."""
        if _REVEAL.search(text):
            return "reveal"
        if _ANOTHER.search(text):
            return "another"
        if spaced_length(text) > 8 or not self.reads(text):
            return None  # a model that reads English only finds any two Urdu or Chinese phrases alike
        if self._phrases is None:
            self._phrases = (self.embedder.embed_documents(ANOTHER), self.embedder.embed_documents(REVEAL))
        vector = self.embedder.embed_query(text)
        another, reveal = (self.scale(float(np.max(m @ vector))) for m in self._phrases)
        if max(another, reveal) < FLOOR:
            return None
        return "another" if another > reveal else "reveal"

    def last_hint(self, history: Sequence) -> Hint | None:
        """The hint the conversation's last practice gave, if its last practice was a hint."""
        for message in reversed(history):
            kept = Practice.from_stored(message.practice) if message.role == "assistant" else None
            if kept is not None:
                return kept.hint
        return None

    def exercise(self, question, text: str) -> tuple[QuizItem, OutlinePage] | None:
        """The book's exercise (or quiz question) the student asks to solve, on the page they are on."""
        outline = self.course.outline(question.filters.book_id)
        page = resolve_page(outline, question.page.url, question.page.title) if outline and question.page.url else None
        if page is None:
            return None
        asked, own = questions_for(outline, [page])
        if not own:
            return None
        items = [QuizItem(n, i.question, i.choices, i.key, i.answer, i.tests, i.tests_heading, url)
                 for n, (i, _, url) in enumerate(asked, 1)]
        named = _EXERCISE.search(text)
        solving = bool(_SOLVE.search(text)) and named is not None
        if solving and named["n"]:
            number = named["n"]
            found = next((i for i, (item, _, _) in zip(items, asked) if item.number == number), None)
            found = found or next((i for i in items if str(i.n) == number), None)
            if found:
                return found, page
        said = term_set(text)
        scored = [(len(said & term_set(i.question)) / max(1, len(term_set(i.question))), i) for i in items]
        best = max(scored, key=lambda s: s[0], default=(0.0, None))
        if best[1] is not None and (best[0] >= 0.6 and len(term_set(best[1].question)) >= 4
                                    or solving and best[0] >= 0.3):
            return best[1], page
        return None

    def exercise_hint(self, item: QuizItem, outline) -> Hint:
        """The first hint for one of the book's exercises: the section it tests."""
        page, url = tested_page(outline, item)
        return Hint(item.question, 1, url, item.tests_heading or (page.name if page else ""), item.answer)

    def narrowed(self, hint: Hint, section_text: str) -> str:
        """The next hint: the answering sentence with its key words left out."""
        # a sentence of its prose: a line of code is no sentence to complete
        sentence = answering_sentences(_FENCED.sub(" ", section_text), hint.question, limit=1)
        if hint.answer and "```" not in hint.answer:
            sentence = hint.answer.split("\n\n")[0]
        blanks = 3 if hint.level <= 2 else 1
        return cloze(" ".join(sentence.split())[:400], hint.question, blanks)

