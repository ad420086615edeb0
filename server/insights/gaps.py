"""Coverage gaps: the questions the book did not answer (refused, or answered and rated down),
grouped by meaning with the embedding model's vectors kept when they were asked.

Grouping: the same question asked again counts once more; then the question with the most
askings like it (itself included) that is not yet in a group leads a new one, joined by every
question not yet in a group at least GROUP_SIMILARITY alike to it (cosine). 0.5 is a property of the model (MiniLM's;
the multilingual model's cosines are put on its scale), not of a book: across the four development books'
question sets, pairs of different questions are that alike in fewer than 1 % of cases
(benchmarks/gap_grouping.py), so a group is one topic asked in several ways.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from server.embedding.choice import on_gate_scale
from server.insights.pages import words_of

GROUP_SIMILARITY = 0.5
# the most recent refused and rated-down questions of the period are grouped (an n × n similarity
# matrix): what students ask lately, in a fixed time on any amount of history
MAX_GROUPED = 2000


@dataclass(frozen=True)
class GapQuestion:
    question: str
    vector: bytes
    nearest: tuple[tuple[str, str], ...]  # (section, url)
    rated_down: bool


@dataclass(frozen=True)
class Gap:
    size: int  # questions in the group (each asking counted)
    examples: tuple[str, ...]  # the most asked first
    nearest: tuple[tuple[str, str], ...]  # the book's sections nearest to them: (section, url)
    refused: int
    rated_down: int


def group_gaps(questions: list[GapQuestion], limit: int = 20, model: str = "") -> list[Gap]:
    """`questions`: most recent first, embedded by `model` (GROUP_SIMILARITY is a MiniLM cosine;
    another model's are put on its scale). The largest `limit` groups, largest first."""
    distinct: dict[str, list[GapQuestion]] = {}
    for q in questions:
        key = " ".join(words_of(q.question))
        distinct.setdefault(key, []).append(q)
    if not distinct:
        return []
    asked = list(distinct.values())
    vectors = np.stack([np.frombuffer(a[0].vector, dtype=np.float16).astype(np.float32) for a in asked])
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    similar = on_gate_scale(model, two_questions=True)(vectors @ vectors.T) >= GROUP_SIMILARITY
    counts = np.array([len(a) for a in asked])
    leader_of = np.full(len(asked), -1)
    around = similar @ counts  # how often it, or something like it, was asked
    for i in np.lexsort((-counts, -around)):  # the most central question leads; ties: the more asked, then recent
        if leader_of[i] < 0:
            leader_of[similar[i] & (leader_of < 0)] = i
    gaps = []
    for leader in np.unique(leader_of):
        members = sorted(np.flatnonzero(leader_of == leader), key=lambda m: (m != leader, -counts[m]))
        everyone = [q for m in members for q in asked[m]]
        nearest = Counter(n for q in everyone for n in q.nearest)
        gaps.append(Gap(size=len(everyone), examples=tuple(asked[m][0].question for m in members[:3]),
                        nearest=tuple(n for n, _ in nearest.most_common(3)),
                        refused=sum(not q.rated_down for q in everyone), rated_down=sum(q.rated_down for q in everyone)))
    return sorted(gaps, key=lambda g: -g.size)[:limit]
