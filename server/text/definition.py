"""A question asking what a term is ("what's a trait?", "define odometry", "¿qué es un mock?",
"トレイトとは？", "什么是装饰器？"), and the text that defines it. Where a textbook introduces a
term it sets it in italics or bold ("A _trait_ defines …") or says what it is ("A trait is …"):
the passage that does so answers the question, though a passage using the term more often may
lie nearer it.
"""
from __future__ import annotations

import re

from server.text.abbreviations import defined_in
from server.text.scripts import loan_singular, read_form, unaccented

_TERM = r"(?P<term>[^?？؟.,;:!¿¡]{1,40}?)"
# "what is a monad in simple terms?", "explícame una mónada fácil": how simply, not what
_SIMPLY = (r"(?:\s+(?:simply|briefly|please|exactly|again|in (?:simple|plain|easy) (?:terms|words|english|language)|"
           r"like i'?m (?:five|5)|for (?:a )?beginners?|f[aá]cil(?:mente)?|sencill[oa]|simple|brevemente|por favor|"
           r"de (?:forma|manera) (?:sencilla|simple|f[aá]cil)|para principiantes))?")
# "what is calc used for?", "what is yield from for?": what it is for, asked of the term; "what does ∀ mean in lean?": the book's
# subject named after the term is where it is asked, not part of it
_FOR = r"(?:\s+(?:(?:used|good|needed)\s+)?for)?"
_SCOPE = r"(?:\s+in\s+[^?？؟.,;:!]{1,25}?)?"
_ASKS = [re.compile(pattern, re.IGNORECASE) for pattern in (
    rf"^\s*(?:what(?:'s|s| is| are)|whats)\s+(?:an?\s+|the\s+)?{_TERM}{_FOR}{_SCOPE}{_SIMPLY}\s*[?？]*\s*$",
    # "explain monads simply", "can you explain what a monad is?"
    rf"^\s*(?:(?:can|could) you\s+)?(?:please\s+)?explain\s+(?:to me\s+)?what\s+(?:an?\s+|the\s+)?{_TERM}"
    rf"\s+(?:is|are|means?){_SIMPLY}\s*[?？.!]*\s*$",
    rf"^\s*(?:(?:can|could) you\s+)?(?:please\s+)?explain\s+(?:to me\s+)?(?:an?\s+|the\s+)?{_TERM}(?:\s+to me)?"
    rf"{_SIMPLY}\s*[?？.!]*\s*$",
    rf"^\s*¿?\s*(?:me\s+)?expl[ií]ca(?:me|nos)?\s+(?:qu[eé] (?:es|son)\s+)?(?:una?\s+|el\s+|la\s+|los\s+|las\s+)?"
    rf"{_TERM}{_SIMPLY}\s*[?？.!]*\s*$",
    rf"^\s*(?:define|definition of|meaning of)\s+(?:an?\s+|the\s+)?{_TERM}\s*[?？]*\s*$",
    rf"^\s*what does\s+(?:an?\s+|the\s+)?{_TERM}\s+(?:mean|do){_SCOPE}\s*[?？]*\s*$",
    # "how does do notation work?": what it is, read where the section named by it opens
    rf"^\s*how\s+(?:does|do)\s+(?:an?\s+|the\s+)?{_TERM}\s+work{_SCOPE}\s*[?？]*\s*$",
    rf"^\s*¿?\s*qu[eé] (?:es|son)\s+(?:una?\s+|el\s+|la\s+|los\s+|las\s+)?{_TERM}{_SIMPLY}\s*[?？]*\s*$",
    r"^\s*(?P<term>[^\s?？、。]{1,20}?)\s*(?:とは|って)(?:何|なに|なん)?(?:ですか|でしょうか)?\s*[?？]*\s*$",
    r"^\s*什么是\s*(?P<term>[^\s?？，。]{1,20}?)\s*[?？]*\s*$",
    r"^\s*(?P<term>[^\s?？，。]{1,20}?)\s*是什么\s*[?？]*\s*$",
    # Urdu: "نوڈ کیا ہوتا ہے؟", "ٹاپکس کیا ہیں؟", "QoS کسے کہتے ہیں؟"
    # ("ROS 2 میں نوڈ کیا ہے؟": a node, in ROS 2)
    rf"^\s*(?:[^?？؟]{{1,40}}?\s+میں\s+)?{_TERM}\s+(?:کیا|کسے کہتے)\s+(?:ہوتا ہے|ہوتی ہے|ہوتے ہیں|ہے|ہیں)\s*[?？؟]*\s*$",
)]
# "what is this?", "what's the difference between …": no term of the book's
_NOT_A_TERM = re.compile(r"\b(?:this|that|it|these|those|difference|between|best|way|point|purpose|reason|problem|"
                         r"meaning|wrong|happening|going on|next|eso|esto|la diferencia|how|why|when|where|which|who|"
                         r"c[oó]mo|por qu[eé]|cu[aá]ndo|d[oó]nde)\b", re.IGNORECASE)
