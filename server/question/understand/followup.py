"""Follow-up questions ("and what about services?") are retrieved with the previous question."""
from __future__ import annotations

import re
from typing import Sequence

from server.sessions import Message

_FOLLOW_UP_START = re.compile(r"^(and|but|also|so|then|what about|how about|what if|why|how so|and how|or)\b", re.I)
_PRONOUN = re.compile(r"\b(it|its|they|them|their|this|that|these|those|he|she|one|ones)\b", re.I)


def looks_like_follow_up(question: str) -> bool:
    words = question.split()
    return bool(_FOLLOW_UP_START.match(question.strip())) or len(words) <= 3 or (
        len(words) <= 8 and bool(_PRONOUN.search(question)))


def retrieval_query(question: str, history: Sequence[Message]) -> str:
    """The text to retrieve with: the question, or the last user question plus this one."""
    previous = [m.content for m in history if m.role == "user"]
    if previous and looks_like_follow_up(question):
        return f"{previous[-1]} {question}"
    return question
