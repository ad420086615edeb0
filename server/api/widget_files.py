"""The widget's built scripts (server/static/widget*.js, made by widget/scripts/build.mjs) as
the server sends them: compressed when the browser accepts it, cached for good when asked for by
their content hash.

The build writes each script's gzip and brotli beside it (`.gz`, `.br`); a browser whose
Accept-Encoding allows brotli gets it (the smaller), else gzip, else the script as is, always
with `Vary: Accept-Encoding`. The loader (widget.js) asks for its parts by a URL with their
content hash (`widget-panel.js?v=<hash>`): such a URL never names other bytes, so it may be kept
a year (`immutable`); any other URL, the loader's own included, is kept five minutes, so that a
new deploy reaches readers within them.

A script is read once, again only when its file changes (one stat() per request). The `.gz` is
checked against the script (the two come from one build, with the `.br`): a script edited since
its build is compressed here instead, and its stale `.br` never sent.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import threading
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from flask import Request, Response

STATIC = Path(__file__).resolve().parents[1] / "static"
IMMUTABLE = "public, max-age=31536000, immutable"
SHORT = "public, max-age=300"
ENCODINGS = ("br", "gzip")  # preferred first, at equal quality
_SUFFIX = {"br": ".br", "gzip": ".gz"}


def content_hash(data: bytes) -> str:
    """The hash in a script's URL (widget/scripts/build.mjs computes the same)."""
    return hashlib.sha256(data).hexdigest()[:10]


@dataclass(frozen=True)
class Script:
    data: bytes
    hash: str
    encoded: dict[str, bytes] = field(default_factory=dict)  # "br" / "gzip" → the compressed bytes

    @classmethod
    def read(cls, path: Path) -> "Script":
        data = path.read_bytes()
        encoded: dict[str, bytes] = {}
        try:
            built = path.with_name(path.name + ".gz").read_bytes()
            fresh = gzip.decompress(built) == data
        except (OSError, EOFError, zlib.error):
            built, fresh = b"", False
        if fresh:
            encoded["gzip"] = built
            try:
                encoded["br"] = path.with_name(path.name + ".br").read_bytes()
            except OSError:
                pass
        else:  # not built with it, or edited since: gzip made here, and no brotli
            encoded["gzip"] = gzip.compress(data, compresslevel=9, mtime=0)
        return cls(data, content_hash(data), encoded)

    def response(self, request: Request) -> Response:
        encoding = self.encoding_for(request)
        response = Response(self.encoded[encoding] if encoding else self.data, mimetype="application/javascript")
        if encoding:
            response.headers["Content-Encoding"] = encoding
        response.vary.add("Accept-Encoding")
        response.headers["Cache-Control"] = IMMUTABLE if request.args.get("v") == self.hash else SHORT
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.set_etag(f"{self.hash}-{encoding or 'identity'}")
        return response.make_conditional(request)

    def encoding_for(self, request: Request) -> str | None:
        """The accepted encoding with the highest quality (brotli first at equal), if any."""
        accepted = request.accept_encodings
        offered = [(accepted[name], -rank, name) for rank, name in enumerate(ENCODINGS) if name in self.encoded]
        quality, _, name = max(offered, default=(0, 0, None))
        return name if quality > 0 else None


class Scripts:
    def __init__(self, folder: Path = STATIC):
        self.folder = folder
        self._lock = threading.Lock()
        self._read: dict[str, tuple[tuple[int, int, int], Script]] = {}

    def get(self, name: str) -> Script | None:
        """The script `name` (a file name in the folder) as built now; None when it is not there."""
        path = self.folder / name
        try:
            found = os.stat(path)
        except FileNotFoundError:
            return None
        signature = (found.st_ino, found.st_mtime_ns, found.st_size)
        kept = self._read.get(name)
        if kept is not None and kept[0] == signature:
            return kept[1]
        script = Script.read(path)
        with self._lock:
            self._read[name] = (signature, script)
        return script


SCRIPTS = Scripts()