MAX_WORDS = 3
# what a name in code is: "the ``sorry`` identifier", "the `simp` tactic"
_CODE_KINDS = ("identifier|command|tactic|keyword|function|method|macro|operator|attribute|type|trait|module|class|"
               "constructor|option|flag|field|variable")
_THIRD_PERSON = r"[a-z]+(?<!ss)(?<![^aeiou]us)s"  # "produces", "closes", "applies": a verb said of the name
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# "Cargo is designed so that …", "Closures are typically short": something said of the term, not what it is
_NOT_WHAT_IT_IS = (r"(?:\w+ed|\w+ly|not|also|just|still|only|very|too|more|less|now|then|being|so|different|"
                   r"similar|like|important|useful|available|possible|able|here|there)\b")
# "is just a …", "are simply a …": what it is, said plainly ("is just as fast" is not)
_PLAINLY = r"(?:(?:just|simply|basically|really)\s+(?=(?:an?|the)\s))?"
_ITEM = r"(?:>\s*)*(?:(?:[-*+]|\d+[.)])\s+)?"  # a line of a note or a list's item
_ASIDE = r"\s*,\s*(?:as|like)\s+[^,.!?\n]{1,40}?,?"  # "Guards, as seen in `sayDiv2` are …"


def defined_term(question: str) -> str | None:
    """The term a question asks the meaning of, or None."""
    for pattern in _ASKS:
        found = pattern.match(question)
        if found:
            term = " ".join(found["term"].strip(" `'\"“”‘’").split())
            if term and len(term.split()) <= MAX_WORDS and not _NOT_A_TERM.search(term):
                return term
    return None


_ARTICLE = r"(?:(?:an?|the|el|la|los|las|una?)\s+)?"
_SIDE = r"[^?？؟.,;:!¿¡、，。]{1,40}?"
_END = r"\s*(?:[?？؟.,;:!]|$)"
# "what's the difference between a link and a joint in urdf?", "Rc vs Arc", "compare X with Y",
# "how is X different from Y?", "how do X and Y differ?", "use X instead of Y", "diferencia entre X y Y", "XとYの違い", "XとYってどう違う",
# "X和Y的区别"
_COMPARES = [re.compile(pattern, re.IGNORECASE) for pattern in (
    rf"\bdiff(?:erence|erences)?\s+(?:is\s+there\s+)?between\s+{_ARTICLE}(?P<a>{_SIDE})\s+and\s+{_ARTICLE}(?P<b>{_SIDE}){_END}",
    rf"^\W*{_ARTICLE}(?P<a>{_SIDE})\s+(?:vs\.?|versus)\s+{_ARTICLE}(?P<b>{_SIDE}){_END}",
    rf"\bcompare\s+{_ARTICLE}(?P<a>{_SIDE})\s+(?:and|with|to)\s+{_ARTICLE}(?P<b>{_SIDE}){_END}",
    rf"\bhow\s+(?:is|are|does|do)\s+{_ARTICLE}(?P<a>{_SIDE})\s+differ(?:ent)?\s+from\s+{_ARTICLE}(?P<b>{_SIDE}){_END}",
    rf"\bdiferencias?\s+entre\s+{_ARTICLE}(?P<a>{_SIDE})\s+y\s+{_ARTICLE}(?P<b>{_SIDE}){_END}",
    rf"\bhow\s+(?:do|does)\s+{_ARTICLE}(?P<a>{_SIDE})\s+and\s+{_ARTICLE}(?P<b>{_SIDE})\s+differ\b",
    # "why would i use a generator instead of a list?", "should i pick a tuple over a list?"
    rf"\b(?:use|using|choose|choosing|pick|prefer|want)\s+{_ARTICLE}(?P<a>{_SIDE})\s+(?:instead\s+of|rather\s+than|over)"
    rf"\s+{_ARTICLE}(?P<b>{_SIDE}){_END}",
    r"(?P<a>[^\s、。？?とは]{1,20}?)\s*と\s*(?P<b>[^、。？?]{1,20}?)\s*の(?:違い|ちがい)",
    # "nullとundefinedってどう違うの？", "XとYは何が違いますか"
    r"(?P<a>[^\s、。？?とは]{1,20}?)\s*と\s*(?P<b>[^、。？?]{1,20}?)\s*(?:って|は)\s*(?:どう|何が|なにが)\s*(?:違|ちが)",
    r"(?P<a>[^\s，。？?]{1,20}?)\s*(?:和|与|跟)\s*(?P<b>[^\s，。？?]{1,20}?)\s*(?:的|有什么|有什麼)?(?:区别|區別|差别|不同)",
)]
# what follows the second side and is not part of it: "a joint in urdf", "a function like String::from"
_TAIL = re.compile(r"\s+(?:in|on|for|when|with|like|of|inside|within|en|de|para|con)\s+.*$", re.IGNORECASE)


