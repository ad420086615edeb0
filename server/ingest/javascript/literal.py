"""Read a JavaScript object literal without running JavaScript.

Enough for the plain data a `sidebars.js`/`sidebars.ts` or `docusaurus.config.*` usually holds:
objects, arrays, strings (quotes and backticks without `${}`), numbers, true/false/null/undefined,
comments and trailing commas. Anything computed (calls, spreads, variables, functions) raises
`NotLiteral`: the caller then knows the value can only be had by running the file.
"""
from __future__ import annotations

import re


class NotLiteral(ValueError):
    """The text is code, not a literal."""


_TOKEN = re.compile(r"""
    (?P<space>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<string>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\$]|\\.|\$(?!\{))*`)
  | (?P<number>-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)
  | (?P<name>[A-Za-z_$][\w$]*)
  | (?P<punct>[{}\[\]:,])
  | (?P<other>\.\.\.|.)
""", re.VERBOSE | re.DOTALL)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def _unquote(text: str) -> str:
    body = text[1:-1]
    return re.sub(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)",
                  lambda m: _escape(m.group(1)), body, flags=re.DOTALL)


def _escape(code: str) -> str:
    if code.startswith("u{"):
        return chr(int(code[2:-1], 16))
    if code[0] in "ux" and len(code) > 1:
        return chr(int(code[1:], 16))
    return _ESCAPES.get(code, code)


def _tokens(text: str) -> list[tuple[str, str]]:
    out = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind != "space":
            out.append((kind, match.group()))
    return out


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]):
        self.tokens = tokens
        self.i = 0

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.i] if self.i < len(self.tokens) else ("end", "")

    def take(self, value: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if value is not None and token[1] != value:
            raise NotLiteral(f"expected {value!r}, found {token[1]!r}")
        self.i += 1
        return token

    def value(self):
        kind, text = self.peek()
        if text == "{":
            return self.obj()
        if text == "[":
            return self.array()
        self.take()
        if kind == "string":
            return _unquote(text)
        if kind == "number":
            return float(text) if any(c in text for c in ".eE") else int(text)
        if kind == "name" and text in ("true", "false", "null", "undefined"):
            return {"true": True, "false": False}.get(text)
        raise NotLiteral(f"not a literal value: {text!r}")

    def obj(self) -> dict:
        self.take("{")
        out = {}
        while self.peek()[1] != "}":
            kind, text = self.take()
            if kind == "string":
                key = _unquote(text)
            elif kind in ("name", "number"):
                key = text
            else:
                raise NotLiteral(f"not a literal key: {text!r}")
            self.take(":")
            out[key] = self.value()
            if self.peek()[1] != "}":
                self.take(",")
        self.take("}")
        return out

    def array(self) -> list:
        self.take("[")
        out = []
        while self.peek()[1] != "]":
            out.append(self.value())
            if self.peek()[1] != "]":
                self.take(",")
        self.take("]")
        return out


def parse_literal(text: str):
    """The value of one literal that starts the text (anything after it is ignored)."""
    parser = _Parser(_tokens(text))
    return parser.value()


def exported_object(source: str, names: tuple[str, ...] = ()) -> dict:
    """The object a config file exports: `export default {…}`, `module.exports = {…}`, or a
    `const NAME = {…}` (optionally typed) that is then exported."""
    patterns = [r"export\s+default\s+(?=\{)", r"module\.exports\s*=\s*(?=\{)"]
    patterns += [rf"(?:const|let|var)\s+{re.escape(n)}\s*(?::\s*[\w.<>]+\s*)?=\s*(?=\{{)" for n in names]
    patterns.append(r"(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*(?::\s*[\w.<>]+\s*)?=\s*(?=\{)")
    for pattern in patterns:
        match = re.search(pattern, source)
        if match:
            value = parse_literal(source[match.end():])
            if isinstance(value, dict):
                return value
    raise NotLiteral("no exported object literal found")
