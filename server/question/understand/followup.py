"""Follow-up questions ("and what about services?") are retrieved with the previous question."""
from __future__ import annotations

import re
from typing import Sequence

from server.sessions import Message
from server.text.lengths import spaced_length
from server.text.asked import asked_words, short_terms
from server.text.vocabulary import unspaced

# "why" is no such start: "why do robots fall over?" asks on its own, "why?" and "why is that?" do not
_FOLLOW_UP_START = re.compile(r"^(and|but|also|so|then|what about|how about|what if|how so|and how|or)\b", re.I)
_PRONOUN = re.compile(r"\b(it|its|they|them|their|this|that|these|those|he|she|one|ones)\b", re.I)
# the same in the pool's other languages: "¿y eso?", "それは何？", "どっちを使う？", "那个呢？", "یہ کیا ہے؟"
_FOLLOW_UP_ELSEWHERE = re.compile(r"^¿?\s*(?:y|pero|entonces)\b|^(?:じゃあ|では|それで|那么|那|还有)|"
                                  r"\b(?:eso|esto|ese|esa|یہ|وہ|اس)\b|それ|これ|あれ|その|この|どっち|どちら|它|这个|那个|哪个",
                                  re.I)


# what a short follow-up asks for more of ("an example?", "explain simpler"): no topic of its own
_MORE = frozenset("""example examples explain elaborate detail details detailed simpler simply again summary summarize
summarise code show another else continue please clarify meaning expand further instance ejemplo ejemplos explica
detalle detalles مثال وضاحت""".split())


def looks_like_follow_up(question: str) -> bool:
    """A question that starts as a follow-up does, or is short (in words a reader reads: Chinese
    and Japanese, unspaced, by their characters in twos) and names nothing of its own ("why?",
    "an example?", but not "what's a trait?"), or short and leaning on a pronoun."""
    return points_back(question) or (spaced_length(question) <= 3 and not _names(question))


def points_back(question: str) -> bool:
    """Does the question start as a follow-up does, or is it short and leaning on a pronoun
    ("why does that happen?", "どっちを使えばいい？")?"""
    pointing = spaced_length(question) <= 8 and bool(
        _PRONOUN.search(question) or _FOLLOW_UP_ELSEWHERE.search(question.strip()))
    return bool(_FOLLOW_UP_START.match(question.strip())) or pointing


def _names(question: str) -> bool:
    """Does the question name a topic in spaced words ("trait", "PPO")?"""
    return any(not unspaced(w) and w not in _MORE for w in asked_words(question) | short_terms(question))


def retrieval_query(question: str, history: Sequence[Message]) -> str:
    """The text to retrieve with: the question, or the last user question plus this one."""
    previous = [m.content for m in history if m.role == "user"]
    if previous and looks_like_follow_up(question):
        return f"{previous[-1]} {question}"
    return question
