"""What the model writes, on its way to the reader: a leading NOT_IN_BOOK makes the answer a
refusal (the sentinel is never shown) and citation markers are put right (see question/markers.py)."""
from __future__ import annotations

import logging

from server.question import markers
from server.question.compose.gemini.prompt import REFUSAL_SENTINEL

log = logging.getLogger("textbook_chat.gemini")

_DECORATION = " \t\r\n*_`\"'"  # what may wrap a bare sentinel


def clean_answer(text: str, n_sources: int) -> str:
    """The sentinel removed, `[1, 2]` and `[1-3]` spelled `[1][2]…`, markers to no passage dropped
    (code spans and blocks are left as written)."""
    return markers.normalise(text.replace(REFUSAL_SENTINEL, ""), n_sources)


class AnswerFilter:
    """Turns the model's raw deltas into what the reader sees.

    Text is held back while it could still be the refusal sentinel or an unfinished [n] marker;
    what is released is always a prefix of the cleaned full answer, so the streamed tokens add
    up to the answer the `done` event carries.
    """

    def __init__(self, n_sources: int):
        self.n_sources = n_sources
        self.raw = ""
        self.emitted = ""
        self.refused = False

    def feed(self, delta: str) -> str:
        if self.refused or not delta:
            return ""
        self.raw += delta
        head = self.raw.lstrip(_DECORATION)
        if head.startswith(REFUSAL_SENTINEL):
            self.refused = True
            return ""
        if REFUSAL_SENTINEL.startswith(head):
            return ""  # could still become the sentinel
        safe = self.raw
        open_marker = markers.open_tail(safe)
        if open_marker is not None:
            safe = safe[:open_marker]
        last_line = safe[safe.rfind("\n") + 1:]
        if last_line.replace("```", "").count("`") % 2:  # inside inline code: wait for it to close
            safe = safe[:safe.rfind("`")]
        for k in range(len(REFUSAL_SENTINEL) - 1, 0, -1):
            if safe.endswith(REFUSAL_SENTINEL[:k]):
                safe = safe[:-k]
                break
        return self._release(clean_answer(safe.rstrip(), self.n_sources))

    def finish(self) -> str:
        if self.refused:
            return ""
        head = self.raw.strip(_DECORATION)
        if head and REFUSAL_SENTINEL.startswith(head):
            self.refused = True  # the stream ended on the sentinel's first letters
            return ""
        full = clean_answer(self.raw, self.n_sources)
        if full.startswith(self.emitted):
            return self._release(full)
        log.debug("cleaned answer diverged from the streamed prefix")
        self.emitted = full
        return ""

    @property
    def text(self) -> str:
        return self.emitted

    def _release(self, cleaned: str) -> str:
        if len(cleaned) <= len(self.emitted) or not cleaned.startswith(self.emitted):
            return ""
        delta = cleaned[len(self.emitted):]
        self.emitted = cleaned
        return delta
