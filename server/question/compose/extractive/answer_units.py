"""The pieces an extractive answer is made of: a passage's sentences, list items (each with the items
nested under it), tables and code blocks, each knowing where it stands in the passage and what it depends on.

- A sentence ending in ":" or "：" introduces the block after it (a formula, list, table or code block): one piece.
- A list item carries the items nested under it, as written, so a quoted list keeps its nesting.
- A sentence that opens by referring back ("It …", "This …") needs the sentence before it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from server.text.blocks import (EXERCISE_LEAD, FOLDED_ANSWER, PRACTICE, PRACTICE_LABEL, PRACTICE_LEAD, THEMATIC_BREAK,
                                Block, split_blocks)
from server.text.lengths import CJK_RUN
from server.text.sentences import LEAD_IN_ENDS, OTHER_SCRIPTS, strip_markdown

# a sentence ends at ".", "!" or "?" (with the quotes, brackets or emphasis closing on it: "… cluster.)") before
# one not opening in lower case (in any script: Spanish "¿", Urdu's letters), or at the full stops of Chinese,
# Japanese and Urdu ("。", "۔"), after the quote one closes ("…か？」", unless a particle goes on: "…か？」という…")
_BOUNDARY = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"')\]*_])|(?<=[.!?][\"')\]*_]{2}))(?<!\.\.\.)\s+"
                       r"(?=[^\sa-zà-öø-ÿ,;:)\]}.\-–—])|" + OTHER_SCRIPTS)
ITEM_MARKER = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+")  # a list item's marker, after its indent
# a sentence (or a list's item) that opens on what came before it: "This …", "However, …", "on the other
# hand …"; in the pool's other languages "Esto …", "これを…" ("this", not "それぞれ", each), "这…", "یہ …"
REFERS_BACK = re.compile(r"^[\s*_]*(?:(?:it|its|this|these|that|those|they|their|them|such|both|here|he|she|"
                         r"however|therefore|thus|instead|otherwise|on the other hand|in contrast|by contrast|"
                         r"conversely|likewise|similarly|nevertheless|nonetheless|"
                         r"esto|esta|este|estos|estas|eso|esa|ese|ello|sin embargo|por (?:lo )?tanto|por eso|así|por otro lado|en cambio)\b|"
                         r"(?:これ|それ|この|その|こう|そう|そこで)(?!ぞれ|から)|というのは|つまり|したがって|ただし|しかし|一方|なので|"
                         r"なぜなら|ところが|"
                         r"这|那|它|此|另一方面|因此|所以|但是|然而|不过|也就是说|(?:یہ|اس|وہ|ان)\s)", re.IGNORECASE)
_GOES_ON = re.compile(r"^[\s*_]*(?:and|also)\b", re.IGNORECASE)  # inside a paragraph: "And this is what …"
# "… explore using these.", "…存在しない場合があるからです。" (it is because …): said of the sentence before
_BACK_AT_END = re.compile(r"\b(?:these|those|them)\W*$|(?:から|ため)です[。．]?$", re.IGNORECASE)
# a paragraph that is one bold title: not a sentence ("**Step 3**"), not a lead-in ("**Commands:**")
# (a name in it may hold underscores: "**Launch File Example (`spawn_robot.launch.py`)**")
_TITLE_ONLY = re.compile(r"^\s*(?:\*\*[^*\n]*[^*\n.!?:。！？：۔؟]\*\*|__[^_\n]*[^_\n.!?:。！？：۔؟]__)\s*$")
_ENDS = re.compile(r"[.!?:)\"”’*_`$。！？」』۔؟]$")


@dataclass(frozen=True)
class Unit:
    source: int  # the passage's number in the answer, from 1
    block: int  # the block's place in the passage
    index: int  # the sentence's or item's place in its block (0 for a whole block)
    kind: str  # "sentence" | "item" | "table" | "code" | "formula"
    text: str  # as the book wrote it; a lead-in carries the block it introduces after a blank line
    heading: str  # the nearest heading above it
    material: str  # prose, code, quiz, exercise or references (blocks.py)
    introduces: str = ""  # the kind of block a lead-in carries ("" for none)
    refers_back: bool = False
    kept_items: tuple[int, ...] | None = None  # a lead-in's list cut to these of its items (None: all)

    @property
    def key(self) -> tuple[int, int, int]:
        return self.source, self.block, self.index

    @property
    def before(self) -> tuple[int, int, int]:
        """The key of the piece before it in its paragraph or list."""
        return self.source, self.block, self.index - 1

    @cached_property  # read several times while scoring; a unit's text never changes
    def plain(self) -> str:
        if self.kind == "code":
            return self.text
        if self.introduces == "code":  # the lead-in's words and the code's (its names are what is asked)
            lead_in, _, code = self.text.partition("\n\n")
            return f"{strip_markdown(lead_in)}\n{code}"
        return strip_markdown(self.text)

    @cached_property  # read once per item while a list is cut to fit
    def items(self) -> list[str]:
        """The top-level items of the list a lead-in carries (or of a list part), each with what is
        nested under it."""
        if self.introduces == "list":
            return list_items(self.text.partition("\n\n")[2])
        return list_items(self.text) if self.kind == "list" else []

    @property
    def shown(self) -> str:
        """What a reader sees of it: a lead-in's list cut to the items kept."""
        if self.kept_items is None:
            return self.text
        items = self.items
        kept = "\n".join(items[i] for i in self.kept_items)
        if self.introduces != "list":
            return kept
        lead_in = self.text.partition("\n\n")[0]
        return f"{lead_in}\n\n{kept}"

    @property
    def read(self) -> str:
        """What a reader reads of it: a lead-in without its code, table or formula."""
        return self.text.split("\n\n", 1)[0] if self.introduces in ("code", "table", "formula") else self.shown

    @property
    def asks(self) -> bool:
        """A question (a quiz's, or the book asking the reader): it does not answer anything."""
        said = _PARENTHESIS_AT_END.sub("", self.text.rstrip(" *_"))  # "Why do we reverse it? (See point (6))"
        # Japanese asks with a closing か as often as with a question mark ("…のでしょうか。")
        return self.kind in ("sentence", "item") and not self.introduces and (
            said.endswith(("?", "？", "؟")) or said.endswith(("か。", "か．")))


