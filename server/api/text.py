"""Strings as requests carry them: what counts as white space (trimmed), and what no database
stores (refused by api/parser.py); the OpenAPI document says both."""
from __future__ import annotations

from marshmallow import fields

# What counts as white space: Python's (str.isspace, which includes the separators
# U+001C-U+001F and U+0085) and JSON Schema's `\s` (ECMAScript's, which includes U+FEFF), so
# that the documented pattern and the server agree on every string
WHITESPACE = ("\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200b)))
              + "\u2028\u2029\u202f\u205f\u3000\ufeff")
# no NUL (api/parser.py refuses it: no database stores it), and at least one character that is
# not white space
STORABLE = r"^[^\u0000]*$"
NOT_ONLY_WHITESPACE = r"^[^\u0000]*[^\s\u0000\u001c-\u001f\u0085\ufeff][^\u0000]*$"


def storable_text(self, field, ret, **kwargs) -> dict:
    """apispec: every documented string says what the parser refuses in any string."""
    if isinstance(field, fields.String) and "pattern" not in ret and "enum" not in ret:
        return {"pattern": STORABLE}
    return {}


class Trimmed(fields.String):
    """A string trimmed before validation, so "   " counts as empty."""

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        return text.strip(WHITESPACE)
