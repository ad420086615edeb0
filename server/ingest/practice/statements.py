"""Questions for a page that asks none itself, made only from what it states to teach: a term and
its definition ("A topic is a named bus over which nodes exchange messages" → "What is a topic?"),
a cause and its effect ("… because …" → "Explain why …"), a key term the page lists with its
meaning. Each keeps its sentence as the answer and its section as where it is taught. A bare
fact ("Robot mass: 60 kg", "The arm weighs 4 kg") asks nothing and is never made a question."""
from __future__ import annotations

import re

from server.book.outline import Block, Item
from server.ingest.blocks import block_kind, list_items, plain
from server.ingest.page import Page
from server.text.sentences import split_sentences

MAX_BUILT = 5
_PRONOUNS = frozenset("""this that these those it its they there here we you i he she our your their each every
some many most such one another other all both which what when where who how if so then also now first next
esto esta este estos estas eso ello ellos ellas aquí""".split())
_TERM = r"(?P<term>\*\*[^*]{2,60}\*\*|`[^`]{2,40}`|[A-Za-zÁÉÍÓÚáéíóúñÑ][\w'’/+\-. ()]{1,60}?)"
_DEFINES = re.compile(rf"^(?:(?P<article>An?|The)\s+)?{_TERM}\s+(?P<verb>is defined as|refers to|means|stands for|"
                      r"is called|are called|is|are)\s+(?P<rest>.+)$")
# what follows "is" in a definition: a kind of thing ("a quantity that …", "the duration of …")
_DEFINITION = re.compile(r"(?i)^(?:a|an|the|one|any|what|how|when|where|used|known as|defined|responsible)\b")
_CLAUSE_WORDS = re.compile(r"(?i)\b(that|which|who|whose|where|when|if|in this|of this|between)\b|[:;,]")
_QUANTIFIERS = re.compile(r"(?i)^(almost|nearly|two|three|four|five|several|many|most|every|each|both|some|all|"
                          r"another|other|such|no|only|more|less|first|second|third|fourth|last|next|former|latter|"
                          r"same|following|previous|reason|way|problem|point|idea|result|purpose|goal|thing|"
                          r"case|key|trick|answer|question|issue)\b")
_DEFINES_ES = re.compile(rf"^(?:(?:Un|Una|El|La|Los|Las)\s+)?{_TERM}\s+(?P<verb>se define como|es|son)\s+"
                         r"(?P<rest>(?:un|una|el|la|los|las)\s.+)$")
# "XとはYです" ("…することは" is no "とは"), "X是Y"
_DEFINES_CJK = re.compile(r"^(?P<term>[^，。、：:\s]{2,16}?)(?:(?<!こ)とは|是指|是一种|是一個|是一个|是)(?P<rest>.{6,})$")
# "YをXと言います": what is called X
_CALLED_JA = re.compile(r"^(?P<what>[^、。]{4,60}?)を(?P<term>[^、。を]{2,30}?)と(?:言|い|呼)(?:います|びます|ばれます)。?$")
_POINTING_JA = re.compile(r"^(?:この|その|あの|これ|それ|あれ|こう|そう)")
# Chinese says "是" of anything ("最简单的办法是…", "下面是…代码", "但是"): it defines a term with "是指",
# "是一种", "是一个" ("装饰器是一种特殊的函数"), and the term is a name, not a description (的), a
# pointer ("这", "我们", "下面") or a clause ("在理想情况下", "由于默认值", "…通常")
# a Japanese "Xとは" whose X points ("ここで言及している…", "このように…"), says an adjective or a
# negation ("詳しい", "必要ない") or a clause ("指定は…"): no term
_NOT_A_TERM_JA = re.compile(r"^(?:この|その|あの|ここ|そこ|これ|それ|こう|そう|他の|・)|は|[いな]$|^「(?!.*」)")
_DEFINES_ZH = ("是指", "是一种", "是一個", "是一个", "是一類", "是一类")
_NOT_A_TERM_ZH = re.compile(r"的|[（(][^）)]*$|^(?:这|那|此|其|本|我|你|他|她|它|下面|上面|上文|下文|以下|以上|如下|但|而|如果|"
                            r"虽然|因为|由于|无论|首先|其次|最后|然后|所以|因此|在|对于|关于|通过|使用|用|当|特别|另外|此外)|"
                            r"(?:就|也|都|还|其实|才|只|便|即|总|中|时|后|可能|通常|一般|可以|认为|仅仅|应该|需要|会|能)$")
