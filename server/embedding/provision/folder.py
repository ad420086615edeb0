"""The model folder on disk: its name, the `provenance.json` that marks it complete, and the
staging folder every route builds in before renaming it into place (atomic on one filesystem)."""
from __future__ import annotations

import json
import re
import shutil
import time
import uuid
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from server.embedding.provision.log import Log

PROVENANCE = "provenance.json"


def safe_name(model_name: str) -> str:
    """Folder name for a model id: `org/model` -> `org--model`, nothing outside [A-Za-z0-9._-]."""
    name = re.sub(r"[^A-Za-z0-9._-]", "_", model_name.strip().replace("/", "--")).lstrip(".")
    if not name:
        raise ValueError(f"cannot derive a folder name from model name {model_name!r}")
    return name


def is_provisioned(folder: Path, model_name: str) -> bool:
    """True if `folder` holds a finished provisioning of `model_name` (cheap: stats only), or the
    model's weights ship in an installed package."""
    from server.embedding.e5 import packaged

    if packaged(model_name) is not None:
        return True
    try:
        provenance = json.loads((folder / PROVENANCE).read_text(encoding="utf-8"))
        files = provenance["files"]
        if provenance.get("model") != model_name or not files:
            return False
        return all((folder / name).stat().st_size == size for name, size in files.items())
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def write_provenance(folder: Path, model_name: str, details: dict) -> None:
    files = {
        str(p.relative_to(folder)): p.stat().st_size
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != PROVENANCE
    }
    provenance = {
        "model": model_name,
        **details,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "files": files,
    }
    # Written last and via rename: its presence means the folder is complete.
    tmp = folder / f".{PROVENANCE}.tmp"
    tmp.write_text(json.dumps(provenance, indent=2) + "\n", encoding="utf-8")
    tmp.replace(folder / PROVENANCE)


def finish(model_name: str, staging: Path, target: Path, details: dict, log: Log) -> Path:
    """Mark the staging folder complete and rename it into place (atomic on one filesystem)."""
    write_provenance(staging, model_name, details)
    if target.exists():
        aside = target.with_name(f"{target.name}.rejected-{time.strftime('%Y%m%d-%H%M%S')}")
        target.rename(aside)
        log(f"moved the unusable folder {target} aside to {aside}")
    staging.rename(target)
    log(f"embedding model {model_name}: ready at {target}")
    return target


@contextmanager
def staging(models_dir: Path) -> Iterator[Path]:
    """A fresh folder beside the target (same filesystem, so the final rename is atomic)."""
    folder = models_dir / f".staging-{uuid.uuid4().hex[:12]}"
    folder.mkdir()  # unlike mkdtemp's 0700, honours the umask: the server may run as another user
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)  # gone already if it was renamed into place


def remove_stale_staging(models_dir: Path) -> None:
    """Only called under the lock: any staging folder left is from a process that died."""
    for stale in models_dir.glob(".staging-*"):
        shutil.rmtree(stale, ignore_errors=True)