def compared_terms(question: str) -> list[str]:
    """The two terms a question compares, or none. "forward and inverse kinematics" compares
    "forward kinematics" and "inverse kinematics": the name the second side ends with is the first's
    ("a method and an associated function" compares a method)."""
    for pattern in _COMPARES:
        found = pattern.search(question)
        if not found:
            continue
        a = " ".join(found["a"].strip(" `'\"“”‘’").split())
        b = " ".join(_TAIL.sub("", found["b"]).strip(" `'\"“”‘’").split())
        if len(a.split()) == 1 and len(b.split()) == 2 and re.search(rf"\b{re.escape(a)}\s+and\s+{re.escape(b)}",
                                                                     question, re.IGNORECASE):
            a = f"{a} {b.split()[1]}"
        terms = [a, b]
        if all(term and len(term.split()) <= MAX_WORDS and not _NOT_A_TERM.search(term) for term in terms):
            return terms
    return []


_SIDES = re.compile(r"\s+(?:vs\.?|versus|and|or|&|compared\s+(?:to|with))\s+", re.IGNORECASE)


def compares(heading: str, terms: list[str]) -> bool:
    """Is the heading the two compared terms' names, set side by side ("Generators vs. Lists" of a
    generator and a list, in either order), or the comparison asked ("undefinedとnullの違い")?"""
    sides = compared_terms(heading) or _SIDES.split(heading)
    return len(terms) == 2 and len(sides) == 2 and (
        headed_by(sides[0], terms[0]) and headed_by(sides[1], terms[1])
        or headed_by(sides[0], terms[1]) and headed_by(sides[1], terms[0]))


def defining(headings: list[str], text: str, term: str) -> bool:
    """Is this the book's passage on the term: headed by its name ("Shadowing"; a passage that runs
    on under further headings, by any of them), or defining it?"""
    return any(headed_by(heading, term) for heading in headings) or defines(text, term)


_NUMBERED = re.compile(r"^\d+(?:\.\d+)*\.?\s+")  # "1. Nodes", "2.3 Topics"
# a heading's gloss: "ユニオン型 (union type)", "Ownership (所有権)"
_GLOSS = re.compile(r"^(?P<name>.+?)\s*[(（](?P<gloss>[^()（）]+)[)）]$")


# a name in code a question uses: "`simp`", "getMonth()", "Promise.all", "String::from", "robot_state_publisher",
# "strictNullChecks" (ASCII, as code is written, though the question around it is Japanese)
_CODE_NAME = re.compile(r"`(?P<quoted>[^`\n]{1,40})`|(?<!\w)[\"“](?P<literal>[^\"“”\s]{1,3})[\"”](?!\w)|"
                        r"(?<![A-Za-z0-9_.:/])(?P<name>"
                        r"[A-Za-z_][A-Za-z0-9_]+(?:(?:::|\.)[A-Za-z_][A-Za-z0-9_]*)+|"  # qualified: a.b, a::b
                        r"[A-Za-z_][A-Za-z0-9_]*(?=\(\))|"  # called: f()
                        r"[a-z]+[A-Z][A-Za-z0-9]*|"  # camelCase
                        r"[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+)")  # snake_case


