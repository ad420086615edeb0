"""The extractive answer: the best block(s) of the retrieved passages, quoted as the book wrote
them (a paragraph, a list, a table, a code block), each cited.

Blocks are scored by the question's words they contain (five-letter prefixes, so "wobbling"
meets "wobble") plus their passage's retrieval score; code is quoted when the question asks for
code or commands, quizzes, exercises and reading lists only when it asks for them. No model runs
here, so an answer takes a few milliseconds.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .blocks import Block, split_blocks
from .context import Source
from .gate import asked_words
from .markers import cite_end, marker
from .sentences import strip_markdown
from .vocabulary import words

BLOCKS_BY_LENGTH = {"short": 1, "normal": 2, "detailed": 3}
SOURCES_READ = 3  # blocks come from the best few passages
SECOND_BLOCK_SHARE = 0.75  # a further block is quoted only if it scores this close to the best
WANTS_CODE = re.compile(r"\b(?:code|commands?|snippet|syntax|script|terminal|shell|cli|run|install|compile|"
                        r"implement|write|type|example program|show me)\b", re.IGNORECASE)
_ASKS = {"quiz": re.compile(r"\b(?:quiz|test (?:myself|yourself)|self-check|questions)\b", re.IGNORECASE),
         "exercise": re.compile(r"\b(?:exercises?|practice|homework|assignments?|try)\b", re.IGNORECASE),
         "references": re.compile(r"\b(?:reading|resources|references|links|books|papers|learn more)\b",
                                  re.IGNORECASE)}


@dataclass
class _Scored:
    source_number: int
    position: int
    blocks: list[Block]  # one block, or a lead-in paragraph ending in ":" and what it introduces
    score: float

    @property
    def kind(self) -> str:
        return self.blocks[-1].kind


def _prefixes(text: str) -> set[str]:
    return {w[:5] for w in words(text)}


def _fragment(blocks: list[Block], i: int) -> bool:
    """A paragraph cut by the passage's edges: the overlap's tail of the previous passage at its
    start (begins in lower case), or a sentence cut off at its end."""
    block = blocks[i]
    if block.kind != "paragraph":
        return False
    text = block.text.strip()
    first = next((j for j, b in enumerate(blocks) if b.kind != "heading"), i)
    return (i == first and text[:1].islower()) or (i == len(blocks) - 1 and not re.search(r"[.!?:)\"”’*_`]$", text))


def _units(blocks: list[Block]) -> list[tuple[int, list[Block]]]:
    """(position, blocks): each block alone, and a lead-in ending in ":" with the block it introduces."""
    units = []
    skip = -1
    for i, block in enumerate(blocks):
        if i == skip or block.kind == "heading" or _fragment(blocks, i):
            continue
        following = blocks[i + 1] if i + 1 < len(blocks) else None
        if block.kind == "paragraph" and block.text.rstrip().endswith(":") and following is not None \
                and following.kind in ("code", "list", "table"):
            units.append((i, [block, following]))
            skip = i + 1
        else:
            units.append((i, [block]))
    return units


def _candidates(question: str, sources: list[Source], *, everything: bool = False) -> list[_Scored]:
    """Scored blocks; with `everything`, code, exercises, quizzes and reading lists too (when the
    passages hold nothing else)."""
    asked = {w[:5] for w in asked_words(question)}
    wants_code = everything or bool(WANTS_CODE.search(question))
    found: list[_Scored] = []
    for number, source in enumerate(sources[:SOURCES_READ], 1):
        for position, unit in _units(split_blocks(source.chunk.content)):
            materials = {b.material for b in unit}
            if not everything and any(m in _ASKS and not _ASKS[m].search(question) for m in materials):
                continue
            has_code = any(b.kind == "code" for b in unit)
            if has_code and not wants_code:
                continue
            plain = " ".join(b.text if b.kind == "code" else strip_markdown(b.text) for b in unit)
            if unit[-1].kind == "paragraph" and len(plain.split()) < 6:
                continue
            overlap = len(asked & _prefixes(plain)) / len(asked) if asked else 0.0
            score = overlap + source.score - 0.02 * position + (0.3 if has_code else 0.0)
            found.append(_Scored(number, position, unit, score))
    return found


def _cited(scored: _Scored) -> str:
    *lead, block = scored.blocks
    if block.kind in ("paragraph", "list"):
        body = cite_end(block.text.rstrip(), scored.source_number)
    else:  # a table or a code block, cited after it
        body = f"{block.text}\n\n{marker(scored.source_number)}"
    return "\n\n".join([*(b.text for b in lead), body])


def block_answer(question: str, sources: list[Source], answer_length: str = "normal") -> str:
    candidates = _candidates(question, sources) or _candidates(question, sources, everything=True)
    if not candidates:
        return ""
    ranked = sorted(candidates, key=lambda c: c.score, reverse=True)
    limit = BLOCKS_BY_LENGTH.get(answer_length, 2)
    chosen = [ranked[0]]
    for candidate in ranked[1:]:
        if len(chosen) == limit:
            break
        if candidate.score >= SECOND_BLOCK_SHARE * ranked[0].score:
            chosen.append(candidate)
    if WANTS_CODE.search(question) and not any(c.kind == "code" for c in chosen):
        code = [c for c in ranked if c.kind == "code"]
        if code:
            chosen.append(code[0])
    chosen.sort(key=lambda c: (c.source_number, c.position))
    return "\n\n".join(_cited(c) for c in chosen)
