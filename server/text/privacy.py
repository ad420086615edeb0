"""Readers' personal details masked before a question, a passage, a page title or a comment is
stored (or sent to a model): e-mail addresses, phone numbers, card numbers and other ID-like
numbers become [email], [phone], [card] and [id]. What a book writes about (version numbers,
dates, standards such as ISO 8601, addresses like 192.168.0.1) stays as it is.

The text is first read the way a person would read it (`readable`): compatibility forms folded
(NFKC: a fullwidth "＠" is "@", fullwidth digits are digits) and invisible characters dropped
(zero-width spaces and joiners, soft hyphens), so that what looks like an address to a person
is one to the patterns. The text is kept as sent unless something in it is masked.

E-mail addresses are found however they are typed: "jane@uni.edu", "jane @ uni . edu",
"jane@localhost", "jane [at] uni [dot] edu", and "jane at uni dot edu" when its last part is
a top-level domain (so "look at the dot product" is no address). Phone numbers are found by
libphonenumber (the `phonenumbers` package): written internationally (+…) anywhere, and in the
national formats of the regions below. Card numbers are 13 to 19 digits that pass the Luhn
check, in groups joined by spaces, dashes, dots, commas or underscores; IBANs pass their own
check (python-stdnum). Any other run of 9 or more digits, possibly in groups (account, student
or national ID numbers) is ID-like.
"""
from __future__ import annotations

import re
import unicodedata

import phonenumbers
from stdnum import iban, luhn

# national formats read without a + (the others are found when written with their country code)
PHONE_REGIONS = ("ZZ", "US", "GB", "IN", "DE", "FR")
INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e"
                                   "\u200f\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064"
                                   "\u2066\u2067\u2068\u2069\u3164\ufeff\uffa0"))
# from the start of a run of such characters only: tried from inside one, a long run costs its square
_LOCAL = r"(?<![\w.!#$%&'*+/=?^`{|}~-])[\w.!#$%&'*+/=?^`{|}~-]+"
_LABEL = r"[\w-]+"
# a top-level domain written out: the common generic ones, or any two letters (a country's)
_TLD = r"(?:com|org|net|edu|gov|mil|int|info|biz|io|dev|app|ai|mail|email|online|site|xyz|[a-z]{2})"
EMAIL = re.compile(
    rf"{_LOCAL}@(?:{_LABEL}(?:\.{_LABEL})+|localhost\b)"  # jane@uni.edu, jane@localhost
    rf"|{_LOCAL}\s*@\s*{_LABEL}(?:\s*\.\s*{_LABEL})*\s*\.\s*{_TLD}\b"  # jane @ uni . edu
    # jane [at] uni [dot] edu, jane (at) uni (dot) edu
    rf"|{_LOCAL}\s*[\[({{<]\s*at\s*[\])}}>]\s*{_LABEL}(?:\s*(?:\.|[\[({{<]\s*dot\s*[\])}}>])\s*{_LABEL})+"
    rf"|{_LOCAL}\s+at\s+{_LABEL}(?:\s+dot\s+{_LABEL})*\s+dot\s+{_TLD}\b",  # jane at uni dot edu
    re.UNICODE | re.IGNORECASE)
# digits in groups joined by one space, dash or slash (never a dot: 3.11.4 and 192.168.0.1 are
# not numbers of a person)
DIGIT_RUN = re.compile(r"(?<![\w.])\+?\(?\d[\d\s\-/()]*\d(?![\w]|\.\d)")
# a card's groups, joined by the same separator each time (4-4-4-4…, or 4-6-5)
CARD_GROUPS = re.compile(r"(?<![\w.,])\d{4}([ ._,\-])(?:\d{4}\1\d{4}\1\d{1,7}|\d{6}\1\d{5})(?![\w]|[.,]\d)")
PHONE_CANDIDATE = re.compile(r"(?<![\w.])\+?\(?\d[\d\s\-.()]{5,22}\d(?![\w])")  # no phone number is written longer
IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:[ .\-]?[A-Z0-9]{4}){2,7}(?:[ .\-]?[A-Z0-9]{1,3})?\b")
ID_WORD = re.compile(r"\b(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z]{1,3}\d{6,}\b")  # A1234567, s12345678
_SIX_DIGITS = re.compile(r"(?:\d\D{0,2}){6}")  # fewer digits: no number of a person


def readable(text: str) -> str:
    """The text as a person reads it: compatibility forms folded, invisible characters dropped."""
    return unicodedata.normalize("NFKC", text).translate(INVISIBLE)


def mask(text: str | None) -> str | None:
    """`text` with personal details replaced by what they are."""
    if not text:
        return text
    read = readable(text)
    masked = _masked(read)
    return text if masked == read else masked


def _masked(text: str) -> str:
    text = EMAIL.sub("[email]", text)
    if not _SIX_DIGITS.search(text):  # most questions: nothing else to look for
        return text
    text = IBAN.sub(lambda m: "[id]" if iban.is_valid(re.sub(r"[ .\-]", "", m.group())) else m.group(), text)
    text = CARD_GROUPS.sub(lambda m: "[card]" if luhn.is_valid(re.sub(r"\D", "", m.group())) else m.group(), text)
    text = _phones(text)
    text = DIGIT_RUN.sub(_number, text)
    return ID_WORD.sub("[id]", text)


def _phones(text: str) -> str:
    """libphonenumber parses only the runs of 7 or more digits (its matcher over a whole text
    costs milliseconds a region)."""
    return PHONE_CANDIDATE.sub(_phone, text)


def _phone(candidate: re.Match) -> str:
    found = candidate.group()
    if sum(c.isdigit() for c in found) < 7:
        return found
    for region in PHONE_REGIONS:  # the matcher, not parse(): parse takes dates for numbers
        for match in phonenumbers.PhoneNumberMatcher(found, region, leniency=phonenumbers.Leniency.VALID):
            return f"{found[:match.start]}[phone]{found[match.end:]}"
    return found


def _number(match: re.Match) -> str:
    found = match.group()
    digits = re.sub(r"\D", "", found)
    if 13 <= len(digits) <= 19 and luhn.is_valid(digits):
        return "[card]"
    if len(digits) >= 9 and not _date_like(found):
        return "[id]"
    return found


def _date_like(found: str) -> bool:
    """2024-01-31, 31/01/2024 and the like: a book's dates, not a person's number."""
    groups = sorted(len(g) for g in re.split(r"[\s\-/]+", found.strip("()+ ")))
    return groups in ([1, 1, 4], [1, 2, 4], [2, 2, 4])
