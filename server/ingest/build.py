"""Run a Docusaurus site's own build: `npm ci` when node_modules is missing, then
`npx docusaurus build` (every locale), for authors who want `ingest --build` to do it all."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Callable


class SiteBuildError(RuntimeError):
    """npm or the Docusaurus build failed; the message ends with the tail of their output."""


def _node_env(**extra: str) -> dict:
    return {**os.environ, "NO_UPDATE_NOTIFIER": "1", "npm_config_update_notifier": "false",
            "npm_config_fund": "false", "npm_config_audit": "false", **extra}


def run_node(command: list[str], cwd: Path, log: Callable[[str], None], timeout_s: int, **env: str) -> str:
    """An npm/npx command in `cwd` (quiet, with `env` added); its output, or SiteBuildError."""
    log(f"{cwd}: {' '.join(command)}")
    try:
        result = subprocess.run(command, cwd=cwd, env=_node_env(**env), capture_output=True, text=True,
                                timeout=timeout_s)
    except subprocess.TimeoutExpired as exc:
        raise SiteBuildError(f"`{' '.join(command)}` took more than {timeout_s} s") from exc
    if result.returncode != 0:
        tail = (result.stdout + "\n" + result.stderr).strip()[-3000:]
        raise SiteBuildError(f"`{' '.join(command)}` in {cwd} failed with exit code {result.returncode}:\n{tail}")
    return result.stdout


def build_site(site_dir: Path, *, out_dir: Path | None = None, log: Callable[[str], None] = lambda _m: None,
               timeout_s: int = 1800) -> Path:
    """Build the site in place and return its build folder."""
    site_dir = Path(site_dir)
    if not shutil.which("npm"):
        raise SiteBuildError("npm is not installed: install Node.js 18+ to build the site, "
                             "or build it yourself and pass --build-dir")
    if not (site_dir / "package.json").is_file():
        raise SiteBuildError(f"{site_dir}: no package.json, so there is no site build to run")
    if not (site_dir / "node_modules").is_dir():
        lock = (site_dir / "package-lock.json").is_file()
        run_node(["npm", "ci" if lock else "install", "--no-audit", "--no-fund", "--loglevel=error"],
                 site_dir, log, timeout_s)
    out = Path(out_dir) if out_dir else site_dir / "build"
    run_node(["npx", "--no-install", "docusaurus", "build", "--out-dir", str(out.resolve())], site_dir, log, timeout_s)
    return out
