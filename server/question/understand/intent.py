"""What a reader asks of a highlighted passage: something about the passage itself (explain it,
summarize it, say it more simply, give an example, define a term in it, translate its jargon),
or a question that the passage may or may not answer.

A request about the passage itself is always answerable from the passage, so it is never
refused; a question is answered only when the passage covers it. Requests are recognised by
how people ask for them, in the question's own words, whatever the passage is about.
"""
from __future__ import annotations

import re
from enum import Enum

from server.text.scripts import unaccented


class Intent(Enum):
    EXPLAIN = "explain"
    SUMMARIZE = "summarize"
    SIMPLIFY = "simplify"
    EXAMPLE = "example"
    DEFINE = "define"
    JARGON = "jargon"
    LANGUAGE = "language"  # which programming language highlighted code is in
    CODE = "code"  # what highlighted code, or a line of it, does
    QUESTION = "question"  # anything else: the passage must answer it

    @property
    def about_the_passage(self) -> bool:
        return self is not Intent.QUESTION


_PATTERNS: list[tuple[Intent, re.Pattern]] = [(intent, re.compile(pattern, re.IGNORECASE)) for intent, pattern in (
    (Intent.JARGON, r"\bjargon\b|\b(?:technical|fancy|big) (?:words|terms)\b|\bwhat do (?:these|the|all these) "
                    r"(?:words|terms)\b"),
    (Intent.SIMPLIFY, r"\bsimpl(?:e|er|est|y|ify)\b|\bplain(?:er)? (?:english|words|language|terms)\b|"
                      r"\b(?:re-?phrase|re-?word|paraphrase)\b|\bin other words\b|\b(?:say|put|write|explain) "
                      r"(?:it|this|that) (?:differently|another way|in (?:a different|another) way)\b|"
                      r"\beli5\b|\blike i'?m (?:five|5|a kid|a child)\b|\bdumb (?:it|this) down\b|"
                      r"\beasier (?:words|terms|way)\b|\bless technical\b|\bin layman'?s\b"),
    (Intent.SUMMARIZE, r"\bsumm?ari[sz]|\bsum (?:it|this|that) up\b|\btl;?dr\b|\bgist\b|\brecap\b|"
                       r"\bmain (?:point|idea|takeaway)s?\b|\bkey (?:point|idea|takeaway)s?\b|"
                       r"\bin (?:one|a|two|a few|1|2) (?:line|sentence|word)s?\b|\bshort version\b|\bbriefly\b"),
    (Intent.EXAMPLE, r"\bexamples?\b|\bfor instance\b|\billustrat|\bshow me how (?:this|it|that)\b|"
                     r"\breal[- ](?:world|life) (?:case|use)\b|\buse case\b"),
    (Intent.DEFINE, r"^\s*(?:define|definition of)\b|\bwhat(?:'s| is| are| does)\b.{1,40}\b(?:mean|stand for)\b|"
                    r"\bmeaning of\b"),
    (Intent.EXPLAIN, r"\bexplain|\belaborate\b|\bwhat does (?:this|that|it) (?:mean|say)\b|"
                     r"\b(?:don'?t|do not|doesn'?t) (?:get|understand)\b|\bhelp me understand\b|"
                     r"\bwalk me through\b|\bbreak (?:it|this|that) down\b|\bwhat(?:'s| is) (?:this|that) about\b|"
                     r"\bunpack (?:this|that|it)\b|\bclarify\b|\bmake sense of\b|\bconfus|"
                     r"\bwhy (?:does|do|did|would|is|are) (?:this|that|it|these|those) (?:happen|matter|work|occur|hold)s?\b|"
                     r"\bwhy (?:is|are) (?:this|that|it|these|those) (?:so )?(?:important|needed|necessary|useful|true|"
                     r"the case)\b|\bhow (?:does|do) (?:this|that|it|these|those) work\b"),
)]


