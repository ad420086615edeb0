"""Real Docusaurus builds of the corpora sites, made once and cached by content.

The corpora are read-only, so a site is copied (without node_modules/, build/, .docusaurus/)
to `~/.cache/textbook-chat/sites/<name>-<content hash>` and built there with its own
package-lock.json and the product's `build_site` (`npm ci` + `npx docusaurus build`). The next
run (or the next test module) finds the stamp and reuses the build. A cold build takes a few
minutes per site and needs the npm registry; without npm the tests using it fail.

Run directly to warm the cache: `python tests/built_sites.py aibook physical-ai-i18n`.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from server.ingest.build import build_site  # noqa: E402

CORPORA = HERE.parents[1] / "shared" / "corpora"  # beside the repository, as in conftest
CACHE = Path(os.environ.get("TEXTBOOK_CHAT_SITE_CACHE", Path.home() / ".cache" / "textbook-chat" / "sites"))
_SKIP = {"node_modules", "build", ".docusaurus"}
SITES = ["aibook", "physical-ai-i18n"]  # the corpora sites that come with expected-routes.json


def expected_routes(name: str, corpora: Path = CORPORA) -> dict[str, dict]:
    """A real build's doc pages of corpora/NAME, by URL path."""
    routes = json.loads((corpora / name / "expected-routes.json").read_text(encoding="utf-8"))
    return {e["url"]: e for e in routes}


def reachable_routes(name: str, corpora: Path = CORPORA) -> dict[str, dict]:
    """The doc pages of corpora/NAME a reader can reach: those a sidebar lists (they have
    breadcrumbs). On these books the others are the starter template's tutorial pages
    (physical-ai-i18n's tutorial-basics/, tutorial-extras/), linked from no page of the book."""
    return {url: e for url, e in expected_routes(name, corpora).items() if e["breadcrumbs"]}


def path_of(url: str) -> str:
    return unquote(urlsplit(url).path)


def _content_hash(site: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site)
        if rel.parts[0] in _SKIP or not path.is_file():
            continue
        digest.update(rel.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def built_site(name: str, corpora: Path = CORPORA) -> Path:
    """The folder of a built copy of corpora/NAME (its build/ inside)."""
    source = corpora / name
    target = CACHE / f"{name}-{_content_hash(source)}"
    stamp = target / ".textbook-chat-built"
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time per site, across test processes
        if stamp.is_file():
            return target
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(source, target, ignore=shutil.ignore_patterns(*_SKIP))
        build_site(target, log=lambda m: print(m, file=sys.stderr))
        stamp.write_text("ok\n")
    return target


if __name__ == "__main__":
    for site_name in sys.argv[1:]:
        print(built_site(site_name))
