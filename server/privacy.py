"""Readers' personal details masked before a question or a comment is stored (or sent to a model):
e-mail addresses, phone numbers, card numbers and other ID-like numbers become [email], [phone],
[card] and [id]. What a book writes about (version numbers, dates, standards such as ISO 8601,
addresses like 192.168.0.1) stays as it is.

Phone numbers are found by libphonenumber (the `phonenumbers` package): written internationally
(+…) anywhere, and in the national formats of the regions below. Card numbers are 13 to 19
digits that pass the Luhn check and IBANs pass their own check (python-stdnum). Any other run
of 9 or more digits, possibly in groups (account, student or national ID numbers) is ID-like.
"""
from __future__ import annotations

import re

import phonenumbers
from stdnum import iban, luhn

# national formats read without a + (the others are found when written with their country code)
PHONE_REGIONS = ("ZZ", "US", "GB", "IN", "DE", "FR")
EMAIL = re.compile(r"[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+", re.UNICODE)
# digits in groups joined by one space, dash or slash (never a dot: 3.11.4 and 192.168.0.1 are
# not numbers of a person)
DIGIT_RUN = re.compile(r"(?<![\w.])\+?\(?\d[\d\s\-/()]*\d(?![\w]|\.\d)")
PHONE_CANDIDATE = re.compile(r"(?<![\w.])\+?\(?\d[\d\s\-.()]{5,}\d(?![\w])")
IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b")
ID_WORD = re.compile(r"\b(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z]{1,3}\d{6,}\b")  # A1234567, s12345678
_SIX_DIGITS = re.compile(r"(?:\d\D{0,2}){6}")  # fewer digits: no number of a person


def mask(text: str | None) -> str | None:
    """`text` with personal details replaced by what they are."""
    if not text:
        return text
    text = EMAIL.sub("[email]", text)
    if not _SIX_DIGITS.search(text):  # most questions: nothing else to look for
        return text
    text = IBAN.sub(lambda m: "[id]" if iban.is_valid(m.group()) else m.group(), text)
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
