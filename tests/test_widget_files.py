"""The widget's scripts as the server sends them: brotli or gzip as the browser accepts (the
built `.br` / `.gz` beside each script, which decompress to it), `Vary: Accept-Encoding`, a
year's cache for a part asked for by its content hash (as the loader asks for it) and five
minutes for anything else."""
from __future__ import annotations

import gzip
import re
import subprocess

import pytest

from apps import make_settings
from server.api.widget_files import IMMUTABLE, SHORT, STATIC, content_hash
from server.app import create_app
from server.composition import Components, Index
from server.store import open_store

SCRIPTS = sorted(p.name for p in STATIC.glob("widget*.js"))


def _unbrotli(data: bytes) -> bytes:
    """Node's own brotli (the build's), as Python has none here."""
    done = subprocess.run(["node", "-e", "process.stdout.write(require('zlib').brotliDecompressSync("
                           "require('fs').readFileSync(0)))"], input=data, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


@pytest.fixture(scope="module")
def client(tmp_path_factory, embedder):
    settings = make_settings(tmp_path_factory.mktemp("widget-files") / "data")
    index = Index(embedder, open_store(settings, embedder.model_name, embedder.dim))  # empty: scripts need none
    parts = Components.build(settings, index=index)
    try:
        yield create_app(settings, components=parts).test_client()
    finally:
        parts.close()
        index.close()


def test_every_built_script_has_its_gzip_and_brotli_beside_it():
    assert {"widget.js", "widget-panel.js", "widget-insights.js"} <= set(SCRIPTS)
    for name in SCRIPTS:
        script = (STATIC / name).read_bytes()
        assert gzip.decompress((STATIC / f"{name}.gz").read_bytes()) == script, f"{name}.gz is not of {name}: make widget"
        assert _unbrotli((STATIC / f"{name}.br").read_bytes()) == script, f"{name}.br is not of {name}: make widget"


@pytest.mark.parametrize("accept, encoding", [
    ("gzip, br", "br"), ("br;q=0.8, gzip", "gzip"), ("gzip, deflate", "gzip"), ("*", "br"),
    ("", None), ("identity", None), ("gzip;q=0, br;q=0", None),
])
def test_the_loader_comes_compressed_as_accepted(client, accept, encoding):
    response = client.get("/widget.js", headers={"Accept-Encoding": accept} if accept else {})
    assert response.status_code == 200 and response.headers.get("Content-Encoding") == encoding
    assert "Accept-Encoding" in response.headers["Vary"]
    body = response.get_data()
    assert int(response.headers["Content-Length"]) == len(body)
    decoded = {"br": _unbrotli, "gzip": gzip.decompress, None: lambda data: data}[encoding](body)
    assert decoded == (STATIC / "widget.js").read_bytes()
    assert response.headers["Cache-Control"] == SHORT  # the loader's URL never changes: a new deploy within 5 min
    assert response.headers["Access-Control-Allow-Origin"] == "*"


def test_the_loader_asks_for_each_part_by_its_content_hash_which_is_kept_for_good(client):
    loader = (STATIC / "widget.js").read_text()
    for part in ("panel", "insights"):
        hashed = content_hash((STATIC / f"widget-{part}.js").read_bytes())
        assert re.search(rf'\b{part}:"{hashed}"', loader), f"widget.js does not name widget-{part}.js's hash {hashed}"
        current = client.get(f"/widget-{part}.js?v={hashed}", headers={"Accept-Encoding": "gzip"})
        assert current.headers["Cache-Control"] == IMMUTABLE and current.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(current.get_data()) == (STATIC / f"widget-{part}.js").read_bytes()
        for other in (f"/widget-{part}.js?v=0123456789", f"/widget-{part}.js"):  # an older build's hash, or none
            assert client.get(other).headers["Cache-Control"] == SHORT
        again = client.get(f"/widget-{part}.js?v={hashed}", headers={"Accept-Encoding": "gzip",
                                                                     "If-None-Match": current.headers["ETag"]})
        assert again.status_code == 304 and not again.get_data()
        brotli = client.get(f"/widget-{part}.js?v={hashed}", headers={"Accept-Encoding": "br",
                                                                      "If-None-Match": current.headers["ETag"]})
        assert brotli.status_code == 200 and brotli.headers["Content-Encoding"] == "br"  # another body, another tag


def test_every_part_the_build_makes_is_served(client):
    from server.api.routes import WIDGET_PARTS

    built = sorted(p.name[len("widget-"):-len(".js")] for p in STATIC.glob("widget-*.js"))
    assert built == sorted(WIDGET_PARTS)  # widget-ja.js was built, asked for by a Japanese page, and not served
    for part in built:
        assert client.get(f"/widget-{part}.js").status_code == 200, part
    assert client.get("/widget-fr.js").status_code == 404