_OPERATOR_CHARS = r"$><|&:=@!%^*+~\\;\-"  # ";" of "<;>", "-" of "->"
# an operator a question names as a thing: "the $ operator", "what does >>= do", "the := thing",
# "> and >>"; not one used in code it quotes ("0.1 + 0.2", "filter((n) => n)")
_OPERATOR = re.compile(rf"(?:^|(?<=\s))([{_OPERATOR_CHARS}]{{1,3}})(?=\s+(?:operators?|signs?|symbols?|things?|"
                       rf"characters?|do|does|mean|means|called|and|or|vs|in)\b)", re.IGNORECASE)


def code_names(question: str) -> list[str]:
    """The names in code a question asks about, as written: a section whose heading names one is the
    book's section on it ("DateのgetMonth()って…" of "月を取得する - `Date.prototype.getMonth()`"); a
    short literal in quotes ("the difference between \"w\" and \"a\" mode?")."""
    names = []
    found = [(m.start(), (m["quoted"] or m["literal"] or m["name"]).strip().removesuffix("()"))
             for m in _CODE_NAME.finditer(question)]
    found += [(m.start(), m[1]) for m in _OPERATOR.finditer(question)]
    for _, name in sorted(found):
        if name and name not in names:
            names.append(name)
    return names


def named_operators(question: str) -> list[str]:
    """The operators a question names as things ("the $ operator", "what does >>= do")."""
    return [m[1] for m in _OPERATOR.finditer(question)]


def _is_operator(name: str) -> bool:
    return bool(re.fullmatch(rf"[{_OPERATOR_CHARS}]{{1,3}}", name))


def says_operator(text: str, operator: str) -> bool:
    """Does the text write the operator standing alone ("`>>`", "ls > files.txt"), not as part of a
    longer one ("`>>=`" does not say ">") or of a word ("<prompt>" does not)?"""
    return bool(re.search(rf"(?:^|(?<=[\s`(])){re.escape(operator)}(?=$|[\s`),.:;])", text))


