"""What a question asks for besides its words: code, an example, exercises, a quiz, readings, a
troubleshooting entry; and the material (rubrics, templates) never quoted unless asked for by name."""
from __future__ import annotations

import re

from server.question.compose.extractive.answer_units import Unit

# "type" as what one types ("what do i type to …"), not the noun of typed languages ("newtype and type")
# "run" as what the reader runs ("how do i run it?", "what to run"), not a robot running on a battery;
# "command", "terminal" as what is typed, not a thing named by them ("the command prompt", "a terminal window")
WANTS_CODE = re.compile(r"(?:\b(?:i|we|you|to)\s+(?:\w+\s+)?|^\W*)run\b|"
                        r"\b(?:code|commands?(?![\s-]+(?:prompts?|lines?|interfaces?)\b)|snippet|syntax|script|"
                        r"(?:terminal|shell)(?![\s-]+(?:windows?|prompts?|emulators?)\b)|cli|install|compile|"
                        r"implement|write|(?:do|should|can) i type|type (?:in|into)|example program|show me|"
                        r"código|comandos?|escrib\w*)\b|"
                        r"怎么写|如何写|写法|代码|命令|给我看|書き方|どう書|書けば|コード|コマンド|見せて|みせて|muéstrame", re.IGNORECASE)
# "why use else in a try/except instead of just putting that code at the end?" names code and asks
# for a reason: a why-question asks for code only where it also asks how, or to be shown
_WHY = re.compile(r"^\W*(?:why|how come)\b|^\W*¿?por qué\b|^\W*(?:なぜ|どうして|为什么|為什麼)|کیوں", re.IGNORECASE)
_SHOW = re.compile(r"\bhow (?:do|can|should|would|could) (?:i|you|we)\b|\bhow to\b|\bshow\b|\bexample\b", re.IGNORECASE)


def asks_for_code(question: str) -> bool:
    return bool(WANTS_CODE.search(question)) and not (_WHY.search(question) and not _SHOW.search(question))


# "how do I …", "怎么读", "どうやって": the code that names what is asked is often the answer
_HOW_TO = re.compile(r"^\W*(?:how\s+(?:do|can|should|would|could)\s+(?:i|you|we)|how\s+to|¿?c[oó]mo\s+(?:puedo|"
                     r"hago|se|hacer|podemos))\b|怎么(?!回事|样)|怎麼(?!回事|樣)|如何|どうやって|どうすれば|どうしたら",
                     re.IGNORECASE)


def asks_how_to(question: str) -> bool:
    return bool(_HOW_TO.search(question))


# "give me an example of pattern matching": the question asks for an example of something, not about
# examples ("in the odometry example, which topic …?" names one of the book's)
_EXAMPLE_ASKED = re.compile(r"\b(?:an?|some|any|more|another|other|good|simple|concrete|real)\s+(?:\w+\s+)?examples?\b|"
                            r"\bexamples?\s+(?:of|for)\b|\b(?:give|show)\s+me\s+examples?\b|"
                            r"\bun\s+ejemplo\b|\bejemplos?\s+de\b|具体例|例を|举个例子|举例|例子|مثال", re.IGNORECASE)
# a piece that is an example: "For example, …", "Consider …", "Here is an example:"
# (an example met mid-sentence counts too: "… most when reducing bit depth, for example when a 24-bit …")
_AN_EXAMPLE = re.compile(r"^[\s*_]*(?:for (?:example|instance)|e\.g\.|as an example|here(?: is|'s) an? (?:\w+ )?example|"
                         r"consider\b|suppose\b|por ejemplo|例えば|たとえば|例如|比如|مثال کے طور پر)|"
                         r"[,;(—]\s*(?:for (?:example|instance)\b|e\.g\.|por ejemplo\b)|[、，]\s*(?:例えば|たとえば|例如|比如)",
                         re.IGNORECASE)


def asks_for_example(question: str) -> bool:
    return bool(_EXAMPLE_ASKED.search(question))


def has_code(unit: Unit) -> bool:
    return unit.kind == "code" or unit.introduces == "code"


def is_example(unit: Unit) -> bool:
    """Code, or a sentence that gives an example."""
    return has_code(unit) or bool(_AN_EXAMPLE.search(unit.text))


ASKS = {"quiz": re.compile(r"\b(?:quiz|test (?:myself|yourself)|self-check|questions|cuestionario)\b|クイズ|测验",
                            re.IGNORECASE),
         "exercise": re.compile(r"\b(?:exercises?|practice|homework|assignments?|try|ejercicios?|practicar)\b|"
                                r"練習|演習|练习|习题|作业", re.IGNORECASE),
         "references": re.compile(r"\b(?:reading|resources|references|links|books|papers|learn more|referencias|"
                                  r"bibliografía|lecturas)\b|参考文献|参考資料|参考资料|延伸阅读", re.IGNORECASE),
         "troubleshooting": re.compile(r"\b(?:errors?|fail\w*|broke\w*|crash\w*|not work\w*|doesn'?t|won'?t|"
                                       r"can'?t|cannot|problems?|issues?|fix\w*|debug\w*|troubleshoot\w*|"
                                       r"wrong|stuck|warnings?)\b", re.IGNORECASE),
         "objectives": re.compile(r"\b(?:objectives?|goals?|outcomes?|prerequisites?|will i learn|"
                                  r"should i know)\b", re.IGNORECASE)}
NEGATED = re.compile(r"\b(?:no|not|nothing|never|none|nobody|nowhere|nada|nunca|ningun[oa]?|ningún)\b|n['’]t\b|"
                      r"نہیں|ない|ません|没有|沒有|不了|不能|不行", re.IGNORECASE)
# never quoted unless asked for by name, not even when nothing else says what is asked
ONLY_ASKED = {"rubric": re.compile(r"\b(?:rubric|grad(?:e|es|ed|ing)|points|marks|scor(?:e|ed|ing)|submit\w*|"
                                    r"deliverables?)\b", re.IGNORECASE),
               "template": re.compile(r"\b(?:template|starter|skeleton|todo|exercises?|assignments?)\b",
                                      re.IGNORECASE)}
