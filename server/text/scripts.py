"""Writing systems: which script a letter is in, and which languages a script writes.

A letter's script is the first word of its Unicode name ("ARABIC LETTER NOON", "CYRILLIC SMALL
LETTER A", "CJK UNIFIED IDEOGRAPH-…"). A locale's language has the scripts in `SCRIPTS`; languages
written in Latin letters are not listed, since their letters tell nothing of which one is meant."""
from __future__ import annotations

import functools
import re
import unicodedata

SCRIPTS = {
    **dict.fromkeys(("ar", "fa", "ur", "ps", "ckb", "sd", "ug"), frozenset({"ARABIC"})),
    **dict.fromkeys(("he", "yi"), frozenset({"HEBREW"})),
    **dict.fromkeys(("ru", "uk", "bg", "sr", "mk", "be", "kk", "ky", "mn", "tg"), frozenset({"CYRILLIC"})),
    **dict.fromkeys(("hi", "mr", "ne", "sa"), frozenset({"DEVANAGARI"})),
    "bn": frozenset({"BENGALI"}), "pa": frozenset({"GURMUKHI"}), "gu": frozenset({"GUJARATI"}),
    "ta": frozenset({"TAMIL"}), "te": frozenset({"TELUGU"}), "kn": frozenset({"KANNADA"}),
    "ml": frozenset({"MALAYALAM"}), "si": frozenset({"SINHALA"}), "th": frozenset({"THAI"}),
    "lo": frozenset({"LAO"}), "my": frozenset({"MYANMAR"}), "km": frozenset({"KHMER"}),
    "ka": frozenset({"GEORGIAN"}), "hy": frozenset({"ARMENIAN"}), "am": frozenset({"ETHIOPIC"}),
    "el": frozenset({"GREEK"}), "ko": frozenset({"HANGUL"}), "zh": frozenset({"CJK"}),
    "ja": frozenset({"HIRAGANA", "KATAKANA", "CJK"}),
}


def _base_letter(letter: str) -> str | None:
    """"á" → "a", "ñ" → "n": a Latin letter whose accent Unicode writes as a mark over a plain letter."""
    parts = unicodedata.normalize("NFD", letter)
    return parts[0] if len(parts) > 1 and parts[0].isascii() and parts[0].isalpha() else None


# Latin-1 Supplement to Latin Extended-B, and Latin Extended Additional (Vietnamese)
_UNACCENTED = str.maketrans({c: b for c in map(chr, [*range(0xC0, 0x250), *range(0x1E00, 0x1F00)])
                             if (b := _base_letter(c)) is not None})


def unaccented(text: str) -> str:
    """The text with its Latin letters' accents taken off ("función" → "funcion"): a student
    typing Spanish or French on any keyboard often leaves them out. No other script's marks are
    touched (Japanese "が" keeps its dakuten, Hindi its vowel signs)."""
    return text.translate(_UNACCENTED)


# "$F_{ST}$" is the name "FST" set in TeX: a braced subscript is read as part of the name it
# follows (a reader types "fst"); code's "fst_eur" stays two words
_TEX_SUBSCRIPT = re.compile(r"(?<=[^\W_])_\{([^\W_]+)\}")


def tex_names(text: str) -> str:
    """The text with each TeX name and its braced subscript written as one word."""
    return _TEX_SUBSCRIPT.sub(r"\1", text) if "_{" in text else text


# Arabic script's short vowels and other optional marks, which a reader of Urdu mostly leaves out:
# "بُنیں" is "بنیں", one word (as a mark, Python's words would end at it)
_OPTIONAL_MARKS = re.compile("[\u064b-\u065f\u0670]")


def read_form(text: str) -> str:
    """The text as its words are read: lower-cased, without accents (or Arabic script's optional
    vowel marks), a TeX name with its subscript one word. A term is looked for in this form
    ("fst" in "When $F_{ST}$ is 0")."""
    return _OPTIONAL_MARKS.sub("", unaccented(tex_names(text.lower())))


def script_of(letter: str) -> str:
    return unicodedata.name(letter, "").split(" ")[0]


def language_of(locale: str | None) -> str:
    """A locale's language ("ur-PK", "zh_CN": "ur", "zh"); English where none is known."""
    return str(locale or "en").lower().replace("_", "-").split("-")[0]


def scripts_of(locale: str) -> frozenset[str]:
    """The scripts a locale's language is written in ("ur-PK": Arabic); none for Latin-script ones."""
    return SCRIPTS.get(language_of(locale), frozenset())


@functools.lru_cache(maxsize=64)
def languages_writing(script: str) -> tuple[str, ...]:
    return tuple(language for language, scripts in SCRIPTS.items() if script in scripts)


def share_in(text: str, scripts: frozenset[str] | set[str]) -> float:
    """The share of the text's letters written in one of the scripts (0 for no letters)."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return 0.0
    return sum(script_of(ch) in scripts for ch in letters) / len(letters)


_URDU_PLURAL = re.compile(r"[\u0600-\u06ff]{3,}[زس]$")


def loan_singular(word: str) -> str:
    """An English noun's plural written in Urdu letters, as its singular: "نوڈز" (nodes) "نوڈ",
    "ٹاپکس" (topics) "ٹاپک". (A native word ending so loses a letter too; both sides of a
    comparison are read alike.)"""
    return word[:-1] if _URDU_PLURAL.search(word) else word


def unvowelled(word: str) -> bool:
    """Written in a script that leaves short vowels out (Arabic, Urdu, Hebrew): three letters
    there ("نوڈ", node) are as much a word as four or five in English."""
    return bool(word) and script_of(word[0]) in ("ARABIC", "HEBREW")
