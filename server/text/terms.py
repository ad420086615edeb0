"""The terms a piece of text is about: its content words, each by its first five letters (so
that "sampling", "sampled" and "samples" are one term), without the little words any text uses;
in Chinese and Japanese, whose words are not spaced, pairs of characters; in another script (Urdu),
its words but the language's commonest. What an answer, a section or a question share is counted
in these terms (practice: which section a question tests, whether a student's answer says what the
book's does, how much of an answer a hint gives away)."""
from __future__ import annotations

import re

from server.text.asked import everyday_in_its_script

_LATIN = re.compile(r"[a-z0-9][a-z0-9_+#'’-]*[a-z0-9+#]|[a-z0-9]", re.IGNORECASE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+")
# a word in another script than Latin (its accented letters included), Chinese, Japanese or Korean
_OTHER = re.compile(r"[^\W\d_a-zA-Z\u00c0-\u024f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+")
STEM = 5
# English and Spanish words that say nothing of a topic
STOPWORDS = frozenset("""
a about above after again against all also am an and any are aren as at be because been before being below
between both but by can cannot could did didn do does doesn doing don down during each either else etc even
ever every few for from further get gets got had has hasn have having he her here hers herself him himself his
how however i if in into is isn it its itself just let like ll made make makes many may me might more most much
must my myself need no nor not now of off often on once one only onto or other others our ours ourselves out
over own per quite rather re really s said same say says see seen several shall she should so some such than
that the their theirs them themselves then there these they thing things this those though through thus to too
under until up upon us use used uses using very via was wasn way we well were weren what when where whether
which while who whom whose why will with within without would yet you your yours yourself yourselves
answer answers question questions true false correct following best describes describe explain
el la los las un una unos unas de del al y o u que en con por para como es son ser se su sus lo le les este
esta estos estas ese esa eso esto mas más pero si no sí ya muy también cuando donde qué cuál cómo
""".split())


def _stem(word: str) -> str:
    return word[:STEM] if len(word) > STEM else word


def terms(text: str) -> list[str]:
    """The text's content terms, in order, repeated as often as it says them."""
    found: list[str] = []
    lowered = (text or "").lower()
    for word in _LATIN.findall(lowered):
        word = word.strip("'’-")
        if len(word) > 1 and word not in STOPWORDS and not word.isdigit():
            found.append(_stem(word))
    for run in _CJK.findall(lowered):
        found.extend(run[i:i + 2] for i in range(max(1, len(run) - 1)))
    for word in _OTHER.findall(lowered):  # Urdu, Russian, Hindi …: not the language's commonest words
        if len(word) >= 3 and not everyday_in_its_script(word):
            found.append(_stem(word))
    return found


def term_set(text: str) -> set[str]:
    return set(terms(text))


def shared(a: set[str], b: set[str]) -> float:
    """How much of `a` is in `b` (0 when `a` is empty)."""
    return len(a & b) / len(a) if a else 0.0
