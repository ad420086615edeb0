"""tests/docusaurus-site's npm packages: `npm ci` there when node_modules is missing or was
installed from another package-lock.json (a stamp in node_modules holds the lock file's hash).
About 340 MB; one to two minutes with an empty npm cache. One install at a time across test
processes (the suite makes it ahead: tests/builds_ahead.py)."""
from __future__ import annotations

import fcntl
import hashlib
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from server.ingest.build import SiteBuildError, run_node  # noqa: E402

SITE = HERE / "docusaurus-site"
LOCK = SITE / "package-lock.json"
STAMP = SITE / "node_modules" / ".textbook-chat-lock.sha256"


def install_packages(log=lambda _m: None) -> Path:
    """The site folder, its node_modules matching package-lock.json."""
    if not shutil.which("npm"):
        raise SiteBuildError("npm is needed to build the Docusaurus site (make test installs the Node tooling)")
    lock_hash = hashlib.sha256(LOCK.read_bytes()).hexdigest()
    with open(SITE / ".npm-ci.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (STAMP.is_file() and STAMP.read_text().strip() == lock_hash):
            run_node(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], SITE, log, timeout_s=900)
            STAMP.write_text(lock_hash + "\n")
    return SITE
