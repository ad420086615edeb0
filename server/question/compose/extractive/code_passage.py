"""Highlighted code without a language model: which language it is in (as the book marks its
block), and what it does, told from the code's own text: the lines and their comments, and in
combined mode the comment just above them in the book's block and the book's sentences that
name what the code names. Pygments reads the code: its lexer names the language and tells
comments and identifiers apart in any language it knows."""
from __future__ import annotations

import re

from pygments.lexers import get_lexer_by_name
from pygments.token import Comment, Name, String
from pygments.util import ClassNotFound

from server.question.context import Source
from server.question.understand.intent import Intent
from server.question.markers import cite_end
from server.text.sentences import split_sentences, strip_markdown
from server.text.lengths import spaced_length

PLAIN = "Text only"  # pygments' name for a block marked as plain text (`text`, `txt`)
CODE_NOTE = ("*No language model is configured here, so this is the code's own text and what the book says "
             "about it; a model would explain it step by step.*")
_FENCED = re.compile(r"^\s*(```|~~~)[^\n]*\n(.*?)\n?\s*\1\s*$", re.DOTALL)
_COMMENT_MARKS = re.compile(r"^[\s#/*;!-]+|[\s*/]+$")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _lexer(language: str):
    try:
        return get_lexer_by_name(language)
    except ClassNotFound:
        return None


def language_name(language: str) -> str:
    """`py` → "Python", `cpp` → "C++"; a language pygments does not know keeps its own id."""
    lexer = _lexer(language)
    return lexer.name if lexer is not None else language


def code_of(passage: str) -> str:
    """The highlighted code, without the fence of a passage pasted with its markdown."""
    fenced = _FENCED.match(passage)
    return (fenced.group(2) if fenced else passage).strip("\n")


def _tokens(code: str, language: str):
    lexer = _lexer(language)
    return list(lexer.get_tokens(code)) if lexer is not None else []


def comments(code: str, language: str) -> list[str]:
    """The code's comments (and docstrings), as text."""
    found = []
    for kind, text in _tokens(code, language):
        if (kind in Comment and kind not in Comment.Preproc and kind not in Comment.Hashbang) or kind in String.Doc:
            cleaned = _COMMENT_MARKS.sub("", " ".join(text.split())).strip("\"' ")
            if len(cleaned.split()) >= 2:
                found.append(cleaned)
    return found


def identifiers(code: str, language: str) -> set[str]:
    """The names the code uses (functions, variables, modules), three letters or more."""
    names = {text for kind, text in _tokens(code, language) if kind in Name}
    return {w for name in names for w in _WORD.findall(name) if len(w) > 2}


def _comment_line(line: str, language: str) -> bool:
    tokens = [kind for kind, text in _tokens(line, language) if text.strip()]
    return bool(tokens) and all(kind in Comment and kind not in Comment.Preproc for kind in tokens)


def _comment_above(block_lines: list[str], first: int, language: str) -> str:
    """The comment lines right above line `first` of a block (none across a blank line)."""
    found: list[str] = []
    for line in reversed(block_lines[:first]):
        if not _comment_line(line, language):
            break
        found[:0] = comments(line, language)
    return " ".join(found)


def _naming(sentence: str, names: set[str]) -> int:
    """How strongly a sentence of the book names the code's identifiers: a name the book writes
    as code (`butter`) counts twice, a plain word that is also a name ("signal") once."""
    quoted = {w.lower() for span in re.findall(r"`([^`]+)`", sentence) for w in _WORD.findall(span)}
    plain = {w.lower() for w in _WORD.findall(sentence)}
    return 2 * len(names & quoted) + len(names & (plain - quoted))


def _in_book(code: str, sources: list[Source], language: str) -> list[tuple[int, str]]:
    """(source number, what the book says) about the highlighted code: the comment above it in
    the book's block, then the two sentences of the book's passages naming the most of it."""
    first_line = next((line.strip() for line in code.splitlines() if line.strip()), "")
    names = {n.lower() for n in identifiers(code, language)}
    said: list[tuple[int, str]] = []
    sentences: list[tuple[int, int, int, str]] = []  # (strength, source number, position, sentence)
    for number, source in enumerate(sources, 1):
        if source.source_type != "database":
            continue
        content = source.chunk.content
        if not said and first_line and first_line in content:
            lines = content.splitlines()
            above = _comment_above(lines, next(i for i, line in enumerate(lines) if first_line in line), language)
            if above:
                said.append((number, f"Just above it, the book's block says: “{above}”"))
        for position, sentence in enumerate(split_sentences(strip_markdown(content))):
            strength = _naming(sentence, names)
            if strength >= 2 and 5 <= spaced_length(sentence) <= 60:
                sentences.append((strength, number, position, sentence))
    best = sorted(sorted(sentences, key=lambda s: -s[0])[:2], key=lambda s: (s[1], s[2]))
    return said + [(number, sentence) for _, number, _, sentence in best]


def code_answer(intent: Intent, sources: list[Source], passage: str, language: str) -> str:
    """The extractive answer to a request about highlighted code: its language, or what it does."""
    number = next((n for n, s in enumerate(sources, 1) if s.source_type == "selected_text"), 1)
    name = language_name(language)
    if intent is Intent.LANGUAGE:
        if name == PLAIN:
            return cite_end(f"The highlighted block is plain text (such as a program's output), not code in a "
                            f"programming language: the book marks it as `{language}`", number)
        return cite_end(f"The highlighted code is {name}: the book marks its block as `{language}`", number)
    code = code_of(passage)
    one_line = len([line for line in code.splitlines() if line.strip()]) == 1
    parts = [cite_end(f"The highlighted {'line' if one_line else 'code'}, in {name}", number)[:-1] + ":",
             f"```{language}\n{code}\n```"]
    own = comments(code, language)
    if own:
        parts.append(cite_end("Its own comments say: " + "; ".join(f"“{c}”" for c in own), number))
    parts += [cite_end(text, n) for n, text in _in_book(code, sources, language)]
    return "\n\n".join(parts + [CODE_NOTE])