_BECAUSE = re.compile(r"^(?P<clause>.{20,160}?)\s*,?\s+(?:because|since|porque|ya que)\s+(?P<why>.{10,})$", re.IGNORECASE)
_LEADS = re.compile(r"^(?P<cause>.{6,80}?)\s+(?:causes|leads to|results in|provoca|produce)\s+(?P<effect>.{6,})$",
                    re.IGNORECASE)
# a term the page marks where it names it: "Read 1 and 2 form what is called a **read pair**", "… duplicate
# reads, known as **optical duplicates**"
_ANNOUNCES = (":", "：")  # a sentence ending so announces what follows
_MARKED = re.compile(r"\b(?:called|known as|referred to as)\s+(?P<article>an?\s+|the\s+)?\*\*(?P<term>[^*]{2,60})\*\*")
_KEY_TERM = re.compile(r"^\s*(?:\*\*)?(?P<term>[^:*—–]{2,40}?)(?:\*\*)?\s*(?::|—|–| - )\s*(?P<meaning>.{12,})$")


def _lowered(text: str) -> str:
    """Its first letter lower-cased unless it begins a name ("ROS 2", "I/O"): "A closure" is "a closure"."""
    return text[:1].lower() + text[1:] if text[1:2].islower() or not text[1:2].strip() else text


# a clause's first word, not a term's: "Because ownership is a new concept …" defines no "Because ownership"
_CLAUSE_START = frozenset("""because since although though while if when whenever unless as after before once until
whereas in on at for with by from to of into and but or so yet just even not also only
porque aunque mientras si cuando como después antes en con por para de y pero""".split())


_POINTS_AT_LISTING = re.compile(r"(?i)\b(?:listing|figure|table)\s+\d")
_INTRODUCTORY = re.compile(r"^(?:[\w’']+\s+){0,3}[\w’']+,\s+")  # "However, ", "In the second case, "


def _first_word(text: str) -> str:
    return re.split(r"[’']", text.split()[0])[0].lower() if text.split() else ""  # "It’s": "it"


def _term_ok(term: str) -> bool:
    words = re.sub(r"\([^)]*\)", "", term).split()
    # "The variable s refers to …": a name in an example is no term the page teaches
    return 0 < len(words) <= 4 and words[0].lower() not in _PRONOUNS | _CLAUSE_START \
        and not any(w.lower() in ("here", "there") for w in words) \
        and not any(len(w) == 1 and w.isalpha() for w in words) and not term.strip().isdigit() \
        and not _QUANTIFIERS.match(term) and not _CLAUSE_WORDS.search(re.sub(r"\([^)]*\)", "", term)) \
        and not re.search(r"\b(can|will|should|must|may|would|could|was|were|has|have|had|do|does)\b", term, re.I)