_PARENTHESIS_AT_END = re.compile(r"\s*\((?:[^()]|\([^()]*\))*\)[.。]?$")


def dangling(unit: Unit) -> bool:
    """A sentence that points back at what comes before it, with nothing before it in its
    paragraph to quote with it (the answer would open on "this" and never say what it is)."""
    return unit.kind == "sentence" and not unit.refers_back and bool(REFERS_BACK.match(unit.text))


def sentences_of(paragraph: str) -> list[str]:
    """The paragraph's sentences; an ellipsis goes on ("the `try` ... `except` structure")."""
    text = " ".join(paragraph.split())
    return [s.strip() for s in _BOUNDARY.split(text) if s.strip()]


def list_items(text: str) -> list[str]:
    """The list's top-level items, each with the lines (nested items, continuations) under it."""
    lines = text.splitlines()
    indents = [len(m.group(1)) for m in map(ITEM_MARKER.match, lines) if m]
    top = min(indents) if indents else 0
    items: list[list[str]] = []
    for line in lines:
        found = ITEM_MARKER.match(line)
        if found and len(found.group(1)) == top or not items:
            items.append([line])
        else:
            items[-1].append(line)
    return ["\n".join(item).rstrip() for item in items if "".join(item).strip()]


_INLINE_CODE = re.compile(r"`[^`]*`")  # "the `join`/`>>=` functions": prose naming code, not a formula


def _formula(block: Block) -> bool:
    """A displayed formula: TeX display math, or one line of symbols with an "=" in it."""
    text = block.text.strip()
    if block.kind != "paragraph":
        return False
    return text.startswith(("$$", "\\[", "\\begin")) or (
        "\n" not in text and "=" in _INLINE_CODE.sub("", text) and len(text.split()) <= 15
        and not _ENDS.search(text.rstrip(")")))


