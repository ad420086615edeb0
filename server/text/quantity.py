"""A question asking for a quantity ("how many duplicates would I get by chance?", "how much does a
kit cost?", "¿cuántos …?", "多少") is answered by a sentence that says a number ("This returns a
duplication rate of about 4%"), whatever its words: the number is what is asked."""
from __future__ import annotations

import re

QUANTITY = "#quantity"  # the asked "word" a number says, among a question's weighed words
# ("how fast it's turning", "how long it takes" describe as often as they ask for a number: measured, not kept)
_ASKS = re.compile(r"\bhow\s+(?:many|much)\b|"
                   r"\bwhat\s+(?:percentage|fraction|proportion|share)\b|\bcu[aá]nt[oa]s?\b|"
                   r"多少|(?<!好)几[个個次]|いくつ|何[個回人本]|どのくらい|どれくらい|کتن[ےاي]", re.IGNORECASE)
# a number said as an amount: with its unit or what it counts ("about 4%", "50bp", "2 million reads",
# "4 bytes"), or after a word that gives an amount ("the rate is 0.5", "of about 3"); not one naming a
# part of the book, a version or a thing ("Listing 8-24", "Chapter 3", "Python 3", "read 1 and read 2"),
# nor one inside a name ("ch10", "s1", "x86")
_NUMBER = re.compile(r"(?<![\w.\-/#$])\d+(?:[.,]\d+)*(?:%|[A-Za-z]{1,3}\b)?(?![\w-]*[A-Za-z_\d])")
_COUNTED = re.compile(r"\s*(?:%|percent\b|(?!(?:and|or|but|the|of|to|in|on|at|is|are|was|for|with|as|by|from|"
                      r"if|then|than|should|would|could|can|will|must|may|might|has|have|had|does|do|did|it|its|this|that|these|"
                      r"those|which|who|when|where|while|so|not|also)\b)[A-Za-z]{2,})", re.IGNORECASE)
_AMOUNT_BEFORE = re.compile(r"\b(?:is|are|was|were|be|of|about|around|roughly|approximately|than|to|by|nearly|almost|"
                            r"over|under|only|just|at|least|most|up|equals?|de|es|son|unos|unas)\s*$|[=~≈]\s*$|"
                            r"[约約有是为為]\s*$|(?:約|およそ|は)\s*$", re.IGNORECASE)
_REFERENCE = re.compile(r"(?:listing|figure|fig\.|chapter|ch\.|table|section|step|line|appendix|example|part|"
                        r"module|lab|exercise|version|python|rust|java|edition|lesson|week|page|question|"
                        r"item|rule|phase|level|stage|option|case|type|id|no\.|number|#)\s*$", re.IGNORECASE)


# a number written out before what it counts ("four bytes in size", "twelve players"); not "one", said of anything
_NUMBER_WORD = re.compile(r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|"
                          r"fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?|millions?|billions?|dozens?)\b",
                          re.IGNORECASE)


_HOW_MANY = re.compile(r"\bhow\s+many\s+([A-Za-z]{3,})", re.IGNORECASE)
_SHARE = re.compile(r"\s*(?:%|percent\b)", re.IGNORECASE)


def asks_quantity(question: str) -> bool:
    return bool(_ASKS.search(question))


def counted(question: str) -> str:
    """What "how many …" counts ("how many bytes is a char?": "bytes"); "" where the question does not say."""
    found = _HOW_MANY.search(question)
    return found[1].lower() if found else ""


def says_quantity(text: str, question: str = "") -> bool:
    """Does the prose say a number as an amount ("about 4%", "2 million reads", "four bytes")? Of
    what the question counts, if it says: a share, or a number of it ("the first 4 bytes", not "two
    values of type `char`" of "how many bytes …?")."""
    counting = counted(question)
    numbers = [found for found in _NUMBER.finditer(text) if not _REFERENCE.search(text[:found.start()][-16:])]
    numbers += [found for found in _NUMBER_WORD.finditer(text) if _COUNTED.match(text, found.end())]
    for found in numbers:
        if counting:
            after = text[found.end():found.end() + 40].lower().split()[:2]
            if _SHARE.match(text, found.end()) or found[0].endswith("%") or any(
                    word.startswith(counting[:4]) for word in after):
                return True
            continue
        before = text[:found.start()][-16:]
        if found[0][-1:].isalpha() or found[0].endswith("%") or _COUNTED.match(text, found.end()) \
                or _AMOUNT_BEFORE.search(before) or not before.strip():
            return True
    return False
