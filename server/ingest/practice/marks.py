"""What cleaning a page would lose of its practice material, marked as lines that survive it.

A book hides answers where a reader clicks or cannot see: `<details><summary>Solution</summary>`,
MDX components (`<Exercise title="…">…<Solution>…</Solution></Exercise>`), admonitions
(`:::tip Question`), and keys in markdown comments (`[Comment]: # (Correct Answer: C) …)`). Each
opening becomes a line `⟦answer⟧ title`, `⟦question⟧ title` (or `⟦details⟧ title` for a
collapsed block of another kind) and its end `⟦end⟧`; a comment's key becomes an "Answer:" line.
Code fences are left as they are."""
from __future__ import annotations

import re

from server.ingest.clean import split_fences

OPEN, END = "⟦", "⟦end⟧"
ANSWER, QUESTION, DETAILS = "answer", "question", "details"
# the words a book titles its answers and its questions with (English, Spanish, Chinese, Japanese)
ANSWER_WORDS = re.compile(r"(^|\W)(answers?|solutions?|sample answers?|model answers?|respuestas?|"
                          r"soluci[oó]n(es)?|答案|解答|参考答案|解説|正解)(\W|$)", re.IGNORECASE)
QUESTION_WORDS = re.compile(r"(^|\W)(questions?|quiz|challenges?|exercises?|problems?|tasks?|try it|"
                            r"self[- ]?checks?|check your understanding|ejercicios?|preguntas?|desaf[ií]os?|"
                            r"练习|习题|问题|練習|問題|演習)(\W|$)", re.IGNORECASE)
HINT_WORDS = re.compile(r"(^|\W)(hints?|pistas?|提示|ヒント)(\W|$)", re.IGNORECASE)

_COMMENT_KEY = re.compile(r"^\s*(?:\[(?:comment|//|_)\]:\s*#\s*\((?P<text>.*)\)|<!--(?P<html>.*?)-->|"
                          r"\{/\*(?P<mdx>.*?)\*/\})\s*$", re.IGNORECASE)
_SUMMARY = re.compile(r"<summary[^>]*>(?P<title>.*?)</summary>", re.IGNORECASE | re.DOTALL)
_COMPONENT = re.compile(r"<(?P<close>/?)(?P<name>details|Exercise|Solution|Hint|Question|Answer)\b(?P<attrs>[^>]*)>",
                        re.IGNORECASE)
_TITLE_ATTR = re.compile(r"""title\s*=\s*(?:\{\s*)?["'`](?P<title>[^"'`]*)["'`]""")
_ADMONITION = re.compile(r"^\s*(?P<colons>:{3,})\s*(?P<kind>[A-Za-z]+)?(?:\[(?P<bracket>[^\]]*)\])?\s*(?P<title>.*?)\s*$")


_ANSWER_FIRST = re.compile(r"(?i)^\W*(answers?|solutions?|sample answers?|model answers?|respuestas?|soluci[oó]n(es)?|"
                           r"答案|解答|参考答案|解説|正解)\b")


def _kind_of(title: str, component: str = "") -> str:
    component = component.lower()
    if component in ("solution", "answer") or _ANSWER_FIRST.match(title) \
            or (ANSWER_WORDS.search(title) and not QUESTION_WORDS.search(title)):
        return ANSWER
    if component in ("exercise", "question") or QUESTION_WORDS.search(title):
        return QUESTION
    return DETAILS


def _plain(title: str) -> str:
    return " ".join(re.sub(r"<[^>]+>|[`*_]", "", title).split())


def _marked_line(line: str, stack: list[str], pending: list[str]) -> list[str]:
    """A prose line with its components turned into marks; `stack` holds the open ones' names."""
    out, at = [], 0
    text = line
    for match in _COMPONENT.finditer(line):
        before = text[at:match.start()]
        at = match.end()
        name = match["name"].lower()
        if match["close"]:
            if name in stack:
                while stack:
                    if stack.pop() == name:
                        break
                out += [before, f"\n{END}\n"]
            else:
                out.append(before)
            continue
        if name == "details":
            summary = _SUMMARY.search(text, at)
            if summary is not None:
                title = _plain(summary["title"])
                at = summary.end()
                out += [before, f"\n{OPEN}{_kind_of(title)}⟧ {title}\n"]
            else:  # a <summary> on a later line
                pending.append("details")
                out.append(before)
            stack.append(name)
            continue
        if name == "hint":
            stack.append(name)
            out += [before, f"\n{OPEN}details⟧ Hint\n"]
            continue
        found = _TITLE_ATTR.search(match["attrs"] or "")
        title = _plain(found["title"]) if found else ""
        stack.append(name)
        out += [before, f"\n{OPEN}{_kind_of(title, name)}⟧ {title}\n"]
    out.append(text[at:])
    return "".join(out).split("\n")


def mark(raw: str) -> str:
    """The page's markdown with its practice components as marks (see the module's doc)."""
    out: list[str] = []
    stack: list[str] = []  # open components
    admonitions: list[bool] = []  # open admonitions: whether each is marked
    pending: list[str] = []  # a <details> whose <summary> is still to come
    summary_lines: list[str] = []
    for is_code, lines in split_fences(raw.replace("\r\n", "\n")):
        if is_code:
            out.extend(lines)
            continue
        for line in lines:
            if pending:  # the summary of a <details> opened on an earlier line
                summary_lines.append(line)
                joined = " ".join(summary_lines)
                found = _SUMMARY.search(joined)
                if found is None and "<summary" in joined.lower() and len(summary_lines) < 6:
                    continue
                if found is None and not joined.strip():
                    summary_lines.clear()
                    continue
                pending.clear()
                title = _plain(found["title"]) if found else ""
                out.append(f"{OPEN}{_kind_of(title)}⟧ {title}")
                rest = joined[found.end():] if found else joined
                summary_lines.clear()
                out.extend(_marked_line(rest, stack, pending))
                continue
            comment = _COMMENT_KEY.match(line)
            if comment:
                said = next(t for t in (comment["text"], comment["html"], comment["mdx"], "") if t is not None).strip()
                if re.match(r"^\W*(correct\s+)?answer\b", said, re.IGNORECASE):
                    out.append(re.sub(r"^\W*(correct\s+)?answer\s*:?\s*", "Answer: ", said, flags=re.IGNORECASE))
                else:
                    out.append(line)  # a comment of another kind: cleaning drops it
                continue
            admonition = _ADMONITION.match(line)
            if admonition:
                if admonition["kind"]:
                    title = (admonition["bracket"] or admonition["title"] or "").strip()
                    kind = _kind_of(title) if (ANSWER_WORDS.search(title) or QUESTION_WORDS.search(title)) else ""
                    admonitions.append(bool(kind))
                    out.append(f"{OPEN}{kind}⟧ {_plain(title)}" if kind else line)
                elif admonitions:
                    out.append(END if admonitions.pop() else line)
                else:
                    out.append(line)
                continue
            out.extend(_marked_line(line, stack, pending))
    return "\n".join(out)


def mark_of(line: str) -> tuple[str, str] | None:
    """(kind, title) of a mark's opening line; ("end", "") of its end; None for any other line."""
    line = line.strip()
    if line == END:
        return "end", ""
    found = re.match(r"^⟦(answer|question|details)⟧\s*(.*)$", line)
    return (found.group(1), found.group(2).strip()) if found else None
