"""The offline generator: the passages' own sentences that best answer the question, cited.

Sentences are scored with the same embedding model as retrieval (cosine to the question,
nudged by the passage's retrieval score), the best few are kept in reading order, and each
run of sentences from one passage ends with its [n] marker.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..highlight import passage_answer
from ..intent import Intent
from ..markers import cite_end
from ..sentences import split_sentences, strip_markdown
from .base import Deltas, GenerationInput, Outcome

if TYPE_CHECKING:
    from ...embedding.embedder import Embedder

SENTENCES_BY_LENGTH = {"short": 2, "normal": 4, "detailed": 6}


@dataclass
class _Candidate:
    source_number: int
    position: int
    text: str
    score: float = 0.0


def _candidates(request: GenerationInput) -> list[_Candidate]:
    found: list[_Candidate] = []
    for number, source in enumerate(request.sources, 1):
        for position, sentence in enumerate(split_sentences(strip_markdown(source.chunk.content))):
            words = len(sentence.split())
            if 4 <= words <= 90 and not sentence.endswith(":"):
                found.append(_Candidate(number, position, sentence))
    if not found:  # passages of headings and short list items: quote their lines instead
        for number, source in enumerate(request.sources, 1):
            for position, line in enumerate(split_sentences(strip_markdown(source.chunk.content))):
                if len(line.split()) >= 2:
                    found.append(_Candidate(number, position, line.rstrip(":") + "."))
    return found


class ExtractiveGenerator:
    name = "extractive"

    def __init__(self, embedder: Embedder):
        self.embedder = embedder

    def compose(self, request: GenerationInput) -> str:
        if request.intent and Intent(request.intent).about_the_passage:
            text = passage_answer(Intent(request.intent), request.question, request.sources,
                                  request.preferences.get("answer_length", "normal"))
            if text:
                return text
        candidates = _candidates(request)
        if not candidates:
            return ""
        question = self.embedder.embed_query(request.question)
        vectors = self.embedder.embed_documents([c.text for c in candidates])
        similarity = vectors @ question
        for candidate, sim in zip(candidates, similarity):
            retrieval = request.sources[candidate.source_number - 1].score
            candidate.score = float(sim) + 0.25 * retrieval
        limit = SENTENCES_BY_LENGTH.get(request.preferences.get("answer_length", "normal"), 4)
        picked: list[int] = []
        for i in np.argsort([-c.score for c in candidates]):
            if len(picked) == limit:
                break
            if any(float(vectors[i] @ vectors[j]) > 0.92 for j in picked):
                continue  # the book often says the same thing twice
            picked.append(int(i))
        chosen = sorted((candidates[i] for i in picked), key=lambda c: (c.source_number, c.position))
        parts: list[str] = []
        for k, candidate in enumerate(chosen):
            last_of_run = k + 1 == len(chosen) or chosen[k + 1].source_number != candidate.source_number
            parts.append(cite_end(candidate.text, candidate.source_number) if last_of_run else candidate.text)
        return " ".join(parts)

    def generate(self, request: GenerationInput) -> Deltas:
        text = self.compose(request)
        if not text:
            return Outcome(self.name, refused=True)
        for piece in re.findall(r"\S+\s*", text):
            yield piece
        return Outcome(self.name)