def _question(sentence: str, spanish: bool) -> str | None:
    """The question a sentence that defines or explains answers, or None."""
    words = sentence.split()
    if len(words) < 7 and not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]{12}", sentence):
        return None
    if sentence.rstrip().endswith(_ANNOUNCES):  # "Well here are a few common issues:" announces, defines nothing
        return None
    found = _BECAUSE.match(sentence)
    # "However, multiple immutable references are allowed because …": why they are allowed
    clause = _INTRODUCTORY.sub("", found["clause"], count=1) if found else ""
    if found and _first_word(clause) not in _PRONOUNS | _CLAUSE_START and not re.search(r"[:;]", clause) \
            and clause.rstrip(" ,").split()[-1].lower() not in _CLAUSE_START \
            and not _POINTS_AT_LISTING.search(clause):  # "…, but" is half a clause; a listing is no lesson
        clause = clause.rstrip(" ,;")
        return f"Explica por qué {_lowered(clause)}." if spanish else f"Explain why {_lowered(clause)}."
    found = (_DEFINES_ES if spanish else _DEFINES).match(sentence)
    if found and _term_ok(found["term"].strip("*` ")):
        rest, verb = found["rest"], found["verb"]
        term = found["term"].strip()
        shown = term if term.startswith(("**", "`")) else f"**{term}**"
        if spanish:
            if not re.match(r"^[\d$€£%~≈]", rest) and len(rest.split()) >= 4:
                return f"¿Qué es {shown}?" if verb != "son" else f"¿Qué son {shown}?"
        elif verb.endswith("called") and len(rest.split(",")[0].split()) <= 6:
            article = f"{found['article'].lower()} " if found["article"] else ""
            return f"What {verb.split()[0]} {article}{shown} called?"
        elif not verb.startswith(("is", "are")) or (_DEFINITION.match(rest) and len(rest.split()) >= 4):
            article = f"{found['article'].lower()} " if found["article"] else ""
            if verb in ("is", "are", "is defined as"):
                return f"What {'are' if verb == 'are' else 'is'} {article}{shown}?"
            return f"What does {article}{shown} {'mean' if verb != 'stands for' else 'stand for'}?"
    found = _CALLED_JA.match(sentence)
    if found and not _POINTING_JA.match(found["what"]) and not re.search(r"これ|それ|「[^」]*$", found["what"]):
        return f"{found['what']}を何と言いますか？"
    found = _DEFINES_CJK.match(sentence)
    japanese = bool(re.search(r"[\u3040-\u30ff]", sentence))
    if found and not re.search(r"[\d,，]", found["term"]) and (
            not _NOT_A_TERM_JA.search(found["term"]) if japanese else
            not _NOT_A_TERM_ZH.search(found["term"]) and sentence[len(found["term"]):].startswith(_DEFINES_ZH)):
        return f"{found['term']}とは何ですか？" if japanese else f"什么是{found['term']}？"
    found = _LEADS.match(sentence)
    if found and _term_ok(found["cause"]):
        return f"¿Qué provoca {_lowered(found['cause'])}?" if spanish else f"What does {_lowered(found['cause'])} lead to?"
    return None


def _marked(written: str) -> str | None:
    """"What is a **read pair**?" of a sentence that marks the term where it names it (as written,
    its emphasis kept), or None."""
    found = _MARKED.search(written)
    if found is None or written.rstrip().endswith(_ANNOUNCES) or not _term_ok(found["term"]):
        return None
    article = found["article"] or ""
    verb = "are" if found["term"].endswith("s") and not article else "is"
    return f"What {verb} {article}**{found['term']}**?"


def built_questions(page: Page, sections: list) -> Block | None:
    """Up to MAX_BUILT questions from the page's statements, one per section first."""
    spanish = page.locale.startswith("es") or bool(re.search(r"\b(el|la|los|las|que|una)\b.*\b(es|son)\b",
                                                             page.title.lower()))
    found: list[list[Item]] = []  # per section, in order
    for section in sections:
        if section.headings and section.headings[-1][0] > 3:
            continue
        kind = next((k for t in section.titles if (k := block_kind(t))), None)
        if kind in ("objectives", "prerequisites", "summary", "quiz", "exercises"):
            continue
        url = f"{page.url}#{section.anchor}" if section.anchor else page.url
        texts = [b.text for b in section.blocks if not b.is_code]
        candidates: list[tuple[str, str]] = []
        if kind == "key_terms":
            for item in list_items(texts):
                term = _KEY_TERM.match(item)
                if term and _term_ok(term["term"]):
                    candidates.append((f"What is **{term['term'].strip()}**?", item))
        for text in texts:
            if text.lstrip().startswith(("|", "<", ">", "import ", "export ")):
                continue
            for said in split_sentences(text):
                sentence = plain(said)
                question = _question(sentence, spanish) or (None if spanish else _marked(said))
                if question:
                    candidates.append((question, sentence))
        heading = section.titles[-1] if section.headings else page.title
        found.append([Item(question=q, answer=a, tests=url, tests_heading=heading) for q, a in candidates])
    made: list[Item] = []
    asked: set[str] = set()
    for turn in range(2):  # one per section first, then the rest in order
        for items in found:
            for item in items[:1] if turn == 0 else items[1:]:
                if len(made) < MAX_BUILT and item.question.lower() not in asked:
                    asked.add(item.question.lower())
                    made.append(item)
    if not made:
        return None
    legacy = tuple(i.question for i in made), tuple(i.answer for i in made)
    return Block("built", page.title, page.url, legacy[0], legacy[1], tuple(made))