# the same requests in the pool's other languages (Japanese and Chinese have no spaces: no \b),
# tried after the English ones; a question in these scripts has no English word to count, so a
# request in them counts as about the passage
_OTHER_LANGUAGES: list[tuple[Intent, re.Pattern]] = [(intent, re.compile(pattern, re.IGNORECASE)) for intent, pattern in (
    (Intent.SIMPLIFY, r"簡単に|わかりやすく|分かりやすく|やさしく|噛み砕いて|言い換え|大白话|通俗|说人话|浅显|简单(?:点|一点|些|地)|"
                      r"换个说法|换句话说|\bde otra (?:forma|manera)\b|\bdilo (?:de nuevo|otra vez)\b|دوسرے الفاظ|"
                      r"\bm[aá]s (?:simple|sencill|f[aá]cil|clar)|\bsimplific|\bpalabras (?:simples|sencillas)|آسان"),
    (Intent.SUMMARIZE, r"まとめ|要約|一言で|要するに|簡潔に|总结|概括|归纳|一句话|简述|要点|\bresum|\bidea principal|"
                       r"\ben (?:una|pocas) (?:frase|l[ií]nea|palabra)s?\b|خلاصہ|مختصر"),
    (Intent.EXAMPLE, r"具体例|例[をがはで]|例え[ばて]|举个?例|例子|示例|\bejemplos?\b|\bcaso (?:real|de uso)\b|مثال"),
    (Intent.DEFINE, r"の意味は|定義|是什么意思|的定义|\bqu[eé] significa\b|\bdefinici[oó]n\b|\bsignificado\b|تعریف"),
    (Intent.EXPLAIN, r"意味|説明|詳しく|解説|わから(?:ない|ん)|分から(?:ない|ん)|どういうこと|解释|什么意思|啥意思|讲解|讲讲|"
                     r"不懂|不明白|详细|\bexplic|\bqu[eé] quiere decir\b|\bno (?:lo )?entiendo\b|\baclar|"
                     r"\bdetall|\bpor qu[eé] (?:es (?:tan )?)?(?:importa|important|necesari|[uú]til|as[ií]|cierto|"
                     r"funciona|pasa|ocurre)|なぜ(?:これ|それ)?(?:が|は)?(?:重要|大事|必要)|(?:这|它|这个)?为什么(?:很)?(?:重要|必要)|"
                     r"کیوں (?:اہم|ضروری)|وضاحت|مطلب|سمجھ|تفصیل"),
)]


# requests about highlighted code, asked of code only ("what language is this?" of prose is a question)
_CODE_NOUN = r"(?:line|lines|code|snippet|command|commands|statement|call|function|block|script|program|bit)"
_CODE_PATTERNS: list[tuple[Intent, re.Pattern, bool]] = [
    (intent, re.compile(pattern, re.IGNORECASE), code_only) for intent, pattern, code_only in (
        (Intent.LANGUAGE, r"\b(?:what|which)\s+(?:programming\s+|coding\s+|scripting\s+|computer\s+)?"
                          r"(?:language|lang)\b|\b(?:written|coded|programmed)\s+in\b", True),
        (Intent.CODE, rf"\bwhat(?:'s| is| does| do| are)\s+(?:this|that|the|these|those|line\s+\d+)\s*{_CODE_NOUN}?s?"
                      rf"\s*(?:do|doing|does|for)\b|\bwhat(?:'s| is| are)\s+(?:this|that|the|these|those)\s+{_CODE_NOUN}\b|"
                      rf"\bhow does (?:this|that|the) {_CODE_NOUN} work\b|\bwhat does (?:it|this) do\b", True),
        # of prose ("what does this command do?" of a sentence naming a command): explain it
        (Intent.EXPLAIN, rf"\bwhat(?:'s| is| does| do| are)\s+(?:this|that|these|those|line\s+\d+)\s*{_CODE_NOUN}s?"
                         rf"\s*(?:do|doing|does|for)\b|\bhow does (?:this|that) {_CODE_NOUN} work\b", False),
    )]
_CODE_POINTER = re.compile(rf"\b(?:this|that|it|these|those|here|above|{_CODE_NOUN})\b", re.IGNORECASE)


