"""The pieces that say nothing a question asks but a word weighing it ("what are the benefits of …",
"有什么好处", "メリットは"): another section is not quoted for them. "with 语句有什么好处" was answered with
the with statement's section and a for-else section's "它还是有一些好处的" (it has some benefits too).
A piece under a heading that names something asked still is: a slow program's "There could be
various reasons" stands under "My program is slow. Why?"."""
from __future__ import annotations

from server.question.compose.extractive.piece_scores import HEADING_ID, Scored
from server.question.compose.extractive.question_words import prefix, prefixes
from server.text.asked import weighing_words


def weighing_only(scored: list[Scored], question: str) -> frozenset[tuple]:
    """The keys of the pieces whose asked words only weigh the question's topic, under a heading
    that names nothing else asked."""
    weighing = {prefix(word) for word in weighing_words(question)}
    if not weighing:
        return frozenset()
    asked = {word for s in scored for word in s.covers} - weighing
    return frozenset(s.unit.key for s in scored if s.covers and set(s.covers) <= weighing
                     and not asked & set(prefixes(HEADING_ID.sub("", s.unit.heading))))
