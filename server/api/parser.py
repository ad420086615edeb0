"""Request bodies read as JSON with limits a hostile client cannot get past.

Python's own JSON reader accepts what the rest of the server cannot hold: text nested a
thousand levels deep (it recurses), integers of thousands of digits (converting them raises),
`NaN` and `Infinity` (they pass every range check), and lone UTF-16 surrogates such as
`"\\ud800"` (no database or UTF-8 encoder takes them), and the NUL character (PostgreSQL
cannot store it in text). Each is refused here, so it leaves as 400 VALIDATION_ERROR naming
the problem, the same on every database.
"""
from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

from webargs import core
from webargs.flaskparser import FlaskParser, abort, is_json_request

MAX_DEPTH = 32  # our deepest request nests two objects
MAX_NUMBER_CHARS = 40

# strings (escapes included) and every character that is not a bracket: what is left are the brackets
_NOT_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"|[^\[\]{}]+', re.DOTALL)
_SURROGATE = re.compile("[\ud800-\udfff]")


class UnsafeJson(ValueError):
    """A body that is JSON, but not one the server will take; `field` names where, if known."""

    def __init__(self, message: str, field: str = "_schema"):
        super().__init__(message)
        self.field = field


def _depth(text: str) -> int:
    brackets = _NOT_BRACKETS.sub("", text)
    return max(accumulate(1 if c in "[{" else -1 for c in brackets), default=0)


def _integer(raw: str) -> int:
    if len(raw) > MAX_NUMBER_CHARS:
        raise UnsafeJson(f"A number has {len(raw)} digits; at most {MAX_NUMBER_CHARS} are accepted.")
    return int(raw)


def _real(raw: str) -> float:
    if len(raw) > MAX_NUMBER_CHARS:
        raise UnsafeJson(f"A number is {len(raw)} characters long; at most {MAX_NUMBER_CHARS} are accepted.")
    value = float(raw)
    if not math.isfinite(value):
        raise UnsafeJson(f"The number {raw} is too large.")
    return value


def _constant(name: str):
    raise UnsafeJson(f"{name} is not a JSON number.")


def unstorable(text: str) -> str | None:
    """Why a database cannot keep `text`, if it cannot."""
    if _SURROGATE.search(text):
        return "contains a lone surrogate (\\ud800-\\udfff), which is not text."
    if "\x00" in text:
        return "contains the NUL character (\\u0000), which cannot be stored."
    return None


def _check_text(value: Any, where: str = "body") -> None:
    """No lone surrogate or NUL in any string or key (the depth is already bounded)."""
    if isinstance(value, str):
        problem = unstorable(value)
        if problem:
            raise UnsafeJson(f"{where} {problem}", "_schema" if where == "body" else where)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, where)
            _check_text(item, f"{key}" if where == "body" else f"{where}.{key}")
    elif isinstance(value, list):
        for n, item in enumerate(value):
            _check_text(item, f"{where}[{n}]")


def parse_body(data: bytes | str) -> Any:
    """The JSON value of a request body; UnsafeJson (or JSONDecodeError, UnicodeDecodeError) if refused."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    depth = _depth(text)
    if depth > MAX_DEPTH:
        raise UnsafeJson(f"The body is nested {depth} levels deep; at most {MAX_DEPTH} are accepted.")
    value = json.loads(text, parse_int=_integer, parse_float=_real, parse_constant=_constant)
    _check_text(value)
    return value


class JsonParser(FlaskParser):
    """webargs' Flask parser with 400 for invalid bodies and the limits above."""

    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req):
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)
        if not data:
            return core.missing
        try:
            return parse_body(data)
        except UnsafeJson as exc:
            abort(400, exc=exc, messages={"json": {exc.field: [str(exc)]}})

    def _handle_invalid_json_error(self, error, req, *args, **kwargs):
        abort(400, exc=error, messages={"json": {"_schema": ["The body is not valid JSON (UTF-8)."]}})