# the question points at the passage ("explain this", "what does it mean", "summarize the paragraph")
_POINTS_AT_PASSAGE = re.compile(r"\b(?:this|that|it|these|those|here|above|passage|paragraph|text|section|"
                                r"selection|highlighted|part|bit|quote|lo|eso|esto|este|esta|estos|estas|aqu[ií]|"
                                r"p[aá]rrafo|texto)\b|これ|この|ここ|それ|その|この段落|这|那段|上面|یہ|اس", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9]+")


def detect(question: str, passage: str = "", *, code: bool = False) -> Intent:
    """The first request about the passage the question makes, or QUESTION. A request counts
    when it points at the passage, is only a few words long, or names only words of the passage
    ("define odometry", with "odometry" in it); "explain how Nav2 plans paths" about a passage
    that never says so is a question the passage may not answer. `code`: the passage is code
    from a block whose language is known, so it may be asked which language it is in."""
    question, passage = unaccented(question), unaccented(passage)  # "explícame esto" as "explicame esto"
    for intent, pattern, code_only in _CODE_PATTERNS:
        if (code or not code_only) and pattern.search(question) and _CODE_POINTER.search(question):
            return intent
    for intent, pattern in _PATTERNS + _OTHER_LANGUAGES:
        if pattern.search(question):
            return intent if _about_passage(question, pattern, passage) else Intent.QUESTION
    return Intent.QUESTION


def _about_passage(question: str, pattern: re.Pattern, passage: str) -> bool:
    if _POINTS_AT_PASSAGE.search(question):
        return True
    rest = _WORD.findall(pattern.sub(" ", question.lower()))
    if len(rest) <= 2:
        return True
    asked = [w for w in rest if len(w) > 3 and w not in _FUNCTION_WORDS]
    if not asked:  # "can you give me an example?": nothing but the request, so of the passage
        return True
    passage_words = set(_WORD.findall(passage.lower()))
    return bool(passage_words) and all(w in passage_words for w in asked)


_FUNCTION_WORDS = frozenset("""what which when where does with about from into your mean means meant please could would
should give show tell term terms word words like just more some much very really another other provide want need
kindly thanks thank maybe again favor porfa gracias puedes podrias podria quiero necesito dame hazlo""".split())


# a question about what the passage itself says ("the two ways mentioned here", "which sensors does it say")
_ASKS_WHAT_IT_SAYS = re.compile(
    r"\b(?:mentioned|described|listed|named|shown|discussed|said|stated)\s+(?:here|above|in (?:this|the|it))\b|"
    r"\b(?:does|did) (?:it|this|the (?:passage|text|author|book)) (?:say|mention|list|describe|suggest|recommend)\b|"
    r"\b(?:it|this|the (?:passage|text|author)) (?:says|said|mentions|lists|describes|talks about)\b|"
    r"\baccording to (?:this|it|the (?:passage|text))\b", re.IGNORECASE)


def points_at_passage(question: str) -> bool:
    """The question refers to the highlighted passage ("why does this happen?")."""
    return bool(_POINTS_AT_PASSAGE.search(question))


def asks_what_it_says(question: str) -> bool:
    """The question asks what the highlighted passage itself states, so the passage answers it."""
    return bool(_ASKS_WHAT_IT_SAYS.search(question))


def about_its_words(question: str, passage: str) -> bool:
    """The question points at the passage and names nothing but the passage's own words ("why
    does this use a Nyquist rate?" of a passage about the Nyquist rate); a question that points
    at it but names something else ("which package do I launch to run this on my gpu?", "who
    invented this?") does not."""
    question, passage = unaccented(question), unaccented(passage)
    if not _POINTS_AT_PASSAGE.search(question):
        return False
    passage_words = set(_WORD.findall(passage.lower()))
    asked = [w for w in _WORD.findall(_POINTS_AT_PASSAGE.sub(" ", question.lower()))
             if len(w) > 3 and w not in _FUNCTION_WORDS]
    return all(w in passage_words for w in asked)