def _introduces(block: Block | None) -> str:
    """What a lead-in ending in ":" can introduce: a list, table, code block or formula ("" if not)."""
    if block is None:
        return ""
    if block.kind in ("list", "table", "code"):
        return block.kind
    return "formula" if _formula(block) else ""


_MARKUP_START = re.compile(r"^[\s*_`\"'“‘(\[]*")


def _lowercase_start(sentence: str) -> bool:
    """A sentence opening in lowercase once its markup is set aside ("`cargo build` because …": a line
    of a wrapped paragraph a passage starts on), not in Japanese or Chinese ("undefinedとnullは …")."""
    return sentence[len(_MARKUP_START.match(sentence).group(0)):][:1].islower() and not CJK_RUN.search(sentence)


def _mended(blocks: list[Block]) -> list[Block]:
    """A sentence broken across two paragraphs made whole: a passage that starts inside a wrapped
    paragraph holds the start of the sentence it breaks off in ("Usually, `cargo check` is much
    faster than"), then the rest of it ("`cargo build` because it skips …")."""
    out: list[Block] = []
    for block in blocks:
        before = out[-1] if out else None
        if before is not None and before.kind == block.kind == "paragraph" and _lowercase_start(block.text) \
                and not _ENDS.search(before.text.rstrip(" *_")) and not _formula(before):
            out[-1] = Block("paragraph", f"{before.text} {block.text}", before.heading)
        elif before is not None and before.kind == "list" and block.kind == "paragraph" and not _formula(block) \
                and _label(list_items(before.text)[-1]):
            # "* Removing elements:" then "`remove(x)` deletes …": an item's line cut at its colon
            # where a chunk ran out, the rest read as a paragraph of its own
            out[-1] = Block("list", f"{before.text} {block.text}", before.heading)
        else:
            out.append(block)
    return out


def _label(item: str) -> bool:
    """An item that only names what comes after it ("* Length:"), nothing nested under it."""
    return "\n" not in item.strip() and item.rstrip(" *_").endswith(LEAD_IN_ENDS)


def _cut(blocks: list[Block], i: int, sentences: list[str]) -> tuple[int, int]:
    """How many sentences to drop at the start and end of a paragraph cut by the passage's edges
    (the overlap's tail of the previous passage, or a sentence cut off at the end)."""
    first = next((j for j, b in enumerate(blocks) if b.kind != "heading"), i)
    head = 1 if i == first and sentences and _lowercase_start(sentences[0]) else 0
    tail = 1 if i == len(blocks) - 1 and sentences and not _ENDS.search(sentences[-1]) else 0
    return head, tail


_QUOTED = re.compile(r"^\s*>\s?", re.MULTILINE)


def _unquoted(text: str) -> str:
    """A blockquote's sentences without its "> " marks (a note the book sets apart is still prose)."""
    lines = [line for line in text.splitlines() if line.strip()]
    return _QUOTED.sub("", text) if lines and all(line.lstrip().startswith(">") for line in lines) else text


_COMMENT = re.compile(r"^\[[^\]]*\]:\s*#.*$", re.MULTILINE)  # "[comment]: # (…)", markdown's hidden line


def _material(block: Block, context: str) -> str:
    """A block's material on its page: its own (code, a quiz list), else the page's (a
    troubleshooting page's "Solution:" and its steps are troubleshooting)."""
    material = block.material if block.material != "prose" else context
    # an exercise's code is set, not explained; a troubleshooting page's commands are its fixes
    return context if material == "code" and context in (*PRACTICE, "troubleshooting") else material


