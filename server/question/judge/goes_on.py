"""What the book says right after a highlighted passage. Asked to explain a sentence or two it
highlighted ("undefined is a variable and null a literal", "what does this mean?"), a reader
without a model was given the sentence back; the book's next sentences are most often the ones
that explain it ("null is a literal, so no variable can be named null; undefined is a
variable …"). In combined mode the passage's own chunk is among the book's passages: the
sentences after the passage in its paragraph, then the paragraphs after it under the same
heading, up to a heading, code, a table, a list or a note's label; after a lead-in ("… uses a
client-server architecture:"), the list or table it introduces."""
from __future__ import annotations

import re

from server.question.context import Source
from server.question.holding import TAIL, holds
from server.text.blocks import split_blocks
from server.text.sentences import LEAD_IN_ENDS, normalised, split_sentences

LIST_WORDS = 80  # a list longer than this is no context to quote for one of its lines
_ITEM = re.compile(r"^(?:[-*+]|\d+[.)])\s+")  # a list's own line, not one nested under it
_LABEL = re.compile(r"^\s*(\*\*|__)[^*_\n]+\1\s*[:：]?\s*$")  # "**Tip: Note**": a note or an exercise starts


def goes_on(sources: list[Source], passage: list[str], room: int) -> list[tuple[int, str]]:
    """(source number, sentence) for up to `room` sentences that follow the passage (its
    sentences, `passage`) in a book passage among `sources`; none where no book passage holds it."""
    tail = normalised(passage[-1])[-TAIL:] if passage and room > 0 else ""
    if not tail:
        return []
    for number, source in enumerate(sources, 1):
        if source.source_type != "database":
            continue
        blocks = split_blocks(source.chunk.content)
        for b, block in enumerate(blocks):
            if block.kind != "paragraph":
                continue
            sentences = split_sentences(block.text)
            ends = next((i for i, s in enumerate(sentences) if tail in normalised(s)), None)
            if ends is None:
                continue
            found = sentences[ends + 1:]
            following = blocks[b + 1] if b + 1 < len(blocks) else None
            if not found and sentences[ends].rstrip(" *_").endswith(LEAD_IN_ENDS) and following is not None \
                    and following.kind in ("list", "table") and following.heading == block.heading:
                # a lead-in highlighted ("Gazebo uses a client-server architecture:"): what it introduces
                return [(number, following.text)]
            for after in blocks[b + 1:]:
                if len(found) >= room or after.kind != "paragraph" or after.heading != block.heading \
                        or _LABEL.match(after.text):
                    break
                found += split_sentences(after.text)
            return [(number, s) for s in found[:room]]
    return []


def its_list(sources: list[Source], passage: str) -> tuple[int, str] | None:
    """(source number, text) for a highlighted line of a list ("Can lose steps under load" of the
    stepper motors' list): the list as the book gives it, under its heading, with the lead-in that
    introduces it ("Precise positioning:"); the line alone says nothing of what it is about.
    None where no book passage holds it in a list of two lines or more, or the list is long."""
    for number, source in enumerate(sources, 1):
        if source.source_type != "database":
            continue
        blocks = split_blocks(source.chunk.content)
        for b, block in enumerate(blocks):
            if block.kind != "list" or not holds(block.text, passage):
                continue
            if sum(bool(_ITEM.match(line)) for line in block.text.splitlines()) < 2 or \
                    len(block.text.split()) > LIST_WORDS:
                return None
            before = blocks[b - 1] if b > 0 else None
            lead = before is not None and before.kind == "paragraph" and before.heading == block.heading \
                and before.text.rstrip(" *_").endswith(LEAD_IN_ENDS)
            heading = block.heading or source.chunk.heading
            shown = f"{before.text}\n\n{block.text}" if lead else block.text
            return number, f"**{heading}**\n\n{shown}" if heading else shown
    return None
