"""The offline generator: the passages' own words, cited.

A question about the book gets the pieces of the retrieved passages (read on into the chunks
after them on their page) that answer it, as the book wrote them (answers.py); a request about
a highlighted passage ("explain this", "summarize this") gets the passage's key sentences
(highlight.py). Nothing here runs a model.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from server.embedding.choice import on_gate_scale
from server.question.compose.extractive.answers import Quoted, quoted_answer
from server.question.context import database_sources
from server.question.compose.extractive.code_passage import code_answer
from server.question.judge.highlight import passage_answer
from server.question.understand.intent import Intent
from server.question.compose.generator import Deltas, GenerationInput, Outcome

if TYPE_CHECKING:
    from server.embedding.protocol import TextEmbedder
    from server.question.compose.extractive.continuation import Following, Preceding
    from server.text.vocabulary import BookVocabulary, Lexicon


# requests about highlighted code answered from the code itself (explain it, say what it does, its language)
CODE_REQUESTS = (Intent.LANGUAGE, Intent.CODE, Intent.EXPLAIN, Intent.SIMPLIFY)


class ExtractiveGenerator:
    name = "extractive"

    def __init__(self, embedder: "TextEmbedder | None" = None, lexicon: "Lexicon | None" = None,
                 following: "Following | None" = None, preceding: "Preceding | None" = None):
        self.embedder = embedder  # nothing is embedded to answer
        self.scale = on_gate_scale(getattr(embedder, "model_name", ""))  # its passages' scores on MiniLM's scale
        self.lexicon = lexicon  # a book's vocabulary by book id: how rare each asked word is in it
        self.following = following  # the chunks after a passage on its page, read on into
        self.preceding = preceding  # the beginning of the sentence a passage opens inside of

    def _book(self, sources) -> "BookVocabulary | None":
        book_id = next((s.chunk.book_id for s in sources if s.source_type == "database"), None)
        return self.lexicon(book_id) if self.lexicon is not None and book_id else None

    def compose(self, request: GenerationInput) -> str:
        return self.quote(request).text

    def quote(self, request: GenerationInput) -> Quoted:
        length = request.preferences.answer_length
        if request.intent is not None and request.intent.about_the_passage:
            if request.code_language and request.intent in CODE_REQUESTS:
                return Quoted(code_answer(request.intent, request.sources, request.selected_text or "",
                                          request.code_language))
            text, parts = passage_answer(request.intent, request.question, request.sources, length, request.language)
            if text:
                return Quoted(text, tuple(parts))
        return quoted_answer(request.spelled or request.question, request.sources, length, self._book(request.sources),
                             self.following, page=request.page_key,
                             scale=self.scale, preceding=self.preceding, term=request.term)

    def generate(self, request: GenerationInput) -> Deltas:
        text, extra = self.quote(request)
        if not text:
            return Outcome(self.name, refused=True)
        for piece in re.findall(r"\S+\s*", text):
            yield piece
        return Outcome(self.name, extra_sources=tuple(database_sources(list(extra))))