@lru_cache(maxsize=512)
def units_of(markdown: str, source: int, context: str = "prose") -> tuple[Unit, ...]:
    """The passage's pieces. `context`: the material its page's headings make it (a quiz page's
    passage is quiz material even where the passage shows none of them). Kept for the passages
    asked about again (the units are immutable)."""
    blocks = _mended(split_blocks(_COMMENT.sub("", markdown)))
    units: list[Unit] = []
    taken = -1
    exercise_before = practice = posed = False
    for i, block in enumerate(blocks):
        if i == taken or block.kind == "heading":
            exercise_before = exercise_before and block.kind != "heading"
            practice = practice and block.kind != "heading"
            posed = posed and block.kind != "heading"
            continue
        if block.kind == "paragraph" and THEMATIC_BREAK.match(block.text):
            exercise_before = practice = False
            continue
        practice = practice or (block.kind == "paragraph" and bool(PRACTICE_LEAD.match(block.text)))
        following = blocks[i + 1] if i + 1 < len(blocks) and blocks[i + 1].kind != "heading" else None
        material = _material(block, context)
        folded = (block.kind == "paragraph" and bool(FOLDED_ANSWER.match(block.text))
                  or following is not None and following.kind == "paragraph" and bool(FOLDED_ANSWER.match(following.text)))
        set_inline = posed or practice or folded or block.kind == "paragraph" and bool(EXERCISE_LEAD.match(block.text))
        # the questions an admonition's label sets: the block after it (a lead-in with its list, taken with it),
        # not the book's text after the admonition, which the cleaned text no longer tells apart
        posed = block.kind == "paragraph" and bool(PRACTICE_LABEL.match(block.text))
        if set_inline or (block.kind == "code" and exercise_before):
            material = "exercise"  # an exercise set inline, and its solution's code after it; all after a practice lead
        exercise_before = set_inline or (block.kind == "list" and bool(EXERCISE_LEAD.match(list_items(block.text)[-1])))
        if block.kind == "paragraph" and _TITLE_ONLY.match(block.text):
            continue  # a title set in bold ("**Recursión profunda con `DeepRecursiveFunction`**"), no sentence
        if block.kind == "paragraph" and not _formula(block):
            sentences = sentences_of(_unquoted(block.text))
            head, tail = _cut(blocks, i, sentences)
            kept = range(head, len(sentences) - tail)
            for k in kept:
                sentence = sentences[k]
                # a lead-in ends in ":", or runs on into the formula that ends it ("… is computed as $$ … $$")
                runs_on = following is not None and _formula(following) and not _ENDS.search(sentence.rstrip(" *_"))
                lead_in = sentence.endswith(LEAD_IN_ENDS)
                kind = _introduces(following) if k == len(sentences) - 1 and (lead_in or runs_on) else ""
                if not kind and (lead_in or not _ENDS.search(sentence.rstrip(" *_"))):
                    continue  # what it introduces is not in this passage, or it is cut off
                if kind:
                    taken = i + 1
                    units.append(Unit(source, i, k, "sentence", f"{sentence}\n\n{following.text}", block.heading,
                                      _material(following, context) if kind != "formula" and not set_inline else material,
                                      introduces=kind, refers_back=k > 0 and bool(REFERS_BACK.match(sentence))))
                else:
                    units.append(Unit(source, i, k, "sentence", sentence, block.heading, material,
                                      refers_back=k > head and bool(REFERS_BACK.match(sentence) or _GOES_ON.match(
                                          sentence) or _BACK_AT_END.search(sentence))))
        elif block.kind == "paragraph":
            units.append(Unit(source, i, 0, "formula", block.text, block.heading, material))
        elif block.kind == "list":
            items = list_items(block.text)
            for k, item in enumerate(items):
                if not _label(item):  # "- on the other hand …" goes with the item before it
                    units.append(Unit(source, i, k, "item", item, block.heading,
                                      "exercise" if EXERCISE_LEAD.match(item) else material,
                                      refers_back=k > 0 and bool(REFERS_BACK.match(ITEM_MARKER.sub("", item)))))
                    continue
                kind = _introduces(following) if k == len(items) - 1 else ""
                if kind:  # "* Length:" and the code it introduces
                    taken = i + 1
                    units.append(Unit(source, i, k, "item", f"{item}\n\n{following.text}", block.heading,
                                      _material(following, context) if kind != "formula" else material, introduces=kind))
                # else a label whose words are not in this passage: nothing a reader can use
        else:  # a table or a code block, whole
            units.append(Unit(source, i, 0, block.kind, block.text, block.heading, material))
    return tuple(units)