def names_in_code(heading: str, name: str) -> bool:
    """Does the heading name the code name, whole or as the last part of a qualified name
    ("Date.prototype.getMonth()" names "getMonth"; "Promise.allSettled()" does not name "Promise.all";
    "`>>=`" does not name ">")?"""
    if _is_operator(name):
        return says_operator(heading, name)
    return bool(re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", heading, re.IGNORECASE))


_ARTICLE_FIRST = re.compile(r"^(?:the|an?|el|la|los|las|una?)\s+(?=\S)")


def headed_by(heading: str, term: str) -> bool:
    """Is the heading the term's name ("Pattern Matching" of "pattern matching", "Lifetimes" of "lifetime"),
    or the name it glosses ("ユニオン型 (union type)" of "ユニオン型" and of "union type"), or, for a
    name in code, does it name it?"""
    heading, term = unaccented(heading), unaccented(term)  # "Mónadas" of "monada"
    named = term.strip().strip("`").removesuffix("()")  # "what is `getMonth()`?"
    if (_CODE_NAME.fullmatch(named) or _is_operator(named)) and names_in_code(heading, named):
        return True
    name = _NUMBERED.sub("", " ".join(heading.strip(" `*_#").split()).lower()).strip(" `<>")  # "2. <joint>"
    name = _ARTICLE_FIRST.sub("", name)  # "The Universal Quantifier" names "universal quantifier"
    glossed = _GLOSS.match(name)
    asked = defined_term(name)  # a heading that asks it: "What Are Topics?", "ٹاپکس کیا ہیں؟"
    names = [name, *((glossed["name"], glossed["gloss"]) if glossed else ()), *((asked,) if asked else ())]
    return _singular(_ARTICLE_FIRST.sub("", term.strip().lower())) in {_singular(n.strip(" `*_")) for n in names}


def _singular(term: str) -> str:
    urdu = loan_singular(term)  # an English noun's plural written in Urdu: "نوڈز" (nodes), "ٹاپکس" (topics)
    if urdu != term:
        return urdu
    return term[:-1] if term.endswith("s") and len(term) > 3 else term


def defines(text: str, term: str) -> bool:
    """Does the text define the term: set it in italics or bold, or say what it is?"""
    written, text, term = text, read_form(text), unaccented(term)  # "Una **Mónada** es …" of "monada"; matched ignoring case
    term = re.sub(rf"(?<=`|\w)\s+(?:{_CODE_KINDS})$", "", term) if term.lstrip("`").startswith("-") else term  # "--ci option"
    said = re.escape(_singular(term)).replace(r"\ ", r"\s+")  # "lifetimes": "_lifetime_"
    text = _LINK.sub(r"\1", text)  # "[Promise](…)は…": the link's words
    plural = r"(?:s|es)?"
    # set apart as the sentence's subject ("A _trait_ defines …", "The term _macro_ refers to …"), or
    # an item's ("*   **Restitution**: … Defines how "bouncy" a collision is"), not as a word stressed
    # inside it ("Use a **generator** if:")
    # or named by it ("We call the action of creating a reference _borrowing_.")
    marked = (rf"(?:(?:^|(?<=[.!?]\s)|\n)\s*{_ITEM}(?:(?:an?|the)\s+)?(?:term\s+)?|"
              rf"\b(?:call|calls|called|known as|referred to as)\s+(?:[^.!?\n]{{0,60}}?\s)?)"
              rf"(?<![\w*])(?:\*\*|__|\*|_){said}{plural}(?:\*\*|__|\*|_)(?![\w*])")
    # "A trait is …", "Rust’s closures are …", "$F_{ST}$ is …", "The `unwrap` method is …", an item of a
    # note ("> 1. Guards, as seen in `sayDiv2` are just a nicer syntax around …")
    # (its notation may stand beside it: "The universal quantifier, ``∀ x : α, p x`` is supposed to denote …")
    what_it_is = (rf"(?:^|(?<=[.!?]\s)|\n)\s*{_ITEM}(?:(?:an?|the|\w+['’]s)\s+)?"
                  rf"(?:`+{said}`+\s+(?:{_CODE_KINDS})|[`$]?{said}{plural}[`$]?)"
                  rf"(?:\s*,?\s*(?:`+[^`\n]{{1,40}}`+|\$[^$\n]{{1,40}}\$|\([^)\n]{{1,40}}\)),?|{_ASIDE})?\s+"
                  rf"(?:(?:is|are)\s+supposed\s+to\s+(?:denote|mean|represent|be)\b|"
                  rf"(?:is|are)\s+{_PLAINLY}(?!{_NOT_WHAT_IT_IS})|refers to|means|stands for|denotes|defines\b)")
    # what a book's code does, said with it as the subject: "The ``sorry`` identifier magically produces
    # a proof of anything", "`rfl` closes the target" (a name set in code is a term of the book's)
    # or in an aside: "* The `--keep-allele-order` option, which prevents plink from 'flipping' …"
    does = (rf"(?:^|(?<=[.!?]\s)|\n)\s*(?:[-*]\s+)?(?:the\s+)?`+{said}`+(?:\s+(?:{_CODE_KINDS}))?(?:\s*,\s*which)?\s+"
            rf"(?:\w+ly\s+)?(?!is\b|was\b|has\b|does\b){_THIRD_PERSON}\b")
    # "Promiseとは…", "Promiseは、…", and opening a sentence or an item, "Promiseは…" or "装饰器是…"; or
    # the name the text gives it
    elsewhere = (rf"{said}\s*(?:とは|は、|是指|是一种|是一個|是一个|es una?\b|son\b)|"
                 rf"(?:^|[。！？\n])\s*(?:[-*]\s+)?`?{said}`?\s*(?:は|是)|"
                 # named by it: "…値のことをfalsyと呼びます", "这种写法称为切片", "se llama recursión"
                 rf"を\s*`?{said}`?\s*と(?:呼|よば|よび|言|いい|いう)|のことを\s*`?{said}`?\s*と|(?:称为|称作|叫做|叫作)\s*`?{said}|"
                 rf"\b(?:se\s+(?:llaman?|denominan?)|llamamos|denominamos)\s+`?{said}")
    if re.search(f"{marked}|{what_it_is}|{does}|{elsewhere}", text, re.IGNORECASE):
        return True
    # an abbreviation spelt out: "AMCL (Adaptive Monte Carlo Localization)", "minor allele frequency (MAF)"
    return len(term) <= 10 and term.lower() in written.lower() and any(
        short == term.lower() for short, _ in defined_in(written, either_way=True))
